"""The root finding inside a stroke: how many next-event searches the event
loop makes per stroke, how many find nothing, and how many polynomial
evaluations they cost.

The event loop is compiled by numba, where nothing can be counted. Here
it runs as plain Python in a child process whose physics kernels are left
undecorated (``plain_python_physics``), over the noise-free strokes of the
candidates that ``agents.shots.candidates`` lists with the planner's search
at ``pro`` noise on the reference positions (``--positions played``: the
positions from played frames), every ``--every``-th candidate. Per stroke
it counts, by the loop's searches (``env/physics/detect.py``):

- ``line``: a ball against a cushion or a pocket facing (``line_time``),
  ``jaw`` (``circle_time``), ``capture`` (``capture_time``), ``centre``
  (``centre_time``) and ``pair`` (``pair_time``, two balls): calls, the
  ones that found no event (inf), and the polynomial evaluations
  (``roots.peval``) all of them and those ones spent;
- ``bisections``: the brackets narrowed to adjacent floats
  (``roots.bisect``) and the evaluations spent in them.

And ``same_records``: the share of strokes whose event records the plain
Python loop writes bit for bit as the compiled one does (numba rounds a
few library functions differently from CPython, ``hypot`` among them, so
a stroke may part from the compiled one in its last bits). Counts, not
times: where the compiled kernels spend their time is measured by
``bench.candidates_phases`` and ``bench.interleave``.

Run from the repository root::

    .venv/bin/python -m bench.root_work [--limit N] [--every K] [--positions played] [--json]
"""

from __future__ import annotations

import argparse
import json
import pickle
import shlex
import subprocess
import sys
import tempfile
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

from bench.positions import SETS

#: The loop's next-event searches (names in env/physics/loop.py's namespace).
SEARCHES = {
    "line": "line_time",
    "jaw": "circle_time",
    "capture": "capture_time",
    "centre": "centre_time",
    "pair": "pair_time",
}


def collect(limit: int | None, every: int, positions: str) -> tuple[list[dict[str, Any]], int]:
    """The strokes to count: each a candidate's shot from its position, with
    what the event loop takes (states at rest, the struck ball's row, the
    table's arrays) and the compiled loop's records (a CRC of them); and
    how many positions they come from."""
    import math

    import numpy as np

    from bench.planner import load_positions
    from piramida.agents.shots import PLANNER, candidates
    from piramida.env.physics.aiming import stroke
    from piramida.env.physics.simulate import Simulator
    from piramida.env.view import GameView

    out: list[dict[str, Any]] = []
    k = 0
    refs = load_positions(SETS[positions])[:limit]
    for r in refs:
        view = GameView.for_position(r["position"])
        sim = Simulator(view.position)
        for c in candidates(view, "pro", PLANNER):
            k += 1
            if (k - 1) % every:
                continue
            shot = c.shot
            inp = sim.loop_inputs(shot)
            t = inp.table
            args = (
                shot.phi, shot.v, inp.S0.copy(), inp.ids.index(shot.ball), math.radians(shot.theta), shot.a, shot.b,
                t.CU, t.JW, t.FC, t.PK, t.P,
            )
            S, mode = np.empty(inp.S0.shape), np.empty(len(inp.ids), dtype=np.int64)
            nev, _nseg, _status = stroke(args[0], args[1], args[2], S, mode, *args[3:], inp.ev, inp.seg, inp.fw,
                                         inp.iw, inp.mw)
            out.append({"args": args, "nev": int(nev), "crc": zlib.crc32(inp.ev[:nev].tobytes())})
    return out, len(refs)


def plain_python_physics() -> None:
    """Make the physics' kernels plain Python functions: before any physics
    module is imported, numba's ``njit`` and the kernel decorators of
    ``env/physics/jit.py`` return the function they are given."""
    import types

    import numba

    def njit(*a: Any, **kw: Any) -> Any:
        if a and callable(a[0]) and not kw:
            return a[0]
        return lambda f: f

    numba.njit = njit
    jit = types.ModuleType("piramida.env.physics.jit")
    jit.kernel = jit.entry = lambda f: f  # type: ignore[attr-defined]
    jit.is_cached = lambda disp: True  # type: ignore[attr-defined]
    sys.modules["piramida.env.physics.jit"] = jit


