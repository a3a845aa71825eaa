"""Instantaneous impact models (numba kernels): cue tip, ball-ball, cushion.

All act in place on ball states (x, y, vx, vy, wx, wy, wz). Linear vertical
velocity is always discarded: the balls stay on the cloth (no jump model);
the table absorbs that part of an impulse, which only removes energy.
"""

from __future__ import annotations

import math

import numpy as np

from piramida.env.physics.codes import (
    BF_ALCIATORE,
    MODEL_MATHAVAN2010,
    P_BF_MODEL,
    P_CUE_END_M,
    P_CUE_M,
    P_E_BALL,
    P_E_CUE,
    P_E_CUSH,
    P_H_CUSH,
    P_M,
    P_MODEL,
    P_MU_A,
    P_MU_B,
    P_MU_BALL,
    P_MU_C,
    P_MU_CUSH,
    P_MU_S,
    P_R,
)
from piramida.env.physics.jit import kernel
from piramida.env.physics.scratch import (
    F_B,
    F_LAM,
    F_MU,
    F_NX,
    F_NY,
    F_SLIP,
    I_ACTIVE,
    I_BALLS,
    I_IDX,
    M_A,
    M_ELIM,
    M_F,
    M_S0,
)

# Smallest separating normal speed left after any contact (m/s): a resting
# contact must open, or the same contact would be found again at once and
# the event loop would crawl (Zeno). It adds at most m/2 * (2 mm/s)^2, under
# 6e-7 J, to a contact that the model would leave closed.
MIN_SEPARATION = 2e-3


@kernel
def squirt_impulse(a, b, P):
    """Lateral impulse of the cue per unit axial impulse (Alciatore TP A-31,
    with top/bottom offset b): -(5/2) a sqrt(1 - a^2 - b^2) /
    (1 + m/m_e + (5/2)(1 - a^2)), m_e the cue's effective end mass. The
    tip grips the ball; the end mass alone moves sideways, and leaves with
    the lateral speed of the ball's contact point. 0 without an end mass."""
    me = P[P_CUE_END_M]
    if not me > 0.0 or a == 0.0:
        return 0.0
    c2 = max(0.0, 1.0 - a * a - b * b)
    return -2.5 * a * math.sqrt(c2) / (1.0 + P[P_M] / me + 2.5 * (1.0 - a * a))


@kernel
def cue_strike(s, phi, theta, V, a, b, P):
    """Cue tip impact on a resting ball (Alciatore TP A-30 and TP A-31;
    Leckie & Greenspan 2005, §3.1, in vector form).

    The cue moves along d = (cos theta * c, -sin theta) in the vertical plane
    of the aim c = (cos phi, sin phi); it hits the ball at Q = aR e1 + bR e3
    - sqrt(R^2 - ...) d, with e1 the cue's right and e3 its "up". The
    axial impulse J along d with restitution e_cue is
    J = (1 + e_cue) m V / (1 + m/M + 5 (a^2 + b^2) / 2). Squirt: an offset
    tip also pushes sideways, P1 = squirt_impulse(a, b) J along e1 (to the
    left of the cue for right side, a > 0), so the ball leaves at
    atan(P1 / J) to the cue line at theta = 0 (TP A-31's squirt angle at
    b = 0). With P = J d + P1 e1: v = P / m and w = Q x P / I =
    (J R / I)(a e3 - b e1) + (P1 / I)(b R d + sqrt(R^2 - ...) e3): the side
    spin is a little smaller than without squirt. The vertical part of v is
    dropped (the elevation limit of env/shot.py keeps the ball down); the
    full 3D spin is kept, so an elevated cue with side gives a masse curve.
    The axial impulse is the frictionless one (TP A-31 leaves it so)."""
    R, m = P[P_R], P[P_M]
    M, e = P[P_CUE_M], P[P_E_CUE]
    J = (1.0 + e) * m * V / (1.0 + m / M + 2.5 * (a * a + b * b))
    cp, sp = math.cos(phi), math.sin(phi)
    ct, st = math.cos(theta), math.sin(theta)
    # Table-frame unit vectors: e1 (right of the cue, horizontal),
    # e3 = perpendicular to d in the vertical plane, pointing up.
    e1x, e1y = sp, -cp
    e3x, e3y, e3z = st * cp, st * sp, ct
    inertia = 0.4 * m * R * R
    k = J * R / inertia
    s[2] = J / m * ct * cp
    s[3] = J / m * ct * sp
    s[4] = k * (a * e3x - b * e1x)
    s[5] = k * (a * e3y - b * e1y)
    s[6] = k * a * e3z
    p1 = squirt_impulse(a, b, P) * J
    if p1 != 0.0:
        cq = math.sqrt(max(0.0, 1.0 - a * a - b * b))  # |Q . d| / R
        dx, dy, dz = ct * cp, ct * sp, -st
        s[2] += p1 / m * e1x
        s[3] += p1 / m * e1y
        kq = p1 * R / inertia
        s[4] += kq * (b * dx + cq * e3x)
        s[5] += kq * (b * dy + cq * e3y)
        s[6] += kq * (b * dz + cq * e3z)


