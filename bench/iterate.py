"""An expert-iteration run's ladder as a section of
``bench/results/iterate.json`` (docs/training.md, "Expert iteration").

    .venv/bin/python -m bench.iterate --run runs/iterate/free [--section free] \\
        [--policy FILE] [--pairs 100] [--seed 11] [--workers 2] [--dir out/iterate] [--out FILE]

The run folder's ladder, rebuilt from its stage markers
(``iterate.ladder_of``: every generation's training report, gate, anchors
and self-play, with their times, its files named relative to the working
folder), and the command that made it (``config.json``) are written; with ``--policy`` the policy alone
also plays greedy (``policy:path=FILE`` against ``greedy``, ``--pairs``
duplicate pairs from the break, games in ``DIR/SECTION-policy-SEED.sqlite``,
resumable). The section is the variant unless ``--section`` names it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from bench.books import design
from bench.record import write as write_record


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", type=Path, required=True, help="the run folder of piramida iterate")
    ap.add_argument("--section", default=None, help="the section's name (default: the run's variant)")
    ap.add_argument("--policy", default=None, help="a policy file to play greedy alone")
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--dir", type=Path, default=Path("out/iterate"))
    ap.add_argument("--out", type=Path, default=None, help="write the result file here instead of bench/results/iterate.json")
    a = ap.parse_args(argv)
    from piramida.training.iterate import BEFORE, IterateConfig, IterateError, ladder_of, shown

    try:
        made = json.loads((a.run / "config.json").read_text())
        ladder = ladder_of(IterateConfig(**(BEFORE | made["config"])), a.run)
    except (OSError, ValueError, KeyError, TypeError, IterateError) as exc:
        ap.error(f"{a.run} holds no readable iteration run (config.json and its stages: {type(exc).__name__})")
    if a.pairs < 1:
        ap.error(f"--pairs must be at least 1, got {a.pairs}")
    if a.policy is not None and not Path(a.policy).is_file():
        ap.error(f"{a.policy}: no such file")
    section = a.section or ladder["variant"]
    out: dict[str, Any] = {"run": shown(a.run), "run_command": made.get("command"),
                           "run_code_version": made.get("code_version"), "ladder": ladder}
    if a.policy is not None:
        a.dir.mkdir(parents=True, exist_ok=True)
        agents = (f"policy:path={a.policy}", "greedy")
        got = design(agents, ladder["variant"], a.pairs, a.seed, a.dir / f"{section}-policy-{a.seed}.sqlite", workers=a.workers)
        out["policy_vs_greedy"] = {"agents": list(agents), "seed": a.seed} | {
            k: got[k] for k in ("pairs", "pentanomial", "score", "score_ci95")}
        lo, hi = got["score_ci95"]
        print(f"{section}: {agents[0]} vs greedy: {got['score']:.3f} [{lo:.3f}, {hi:.3f}] over {got['pairs']} pairs")
    write_record("iterate", out, argv, out=a.out, section=section)
    print(f"{section}: champion generation {ladder['champion']} of {len(ladder['generations']) - 1}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
