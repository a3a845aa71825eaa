"""Shared helpers for the physics tests (imported by basename)."""

from __future__ import annotations

import math

from piramida.env.position import Position
from piramida.env.shot import Shot
from piramida.env.table import Table


def cue_speed(table: Table, V: float, a: float = 0.0, b: float = 0.0, theta: float = 0.0) -> float:
    """Ball speed right after the cue: J cos(theta) / m with
    J = (1 + e_cue) m V / (1 + m/M + 5 (a^2 + b^2) / 2) (Alciatore TP A-30)."""
    ph = table.physics
    m = table.ball_mass
    J = (1 + ph.e_cue) * m * V / (1 + m / ph.cue_mass + 2.5 * (a * a + b * b))
    return J / m * math.cos(math.radians(theta))


def one_ball(x: float, y: float, ball: str = "1") -> Position:
    return Position.from_balls("free", {ball: (x, y)})


def aim(frm: tuple[float, float], to: tuple[float, float]) -> float:
    return math.degrees(math.atan2(to[1] - frm[1], to[0] - frm[0]))


def shot(ball: str, phi: float, v: float, **kw: float) -> Shot:
    return Shot(ball, phi, v, **kw)  # type: ignore[arg-type]


def speed(s) -> float:
    return math.hypot(s[2], s[3])


# ----------------------------------------------------------------- checkers
import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from piramida.env.physics.motion import energy, evolve  # noqa: E402


@njit(cache=True)
def _states(seg, n, t, P, out, live):
    """Every ball's state at t (after events at t); live[i] = in play."""
    tmp = np.empty(7)
    for i in range(n):
        live[i] = False
    for k in range(seg.shape[0]):
        if seg[k, 1] > t:
            break
        i = int(seg[k, 0])
        mode = int(seg[k, 9])
        live[i] = mode >= 0
        if mode >= 0:
            evolve(seg[k, 2:9].copy(), mode, t - seg[k, 1], P, tmp)
            for q in range(7):
                out[i, q] = tmp[q]


@njit(cache=True)
def _clear_of_noses(x, y, R, CU, tol):
    for c in range(CU.shape[0]):
        sx, sy, ex, ey, nx, ny = CU[c, 0], CU[c, 1], CU[c, 2], CU[c, 3], CU[c, 4], CU[c, 5]
        if (x - sx) * nx + (y - sy) * ny >= R - tol:
            continue
        seg = np.hypot(ex - sx, ey - sy)
        s = ((x - sx) * (ex - sx) + (y - sy) * (ey - sy)) / seg
        if 0.0 <= s <= seg:
            return False
    return True


@njit(cache=True)
def _on_surface(x, y, W, L, R, CU, JW, PK, tol):
    """Table.on_surface with a tolerance: in the rectangle, or in a pocket
    mouth clear of the noses and jaws, or between the facings."""
    if R - tol <= x <= W - R + tol and R - tol <= y <= L - R + tol:
        return True
    for p in range(PK.shape[0]):
        mx, my, ax, ay, cd, half = PK[p, 0], PK[p, 1], PK[p, 2], PK[p, 3], PK[p, 4], PK[p, 5]
        u = (x - mx) * ax + (y - my) * ay
        v = -(x - mx) * ay + (y - my) * ax
        if u >= 0:
            inside = abs(v) <= half - R + tol
        else:
            inside = abs(v) <= half + JW[2 * p, 2] and _clear_of_noses(x, y, R, CU, tol)
        if -3 * R <= u <= cd + tol and inside:
            ok = True
            for q in range(2 * p, 2 * p + 2):
                if np.hypot(x - JW[q, 0], y - JW[q, 1]) < R + JW[q, 2] - tol:
                    ok = False
            if ok:
                return True
    return False


@njit(cache=True)
def audit(seg, n, times, P, m, W, L, CU, JW, PK):
    """(min pair gap, number of off-surface samples, max energy rise) over
    the given times; positions and energy from the closed-form segments."""
    R = P[0]
    S = np.zeros((n, 7))
    live = np.zeros(n, dtype=np.bool_)
    min_gap = np.inf
    bad = 0
    rise = 0.0
    e_prev = np.inf
    for k in range(times.shape[0]):
        t = times[k]
        _states(seg, n, t, P, S, live)
        e = 0.0
        for i in range(n):
            if not live[i]:
                continue
            e += energy(S[i], P, m)
            if not _on_surface(S[i, 0], S[i, 1], W, L, R, CU, JW, PK, 1e-7):
                bad += 1
            for j in range(i + 1, n):
                if live[j]:
                    g = np.hypot(S[i, 0] - S[j, 0], S[i, 1] - S[j, 1]) - 2 * R
                    min_gap = min(min_gap, g)
        if e - e_prev > rise:
            rise = e - e_prev
        e_prev = e
    return min_gap, bad, rise


def audit_result(r, table):
    """Audit a ShotResult at every event time and midway between them."""
    from piramida.env.physics.arrays import table_arrays

    ta = table_arrays(table)
    ts = np.array(sorted({e.t for e in r.events}))
    mids = (ts[:-1] + ts[1:]) / 2 if len(ts) > 1 else ts[:0]
    # Energy is checked on event times in order; surfaces and gaps on both.
    gap1, bad1, rise = audit(r._segments, len(r._ids), ts, r._P, table.ball_mass,
                             table.width, table.length, ta.CU, ta.JW, ta.PK)
    gap2, bad2, _ = audit(r._segments, len(r._ids), np.sort(np.concatenate([ts, mids])), r._P,
                          table.ball_mass, table.width, table.length, ta.CU, ta.JW, ta.PK)
    return min(gap1, gap2), bad1 + bad2, rise
