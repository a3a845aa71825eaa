"""The strength table of a variant's learned agents (docs/training.md,
"Strength"): what the guided planner gains over the plain planner at the
same thinking time and at a tenth (a fortieth) of its rollouts, and how
much of the search the policy alone has learned.

    .venv/bin/python -m bench.strength --variant free [--value FILE] [--policy FILE] [--budget 250ms] \\
        [--rollouts 200] [--blend X] [--top N] [--only NAME,...] [--pairs N] [--seed 31] [--workers 2] [--dir out/strength] \\
        [--json] [--out FILE]

``--only`` picks among equal_time, equal_time_1s, tenth_rollouts,
fortieth_rollouts, planner_4x, policy_greedy and policy_planner (default:
all).

The measurements, each a duplicate-pair tournament from the break (the
first agent's pair score, its 95% interval and pentanomial):

- ``equal_time``: ``planner:budget=B:samples=4096:value=V:prior=P``
  against ``planner:budget=B:samples=4096`` (the sample cap raised so
  that both spend their time; the networks' forward passes count in it),
  400 pairs; ``equal_time_1s``: the same at 1 s a decision, 100 pairs;
- ``tenth_rollouts`` (``fortieth_rollouts``): the guided planner at
  ``rollouts/10`` (``/40``) noisy samples a decision against the plain
  planner at ``rollouts`` (``planner:rollouts=N``: both find all their
  candidates, which ``sims=N`` would cut short at a small count), 400 pairs;
- ``planner_4x``: the plain planner at four times ``rollouts`` against
  itself at ``rollouts``, 400 pairs: what more search alone buys, the
  scale for the others;
- ``policy_greedy``: ``policy:path=P`` against greedy, 100 pairs;
- ``policy_planner``: ``policy:path=P`` against
  ``planner:budget=1s:samples=4096``, 100 pairs.

``--blend X`` gives the guided planner ``blend=X`` (the prior's weight in
its choice, docs/agents.md) and ``--top N`` ``top=N`` (how many candidates
its prior lets through); the measurements with a guided planner are then
sections ``VARIANT: NAME, blend X`` (``, top N``) with games files
``VARIANT-NAME-blendX-SEED.sqlite`` (``-topN``), the others as without them.

Games go to ``DIR/VARIANT-NAME-SEED.sqlite`` (a rerun resumes them); each
measurement is its own section of ``bench/results/strength.json``. Wall
time budgets make the games depend on the machine and its load: run one
measurement at a time, with ``--workers`` at most the cores.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.books import design
from bench.record import write as write_record

#: Name -> (pairs by default, the two agents from the value file, the
#: policy file, the budget and the rollouts).
MEASUREMENTS: dict[str, tuple[int, Callable[[str, str, str, int], tuple[str, str]]]] = {
    "equal_time": (400, lambda v, p, b, s: (f"planner:budget={b}:samples=4096:value={v}:prior={p}", f"planner:budget={b}:samples=4096")),
    "equal_time_1s": (100, lambda v, p, b, r: (f"planner:budget=1s:samples=4096:value={v}:prior={p}", "planner:budget=1s:samples=4096")),
    "tenth_rollouts": (400, lambda v, p, b, r: (f"planner:rollouts={max(1, r // 10)}:value={v}:prior={p}", f"planner:rollouts={r}")),
    "fortieth_rollouts": (400, lambda v, p, b, r: (f"planner:rollouts={max(1, r // 40)}:value={v}:prior={p}", f"planner:rollouts={r}")),
    "planner_4x": (400, lambda v, p, b, r: (f"planner:rollouts={4 * r}", f"planner:rollouts={r}")),
    "policy_greedy": (100, lambda v, p, b, s: (f"policy:path={p}", "greedy")),
    "policy_planner": (100, lambda v, p, b, s: (f"policy:path={p}", "planner:budget=1s:samples=4096")),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="free")
    ap.add_argument("--value", default="models/{variant}_value.pt", help="the value file")
    ap.add_argument("--policy", default="models/{variant}_policy.pt", help="the policy file (prior and policy alone)")
    ap.add_argument("--budget", default="250ms", help="equal_time's thinking time a decision")
    ap.add_argument("--rollouts", type=int, default=200, help="the plain planner's noisy samples a decision in *_rollouts")
    ap.add_argument("--blend", type=float, default=None,
                    help="the guided planner's blend (planner:blend=X); its sections are named 'VARIANT: NAME, blend X'")
    ap.add_argument("--top", type=int, default=None,
                    help="how many candidates the guided planner's prior lets through (planner:top=N); "
                         "its sections are named 'VARIANT: NAME, top N'")
    ap.add_argument("--only", default=",".join(MEASUREMENTS), help="measurements, comma-separated")
    ap.add_argument("--pairs", type=int, default=None, help="pairs of every measurement (default: its own)")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--dir", type=Path, default=Path("out/strength"))
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--out", type=Path, default=None, help="write the result file here instead of bench/results/strength.json")
    a = ap.parse_args(argv)
    names = [x.strip() for x in a.only.split(",") if x.strip()]
    unknown = [x for x in names if x not in MEASUREMENTS]
    if unknown or not names:
        ap.error(f"unknown measurement {', '.join(unknown) or '(none)'}; known: {', '.join(MEASUREMENTS)}")
    if a.rollouts < 40:
        ap.error(f"--rollouts must be at least 40 (a fortieth is one sample), got {a.rollouts}")
    if a.pairs is not None and a.pairs < 1:
        ap.error(f"--pairs must be at least 1, got {a.pairs}")
    if a.blend is not None and not 0 <= a.blend <= 100:
        ap.error(f"--blend must be a number from 0 to 100, got {a.blend}")
    if a.top is not None and a.top < 1:
        ap.error(f"--top must be at least 1, got {a.top}")
    # The guided planner's keys: a measurement that has a guided planner and
    # is run with them is a section and games file of its own, beside the plain one.
    keys: list[tuple[str, str]] = []
    if a.blend is not None:
        keys.append(("blend", f"{a.blend:g}"))
    if a.top is not None:
        keys.append(("top", str(a.top)))
    value, policy = (x.replace("{variant}", a.variant) for x in (a.value, a.policy))
    for f in (value, policy):
        if not Path(f).is_file():
            ap.error(f"{f}: no such file")
    a.dir.mkdir(parents=True, exist_ok=True)
    out: dict[str, Any] = {}
    for name in names:
        default_pairs, make = MEASUREMENTS[name]
        agents = make(value, policy, a.budget, a.rollouts)
        tag = suffix = ""
        if keys and ":prior=" in agents[0]:
            agents = (agents[0] + "".join(f":{k}={v}" for k, v in keys), agents[1])
            tag, suffix = "".join(f", {k} {v}" for k, v in keys), "".join(f"-{k}{v}" for k, v in keys)
        pairs = a.pairs or default_pairs
        got = design(agents, a.variant, pairs, a.seed, a.dir / f"{a.variant}-{name}{suffix}-{a.seed}.sqlite", workers=a.workers)
        row = {"agents": list(agents), "variant": a.variant, "seed": a.seed, "workers": a.workers}
        row |= {k: got[k] for k in ("pairs", "pentanomial", "score", "score_ci95", "nelo", "game_seconds")}
        out[name] = row
        write_record("strength", row, argv, out=a.out, section=f"{a.variant}: {name}{tag}")
        if not a.json:
            lo, hi = row["score_ci95"]
            print(f"{a.variant} {name}{tag}: {agents[0]} vs {agents[1]}: {row['pairs']} pairs {row['pentanomial']}, "
                  f"score {row['score']:.3f} [{lo:.3f}, {hi:.3f}]", flush=True)
    if a.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