@kernel
def ball_friction(v, P):
    """Ball-ball friction coefficient at a contact whose surfaces slide past
    each other at ``v`` m/s (physics.ball_friction_model): ``constant``,
    mu_ball; ``alciatore``, mu(v) = a + b exp(-c v), Alciatore's fit (TP
    A-14, TP A-28) to Marlow's measurements of ball-ball friction against
    sliding speed (a = 9.951e-3, b = 0.108, c = 1.088 s/m in the table
    TOML): 0.118 at rest, 0.06 at 0.7 m/s, 0.01 from about 7 m/s."""
    if P[P_BF_MODEL] == BF_ALCIATORE:
        return P[P_MU_A] + P[P_MU_B] * math.exp(-P[P_MU_C] * v)
    return P[P_MU_BALL]


@kernel
def ball_ball(si, sj, P):
    """Frictional inelastic collision of two equal balls.

    Normal: Newton restitution e_ball on the line of centres. Tangential:
    Coulomb friction at the contact opposes the 3D slip of the two surfaces
    (Alciatore, "TP A-14: Throw"; the same idea as pooltool's
    frictional-inelastic model): the impulse is mu times the normal impulse,
    or less if that much would reverse the slip (the slip stops: effective
    mass m/7 for two solid spheres). mu = ball_friction(slip speed): with
    the default ``alciatore`` model a slow sliding contact grips more than a
    fast one. This gives throw and cut-induced spin. Returns the normal
    approach speed."""
    R, m = P[P_R], P[P_M]
    dx, dy = sj[0] - si[0], sj[1] - si[1]
    d = math.hypot(dx, dy)
    nx, ny = dx / d, dy / d
    vn = (si[2] - sj[2]) * nx + (si[3] - sj[3]) * ny
    if vn <= 0.0:
        vn_eff = 0.0
    else:
        vn_eff = vn
    e = P[P_E_BALL]
    jn = 0.5 * m * (1.0 + e) * vn_eff
    # Make a resting contact open so it is not found again at the same time.
    sep_after = e * vn_eff
    if sep_after < MIN_SEPARATION:
        jn += 0.5 * m * (MIN_SEPARATION - sep_after)
    # Contact-point velocities: ball i at +R n, ball j at -R n; w x n terms.
    cix = si[2] - R * si[6] * ny
    ciy = si[3] + R * si[6] * nx
    ciz = R * (si[4] * ny - si[5] * nx)
    cjx = sj[2] + R * sj[6] * ny
    cjy = sj[3] - R * sj[6] * nx
    cjz = -R * (sj[4] * ny - sj[5] * nx)
    sx, sy, sz = cix - cjx, ciy - cjy, ciz - cjz
    sdn = sx * nx + sy * ny
    sx -= sdn * nx
    sy -= sdn * ny
    slip = math.sqrt(sx * sx + sy * sy + sz * sz)
    fx = fy = fz = 0.0
    if slip > 0.0:
        f = min(ball_friction(slip, P) * jn, m * slip / 7.0)
        fx, fy, fz = -f * sx / slip, -f * sy / slip, -f * sz / slip
    # Impulse on i: -jn n + F (at +R n); on j the opposite (at -R n).
    si[2] += (-jn * nx + fx) / m
    si[3] += (-jn * ny + fy) / m
    sj[2] -= (-jn * nx + fx) / m
    sj[3] -= (-jn * ny + fy) / m
    k = 2.5 / (m * R)  # R / I
    # (R n x F) / I, the same for both balls.
    tx = ny * fz
    ty = -nx * fz
    tz = nx * fy - ny * fx
    si[4] += k * tx
    si[5] += k * ty
    si[6] += k * tz
    sj[4] += k * tx
    sj[5] += k * ty
    sj[6] += k * tz
    return vn


