"""Which of its candidates the planner chooses: what each part of the
candidate search (``agents.shots.candidates``, the planner's search) is
worth to the decisions it feeds.

The speed target of the candidate search (5 ms a decision, docs/agents.md)
is out of reach of exact changes; what is left is the search's design -
how many lines get the full treatment, which position variants, the banks
- and a change there is only worth what the planner loses when the part
is gone. This counts, over a set of positions, where the planner's chosen
shot came from:

- ``pot #k``: the k-th of the centred pots kept (``aim.pot_line``'s
  score order, best first);
- ``variant: NAME``: a position variant (``candidates.SPINS``) of one of
  the best pots (``variants_of``: which pot it varies, by the pot's
  place);
- ``bank``, ``svoyak``, ``safety``, ``break``;
- ``other``: a shot the toolbox's candidate list does not hold (the
  planner's own strokes, e.g. ``break_family`` on a rack without a book
  entry).

The planner plays at a fixed number of simulated strokes a decision
(``--sims``, reproducible on any machine), seed 0, ``pro`` noise; its
candidates are the toolbox's with the planner's search, so a chosen shot
is found among them by equality. Breaks are left out unless
``--breaks`` (their candidates are the break book's). Nothing here is
timed.

``--within NAME`` also counts the decisions whose chosen shot a narrower
search (``shots.SEARCHES``: ``wide``, ``lean``, ``greedy``) does not offer:
what narrowing the search to it would change. ``--other-seed S`` counts
the decisions whose choice changes when the planner samples with seed S
instead: how much of that is the planner's own sampling noise.

Run from the repository root::

    .venv/bin/python -m bench.planner_choices [--sims 1500] [--limit N] [--positions reference] [--breaks]
        [--within lean] [--other-seed 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections import Counter
from typing import Any

from bench.positions import SETS


def label(c: Any, rank: dict[int, int]) -> str:
    """The part of the search candidate ``c`` came from (module
    docstring); ``rank``: the kept pots' places by ``id``."""
    line = c.line
    if c.kind in ("safety", "break"):
        return c.kind
    if line is not None and line.bank is not None:
        return "bank"
    if line is not None and line.svoyak:
        return "svoyak"
    if id(c) in rank:
        return f"pot #{rank[id(c)]}"
    return f"variant: {c.spin}"


def measure(sims: int, limit: int | None = None, positions: str = "reference", breaks: bool = False,
            seed: int = 0, within: str | None = None, other_seed: int | None = None) -> dict[str, Any]:
    from bench.planner import load_positions
    from piramida.agents.planner import PlannerAgent
    from piramida.agents.policy_obs import SEARCHES
    from piramida.agents.shots import PLANNER, candidates
    from piramida.env.view import GameView

    refs = [r for r in load_positions(SETS[positions]) if breaks or not r["position"].is_break][:limit]
    planner = PlannerAgent(budget_s=None, n_sims=sims, noise="pro", seed=seed)
    other = PlannerAgent(budget_s=None, n_sims=sims, noise="pro", seed=other_seed) if other_seed is not None else None
    outside: Counter[str] = Counter()
    changed: Counter[str] = Counter()
    total: Counter[str] = Counter()
    by_variant: dict[str, Counter[str]] = {}
    offered: Counter[str] = Counter()
    varied: Counter[str] = Counter()
    for r in refs:
        pos = r["position"]
        cands = candidates(GameView.for_position(pos), "pro", PLANNER)
        kept = [c for c in cands if c.kind == "pot" and c.score is not None]
        rank = {id(c): k + 1 for k, c in enumerate(kept)}
        labels = {c.shot: label(c, rank) for c in cands}
        offered.update(labels.values())
        # A variant's line is its pot's: the pot's place by its line.
        place = {id(c.line): rank[id(c)] for c in kept}
        plan = planner.plan(GameView.for_position(pos), top=1)
        chosen = next((c for c in cands if plan and c.shot == plan[0].shot), None)
        got = labels[chosen.shot] if chosen is not None else "other"
        if chosen is not None and got.startswith("variant: "):
            varied[f"pot #{place.get(id(chosen.line), 0)}"] += 1
        total[got] += 1
        by_variant.setdefault(pos.variant, Counter())[got] += 1
        shot = plan[0].shot if plan else None
        if within is not None and not any(c.shot == shot for c in candidates(GameView.for_position(pos), "pro", SEARCHES[within])):
            outside[pos.variant] += 1
        if other is not None:
            again = other.plan(GameView.for_position(pos), top=1)
            if (again[0].shot if again else None) != shot:
                changed[pos.variant] += 1
    extra: dict[str, Any] = {}
    if within is not None:
        extra["outside"] = {"search": within, "decisions": sum(outside.values()), "by_variant": dict(outside)}
    if other is not None:
        extra["seed_changes"] = {"seed": other_seed, "decisions": sum(changed.values()), "by_variant": dict(changed)}
    return {
        "positions": len(refs),
        "position_set": positions,
        "sims": sims,
        "seed": seed,
        "breaks": breaks,
        "chosen": dict(total.most_common()),
        "offered": dict(offered.most_common()),
        "variants_of": dict(varied.most_common()),
        "by_variant": {v: dict(c.most_common()) for v, c in by_variant.items()},
        "positions_by_variant": {v: sum(c.values()) for v, c in by_variant.items()},
        **extra,
    }


def main(argv: list[str] | None = None) -> int:
    from piramida.agents.shots import SEARCHES

    given = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(prog="python -m bench.planner_choices", description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--sims", type=int, default=1500, help="simulated strokes a decision")
    ap.add_argument("--limit", type=int, default=None, help="the first N positions only")
    ap.add_argument("--positions", choices=tuple(SETS), default="reference")
    ap.add_argument("--breaks", action="store_true", help="count the break positions too")
    ap.add_argument("--within", choices=tuple(n for n in SEARCHES if n != "planner"), default=None,
                    help="also count the choices this search does not offer")
    ap.add_argument("--other-seed", type=int, default=None, help="also count the choices that change with this seed")
    ap.add_argument("--json", action="store_true", help="print the result as one JSON object")
    a = ap.parse_args(given)
    for name, value in (("--sims", a.sims), ("--limit", a.limit if a.limit is not None else 1)):
        if value < 1:
            print(f"bench.planner_choices: {name} must be at least 1, got {value}", file=sys.stderr)
            return 2
    out = measure(a.sims, a.limit, a.positions, a.breaks, within=a.within, other_seed=a.other_seed)
    from piramida.eval.version import code_version

    out["version"] = code_version()
    out["command"] = shlex.join(["python", "-m", "bench.planner_choices", *given])
    if a.json:
        print(json.dumps(out))
        return 0
    n = out["positions"]
    print(f"the planner's choice at {a.sims} simulations a decision, {n} {a.positions} positions:")
    for name, k in out["chosen"].items():
        print(f"  {name:22s} chosen {k:4d} ({100 * k / n:5.1f}%)  offered {out['offered'].get(name, 0)}")
    print("the variants chosen vary: " + ", ".join(f"{k} {v}" for k, v in out["variants_of"].items()))
    per = out["positions_by_variant"]
    for key, what in (("outside", f"not offered by the {a.within} search"), ("seed_changes", f"changed with seed {a.other_seed}")):
        if key in out:
            got = out[key]
            each = ", ".join(f"{v} {got['by_variant'].get(v, 0)}/{per[v]}" for v in per)
            print(f"choices {what}: {got['decisions']} of {n} ({each})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
