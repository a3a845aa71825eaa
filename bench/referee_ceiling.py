"""How much of a candidate decision is the referee's: the search timed as
it is and with every judgement replayed, side by side in one process.

``agents.shots.candidates`` has the variant's referee judge every stroke
it may keep (``Context.judge``: the outcome key, a ruling made or reused,
a pot's shape). A first pass over the positions records, per decision and
in call order, the trial each judgement gave and the outcome keys the
decision had judged legal by then (later strokes of the decision read
them). The replay hands those back in the same order, so the search takes
the same path and offers the same candidates: that is checked, shot and
feature vector, for every position, and a replayed decision that asks the
referee for a ruling or an outcome key is an error. What the replay leaves
out is the referee's judging (outcome keys, rulings, a pot's shape, the
trial made of them; its check that each candidate is a legal stroke
stays): the difference is the most that faster judging could save, and
what is left is the physics kernels and the search's own Python.

Over the 200 reference positions (``--positions played``: the played
ones), after a warm-up pass and the recording pass; each round times every
position both ways, in alternating order, and each position keeps its
fastest time each way. The recorded trials stay in memory for the run
(moved out of the garbage collector's sight, ``gc.freeze``), so the
absolute times can sit a little above ``bench.candidates``'s; the
difference between the two ways is what this measures. Nothing here is
timed against a limit.

Run from the repository root::

    .venv/bin/python -m bench.referee_ceiling [--limit N] [--rounds R] [--positions played] [--json]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from typing import Any

import numpy as np

from bench.ab import signed
from bench.positions import SETS


class ReplayError(RuntimeError):
    """A replayed decision left the recorded path."""


def measure(
    limit: int | None = None,
    noise: str = "pro",
    search: str = "planner",
    positions: str = "reference",
    rounds: int = 3,
) -> dict[str, Any]:
    import numba

    from bench.planner import load_positions
    from piramida.agents.shots import GREEDY, PLANNER, candidates
    from piramida.agents.shots.context import Context
    from piramida.env.view import GameView

    how = {"planner": PLANNER, "greedy": GREEDY}[search]
    numba.set_num_threads(1)
    views = [GameView.for_position(r["position"]) for r in load_positions(SETS[positions])[:limit]]
    judge, ruling, outcome_key = Context.judge, Context.ruling, Context.outcome_key
    said: list[list[tuple[Any, Any, dict[Any, Any]]]] = [[] for _ in views]
    at = {"position": 0, "call": 0}

    def recorded(ctx: Any, shot: Any, res: Any) -> Any:
        tr = judge(ctx, shot, res)
        said[at["position"]].append((shot, tr, dict(ctx.outcomes)))
        return tr

    def replayed(ctx: Any, shot: Any, res: Any) -> Any:
        calls = said[at["position"]]
        k = at["call"]
        if k >= len(calls) or calls[k][0] != shot:
            raise ReplayError(f"position {at['position']}: judgement {k} is not the one recorded")
        at["call"] = k + 1
        ctx.outcomes.update(calls[k][2])
        return calls[k][1]

    def asked(*_a: Any, **_k: Any) -> Any:
        raise ReplayError(f"position {at['position']}: a replayed decision asked the referee")

    def decide(k: int, replay: bool) -> tuple[float, list[Any]]:
        at["position"], at["call"] = k, 0
        fresh = GameView.for_position(views[k].position.replace())
        patched = (replayed, asked, asked) if replay else (judge, ruling, outcome_key)
        Context.judge, Context.ruling, Context.outcome_key = patched  # type: ignore[method-assign]
        try:
            t0 = time.perf_counter()
            got = candidates(fresh, noise, how)
            for c in got:
                _ = c.features
            dt = time.perf_counter() - t0
        finally:
            Context.judge, Context.ruling, Context.outcome_key = judge, ruling, outcome_key  # type: ignore[method-assign]
        return dt, got

    for k in range(len(views)):  # warm-up: kernels loaded from numba's cache
        decide(k, False)
    for k in range(len(views)):
        at["position"], at["call"] = k, 0
        Context.judge = recorded  # type: ignore[method-assign]
        try:
            candidates(GameView.for_position(views[k].position.replace()), noise, how)
        finally:
            Context.judge = judge  # type: ignore[method-assign]
    gc.collect()
    gc.freeze()
    try:
        best = {False: [float("inf")] * len(views), True: [float("inf")] * len(views)}
        for r in range(max(1, rounds)):
            for k in range(len(views)):
                got: dict[bool, list[Any]] = {}
                for replay in ((False, True) if (r + k) % 2 == 0 else (True, False)):
                    dt, got[replay] = decide(k, replay)
                    best[replay][k] = min(best[replay][k], dt)
                    if replay:
                        if at["call"] != len(said[k]):
                            raise ReplayError(f"position {k}: {len(said[k]) - at['call']} recorded judgements unused")
                if r == 0 and not same(got[False], got[True]):
                    raise ReplayError(f"position {k}: the replay offered other candidates")
    finally:
        gc.unfreeze()
    real = 1000.0 * statistics.fmean(best[False]) if views else None
    free = 1000.0 * statistics.fmean(best[True]) if views else None
    return {
        "positions": len(views),
        "rounds": max(1, rounds),
        "noise": noise,
        "search": search,
        "position_set": positions,
        "judgements_a_decision": round(statistics.fmean(len(s) for s in said), 2) if views else None,
        "mean_ms": round(real, 3) if real is not None else None,
        "replayed_mean_ms": round(free, 3) if free is not None else None,
        "referee_ms": round(real - free, 3) if real is not None and free is not None else None,
        "referee_share": round(1.0 - free / real, 3) if real and free is not None else None,
        "same_candidates": True,
    }


def same(a: list[Any], b: list[Any]) -> bool:
    """Two decisions' candidates are the same strokes with the same
    feature vectors, in the same order."""
    return len(a) == len(b) and all(
        x.shot.to_text() == y.shot.to_text() and np.array_equal(x.features, y.features) for x, y in zip(a, b, strict=True)
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.referee_ceiling", description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--limit", type=int, default=None, help="the first N positions only")
    ap.add_argument("--rounds", type=int, default=3, help="rounds; each position keeps its fastest time each way (3)")
    ap.add_argument("--noise", default="pro")
    ap.add_argument("--search", choices=("planner", "greedy"), default="planner")
    ap.add_argument("--positions", choices=tuple(SETS), default="reference")
    ap.add_argument("--json", action="store_true", help="print the JSON object only")
    a = ap.parse_args(argv)
    if a.limit is not None and a.limit < 1:
        ap.error(f"--limit must be at least 1, got {a.limit}")
    if a.rounds < 1:
        ap.error(f"--rounds must be at least 1, got {a.rounds}")
    out = measure(a.limit, a.noise, a.search, a.positions, a.rounds)
    if signed(out, "bench.referee_ceiling", list(sys.argv[1:] if argv is None else argv), a.json):
        return 0
    print(
        f"candidates ({out['search']} search, {out['positions']} {out['position_set']} positions, "
        f"{out['judgements_a_decision']} judgements a decision): {out['mean_ms']} ms a decision; "
        f"with the referee's judgements replayed: {out['replayed_mean_ms']} ms; "
        f"the referee: {out['referee_ms']} ms ({100 * (out['referee_share'] or 0):.0f}%)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