@kernel
def _contact_slip(si, sj, nx, ny, R, out):
    """Slip of a contact (unit normal n from ball i to ball j): the
    tangential 3D velocity of ball i's surface point against ball j's, into
    out[0:3]; returns its magnitude."""
    cix = si[2] - R * si[6] * ny
    ciy = si[3] + R * si[6] * nx
    ciz = R * (si[4] * ny - si[5] * nx)
    cjx = sj[2] + R * sj[6] * ny
    cjy = sj[3] - R * sj[6] * nx
    cjz = -R * (sj[4] * ny - sj[5] * nx)
    sx, sy, sz = cix - cjx, ciy - cjy, ciz - cjz
    sdn = sx * nx + sy * ny
    out[0] = sx - sdn * nx
    out[1] = sy - sdn * ny
    out[2] = sz
    return math.sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2])


@kernel
def _apply_friction(si, sj, nx, ny, fx, fy, fz, P):
    """Friction impulse F at the contact: +F on ball i at +R n, -F on ball j
    at -R n; the same torque R n x F on both."""
    R, m = P[P_R], P[P_M]
    si[2] += fx / m
    si[3] += fy / m
    sj[2] -= fx / m
    sj[3] -= fy / m
    k = 2.5 / (m * R)
    tx = ny * fz
    ty = -nx * fz
    tz = nx * fy - ny * fx
    si[4] += k * tx
    si[5] += k * ty
    si[6] += k * tz
    sj[4] += k * tx
    sj[5] += k * ty
    sj[6] += k * tz


@kernel
def _solve_spd(A, b, idx, na, lam, M):
    """Solve the na x na system A[idx, idx] x = b[idx] by Gaussian elimination
    without pivoting (the matrix is symmetric positive definite when the
    contacts are independent); writes x into lam[idx]. False when a pivot
    is not clearly positive (dependent contacts). M: scratch of at least
    na x (na + 1)."""
    for r in range(na):
        for c in range(na):
            M[r, c] = A[idx[r], idx[c]]
        M[r, na] = b[idx[r]]
    for p in range(na):
        piv = M[p, p]
        if not piv > 1e-9 * abs(A[idx[p], idx[p]]):
            return False
        for r in range(p + 1, na):
            f = M[r, p] / piv
            if f != 0.0:
                for c in range(p, na + 1):
                    M[r, c] -= f * M[p, c]
    for r in range(na - 1, -1, -1):
        acc = M[r, na]
        for c in range(r + 1, na):
            acc -= M[r, c] * lam[idx[c]]
        lam[idx[r]] = acc / M[r, r]
    return True


#: Sub-steps over which a round's friction follows the slip (see ball_ball_round).
ROUND_STEPS = 16


@kernel
def _kinetic(S, balls, nb, P):
    R, m = P[P_R], P[P_M]
    inertia = 0.4 * m * R * R
    e = 0.0
    for q in range(nb):
        s = S[balls[q]]
        e += 0.5 * m * (s[2] * s[2] + s[3] * s[3]) + 0.5 * inertia * (s[4] * s[4] + s[5] * s[5] + s[6] * s[6])
    return e


