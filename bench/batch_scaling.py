"""How ``simulate_batch`` scales from one numba thread to all of them.

Run from the repository root::

    .venv/bin/python -m bench.batch_scaling [--quick] [--json] [--out FILE]

Same seeded suites as ``bench/physics.py`` (``bench/inputs.py``); best of
5 calls per thread count (2 with ``--quick``, on the quick suites), so a
busy machine shows in the spread, not in the best. Writes
``bench/results/batch_scaling.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from bench.record import write as write_record


def run(quick: bool = False) -> dict[str, Any]:
    import numba

    from bench.inputs import suites
    from piramida.env.physics import simulate_batch

    threads = sorted({1, numba.config.NUMBA_NUM_THREADS})
    out: dict[str, Any] = {"threads": threads, "quick": quick, "suites": {}}
    for name, cases in suites(quick=quick).items():
        pos = [c.position for c in cases]
        shots = [c.shot for c in cases]
        simulate_batch(pos[:4], shots[:4])  # compile / load the kernel
        rate = {}
        for th in threads:
            numba.set_num_threads(th)
            best = min(_timed(simulate_batch, pos, shots) for _ in range(2 if quick else 5))
            rate[th] = len(cases) / best
        out["suites"][name] = {
            "shots": len(cases),
            "shots_per_s": {str(th): round(r, 1) for th, r in rate.items()},
            "scaling": round(rate[threads[-1]] / rate[1], 3),
        }
    return out


def _timed(simulate_batch, pos, shots) -> float:  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    simulate_batch(pos, shots)
    return time.perf_counter() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the quick suites, best of 2 (a smoke run)")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    ap.add_argument("--out", type=Path, default=None, help="write the result file here instead of bench/results/batch_scaling.json")
    args = ap.parse_args(argv)
    rep = run(args.quick)
    write_record("batch_scaling", rep, argv, out=args.out)
    if args.json:
        print(json.dumps(rep))
        return 0
    for name, row in rep["suites"].items():
        cols = "  ".join(f"{th} thread(s) {r:9.0f}/s" for th, r in row["shots_per_s"].items())
        print(f"{name:9s} {cols}  scaling {row['scaling']:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
