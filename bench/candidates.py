"""How long ``agents.shots.candidates`` takes: every candidate shot of a
decision, with its noise-free trial and feature vector.

Over the 200 reference positions (``bench/positions/reference.jsonl``),
one call each with the planner's search (``shots.PLANNER``; ``--search
greedy``: greedy's, ``shots.GREEDY``; ``--search lean``: ``shots.LEAN``) at ``pro`` noise, on one core (numba's threads set to one), after a warm-up
pass over every position that loads the compiled kernels (its CPU time a
call is ``warm_up_mean_cpu_ms``). Prints one JSON object::

    {"positions": 200, "mean_ms": ..., "p95_ms": ..., "mean_candidates": ...,
     "mean_cpu_ms": ..., "warm_up_mean_cpu_ms": ..., "noise": "pro",
     "by_variant_mean_ms": {...}, "version": ..., "command": ...}

``mean_ms`` and ``p95_ms`` are wall time per call; ``mean_cpu_ms`` is the
calling thread's CPU time, which is what a call costs when other jobs share
the cores (wall time then includes their turns).

Run from the repository root (or ``piramida bench candidates --json``)::

    .venv/bin/python -m bench.candidates [--json] [--limit N] [--noise pro] [--search greedy] [--out FILE]

Writes ``bench/results/candidates.json`` with one section a mode: ``timing``
(the default; ``timing_wide`` etc. with another ``--search``), ``digest``
and ``compare_python`` (below).

``--compare-python ROUNDS`` times the compiled strokes of a pot
(agents/shots/probe.py) against the same search with every stroke in
Python, side by side in one process (the order alternating per position),
so that the VM's drift does not enter the ratio.

``--digest`` prints instead a SHA-256 of every candidate (its shot as text
and its feature vector's exact floats) on the same positions with
``--search``'s search (the planner's by default) and greedy's, and how
many there were: a speed-up that must not change a single candidate keeps
the digest. ``--search wide`` gives the wide search's digests (the search
the shipped policies were trained with).

``--positions played`` uses instead 200 positions from seeded frames of
greedy against greedy (``bench/positions/played.jsonl``, played.py):
balls in the jaws, against cushions, in clusters, which the reference
positions keep away from. A change to the search is checked on both.
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench.record import write as write_record
from piramida.env.position_sets import SETS


def measure(
    limit: int | None = None, noise: str = "pro", repeats: int = 1, search: str = "planner", positions: str = "reference"
) -> dict[str, Any]:
    import numba

    from piramida.agents.policy_obs import SEARCHES
    from piramida.agents.shots import FEATURES, candidates
    from piramida.env.position_sets import load_positions
    from piramida.env.view import GameView

    how = SEARCHES[search]

    numba.set_num_threads(1)
    refs = load_positions(SETS[positions])[:limit]
    views = [GameView.for_position(r["position"]) for r in refs]
    # Warm-up: every position once, features read, untimed but for its
    # CPU time. Each compiled kernel's machine code is loaded from numba's
    # cache when it is first called (tens of milliseconds each, once a
    # process): a single warm-up call left some to the first positions
    # timed, 0.6-0.75 ms on the mean of 200.
    cold: list[float] = []
    for view in views:
        c0 = time.thread_time()
        for c in candidates(GameView.for_position(view.position.replace()), noise, how):
            _ = c.features
        cold.append((time.thread_time() - c0) * 1000.0)
    times: list[float] = []
    cpu: list[float] = []
    counts: list[int] = []
    by_variant: dict[str, list[float]] = {}
    for view in views:
        best = best_cpu = float("inf")
        n = 0
        for _ in range(max(1, repeats)):
            # A copy of the position each call: what the toolbox keeps of
            # the last position it saw (ghost.object_legs) must not carry
            # over from the warm-up or the call before.
            fresh = GameView.for_position(view.position.replace())
            t0, c0 = time.perf_counter(), time.thread_time()
            got = candidates(fresh, noise, how)
            # Features are made when first read: reading them is part of the call timed.
            n_features = sum(len(c.features) for c in got)
            best = min(best, time.perf_counter() - t0)
            best_cpu = min(best_cpu, time.thread_time() - c0)
            n = len(got)
            assert n_features == n * len(FEATURES)
        times.append(best * 1000.0)
        cpu.append(best_cpu * 1000.0)
        counts.append(n)
        by_variant.setdefault(view.variant, []).append(best * 1000.0)
    return {
        "positions": len(times),
        "mean_ms": round(statistics.fmean(times), 3) if times else None,
        "p95_ms": round(float(np.percentile(times, 95)), 3) if times else None,
        "mean_candidates": round(statistics.fmean(counts), 2) if counts else None,
        "mean_cpu_ms": round(statistics.fmean(cpu), 3) if cpu else None,
        "warm_up_mean_cpu_ms": round(statistics.fmean(cold), 3) if cold else None,
        "noise": noise,
        "search": search,
        "position_set": positions,
        "by_variant_mean_ms": {v: round(statistics.fmean(t), 3) for v, t in by_variant.items()},
    }


def compare(
    limit: int | None = None, noise: str = "pro", search: str = "planner", rounds: int = 3, positions: str = "reference"
) -> dict[str, Any]:
    """The compiled strokes (agents/shots/probe.py) against every stroke in
    Python, side by side in one process: each position is listed both ways
    in turn, the order alternating, ``rounds`` times over the positions;
    per way the mean of each position's fastest call, and the ratio of the
    two means (Python / compiled). Both ways give the same candidates
    (``--digest``, tests/agents/test_probe.py)."""
    import numba

    from piramida.agents.policy_obs import SEARCHES
    from piramida.agents.shots import candidates, probe
    from piramida.env.position_sets import load_positions
    from piramida.env.view import GameView

    how = SEARCHES[search]
    numba.set_num_threads(1)
    views = [GameView.for_position(r["position"]) for r in load_positions(SETS[positions])[:limit]]
    best = {True: [float("inf")] * len(views), False: [float("inf")] * len(views)}
    ways = (True, False)
    for way in ways:  # warm-up, both ways
        probe.COMPILED = way
        candidates(views[0], noise, how)
    try:
        for r in range(rounds):
            for i, view in enumerate(views):
                for way in ways if (i + r) % 2 == 0 else ways[::-1]:
                    probe.COMPILED = way
                    fresh = GameView.for_position(view.position.replace())
                    t0 = time.perf_counter()
                    for c in candidates(fresh, noise, how):
                        _ = c.features
                    best[way][i] = min(best[way][i], (time.perf_counter() - t0) * 1000.0)
    finally:
        probe.COMPILED = True
    fast, slow = statistics.fmean(best[True]), statistics.fmean(best[False])
    return {
        "positions": len(views),
        "rounds": rounds,
        "search": search,
        "noise": noise,
        "compiled_mean_ms": round(fast, 3),
        "python_mean_ms": round(slow, 3),
        "ratio": round(slow / fast, 3),
        "median_position_ratio": round(statistics.median(b / a for a, b in zip(best[True], best[False], strict=True)), 3),
    }


def digest(
    limit: int | None = None, noise: str = "pro", positions: str = "reference", search: str = "planner"
) -> dict[str, Any]:
    """The SHA-256 of every candidate's shot and features, ``search``'s
    and greedy's (module docstring)."""
    import hashlib

    from piramida.agents.shots import GREEDY, SEARCHES, candidates
    from piramida.env.position_sets import load_positions
    from piramida.env.view import GameView

    h = hashlib.sha256()
    n = 0
    searches = (SEARCHES[search], GREEDY) if search != "greedy" else (GREEDY,)
    for r in load_positions(SETS[positions])[:limit]:
        view = GameView.for_position(r["position"])
        for how in searches:
            for c in candidates(view, noise, how):
                h.update(c.shot.to_text().encode())
                h.update(np.asarray(c.features, dtype=np.float64).tobytes())
                n += 1
    got: dict[str, Any] = {"candidates": n, "sha256": h.hexdigest()[:16], "noise": noise}
    if search != "planner":
        got["search"] = search
    if positions != "reference":
        got["positions"] = positions
    return got