@kernel
def ball_ball_round(S, ci, cj, k, P, fw, iw, mw):
    """Resolve k ball-ball contacts due at the same instant jointly
    (simultaneous Newton impacts with friction).

    Contacts c = (ci[c], cj[c]) come in the loop's canonical order (by the
    contact point, never by label). Normal impulses lam >= 0 solve the
    linear complementarity problem w = A lam - b >= 0, lam . w = 0: every
    contact that pushes separates at e_ball times its approach speed (at
    least MIN_SEPARATION), one that ends up separating faster on its own
    pushes nothing. A is the contacts' Delassus matrix (1/m) n_c . n_d times
    the signs of the balls they share. Equal impacts of a symmetric rack get
    equal impulses, whatever the labels and whatever the order. Solved by
    Murty's least-index principal pivoting (finite for a positive definite
    A); False, and the states untouched, if A is singular or the pivoting
    does not settle (the caller then resolves the contacts one by one in
    the same canonical order).

    Friction follows the impact: the normal impulses are applied in
    ROUND_STEPS equal parts, and after each part every contact takes its
    share of friction at once (Jacobi), mu(v0) times its part of the normal
    impulse against its slip as it is then (v0 the contact's slip speed
    before the round, as in the pairwise model), capped at min(1, 4/K)
    times the impulse that would stop that slip alone, K the largest number
    of round contacts on the two balls of one contact. Where a ball pushes
    two others at once its slip against them can reverse during the impact
    (the apex of a rack bounces back); sub-stepping lets the friction turn
    with it. The cap keeps each friction step dissipative (the slips respond
    to the frictions through a positive semi-definite operator of norm at
    most 7K/(2m): a contact's own slip at 7/m, through a shared ball at most
    7/(2m)). For a lone contact this is the pairwise model. Should the
    round still end with more kinetic energy than it began with beyond the
    MIN_SEPARATION allowance (the frictions also move the normal
    velocities), it is replayed with half the friction, down to none.

    fw, iw, mw: scratch (scratch.py) for at least the round's balls and k
    contacts; ci and cj are not among its rows used here."""
    R, m = P[P_R], P[P_M]
    e = P[P_E_BALL]
    nx, ny, b, lam, mu, slip = fw[F_NX], fw[F_NY], fw[F_B], fw[F_LAM], fw[F_MU], fw[F_SLIP]
    active, idx, balls = iw[I_ACTIVE], iw[I_IDX], iw[I_BALLS]
    A, M, S0, F = mw[M_A], mw[M_ELIM], mw[M_S0], mw[M_F]
    for c in range(k):
        si, sj = S[ci[c]], S[cj[c]]
        dx, dy = sj[0] - si[0], sj[1] - si[1]
        d = math.hypot(dx, dy)
        nx[c], ny[c] = dx / d, dy / d
        # Closing speed u; afterwards the contact must open at e u, at
        # least MIN_SEPARATION: the push must take u + max(e u, MIN_SEP)
        # off it (a contact already opening needs less, or nothing).
        u = (si[2] - sj[2]) * nx[c] + (si[3] - sj[3]) * ny[c]
        b[c] = u + max(e * max(u, 0.0), MIN_SEPARATION)
    for c in range(k):
        for d in range(k):
            A[c, d] = 0.0
            g = 0.0
            if cj[c] == cj[d]:
                g += 1.0
            elif cj[c] == ci[d]:
                g -= 1.0
            if ci[c] == cj[d]:
                g -= 1.0
            elif ci[c] == ci[d]:
                g += 1.0
            if g != 0.0:
                A[c, d] = g * (nx[c] * nx[d] + ny[c] * ny[d]) / m
    for c in range(k):
        lam[c] = 0.0
        active[c] = 1
    scale = 0.0
    for c in range(k):
        scale = max(scale, abs(b[c]))
    done = False
    for _ in range(8 * k + 16):
        na = np.int64(0)  # not a literal: loop._I
        for c in range(k):
            lam[c] = 0.0
            if active[c] != 0:
                idx[na] = c
                na += 1
        if na > 0 and not _solve_spd(A, b, idx, na, lam, M):
            return False
        viol = -1
        for c in range(k):
            if active[c] != 0:
                if lam[c] < 0.0:
                    viol = c
                    break
            else:
                w = -b[c]
                for d in range(k):
                    w += A[c, d] * lam[d]
                if w < -1e-12 * scale:
                    viol = c
                    break
        if viol < 0:
            done = True
            break
        active[viol] = 1 - active[viol]
    if not done:
        return False
    # The round's balls in canonical order (first appearance), their states
    # before, and each contact's friction coefficient and friction cap.
    nb = np.int64(0)  # not a literal: loop._I
    for c in range(k):
        for q in (ci[c], cj[c]):
            seen = False
            for r in range(nb):
                if balls[r] == q:
                    seen = True
            if not seen:
                balls[nb] = q
                nb += 1
    for r in range(nb):
        for col in range(7):
            S0[r, col] = S[balls[r], col]
    lsum = 0.0
    for c in range(k):
        mu[c] = ball_friction(_contact_slip(S[ci[c]], S[cj[c]], nx[c], ny[c], R, slip), P)
        lsum += lam[c]
    K = 2
    for c in range(k):
        ki = 0
        kj = 0
        for d in range(k):
            if ci[d] == ci[c] or cj[d] == ci[c]:
                ki += 1
            if ci[d] == cj[c] or cj[d] == cj[c]:
                kj += 1
        K = max(K, ki + kj)
    cap = min(1.0, 4.0 / K)
    e0 = _kinetic(S, balls, nb, P)
    # Energy a round may gain: the MIN_SEPARATION top-ups (at most
    # lam * MIN_SEP / 2 each), plus rounding.
    allow = 0.5 * MIN_SEPARATION * lsum + 1e-12 * e0
    fscale = 1.0
    for attempt in range(12):
        for _step in range(ROUND_STEPS):
            for c in range(k):
                si, sj = S[ci[c]], S[cj[c]]
                q = lam[c] / ROUND_STEPS / m
                si[2] -= q * nx[c]
                si[3] -= q * ny[c]
                sj[2] += q * nx[c]
                sj[3] += q * ny[c]
            if fscale == 0.0:
                continue
            for c in range(k):
                v = _contact_slip(S[ci[c]], S[cj[c]], nx[c], ny[c], R, slip)
                F[c, 0] = F[c, 1] = F[c, 2] = 0.0
                if v > 0.0:
                    f = min(fscale * mu[c] * lam[c] / ROUND_STEPS, cap * m * v / 7.0)
                    F[c, 0], F[c, 1], F[c, 2] = -f * slip[0] / v, -f * slip[1] / v, -f * slip[2] / v
            for c in range(k):
                _apply_friction(S[ci[c]], S[cj[c]], nx[c], ny[c], F[c, 0], F[c, 1], F[c, 2], P)
        if fscale == 0.0 or _kinetic(S, balls, nb, P) <= e0 + allow:
            break
        for r in range(nb):
            for col in range(7):
                S[balls[r], col] = S0[r, col]
        fscale = 0.5 * fscale if attempt < 10 else 0.0
    return True


