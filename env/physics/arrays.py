"""Pack a Table into the flat arrays the kernels read (cached per table)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from piramida.env.physics.codes import (
    NPARAM,
    P_BF_MODEL,
    P_CUE_END_M,
    P_CUE_M,
    P_E_BALL,
    P_E_CUE,
    P_E_CUSH,
    P_G,
    P_H_CUSH,
    P_LAUNCH,
    P_M,
    P_MODEL,
    P_MU_A,
    P_MU_B,
    P_MU_BALL,
    P_MU_C,
    P_MU_CUSH,
    P_MU_R,
    P_MU_S,
    P_MU_SP,
    P_R,
    P_TMAX,
    P_YC,
)
from piramida.env.physics.models import BALL_FRICTION_MODELS, CUSHION_MODELS
from piramida.env.table import CUSHIONS, POCKETS, Table

# No real shot lasts this long; a safety net against a runaway loop.
T_MAX = 120.0


@dataclass(frozen=True)
class TableArrays:
    """Geometry and constants as arrays.

    CU (6, 9): cushion nose segments [sx, sy, ex, ey, nx, ny, tx, ty, length],
        n into the table, t the unit vector from start to end.
    JW (12, 4): jaw circles [cx, cy, r, cushion index].
    FC (12, 11): pocket facings [sx, sy, ex, ey, nx, ny, cushion, pocket, length,
        tx, ty], n towards the pocket axis, t as for CU.
    PK (6, 6): pockets [mouth x, mouth y, axis x, axis y, capture depth, mouth / 2].
    P (NPARAM,): constants, slots named in codes.py.
    """

    CU: np.ndarray
    JW: np.ndarray
    FC: np.ndarray
    PK: np.ndarray
    P: np.ndarray


# table -> arrays by identity: a Table is a frozen dataclass of nested
# dataclasses, and hashing it for the lru_cache below cost more per shot
# than packing the position.
_BY_ID: dict[int, tuple[Table, TableArrays]] = {}


def table_arrays(table: Table) -> TableArrays:
    hit = _BY_ID.get(id(table))
    if hit is not None and hit[0] is table:
        return hit[1]
    ta = _table_arrays(table)
    if len(_BY_ID) >= 64:
        _BY_ID.clear()
    _BY_ID[id(table)] = (table, ta)
    return ta


@lru_cache(maxsize=16)
def _table_arrays(table: Table) -> TableArrays:
    cus = table.cushions
    cu = []
    for c in CUSHIONS:
        (sx, sy), (ex, ey) = cus[c].start, cus[c].end
        length = math.hypot(ex - sx, ey - sy)
        cu.append([sx, sy, ex, ey, *cus[c].normal, (ex - sx) / length, (ey - sy) / length, length])
    CU = np.array(cu, dtype=np.float64)
    jw, fc, pk = [], [], []
    for pi, name in enumerate(POCKETS):
        p = table.pockets[name]
        for jaw in p.jaws:
            jw.append([jaw.centre[0], jaw.centre[1], jaw.radius, CUSHIONS.index(jaw.cushion)])
        (j1, j2) = p.jaws
        ux, uy = j2.centre[0] - j1.centre[0], j2.centre[1] - j1.centre[1]
        nu = math.hypot(ux, uy)
        ux, uy = ux / nu, uy / nu
        for k, (start, end) in enumerate(p.facings):
            nx, ny = (ux, uy) if k == 0 else (-ux, -uy)
            cush = CUSHIONS.index(p.jaws[k].cushion)
            length = math.hypot(end[0] - start[0], end[1] - start[1])
            tx, ty = (end[0] - start[0]) / length, (end[1] - start[1]) / length
            fc.append([*start, *end, nx, ny, cush, pi, length, tx, ty])
        pk.append([*p.mouth_centre, *p.axis, p.capture_depth, p.mouth / 2])
    ph = table.physics
    P = np.zeros(NPARAM)
    P[P_R] = table.ball_radius
    P[P_M] = table.ball_mass
    P[P_G] = ph.g
    P[P_MU_S] = ph.mu_s
    P[P_MU_R] = ph.mu_r
    P[P_MU_SP] = ph.mu_sp
    P[P_E_BALL] = ph.e_ball
    P[P_MU_BALL] = ph.mu_ball
    P[P_E_CUSH] = ph.e_cushion
    P[P_MU_CUSH] = ph.mu_cushion
    P[P_H_CUSH] = table.cushion_height
    P[P_CUE_M] = ph.cue_mass
    P[P_E_CUE] = ph.e_cue
    P[P_MODEL] = CUSHION_MODELS[ph.cushion_model][0]
    P[P_LAUNCH] = ph.launch_speed
    P[P_YC] = table.centre_line
    P[P_TMAX] = T_MAX
    P[P_BF_MODEL] = BALL_FRICTION_MODELS[ph.ball_friction_model]
    P[P_MU_A] = ph.mu_ball_a
    P[P_MU_B] = ph.mu_ball_b
    P[P_MU_C] = ph.mu_ball_c
    P[P_CUE_END_M] = ph.cue_end_mass
    arrs = (CU, np.array(jw, dtype=np.float64), np.array(fc, dtype=np.float64),
            np.array(pk, dtype=np.float64), P)
    for a in arrs:
        a.setflags(write=False)
    return TableArrays(*arrs)
