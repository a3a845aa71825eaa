"""The table's playing surface as compiled code reads it: ``Table.on_surface``
(the bed, and a pocket's mouth where a ball may hang in the jaws) from
arrays of the pockets and cushions. The ghost balls of every line a search
or a next-pot estimate looks at are tested here.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from piramida.agents.shots.exact import exact_hypot
from piramida.env.table import Table

_SURFACE: dict[int, tuple[Table, tuple[np.ndarray, np.ndarray]]] = {}


def surface_arrays(table: Table) -> tuple[np.ndarray, np.ndarray]:
    """What ``Table.on_surface`` reads, as arrays for ``on_surface_at``: per
    pocket its mouth centre, axis, mouth, capture depth and two jaws
    (centre, radius); per cushion its nose segment, inward normal and
    length (``math.hypot`` here, as ``Table`` computes it)."""
    got = _SURFACE.get(id(table))
    if got is not None and got[0] is table:
        return got[1]
    pk = np.array([
        [*p.mouth_centre, *p.axis, p.mouth, p.capture_depth,
         *p.jaws[0].centre, p.jaws[0].radius, *p.jaws[1].centre, p.jaws[1].radius]
        for p in table.pockets.values()
    ])
    cu = np.array([
        [*c.start, *c.end, *c.normal, math.hypot(c.end[0] - c.start[0], c.end[1] - c.start[1])]
        for c in table.cushions.values()
    ])
    _SURFACE[id(table)] = (table, (pk, cu))
    return pk, cu


@njit(cache=True, error_model="numpy")
def on_surface_at(x, y, r, W, L, PK, CU):  # pragma: no cover - compiled
    """``Table.on_surface(x, y)`` from ``surface_arrays``: the same tests
    in the same order, the jaw distances Python's own ``math.hypot``
    (``exact.exact_hypot``), so the same answers (tests/agents/test_pot_model.py
    compares the two on points around every pocket)."""
    if not (math.isfinite(x) and math.isfinite(y)):
        return False
    eps = 1e-9
    if r - eps <= x <= W - r + eps and r - eps <= y <= L - r + eps:
        return True
    for k in range(PK.shape[0]):
        dx, dy = x - PK[k, 0], y - PK[k, 1]
        ax, ay = PK[k, 2], PK[k, 3]
        u, v = dx * ax + dy * ay, -dx * ay + dy * ax
        if u >= 0:
            inside = abs(v) <= PK[k, 4] / 2 - r + eps
        else:
            inside = abs(v) <= PK[k, 4] / 2 + PK[k, 8] and _clear_of_noses(x, y, r, CU)
        if -3 * r <= u <= PK[k, 5] and inside:
            if (
                exact_hypot(x - PK[k, 6], y - PK[k, 7]) >= r + PK[k, 8] - eps
                and exact_hypot(x - PK[k, 9], y - PK[k, 10]) >= r + PK[k, 11] - eps
            ):
                return True
    return False


@njit(cache=True, error_model="numpy")
def _clear_of_noses(x, y, r, CU):  # pragma: no cover - compiled
    """``Table._clear_of_noses``: no cushion nose within a ball radius."""
    eps = 1e-9
    for k in range(CU.shape[0]):
        sx, sy, ex, ey, nx, ny, seg = CU[k, 0], CU[k, 1], CU[k, 2], CU[k, 3], CU[k, 4], CU[k, 5], CU[k, 6]
        if (x - sx) * nx + (y - sy) * ny >= r - eps:
            continue
        s = ((x - sx) * (ex - sx) + (y - sy) * (ey - sy)) / seg
        if 0.0 <= s <= seg:
            return False
    return True


__all__ = ["on_surface_at", "surface_arrays"]
