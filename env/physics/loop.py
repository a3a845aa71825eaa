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

Most candidate events cannot happen before the ball's next event: a ball
rolling up the table meets one cushion, not six, and no jaw. Each ball's
path up to its next motion event is wrapped in a capsule, and a root
finder only runs for a target the capsule reaches (a cushion, jaw, facing,
capture line, the centre line, or another ball's capsule); see CULL below.
The culling is exact: it skips only root finders that would have found no
event, or one that cannot be the earliest, so the event log is the same
bit for bit (tests/env/physics/test_physics_culling.py).

Inputs and outputs are flat arrays (codes.py): no Python objects per event.
"""

from __future__ import annotations

import math

import numpy as np

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
)
from piramida.env.physics.jit import entry, kernel
from piramida.env.physics.motion import accel, classify, duration, end_state, evolve
from piramida.env.physics.scratch import (
    F_DUR,
    F_OUT,
    F_PTS,
    F_SI,
    F_SJ,
    F_TEND,
    F_TMP,
    F_TREF,
    F_TT,
    I_BL,
    I_CI,
    I_CJ,
    I_INV,
    I_SIDE,
    I_TK,
    I_TX,
    M_CAP,
    M_PT,
)

# Table-event kinds.
K_NONE, K_TRANS, K_CUSH, K_JAW, K_FACE, K_CAPTURE, K_CENTRE = -1, 0, 1, 2, 3, 4, 5

# Status codes.
OK, EVENTS_FULL, TIME_LIMIT = 0, 1, 2

# Ball-ball contacts due within this of the earliest are one instant (s):
# at 10 m/s a ball moves 10 pm in it, a hundredth of the contact tolerance
# detect.GAP_EPS. Touching balls pushed together are due at exactly the
# same time; this only groups contacts whose times differ by rounding.
TIE_T = 1e-12

# numba types a global Python int, and an integer literal, as a literal
# type and compiles a callee once for every literal it is passed (_emit 17
# times): 60 of the 115 compilations of a cold start. The codes and
# counters handed to the helpers below are numpy int64 scalars instead,
# which numba types as plain int64.
_I = np.int64
_NONE, _ZERO = _I(-1), _I(0)
_EV_CUE, _EV_BALL, _EV_CUSHION, _EV_POCKET = _I(EV_CUE), _I(EV_BALL), _I(EV_CUSHION), _I(EV_POCKET)
_EV_CENTRE, _EV_OFF, _EV_MOTION = _I(EV_CENTRE), _I(EV_OFF), _I(EV_MOTION)
_POCKETED, _OFF_TABLE, _STATIONARY = _I(POCKETED), _I(OFF_TABLE), _I(STATIONARY)


@kernel
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


@kernel
def _seg(seg, nseg, i, t, s, mode):
    if nseg >= seg.shape[0]:
        return nseg + 1
    seg[nseg, 0] = i
    seg[nseg, 1] = t
    for k in range(7):
        seg[nseg, 2 + k] = s[k]
    seg[nseg, 9] = mode
    return nseg + 1


# Culling (docs/performance.md): before a root finder runs, the ball's path
# over the horizon that matters is wrapped in a capsule (a segment and a
# radius, _capsule), and a target the capsule cannot reach is skipped.
# Every test is a rigorous bound of the exact geometry plus CULL metres,
# some 10^10 times the rounding of the metre-sized numbers compared, so a skipped
# root finder would have found no event, or a later one than the best found:
# culling changes no result, it only saves the work. T_SLACK (s) widens the
# time horizons for the same reason.
CULL = 1e-6
# Metres of approach over a capsule's segment below which it is not clipped
# to a line's band (_misses_line).
CLIP_DD = 1e-3
T_SLACK = 1e-9
# Capsule columns: segment ends (x0, y0), (x1, y1), radius r, and the
# capsule's bounding box xmin, xmax, ymin, ymax (the cheap first test).
NCAP = 9


@kernel
def _range(b, c, H):
    """(min, max) of q(t) = b t + c t^2 over [0, H]."""
    e = b * H + c * H * H
    qlo, qhi = min(0.0, e), max(0.0, e)
    if c != 0.0:
        ts = -b / (2.0 * c)
        if 0.0 < ts < H:
            v = -b * b / (4.0 * c)
            qlo, qhi = min(qlo, v), max(qhi, v)
    return qlo, qhi


@kernel
def _capsule(x, y, vx, vy, ax, ay, H, cap):
    """A capsule holding the path (x, y) + v t + a t^2 / 2, t in [0, H]:
    the path's bounding rectangle in the frame of its chord, as a segment
    along the chord and a radius across it."""
    dx = vx * H + 0.5 * ax * H * H
    dy = vy * H + 0.5 * ay * H * H
    L = math.sqrt(dx * dx + dy * dy)
    ux, uy = (dx / L, dy / L) if L > 0.0 else (1.0, 0.0)
    nx, ny = -uy, ux
    s0, s1 = _range(vx * ux + vy * uy, 0.5 * (ax * ux + ay * uy), H)
    w0, w1 = _range(vx * nx + vy * ny, 0.5 * (ax * nx + ay * ny), H)
    wm = 0.5 * (w0 + w1)
    cap[0] = x + s0 * ux + wm * nx
    cap[1] = y + s0 * uy + wm * ny
    cap[2] = x + s1 * ux + wm * nx
    cap[3] = y + s1 * uy + wm * ny
    cap[4] = 0.5 * (w1 - w0)
    _box(cap)


@kernel
def _box(cap):
    r = cap[4]
    cap[5] = min(cap[0], cap[2]) - r
    cap[6] = max(cap[0], cap[2]) + r
    cap[7] = min(cap[1], cap[3]) - r
    cap[8] = max(cap[1], cap[3]) + r


@kernel
def _point_capsule(cap, x, y):
    cap[0] = cap[2] = cap[5] = cap[6] = x
    cap[1] = cap[3] = cap[7] = cap[8] = y
    cap[4] = 0.0


@kernel
def _apart(cap, i, j, d):
    """True when the bounding boxes of capsules i and j are more than d
    apart along x or y."""
    return (
        cap[i, 6] + d < cap[j, 5]
        or cap[j, 6] + d < cap[i, 5]
        or cap[i, 8] + d < cap[j, 7]
        or cap[j, 8] + d < cap[i, 7]
    )


@kernel
def _pt_seg2(px, py, x0, y0, x1, y1):
    """Squared distance from a point to a segment."""
    dx, dy = x1 - x0, y1 - y0
    wx, wy = px - x0, py - y0
    L2 = dx * dx + dy * dy
    u = 0.0
    if L2 > 0.0:
        u = min(max((wx * dx + wy * dy) / L2, 0.0), 1.0)
    ex, ey = wx - u * dx, wy - u * dy
    return ex * ex + ey * ey


@kernel
def _seg_seg2(a, b):
    """Squared distance between the segments of capsules a and b (0 when
    they cross or nearly so)."""
    ax0, ay0, ax1, ay1 = a[0], a[1], a[2], a[3]
    bx0, by0, bx1, by1 = b[0], b[1], b[2], b[3]
    d1 = (bx1 - bx0) * (ay0 - by0) - (by1 - by0) * (ax0 - bx0)
    d2 = (bx1 - bx0) * (ay1 - by0) - (by1 - by0) * (ax1 - bx0)
    d3 = (ax1 - ax0) * (by0 - ay0) - (ay1 - ay0) * (bx0 - ax0)
    d4 = (ax1 - ax0) * (by1 - ay0) - (ay1 - ay0) * (bx1 - ax0)
    if d1 * d2 <= 0.0 and d3 * d4 <= 0.0:
        return 0.0
    return min(
        min(_pt_seg2(ax0, ay0, bx0, by0, bx1, by1), _pt_seg2(ax1, ay1, bx0, by0, bx1, by1)),
        min(_pt_seg2(bx0, by0, ax0, ay0, ax1, ay1), _pt_seg2(bx1, by1, ax0, ay0, ax1, ay1)),
    )


@kernel
def _misses_line(cap, px, py, nx, ny, tx, ty, length, reach_):
    """True when no point of the capsule comes within ``reach_`` of the
    line through p (unit normal n towards the table) on the table side or
    crosses it, with its projection on the tangent t within [0, length]
    of p: the region where a line contact can be found (detect.line_time,
    and capture_time with the capture line)."""
    r = cap[4]
    d0 = (cap[0] - px) * nx + (cap[1] - py) * ny
    d1 = (cap[2] - px) * nx + (cap[3] - py) * ny
    if min(d0, d1) - r > reach_ + CULL:
        return True
    # line_time projects the contact point, the centre less reach_ n.
    u0 = (cap[0] - reach_ * nx - px) * tx + (cap[1] - reach_ * ny - py) * ty
    u1 = (cap[2] - reach_ * nx - px) * tx + (cap[3] - reach_ * ny - py) * ty
    # At a contact the centre lies within r of a point of the capsule's
    # segment at most reach_ + r from the line, so the segment is clipped
    # to that part before its extent along the line is compared: a path
    # that crosses a cushion's line beyond its end, into a pocket's mouth,
    # is not searched. Only where the segment crosses the
    # band steeply (CLIP_DD) does the clip's rounding stay far below CULL.
    near = reach_ + r + CULL
    dd = d1 - d0
    if abs(dd) > CLIP_DD:
        if d0 > near:
            u0 = u0 + (near - d0) / dd * (u1 - u0)
        elif d1 > near:
            u1 = u1 + (near - d1) / dd * (u1 - u0)
    return max(u0, u1) + r < -CULL or min(u0, u1) - r > length + CULL



@kernel
def _table_next(i, T, S, mode, tref, dur, side, CU, JW, FC, PK, P, out, pts, cap):
    """Earliest table event of ball i after global time T: (t, kind, index).

    Also leaves in cap[i] a capsule holding the ball's path from T to its
    next table event other than a centre-line crossing (the events that
    change its motion), for the pair culling of pair_next."""
    m = mode[i]
    if m < 0 or m == STATIONARY:
        _point_capsule(cap[i], S[i, 0], S[i, 1])
        return math.inf, K_NONE, -1
    lo = T - tref[i]
    hi = dur[i]
    best, kind, idx = tref[i] + hi, K_TRANS, -1
    if m == SPINNING:
        _point_capsule(cap[i], S[i, 0], S[i, 1])
        return best, kind, idx
    s = S[i]
    c_ = cap[i]
    R = P[P_R]
    ax, ay = accel(s, m, P)
    x, y = s[0] + s[2] * lo + 0.5 * ax * lo * lo, s[1] + s[3] * lo + 0.5 * ay * lo * lo
    vx, vy = s[2] + ax * lo, s[3] + ay * lo
    # The path up to the best event so far; shrunk whenever one is found.
    _capsule(x, y, vx, vy, ax, ay, hi - lo + T_SLACK, c_)
    for c in range(CU.shape[0]):
        px, py, qx, qy, nx, ny = CU[c, 0], CU[c, 1], CU[c, 2], CU[c, 3], CU[c, 4], CU[c, 5]
        if _misses_line(c_, px, py, nx, ny, CU[c, 6], CU[c, 7], CU[c, 8], R):
            continue
        t = line_time(s, ax, ay, lo, hi, px, py, qx, qy, nx, ny, R, out, pts)
        if tref[i] + t < best:
            best, kind, idx = tref[i] + t, K_CUSH, c
            _capsule(x, y, vx, vy, ax, ay, t - lo + T_SLACK, c_)
    for q in range(JW.shape[0]):
        cx, cy, rj = JW[q, 0], JW[q, 1], JW[q, 2]
        rr = R + rj + CULL
        if cx + rr < c_[5] or cx - rr > c_[6] or cy + rr < c_[7] or cy - rr > c_[8]:
            continue
        if _pt_seg2(cx, cy, c_[0], c_[1], c_[2], c_[3]) > (rr + c_[4]) ** 2:
            continue
        t = circle_time(s, ax, ay, lo, hi, cx, cy, R + rj, out, pts)
        if tref[i] + t < best:
            best, kind, idx = tref[i] + t, K_JAW, q
            _capsule(x, y, vx, vy, ax, ay, t - lo + T_SLACK, c_)
    for q in range(FC.shape[0]):
        px, py, qx, qy, nx, ny = FC[q, 0], FC[q, 1], FC[q, 2], FC[q, 3], FC[q, 4], FC[q, 5]
        if _misses_line(c_, px, py, nx, ny, FC[q, 9], FC[q, 10], FC[q, 8], R):
            continue
        t = line_time(s, ax, ay, lo, hi, px, py, qx, qy, nx, ny, R, out, pts)
        if tref[i] + t < best:
            best, kind, idx = tref[i] + t, K_FACE, q
            _capsule(x, y, vx, vy, ax, ay, t - lo + T_SLACK, c_)
    for p in range(PK.shape[0]):
        # Capture: the centre passes the line ``depth`` beyond the mouth
        # (axis inwards) within half + R of the axis.
        mx, my, axx, axy, depth, half = PK[p, 0], PK[p, 1], PK[p, 2], PK[p, 3], PK[p, 4], PK[p, 5]
        lx, ly = mx + depth * axx, my + depth * axy
        if _misses_line(c_, lx - (half + R) * axy, ly + (half + R) * axx, -axx, -axy, axy, -axx,
                        2.0 * (half + R), 0.0):
            continue
        t = capture_time(s, ax, ay, lo, hi, mx, my, axx, axy, depth, half, R, pts)
        if tref[i] + t < best:
            best, kind, idx = tref[i] + t, K_CAPTURE, p
            _capsule(x, y, vx, vy, ax, ay, t - lo + T_SLACK, c_)
    # cap[i] now holds the path to the next event that changes the motion.
    if side[i] == 0:
        # Exactly on the centre line: moving off it is not a crossing.
        vy0 = s[3] + ay * lo
        if vy0 != 0.0:
            side[i] = 1 if vy0 > 0.0 else -1
        elif ay != 0.0:
            side[i] = 1 if ay > 0.0 else -1
    yc = P[P_YC]
    if side[i] != 0:
        # A crossing needs the path on the line's other side.
        if (side[i] > 0 and min(c_[1], c_[3]) - c_[4] > yc + CULL) or (
            side[i] < 0 and max(c_[1], c_[3]) + c_[4] < yc - CULL
        ):
            return best, kind, idx
        t = centre_time(s, ax, ay, lo, hi, yc, side[i], pts)
        if tref[i] + t < best:
            best, kind, idx = tref[i] + t, K_CENTRE, -1
    return best, kind, idx


@kernel
def pair_next(i, j, T, S, mode, tref, tend, P, si, sj, out, pts, cap):
    """Next contact time of balls i and j after T, or inf. Also inf when
    their capsules (_table_next) stay apart: the contact, if any, comes
    after one of the two balls' next table event, which recomputes this
    pair before the contact could be the earliest event."""
    mi, mj = mode[i], mode[j]
    if mi < 0 or mj < 0:
        return math.inf
    if mi <= SPINNING and mj <= SPINNING:
        return math.inf
    if _seg_seg2(cap[i], cap[j]) > (2.0 * P[P_R] + cap[i, 4] + cap[j, 4] + CULL) ** 2:
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


@kernel
def _rebase(i, T, S, mode, tref, tmp, P):
    evolve(S[i], mode[i], T - tref[i], P, tmp)
    for k in range(7):
        S[i, k] = tmp[k]
    tref[i] = T


@kernel
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
        nev = _emit(ev, nev, _EV_MOTION, T, i, _NONE, float(old), float(new))
    nseg = _seg(seg, nseg, i, T, S[i], new)
    return nev, nseg


@kernel
def _before(ax, ay, bx, by):
    """Canonical order of two points: x, then y."""
    return ax < bx or (ax == bx and ay < by)


@kernel
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


@kernel
def _sort_balls(S, bl, nb):
    """Sort ball indices bl[0..nb-1] in place by position (x, then y)."""
    for a in range(1, nb):
        i = bl[a]
        q = a - 1
        while q >= 0 and _before(S[i, 0], S[i, 1], S[bl[q], 0], S[bl[q], 1]):
            bl[q + 1] = bl[q]
            q -= 1
        bl[q + 1] = i


@entry
def run(S, mode, cue, phi, theta, V, a, b, CU, JW, FC, PK, P, ev, seg, fw, iw, mw):
    """Strike ball ``cue`` and run until every ball rests.

    S (n, 7) and mode (n,) are updated in place to the final state. Events
    go to ``ev`` (rows [type, t, i, j, a, b]), trajectory segments to
    ``seg``; fw, iw, mw are scratch for n balls or more (scratch.py).
    Returns (n_events, n_segments, status)."""
    n = S.shape[0]
    R = P[P_R]
    tref, dur, tend, tt = fw[F_TREF], fw[F_DUR], fw[F_TEND], fw[F_TT]
    tmp, si, sj, out, pts = fw[F_TMP], fw[F_SI], fw[F_SJ], fw[F_OUT], fw[F_PTS]
    side, tk, tx, bl, inv = iw[I_SIDE], iw[I_TK], iw[I_TX], iw[I_BL], iw[I_INV]
    ci, cj = iw[I_CI], iw[I_CJ]
    pt, cap = mw[M_PT], mw[M_CAP]
    for i in range(n):
        tref[i] = dur[i] = tend[i] = 0.0
        tt[i] = math.inf
        side[i] = inv[i] = 0
        tk[i] = K_NONE
        tx[i] = -1
        for j in range(n):
            pt[i, j] = math.inf
    nev = _ZERO
    nseg = _ZERO
    yc = P[P_YC]
    for i in range(n):
        if mode[i] >= 0:
            side[i] = 1 if S[i, 1] > yc else (-1 if S[i, 1] < yc else 0)
            dur[i] = duration(S[i], mode[i], P)
            tend[i] = dur[i]
            nseg = _seg(seg, nseg, i, 0.0, S[i], mode[i])
    # The stroke.
    cue_strike(S[cue], phi, theta, V, a, b, P)
    nev = _emit(ev, nev, _EV_CUE, 0.0, cue, _NONE, 0.0, 0.0)
    nev, nseg = _set_mode(cue, classify(S[cue], R), 0.0, S, mode, tref, dur, tend, P, ev, nev, seg, nseg)
    for i in range(n):
        tt[i], tk[i], tx[i] = _table_next(i, 0.0, S, mode, tref, dur, side, CU, JW, FC, PK, P, out, pts, cap)
    dcull = 2.0 * R + CULL
    for i in range(n):
        for j in range(i + 1, n):
            if _apart(cap, i, j, dcull):
                pt[i, j] = math.inf
            else:
                pt[i, j] = pair_next(i, j, 0.0, S, mode, tref, tend, P, si, sj, out, pts, cap)
    T = 0.0
    status = OK
    while True:
        bt = math.inf
        bi = _NONE
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
                nev = _emit(ev, nev, _EV_CENTRE, T, i, _NONE, float(side[i]), 0.0)
                tt[i], tk[i], tx[i] = _table_next(i, T, S, mode, tref, dur, side, CU, JW, FC, PK, P, out, pts, cap)
                continue
            _rebase(i, T, S, mode, tref, tmp, P)
            if kind == K_TRANS:
                new = end_state(S[i], mode[i], P)
                nev, nseg = _set_mode(i, new, T, S, mode, tref, dur, tend, P, ev, nev, seg, nseg)
            elif kind == K_CAPTURE:
                nev = _emit(ev, nev, _EV_POCKET, T, i, _NONE, float(idx), 0.0)
                nev, nseg = _set_mode(i, _POCKETED, T, S, mode, tref, dur, tend, P, ev, nev, seg, nseg)
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
                    nev = _emit(ev, nev, _EV_OFF, T, i, _NONE, float(cush), float(part))
                    nev, nseg = _set_mode(i, _OFF_TABLE, T, S, mode, tref, dur, tend, P, ev, nev, seg, nseg)
                else:
                    cushion(s, nx, ny, P)
                    nev = _emit(ev, nev, _EV_CUSHION, T, i, _NONE, float(cush), float(part))
                    nev, nseg = _set_mode(i, classify(s, R), T, S, mode, tref, dur, tend, P, ev, nev, seg, nseg)
            bl[0] = i
            nb = 1
        else:
            # A round: every contact due at this instant, resolved jointly.
            lim = bp + TIE_T
            k = _ZERO
            for i in range(n):
                for j in range(i + 1, n):
                    if pt[i, j] <= lim:
                        ci[k], cj[k] = i, j
                        k += 1
            nb = _ZERO
            for c in range(k):
                for q in (ci[c], cj[c]):
                    if inv[q] == 0:
                        inv[q] = 1
                        bl[nb] = q
                        nb += 1
            for q in range(nb):
                inv[bl[q]] = 0
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
                if not ball_ball_round(S, ci, cj, k, P, fw, iw, mw):
                    # Dependent contacts: one at a time, in the same order.
                    for c in range(k):
                        ball_ball(S[ci[c]], S[cj[c]], P)
            for c in range(k):
                nev = _emit(ev, nev, _EV_BALL, T, ci[c], cj[c], 0.0, 0.0)
            _sort_balls(S, bl, nb)
            for q in range(nb):
                c = bl[q]
                nev, nseg = _set_mode(c, classify(S[c], R), T, S, mode, tref, dur, tend, P, ev, nev, seg, nseg)
        # Recompute what involves the changed balls (each pair once).
        for q in range(nb):
            inv[bl[q]] = 1
        for q in range(nb):
            c = bl[q]
            tt[c], tk[c], tx[c] = _table_next(c, T, S, mode, tref, dur, side, CU, JW, FC, PK, P, out, pts, cap)
        # (After every changed ball's capsule is up to date.)
        for q in range(nb):
            c = bl[q]
            for k2 in range(n):
                if k2 == c or (inv[k2] != 0 and k2 < c):
                    continue
                a_, b_ = (k2, c) if k2 < c else (c, k2)
                if _apart(cap, a_, b_, dcull):
                    pt[a_, b_] = math.inf  # as pair_next's capsule test would
                else:
                    pt[a_, b_] = pair_next(a_, b_, T, S, mode, tref, tend, P, si, sj, out, pts, cap)
        for q in range(nb):
            inv[bl[q]] = 0
    # Bring every ball to the end time (all at rest unless a limit stopped us).
    for i in range(n):
        if mode[i] >= 0:
            _rebase(i, T, S, mode, tref, tmp, P)
            if status != OK and mode[i] != STATIONARY:
                for k in range(2, 7):
                    S[i, k] = 0.0
                nev, nseg = _set_mode(i, _STATIONARY, T, S, mode, tref, dur, tend, P, ev, nev, seg, nseg)
    return min(nev, ev.shape[0]), min(nseg, seg.shape[0]), status


NEV_DEFAULT = 20000
NSEG_DEFAULT = 20000


def alloc(nev: int = NEV_DEFAULT, nseg: int = NSEG_DEFAULT) -> tuple[np.ndarray, np.ndarray]:
    return np.empty((nev, NEVCOL)), np.empty((nseg, NSEGCOL))
