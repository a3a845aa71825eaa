"""Instantaneous impact models (numba kernels): cue tip, ball-ball, cushion.

All act in place on ball states (x, y, vx, vy, wx, wy, wz). Linear vertical
velocity is always discarded: the balls stay on the cloth (no jump model);
the table absorbs that part of an impulse, which only removes energy.
"""

from __future__ import annotations

import math

from numba import njit

from piramida.env.physics.codes import (
    MODEL_MATHAVAN2010,
    P_CUE_M,
    P_E_BALL,
    P_E_CUE,
    P_E_CUSH,
    P_H_CUSH,
    P_M,
    P_MODEL,
    P_MU_BALL,
    P_MU_CUSH,
    P_MU_S,
    P_R,
)

# Smallest separating normal speed left after any contact (m/s): a resting
# contact must open, or the same contact would be found again at once and
# the event loop would crawl (Zeno). It adds at most m/2 * (2 mm/s)^2, under
# 6e-7 J, to a contact that the model would leave closed.
MIN_SEPARATION = 2e-3


@njit(cache=True)
def cue_strike(s, phi, theta, V, a, b, P):
    """Cue tip impact on a resting ball (Alciatore TP A-30; Leckie &
    Greenspan 2005, §3.1, in vector form).

    The cue moves along d = (cos theta * c, -sin theta) in the vertical plane
    of the aim c = (cos phi, sin phi); it hits the ball at Q = aR e1 + bR e3
    - sqrt(R^2 - ...) d, with e1 the cue's right and e3 its "up". A
    frictionless tip impulse J along d with restitution e_cue gives
    J = (1 + e_cue) m V / (1 + m/M + 5 (a^2 + b^2) / 2), v = J d / m and
    w = Q x J d / I = (J R / I)(a e3 - b e1). The vertical part of v is
    dropped (the elevation limit of env/shot.py keeps the ball down); the
    full 3D spin is kept, so an elevated cue with side gives a masse curve.
    """
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


@njit(cache=True)
def ball_ball(si, sj, P):
    """Frictional inelastic collision of two equal balls.

    Normal: Newton restitution e_ball on the line of centres. Tangential:
    Coulomb friction mu_ball at the contact opposes the 3D slip of the two
    surfaces (Alciatore, "TP A-14: Throw"; the same idea as pooltool's
    frictional-inelastic model): the impulse is mu_ball times the normal
    impulse, or less if that much would reverse the slip (the slip stops:
    effective mass m/7 for two solid spheres). This gives throw and
    cut-induced spin. Returns the normal approach speed."""
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
        f = min(P[P_MU_BALL] * jn, m * slip / 7.0)
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


@njit(cache=True)
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


@njit(cache=True)
def _from_local(s, nx, ny, vx, vy, wx, wy, wz):
    xx, xy = -nx, -ny
    yx, yy = ny, -nx
    s[2] = vx * xx + vy * yx
    s[3] = vx * xy + vy * yy
    s[4] = wx * xx + wy * yx
    s[5] = wx * xy + wy * yy
    s[6] = wz


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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
