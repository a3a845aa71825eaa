"""How ``simulate_batch`` scales from one numba thread to all of them.

Run from the repository root::

    .venv/bin/python -m bench.batch_scaling

Same seeded suites as ``bench/physics_vs_pooltool.py`` (``bench/inputs.py``);
best of 5 calls per thread count, so a busy machine shows in the spread,
not in the best.
"""

from __future__ import annotations

import time

import numba

from bench.inputs import suites
from piramida.env.physics import simulate_batch


def main() -> None:
    threads = sorted({1, numba.config.NUMBA_NUM_THREADS})
    for name, cases in suites().items():
        pos = [c.position for c in cases]
        shots = [c.shot for c in cases]
        simulate_batch(pos[:4], shots[:4])  # compile / load the kernel
        rate = {}
        for th in threads:
            numba.set_num_threads(th)
            best = min(_timed(pos, shots) for _ in range(5))
            rate[th] = len(cases) / best
        cols = "  ".join(f"{th} thread(s) {rate[th]:9.0f}/s" for th in threads)
        print(f"{name:9s} {cols}  scaling {rate[threads[-1]] / rate[1]:.2f}x")


def _timed(pos, shots) -> float:  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    simulate_batch(pos, shots)
    return time.perf_counter() - t


if __name__ == "__main__":
    main()