def count(strokes: list[dict[str, Any]]) -> dict[str, Any]:
    """Play ``strokes`` (``collect``'s) through the plain Python loop and
    count its searches (module docstring). Call in a process whose physics
    is plain Python (``plain_python_physics``)."""
    import numpy as np

    from piramida.env.physics import detect, loop, roots
    from piramida.env.physics.aiming import stroke
    from piramida.env.physics.loop import alloc
    from piramida.env.physics.scratch import scratch

    n = Counter()
    inside: list[str] = []

    def counted_search(kind: str, fn: Any) -> Any:
        def wrapped(*a: Any) -> Any:
            before = n[kind + " evaluations"]
            inside.append(kind)
            try:
                t = fn(*a)
            finally:
                inside.pop()
            n[kind + " calls"] += 1
            if t == float("inf"):
                n[kind + " no event"] += 1
                n[kind + " no event evaluations"] += n[kind + " evaluations"] - before
            return t

        return wrapped

    peval, bisect = roots.peval, roots.bisect
    bisecting: list[bool] = []

    def counted_peval(c: Any, t: float) -> float:
        n["evaluations"] += 1
        if inside:
            n[inside[-1] + " evaluations"] += 1
        if bisecting:
            n["evaluations in bisections"] += 1
        return peval(c, t)

    def counted_bisect(*a: Any) -> float:
        n["bisections"] += 1
        bisecting.append(True)
        try:
            return bisect(*a)
        finally:
            bisecting.pop()

    for kind, name in SEARCHES.items():
        setattr(loop, name, counted_search(kind, getattr(loop, name)))
    # detect.py evaluates a capture line itself, with roots' peval imported
    # by name: both names are counted.
    roots.peval = detect.peval = counted_peval
    roots.bisect = counted_bisect
    ev, seg = alloc()
    same = records = 0
    for s in strokes:
        phi, v, S0, cue, theta, a, b, CU, JW, FC, PK, P = s["args"]
        fw, iw, mw = scratch(S0.shape[0])
        S, mode = np.empty(S0.shape), np.empty(S0.shape[0], dtype=np.int64)
        nev, _nseg, _status = stroke(phi, v, S0, S, mode, cue, theta, a, b, CU, JW, FC, PK, P, ev, seg, fw, iw, mw)
        records += nev
        same += nev == s["nev"] and zlib.crc32(ev[:nev].tobytes()) == s["crc"]
    k = max(1, len(strokes))
    per: dict[str, Any] = {"records": round(records / k, 2)}
    for kind in SEARCHES:
        per[kind] = {
            "calls": round(n[kind + " calls"] / k, 2),
            "no_event": round(n[kind + " no event"] / k, 2),
            "evaluations": round(n[kind + " evaluations"] / k, 2),
            "no_event_evaluations": round(n[kind + " no event evaluations"] / k, 2),
        }
    per["evaluations"] = round(n["evaluations"] / k, 2)
    per["bisections"] = round(n["bisections"] / k, 2)
    per["evaluations_in_bisections"] = round(n["evaluations in bisections"] / k, 2)
    return {"strokes": len(strokes), "per_stroke": per, "same_records": round(same / k, 4)}


def measure(limit: int | None = None, every: int = 5, positions: str = "reference") -> dict[str, Any]:
    """``collect`` here, ``count`` in a child process with plain Python
    physics; the counts with how many positions they came from."""
    strokes, n_positions = collect(limit, every, positions)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "strokes.pkl"
        path.write_bytes(pickle.dumps(strokes))
        done = subprocess.run(
            [sys.executable, "-m", "bench.root_work", "--count", str(path)],
            capture_output=True, text=True, check=False,
        )
    if done.returncode != 0:
        raise RuntimeError(f"the plain Python count failed: {done.stderr.strip().splitlines()[-1:]}")
    got = json.loads(done.stdout)
    return {"position_set": positions, "positions": n_positions, "every": every, **got}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.root_work", description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--limit", type=int, default=None, help="the first N positions only")
    ap.add_argument("--every", type=int, default=5, help="every K-th candidate's stroke (default 5)")
    ap.add_argument("--positions", choices=tuple(SETS), default="reference")
    ap.add_argument("--json", action="store_true", help="print the JSON object only")
    ap.add_argument("--count", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.count:
        plain_python_physics()
        print(json.dumps(count(pickle.loads(Path(args.count).read_bytes()))))
        return 0
    if args.every < 1 or (args.limit is not None and args.limit < 1):
        ap.error("--every and --limit must be at least 1")
    from piramida.eval.version import code_version

    out = measure(args.limit, args.every, args.positions)
    out["version"] = code_version()
    out["command"] = "python -m bench.root_work " + shlex.join(argv if argv is not None else sys.argv[1:])
    if args.json:
        print(json.dumps(out))
        return 0
    per = out["per_stroke"]
    print(f"{out['strokes']} strokes ({out['position_set']} positions, every {args.every}th candidate), per stroke:")
    print(f"  records {per['records']}, polynomial evaluations {per['evaluations']} "
          f"({per['evaluations_in_bisections']} in {per['bisections']} bisections)")
    for kind in SEARCHES:
        r = per[kind]
        print(f"  {kind:8s} searches {r['calls']:6.2f}  found nothing {r['no_event']:6.2f}  "
              f"evaluations {r['evaluations']:7.2f} ({r['no_event_evaluations']:.2f} finding nothing)")
    print(f"  records the same as the compiled loop's: {out['same_records']:.1%} of strokes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
