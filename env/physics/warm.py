"""Compile part of the physics in a second process when numba's cache is empty.

A cold start (no cached machine code: a fresh checkout, a new machine, an
edited physics module) compiles every kernel before the first shot, one
after another in one process (docs/performance.md). When ``loop.run`` has
nothing cached, the first ``simulate`` or ``simulate_batch`` of a process
starts ``python -m piramida.env.physics.warm`` beside it. That process
compiles the kernels that ``loop.run`` reaches last (JOBS: the joint
contact round, the two-ball contact, the cushion models, the pair contact
times) into the same numba cache, while this process compiles ``loop.run``
from the top; numba looks in the cache before it compiles a kernel, so
whatever the helper has finished is loaded instead of compiled, and
whatever it has not is compiled here as usual. The code is the same either
way; a helper that fails, or is slow, only takes the saving away.

On two idle cores this takes about a third off the cold start's wall time
(not its CPU time). The helper is not started when the cache is warm (one
file test), when ``PIRAMIDA_NO_WARM`` is set, when no core is free (one
core, or as many tasks ready to run as cores: on a busy machine a second
compiling process would only slow this one), or from the helper
itself; it exits when its jobs are compiled.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Any

_started = False


def _run_is_cached() -> bool:
    from piramida.env.physics.jit import is_cached
    from piramida.env.physics.loop import run

    return is_cached(run)


def runnable_now(samples: int = 5, gap_s: float = 0.004) -> int | None:
    """The fewest tasks running or ready to run over a few quick looks at
    /proc/loadavg (its fourth field counts this process too); None where
    there is no such file."""
    seen = []
    for i in range(samples):
        try:
            with open("/proc/loadavg") as f:
                seen.append(int(f.read().split()[3].split("/")[0]))
        except (OSError, ValueError, IndexError):
            return None
        if i + 1 < samples:
            time.sleep(gap_s)
    return min(seen)


def core_to_spare() -> bool:
    """More than one core, and one of them idle now.

    "Now" is what the kernel counts as runnable at this moment, not the
    1-minute load average: that average still carries the work a process
    finished seconds ago (the benchmark that measures the cold start ran
    its own shots just before and read 1.0 on an otherwise quiet machine, which turned
    the helper off and cost 5-9 s). The load average is the fallback where
    /proc/loadavg is missing."""
    cores = os.cpu_count() or 1
    if cores < 2:
        return False
    running = runnable_now()
    if running is not None:
        return running <= cores - 1  # this process is one of them
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average here: trust the core count
        load = 0.0
    return load <= cores - 1


def start() -> None:
    """Start the helper once per process if the cache is cold (docstring)."""
    global _started
    if _started:
        return
    _started = True
    if os.environ.get("PIRAMIDA_NO_WARM") or not core_to_spare() or _run_is_cached():
        return
    try:
        subprocess.Popen(
            [sys.executable, "-m", "piramida.env.physics.warm"],
            env=dict(os.environ, PIRAMIDA_NO_WARM="1"),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        pass


def jobs() -> list[tuple[Any, tuple[Any, ...]]]:
    """(kernel, argument types) as ``loop.run`` calls them, in the order the
    helper compiles them: the reverse of the order in which ``loop.run``
    first calls them, so the two processes meet in the middle.
    tests/env/physics/test_physics_warm.py checks the types against run's."""
    import numpy as np
    from numba import typeof, types

    from piramida.env.physics import collide, loop
    from piramida.env.physics.arrays import table_arrays
    from piramida.env.physics.codes import NSTATE
    from piramida.env.physics.scratch import scratch
    from piramida.env.table import Table

    P = table_arrays(Table.default()).P
    S = np.zeros((2, NSTATE))
    mode = np.zeros(2, dtype=np.int64)
    fw, iw, mw = scratch(2)
    i64, f64 = types.int64, types.float64
    row, irow, tP = typeof(fw[0]), typeof(iw[0]), typeof(P)
    return [
        (collide.ball_ball_round, (typeof(S), irow, irow, i64, tP, typeof(fw), typeof(iw), typeof(mw))),
        (collide.ball_ball, (row, row, tP)),
        (collide.cushion, (row, f64, f64, tP)),
        (loop.pair_next, (i64, i64, f64, typeof(S), typeof(mode), row, row, tP, row, row, row, row, typeof(mw[0]))),
    ]


def main() -> None:
    for disp, sig in jobs():
        disp.compile(sig)


if __name__ == "__main__":
    main()
