"""The event loop (numba): from struck cue ball to all balls at rest.

Leckie & Greenspan 2005 event-based scheme: every ball carries a state at
its own reference time and a closed-form motion; the loop keeps, per ball,
the next time it meets the table (cushion, jaw, facing, capture line,
centre line, or the end of its motion state) and, per pair, the next
contact time. It advances to the earliest, resolves it, and recomputes only
what involves the balls it changed.

Nothing depends on the balls' labels (their index in the arrays): every
event time is computed the same way whichever ball is i and which is j, and
ties are broken by geometry. Table events due at the same instant go first,
in order of the balls' positions (x, then y); they touch one ball each and
commute, so the order only fixes the log. All ball-ball contacts due within
TIE_T of the earliest form one round and are resolved jointly
(collide.ball_ball_round), in the canonical order of their contact points;
the contacts they close are the next round, at the same instant. A frozen
rack therefore breaks the same way however its balls are numbered.

Inputs and outputs are flat arrays (codes.py): no Python objects per event.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from piramida.env.physics.codes import (
    EV_BALL,
    EV_CENTRE,
    EV_CUE,
    EV_CUSHION,
    EV_MOTION,
    EV_OFF,
    EV_POCKET,
    NEVCOL,
    NSEGCOL,
    OFF_TABLE,
    P_LAUNCH,
    P_R,
    P_TMAX,
    P_YC,
    PART_FACING,
    PART_JAW,
    PART_SEGMENT,
    POCKETED,
    SPINNING,
    STATIONARY,
)
from piramida.env.physics.collide import ball_ball, ball_ball_round, cue_strike, cushion
from piramida.env.physics.detect import (
    capture_time,
    centre_time,
    circle_time,
    line_time,
    pair_time,
    reach,
)
from piramida.env.physics.motion import accel, classify, duration, end_state, evolve

# Table-event kinds.
K_NONE, K_TRANS, K_CUSH, K_JAW, K_FACE, K_CAPTURE, K_CENTRE = -1, 0, 1, 2, 3, 4, 5

# Status codes.
OK, EVENTS_FULL, TIME_LIMIT = 0, 1, 2

# Ball-ball contacts due within this of the earliest are one instant (s):
# at 10 m/s a ball moves 10 pm in it, a hundredth of the contact tolerance
# detect.GAP_EPS. Touching balls pushed together are due at exactly the
# same time; this only groups contacts whose times differ by rounding.
TIE_T = 1e-12


@njit(cache=True)
def _emit(ev, nev, typ, t, i, j, a, b):
    if nev >= ev.shape[0]:
        return nev + 1
    ev[nev, 0] = typ
    ev[nev, 1] = t
    ev[nev, 2] = i
    ev[nev, 3] = j
    ev[nev, 4] = a
    ev[nev, 5] = b
    return nev + 1


@njit(cache=True)
def _seg(seg, nseg, i, t, s, mode):
    if nseg >= seg.shape[0]:
        return nseg + 1
    seg[nseg, 0] = i
    seg[nseg, 1] = t
    for k in range(7):
        seg[nseg, 2 + k] = s[k]
    seg[nseg, 9] = mode
    return nseg + 1


@njit(cache=True)
def _table_next(i, T, S, mode, tref, dur, side, CU, JW, FC, PK, P, out, pts):
    """Earliest table event of ball i after global time T: (t, kind, index)."""
    m = mode[i]
    if m < 0 or m == STATIONARY:
        return math.inf, K_NONE, -1
    lo = T - tref[i]
    hi = dur[i]
    best, kind, idx = tref[i] + hi, K_TRANS, -1
    if m == SPINNING:
        return best, kind, idx
    s = S[i]
    R = P[P_R]
    ax, ay = accel(s, m, P)
    x, y = s[0] + s[2] * lo + 0.5 * ax * lo * lo, s[1] + s[3] * lo + 0.5 * ay * lo * lo
    far = reach(s, ax, ay, lo, hi) + R + 1e-6
    for c in range(CU.shape[0]):
        px, py, qx, qy, nx, ny = CU[c, 0], CU[c, 1], CU[c, 2], CU[c, 3], CU[c, 4], CU[c, 5]
        if (x - px) * nx + (y - py) * ny > far:
            continue
        t = line_time(s, ax, ay, lo, hi, px, py, qx, qy, nx, ny, R, out, pts)
        if tref[i] + t < best:
            best, kind, idx = tref[i] + t, K_CUSH, c
    for q in range(JW.shape[0]):
        cx, cy, rj = JW[q, 0], JW[q, 1], JW[q, 2]
        if math.hypot(x - cx, y - cy) - rj > far:
            continue
        t = circle_time(s, ax, ay, lo, hi, cx, cy, R + rj, out, pts)
        if tref[i] + t < best:
            best, kind, idx = tref[i] + t, K_JAW, q
    for q in range(FC.shape[0]):
        px, py, qx, qy, nx, ny = FC[q, 0], FC[q, 1], FC[q, 2], FC[q, 3], FC[q, 4], FC[q, 5]
        if math.hypot(x - px, y - py) - FC[q, 8] > far:
            continue
        t = line_time(s, ax, ay, lo, hi, px, py, qx, qy, nx, ny, R, out, pts)
        if tref[i] + t < best:
            best, kind, idx = tref[i] + t, K_FACE, q
    for p in range(PK.shape[0]):
        mx, my = PK[p, 0], PK[p, 1]
        if math.hypot(x - mx, y - my) - PK[p, 4] - PK[p, 5] > far:
            continue
        t = capture_time(s, ax, ay, lo, hi, mx, my, PK[p, 2], PK[p, 3], PK[p, 4], PK[p, 5], R, pts)
        if tref[i] + t < best:
            best, kind, idx = tref[i] + t, K_CAPTURE, p
    if side[i] == 0:
        # Exactly on the centre line: moving off it is not a crossing.
        vy = s[3] + ay * lo
        if vy != 0.0:
            side[i] = 1 if vy > 0.0 else -1
        elif ay != 0.0:
            side[i] = 1 if ay > 0.0 else -1
    if side[i] != 0:
        t = centre_time(s, ax, ay, lo, hi, P[P_YC], side[i], pts)
        if tref[i] + t < best:
            best, kind, idx = tref[i] + t, K_CENTRE, -1
    return best, kind, idx


@njit(cache=True)
def _pair_next(i, j, T, S, mode, tref, tend, P, si, sj, out, pts):
    mi, mj = mode[i], mode[j]
    if mi < 0 or mj < 0:
        return math.inf
    if mi <= SPINNING and mj <= SPINNING:
        return math.inf
    hi = min(tend[i], tend[j]) - T
    if not hi >= 0.0:
        return math.inf
    evolve(S[i], mi, T - tref[i], P, si)
    evolve(S[j], mj, T - tref[j], P, sj)
    aix, aiy = accel(S[i], mi, P)
    ajx, ajy = accel(S[j], mj, P)
    t = pair_time(si, aix, aiy, sj, ajx, ajy, hi, 2.0 * P[P_R], out, pts)
    return T + t


@njit(cache=True)
def _rebase(i, T, S, mode, tref, tmp, P):
    evolve(S[i], mode[i], T - tref[i], P, tmp)
    for k in range(7):
        S[i, k] = tmp[k]
    tref[i] = T


@njit(cache=True)
def _set_mode(i, new, T, S, mode, tref, dur, tend, P, ev, nev, seg, nseg):
    old = mode[i]
    mode[i] = new
    tref[i] = T
    if new >= 0:
        dur[i] = duration(S[i], new, P)
        tend[i] = T + dur[i]
    else:
        dur[i] = 0.0
        tend[i] = T
    if old != new and old >= 0 and new >= 0:
        nev = _emit(ev, nev, EV_MOTION, T, i, -1, old, new)
    nseg = _seg(seg, nseg, i, T, S[i], new)
    return nev, nseg


@njit(cache=True)
def _before(ax, ay, bx, by):
    """Canonical order of two points: x, then y."""
    return ax < bx or (ax == bx and ay < by)


@njit(cache=True)
def _sort_contacts(S, ci, cj, k):
    """Sort contacts 0..k-1 in place by their contact point (x, then y):
    an order from geometry alone, never from the balls' labels. Two
    contacts never share a contact point unless the balls overlap."""
    for a in range(1, k):
        i, j = ci[a], cj[a]
        x, y = S[i, 0] + S[j, 0], S[i, 1] + S[j, 1]
        q = a - 1
        while q >= 0 and _before(x, y, S[ci[q], 0] + S[cj[q], 0], S[ci[q], 1] + S[cj[q], 1]):
            ci[q + 1], cj[q + 1] = ci[q], cj[q]
            q -= 1
        ci[q + 1], cj[q + 1] = i, j


@njit(cache=True)
def _sort_balls(S, bl, nb):
    """Sort ball indices bl[0..nb-1] in place by position (x, then y)."""
    for a in range(1, nb):
        i = bl[a]
        q = a - 1
        while q >= 0 and _before(S[i, 0], S[i, 1], S[bl[q], 0], S[bl[q], 1]):
            bl[q + 1] = bl[q]
            q -= 1
        bl[q + 1] = i


@njit(cache=True)
def run(S, mode, cue, phi, theta, V, a, b, CU, JW, FC, PK, P, ev, seg):
    """Strike ball ``cue`` and run until every ball rests.

    S (n, 7) and mode (n,) are updated in place to the final state. Events
    go to ``ev`` (rows [type, t, i, j, a, b]), trajectory segments to
    ``seg``. Returns (n_events, n_segments, status)."""
    n = S.shape[0]
    R = P[P_R]
    tref = np.zeros(n)
    dur = np.zeros(n)
    tend = np.zeros(n)
    side = np.zeros(n, dtype=np.int64)
    tt = np.full(n, math.inf)
    tk = np.full(n, K_NONE, dtype=np.int64)
    tx = np.full(n, -1, dtype=np.int64)
    pt = np.full((n, n), math.inf)
    tmp = np.empty(7)
    si = np.empty(7)
    sj = np.empty(7)
    out = np.empty(8)
    pts = np.empty(8)
    nev = 0
    nseg = 0
    yc = P[P_YC]
    for i in range(n):
        if mode[i] >= 0:
            side[i] = 1 if S[i, 1] > yc else (-1 if S[i, 1] < yc else 0)
            dur[i] = duration(S[i], mode[i], P)
            tend[i] = dur[i]
            nseg = _seg(seg, nseg, i, 0.0, S[i], mode[i])
    # The stroke.
    cue_strike(S[cue], phi, theta, V, a, b, P)
    nev = _emit(ev, nev, EV_CUE, 0.0, cue, -1, 0.0, 0.0)
    nev, nseg = _set_mode(cue, classify(S[cue], R), 0.0, S, mode, tref, dur, tend, P, ev, nev, seg, nseg)
    for i in range(n):
        tt[i], tk[i], tx[i] = _table_next(i, 0.0, S, mode, tref, dur, side, CU, JW, FC, PK, P, out, pts)
    for i in range(n):
        for j in range(i + 1, n):
            pt[i, j] = _pair_next(i, j, 0.0, S, mode, tref, tend, P, si, sj, out, pts)
    T = 0.0
    status = OK
    ci = np.empty(n * (n - 1) // 2 + 1, dtype=np.int64)
    cj = np.empty(n * (n - 1) // 2 + 1, dtype=np.int64)
    bl = np.empty(n, dtype=np.int64)
    inv = np.zeros(n, dtype=np.bool_)
    while True:
        bt = math.inf
        bi = -1
        ties = 0
        for i in range(n):
            if tt[i] < bt:
                bt, bi, ties = tt[i], i, 1
            elif tt[i] == bt and bi >= 0:
                ties += 1
        bp = math.inf
        for i in range(n):
            for j in range(i + 1, n):
                if pt[i, j] < bp:
                    bp = pt[i, j]
        if bi < 0 and bp == math.inf:
            break
        best = bt if bt <= bp else bp
        if best > P[P_TMAX]:
            status = TIME_LIMIT
            break
        if bi >= 0 and bt <= bp:
            # A table event (they go first at a tie with a contact).
            if nev >= ev.shape[0] - 8 or nseg >= seg.shape[0] - 4:
                status = EVENTS_FULL
                break
            if best > T:
                T = best
            if ties > 1:
                # Several balls at once: the leftmost (then lowest) first.
                bx = by = math.inf
                for q in range(n):
                    if tt[q] == bt:
                        evolve(S[q], mode[q], T - tref[q], P, tmp)
                        if _before(tmp[0], tmp[1], bx, by):
                            bx, by, bi = tmp[0], tmp[1], q
            i = bi
            kind, idx = tk[i], tx[i]
            if kind == K_CENTRE:
                side[i] = -side[i]
                nev = _emit(ev, nev, EV_CENTRE, T, i, -1, float(side[i]), 0.0)
                tt[i], tk[i], tx[i] = _table_next(i, T, S, mode, tref, dur, side, CU, JW, FC, PK, P, out, pts)
                continue
            _rebase(i, T, S, mode, tref, tmp, P)
            if kind == K_TRANS:
                new = end_state(S[i], mode[i], P)
                nev, nseg = _set_mode(i, new, T, S, mode, tref, dur, tend, P, ev, nev, seg, nseg)
            elif kind == K_CAPTURE:
                nev = _emit(ev, nev, EV_POCKET, T, i, -1, float(idx), 0.0)
                nev, nseg = _set_mode(i, POCKETED, T, S, mode, tref, dur, tend, P, ev, nev, seg, nseg)
            else:
                s = S[i]
                if kind == K_CUSH:
                    nx, ny = CU[idx, 4], CU[idx, 5]
                    cush, part = idx, PART_SEGMENT
                elif kind == K_JAW:
                    dx, dy = s[0] - JW[idx, 0], s[1] - JW[idx, 1]
                    d = math.hypot(dx, dy)
                    nx, ny = dx / d, dy / d
                    cush, part = int(JW[idx, 3]), PART_JAW
                else:
                    nx, ny = FC[idx, 4], FC[idx, 5]
                    cush, part = int(FC[idx, 6]), PART_FACING
                vin = -(s[2] * nx + s[3] * ny)
                if part != PART_FACING and vin > P[P_LAUNCH]:
                    # Launch condition (docs/physics.md): the ball leaves the table.
                    nev = _emit(ev, nev, EV_OFF, T, i, -1, float(cush), float(part))
                    nev, nseg = _set_mode(i, OFF_TABLE, T, S, mode, tref, dur, tend, P, ev, nev, seg, nseg)
                else:
                    cushion(s, nx, ny, P)
                    nev = _emit(ev, nev, EV_CUSHION, T, i, -1, float(cush), float(part))
                    nev, nseg = _set_mode(i, classify(s, R), T, S, mode, tref, dur, tend, P, ev, nev, seg, nseg)
            bl[0] = i
            nb = 1
        else:
            # A round: every contact due at this instant, resolved jointly.
            lim = bp + TIE_T
            k = 0
            for i in range(n):
                for j in range(i + 1, n):
                    if pt[i, j] <= lim:
                        ci[k], cj[k] = i, j
                        k += 1
            nb = 0
            for c in range(k):
                for q in (ci[c], cj[c]):
                    if not inv[q]:
                        inv[q] = True
                        bl[nb] = q
                        nb += 1
            for q in range(nb):
                inv[bl[q]] = False
            if nev + 3 * k >= ev.shape[0] - 8 or nseg + nb >= seg.shape[0] - 4:
                status = EVENTS_FULL
                break
            if best > T:
                T = best
            for q in range(nb):
                _rebase(bl[q], T, S, mode, tref, tmp, P)
            if k == 1:
                ball_ball(S[ci[0]], S[cj[0]], P)
            else:
                _sort_contacts(S, ci, cj, k)
                if not ball_ball_round(S, ci, cj, k, P):
                    # Dependent contacts: one at a time, in the same order.
                    for c in range(k):
                        ball_ball(S[ci[c]], S[cj[c]], P)
            for c in range(k):
                nev = _emit(ev, nev, EV_BALL, T, ci[c], cj[c], 0.0, 0.0)
            _sort_balls(S, bl, nb)
            for q in range(nb):
                c = bl[q]
                nev, nseg = _set_mode(c, classify(S[c], R), T, S, mode, tref, dur, tend, P, ev, nev, seg, nseg)
        # Recompute what involves the changed balls (each pair once).
        for q in range(nb):
            inv[bl[q]] = True
        for q in range(nb):
            c = bl[q]
            tt[c], tk[c], tx[c] = _table_next(c, T, S, mode, tref, dur, side, CU, JW, FC, PK, P, out, pts)
            for k2 in range(n):
                if k2 == c or (inv[k2] and k2 < c):
                    continue
                a_, b_ = (k2, c) if k2 < c else (c, k2)
                pt[a_, b_] = _pair_next(a_, b_, T, S, mode, tref, tend, P, si, sj, out, pts)
        for q in range(nb):
            inv[bl[q]] = False
    # Bring every ball to the end time (all at rest unless a limit stopped us).
    for i in range(n):
        if mode[i] >= 0:
            _rebase(i, T, S, mode, tref, tmp, P)
            if status != OK and mode[i] != STATIONARY:
                for k in range(2, 7):
                    S[i, k] = 0.0
                nev, nseg = _set_mode(i, STATIONARY, T, S, mode, tref, dur, tend, P, ev, nev, seg, nseg)
    return min(nev, ev.shape[0]), min(nseg, seg.shape[0]), status


NEV_DEFAULT = 20000
NSEG_DEFAULT = 20000


def alloc(nev: int = NEV_DEFAULT, nseg: int = NSEG_DEFAULT) -> tuple[np.ndarray, np.ndarray]:
    return np.empty((nev, NEVCOL)), np.empty((nseg, NSEGCOL))
