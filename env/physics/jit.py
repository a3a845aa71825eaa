"""The two decorators of the physics kernels.

``kernel`` is ``numba.njit(cache=True)`` without numba's reference counting
(its ``_nrt`` option): with it, every array a kernel receives and every row
``S[i]`` it slices costs an atomic increment and decrement of the array's
reference count, and that bookkeeping was 46% of the event loop's time on
a mid-game shot (docs/performance.md). A kernel compiled this way must not
allocate arrays (numba refuses to compile one that does) nor return one;
the arrays it works on belong to its caller, which outlives the call.
The few kernels that allocate their scratch arrays (loop.run,
collide.ball_ball_round and _solve_spd, batch._run_batch) keep plain
``njit(cache=True)``.
"""

from __future__ import annotations

from numba import njit

kernel = njit(cache=True, _nrt=False)  # pyright: ignore[reportCallIssue]
