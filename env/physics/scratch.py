"""The event loop's scratch arrays, allocated by its caller (Python, or the
batch kernel) and handed in.

No kernel allocates: numba compiles ``np.empty`` / ``np.zeros`` /
``np.full`` once for every distinct signature a kernel calls them with
(the shape's type, the dtype, a literal size), and those compilations, with
the reference counting that allocating kernels need, were some 2.5 s of the
cold start (docs/performance.md). Three arrays hold every working vector
and matrix of ``loop.run`` and ``collide.ball_ball_round``; a kernel takes
a row (or a plane) as a view, which costs nothing in a kernel compiled
without reference counting.

Every working array is set before it is read, as it was when the kernels
allocated it (``np.zeros`` and ``np.full`` became loops), so the contents a
caller hands in do not matter and one set serves any number of shots with
at most its number of balls.
"""

from __future__ import annotations

import numpy as np

# Rows of the float array fw (NF, L).
F_TREF, F_DUR, F_TEND, F_TT, F_TMP, F_SI, F_SJ, F_OUT, F_PTS = 0, 1, 2, 3, 4, 5, 6, 7, 8
F_NX, F_NY, F_B, F_LAM, F_MU, F_SLIP = 9, 10, 11, 12, 13, 14
NF = 15
# Rows of the int64 array iw (NI, L); flags are 0 / 1.
I_SIDE, I_TK, I_TX, I_CI, I_CJ, I_BL, I_INV, I_ACTIVE, I_IDX, I_BALLS = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
NI = 10
# Planes of the float array mw (NM, L, L + 1): the pair times (n, n), the
# capsules (n, loop.NCAP), a round's Delassus matrix (k, k), its elimination
# matrix (k, k + 1), the round's ball states before (n, 7) and frictions (k, 3).
M_PT, M_CAP, M_A, M_ELIM, M_S0, M_F = 0, 1, 2, 3, 4, 5
NM = 6


def width(n: int) -> int:
    """L for n balls: room for every contact of a round (at most one per
    pair, plus one), every ball, and the 9 columns of a capsule."""
    return max(n * (n - 1) // 2 + 1, n, 9)


def scratch(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(fw, iw, mw) for shots of up to n balls."""
    L = width(n)
    return np.zeros((NF, L)), np.zeros((NI, L), dtype=np.int64), np.zeros((NM, L, L + 1))