def main(argv: list[str] | None = None) -> int:
    from piramida.agents.policy_obs import SEARCHES

    ap = argparse.ArgumentParser(prog="python -m bench.candidates", description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--json", action="store_true", help="print the JSON object only")
    ap.add_argument("--limit", type=int, default=None, help="the first N positions only")
    ap.add_argument("--quick", action="store_true", help="the first 20 positions only (a smoke run)")
    ap.add_argument("--noise", default="pro")
    ap.add_argument("--repeats", type=int, default=1, help="calls per position; the fastest counts")
    ap.add_argument(
        "--search", choices=tuple(SEARCHES), default="planner",
        help="the planner's search (the default; what the target is about), the policies' lean one or greedy's",
    )
    ap.add_argument("--digest", action="store_true", help="print the digest of every candidate instead")
    ap.add_argument(
        "--positions", choices=tuple(SETS), default="reference",
        help="the reference positions (the default; what the target is about) or positions from played frames",
    )
    ap.add_argument(
        "--compare-python", type=int, default=0, metavar="ROUNDS",
        help="time the compiled strokes against every stroke in Python, side by side, ROUNDS rounds",
    )
    ap.add_argument("--out", type=Path, default=None, help="write the result file here instead of bench/results/candidates.json")
    a = ap.parse_args(argv)
    if a.quick and a.limit is None:
        a.limit = 20
    from piramida.eval.version import code_version

    def signed(got: dict[str, Any]) -> dict[str, Any]:
        # What made the figures, for a results file.
        got["version"] = code_version()
        got["command"] = shlex.join(["python", "-m", "bench.candidates", *(argv if argv is not None else sys.argv[1:])])
        return got

    if a.digest:
        got = digest(a.limit, a.noise, a.positions, a.search)
        write_record("candidates", got, argv, out=a.out, section="digest")
        print(json.dumps(signed(got)))
        return 0
    if a.compare_python:
        got = compare(a.limit, a.noise, a.search, a.compare_python, a.positions)
        write_record("candidates", got, argv, out=a.out, section="compare_python")
        print(json.dumps(signed(got)))
        return 0
    got = measure(a.limit, a.noise, a.repeats, a.search, a.positions)
    section = "timing" if a.search == "planner" else f"timing_{a.search}"
    write_record("candidates", got, argv, out=a.out, section=section)
    out = signed(got)
    if a.json:
        print(json.dumps(out))
    else:
        print(
            f"candidates: {out['positions']} positions, mean {out['mean_ms']} ms, p95 {out['p95_ms']} ms, "
            f"{out['mean_candidates']} candidates a decision; CPU {out['mean_cpu_ms']} ms a call "
            f"(noise {out['noise']}, one core)"
        )
        print("by variant (mean ms): " + ", ".join(f"{k} {v}" for k, v in out["by_variant_mean_ms"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