@kernel
def _to_local(s, nx, ny):
    # x into the cushion (-n), y along it (z x x), z up.
    xx, xy = -nx, -ny
    yx, yy = ny, -nx
    return (
        s[2] * xx + s[3] * xy,
        s[2] * yx + s[3] * yy,
        s[4] * xx + s[5] * xy,
        s[4] * yx + s[5] * yy,
        s[6],
    )


@kernel
def _from_local(s, nx, ny, vx, vy, wx, wy, wz):
    xx, xy = -nx, -ny
    yx, yy = ny, -nx
    s[2] = vx * xx + vy * yx
    s[3] = vx * xy + vy * yy
    s[4] = wx * xx + wy * yx
    s[5] = wx * xy + wy * yy
    s[6] = wz


@kernel
def han2005(s, nx, ny, P):
    """Han 2005, "Dynamics in carom and three cushion billiards", J. Mech.
    Sci. Tech. 19(4), eqs. 12-20: one impulse at the cushion contact.

    The nose at height h touches the ball at angle theta_a above its
    equator, sin theta_a = (h - R) / R. The normal impulse is
    (1 + e) m c with c = v_x cos theta_a the approach speed along the
    contact normal. Tangential: if Coulomb friction mu times the normal
    impulse can stop the contact slip s (effective mass 2m/7), it does
    (sticking); otherwise friction mu * P_N opposes s. Here s is the actual
    3D slip of the contact (the paper approximates its direction by the
    incidence angle, exact for a ball without spin). n is the unit normal
    into the table."""
    R, m = P[P_R], P[P_M]
    h = P[P_H_CUSH]
    e, mu = P[P_E_CUSH], P[P_MU_CUSH]
    st = (h - R) / R
    ct = math.sqrt(max(0.0, 1.0 - st * st))
    vx, vy, wx, wy, wz = _to_local(s, nx, ny)
    c = vx * ct
    if c <= 0.0:
        return
    # Contact slip along T1 = (sin, 0, -cos) and T2 = y.
    s1 = vx * st + R * wy
    s2 = vy + R * (wz * ct - wx * st)
    pn = (1.0 + e) * m * c
    slip = math.hypot(s1, s2)
    a_inv = m / 3.5  # 1 / A with A = 7 / (2 m)
    if slip * a_inv <= mu * pn:
        f1, f2 = -s1 * a_inv, -s2 * a_inv
    elif slip > 0.0:
        f1, f2 = -mu * pn * s1 / slip, -mu * pn * s2 / slip
    else:
        f1 = f2 = 0.0
    # Impulse: -pn (ct, 0, st) + f1 (st, 0, -ct) + f2 (0, 1, 0).
    px = -pn * ct + f1 * st
    py = f2
    k = 2.5 / (m * R)  # R / I
    vx += px / m
    vy += py / m
    # r_I x P / I with r_I = R (ct, 0, st).
    wx += k * (-f2 * st)
    wy += k * f1
    wz += k * (f2 * ct)
    _from_local(s, nx, ny, vx, vy, wx, wy, wz)


@kernel
def mathavan2010(s, nx, ny, P):
    """Mathavan, Jackson & Parkin 2010, "A theoretical analysis of billiard
    ball dynamics under cushion impacts", Proc. IMechE C 224, eqs. 12-17.

    The impact is integrated over the normal impulse in small steps with
    sliding at both the cushion contact I (friction mu_cushion) and the
    table contact C (friction mu_s); compression ends when the normal speed
    reaches zero, restitution when the work done at I reaches e^2 times the
    compression work. Written in the paper's frame: y into the cushion, x
    along it."""
    R, m = P[P_R], P[P_M]
    h = P[P_H_CUSH]
    e, mu_w, mu_s = P[P_E_CUSH], P[P_MU_CUSH], P[P_MU_S]
    st = (h - R) / R
    ct = math.sqrt(max(0.0, 1.0 - st * st))
    lx, ly, lwx, lwy, lwz = _to_local(s, nx, ny)
    # Paper frame: y_p = our x (into cushion), x_p = -our y.
    vx, vy = -ly, lx
    wx, wy, wz = -lwy, lwx, lwz
    if vy <= 0.0:
        return
    nsteps = 400
    dp = m * vy / nsteps
    k = 2.5 / (m * R)
    work_c = 0.0
    work = 0.0
    phase = 0
    target = 0.0
    for _ in range(20 * nsteps):
        xi = vx + wy * R * st - wz * R * ct
        yi = -vy * st + wx * R
        xc = vx - wy * R
        yc = vy + wx * R
        si = math.hypot(xi, yi)
        sc = math.hypot(xc, yc)
        ci, sn_i = (xi / si, yi / si) if si > 0.0 else (0.0, 0.0)
        cc, sn_c = (xc / sc, yc / sc) if sc > 0.0 else (0.0, 0.0)
        step = dp
        if phase == 1:
            dw = step * abs(vy) * ct
            if work + dw > target:
                step = (target - work) / max(abs(vy) * ct, 1e-12)
        q = st + mu_w * sn_i * ct
        dvx = -(mu_w * ci + mu_s * cc * q) * step / m
        dvy = -(ct - mu_w * st * sn_i + mu_s * sn_c * q) * step / m
        dwx = -k * (mu_w * sn_i + mu_s * sn_c * q) * step
        dwy = -k * (mu_w * ci * st - mu_s * cc * q) * step
        dwz = k * (mu_w * ci * ct) * step
        if phase == 0 and vy + dvy <= 0.0:
            # Finish compression exactly at zero normal speed.
            frac = vy / (-dvy) if dvy < 0.0 else 1.0
            vx += frac * dvx
            wx += frac * dwx
            wy += frac * dwy
            wz += frac * dwz
            work_c += frac * step * abs(vy) * ct * 0.5
            vy = 0.0
            phase = 1
            target = e * e * work_c
            if target <= 0.0:
                break
            continue
        w_step = step * abs(vy) * ct
        vx += dvx
        vy += dvy
        wx += dwx
        wy += dwy
        wz += dwz
        if phase == 0:
            work_c += w_step
        else:
            work += w_step
            if work >= target * (1.0 - 1e-12):
                break
    lx, ly = vy, -vx
    lwx, lwy = wy, -wx
    _from_local(s, nx, ny, lx, ly, lwx, lwy, wz)


@kernel
def cushion(s, nx, ny, P):
    """Resolve a cushion (or jaw, or facing) impact with the configured model.

    A ball that its own spin keeps pressing into a cushion (a masse along
    the rail) would otherwise bounce at vanishing speed ever more often;
    like a resting ball-ball contact it leaves at MIN_SEPARATION at least."""
    if P[P_MODEL] == MODEL_MATHAVAN2010:
        mathavan2010(s, nx, ny, P)
    else:
        han2005(s, nx, ny, P)
    vn = s[2] * nx + s[3] * ny
    if vn < MIN_SEPARATION:
        s[2] += (MIN_SEPARATION - vn) * nx
        s[3] += (MIN_SEPARATION - vn) * ny
