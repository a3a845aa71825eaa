"""Closed-form ball motion between events (numba kernels).

Leckie & Greenspan, "An event-based pool physics simulator" (Advances in
Computer Games 11, 2005), §3, and Alciatore, "The Illustrated Principles of
Pool and Billiards" (2004), technical proofs TP 4.1-4.2:

- sliding: the contact point slips with velocity u = v + w x (-R z); the
  cloth friction mu_s m g opposes u, whose direction stays fixed, so
  v(t) = v0 - mu_s g t u^, w_xy grows by (5 mu_s g / 2R) t (z x u^), and
  |u| falls at (7/2) mu_s g: sliding lasts 2 |u0| / (7 mu_s g);
- rolling: v = w x R z, deceleration mu_r g along v; lasts |v0| / (mu_r g);
- spin about the vertical decays at (5/2) mu_sp g / R in every state;
  spinning in place lasts 2 R |wz0| / (5 mu_sp g);
- stationary: nothing moves.

Between events each ball's centre is a quadratic in t, so event times are
polynomial roots (see roots.py).
"""

from __future__ import annotations

import math

from piramida.env.physics.codes import (
    P_G,
    P_MU_R,
    P_MU_S,
    P_MU_SP,
    P_R,
    ROLLING,
    SLIDING,
    SPINNING,
    STATIONARY,
)
from piramida.env.physics.jit import kernel

# Below these a speed is zero: the state machine must not chase 1e-17 m/s.
V_EPS = 1e-9
W_EPS = 1e-7


@kernel
def slip(s, R):
    """Contact-point velocity on the cloth (ux, uy)."""
    return s[2] - R * s[5], s[3] + R * s[4]


@kernel
def accel(s, mode, P):
    """Constant acceleration (ax, ay) of the centre in a motion state."""
    if mode == SLIDING:
        ux, uy = slip(s, P[P_R])
        nu = math.hypot(ux, uy)
        if nu == 0.0:
            return 0.0, 0.0
        k = P[P_MU_S] * P[P_G] / nu
        return -k * ux, -k * uy
    if mode == ROLLING:
        nv = math.hypot(s[2], s[3])
        if nv == 0.0:
            return 0.0, 0.0
        k = P[P_MU_R] * P[P_G] / nv
        return -k * s[2], -k * s[3]
    return 0.0, 0.0


@kernel
def duration(s, mode, P):
    """Time until the state's closed form ends (next motion transition)."""
    R, g = P[P_R], P[P_G]
    if mode == SLIDING:
        ux, uy = slip(s, R)
        return 2.0 * math.hypot(ux, uy) / (7.0 * P[P_MU_S] * g)
    if mode == ROLLING:
        return math.hypot(s[2], s[3]) / (P[P_MU_R] * g)
    if mode == SPINNING:
        return 2.0 * R * abs(s[6]) / (5.0 * P[P_MU_SP] * g)
    return math.inf


@kernel
def evolve(s, mode, t, P, out):
    """State after time t in ``mode`` (t within the state's duration)."""
    R, g = P[P_R], P[P_G]
    for k in range(7):
        out[k] = s[k]
    if mode < 0 or mode == STATIONARY or t == 0.0:
        return
    dwz = 2.5 * P[P_MU_SP] * g / R * t
    if abs(s[6]) <= dwz:
        out[6] = 0.0
    else:
        out[6] = s[6] - math.copysign(dwz, s[6])
    if mode == SLIDING:
        ux, uy = slip(s, R)
        nu = math.hypot(ux, uy)
        if nu > 0.0:
            ex, ey = ux / nu, uy / nu
            a = P[P_MU_S] * g
            out[0] = s[0] + s[2] * t - 0.5 * a * t * t * ex
            out[1] = s[1] + s[3] * t - 0.5 * a * t * t * ey
            out[2] = s[2] - a * t * ex
            out[3] = s[3] - a * t * ey
            kw = 2.5 * a / R * t
            out[4] = s[4] - kw * ey
            out[5] = s[5] + kw * ex
    elif mode == ROLLING:
        nv = math.hypot(s[2], s[3])
        if nv > 0.0:
            ex, ey = s[2] / nv, s[3] / nv
            a = P[P_MU_R] * g
            out[0] = s[0] + s[2] * t - 0.5 * a * t * t * ex
            out[1] = s[1] + s[3] * t - 0.5 * a * t * t * ey
            out[2] = s[2] - a * t * ex
            out[3] = s[3] - a * t * ey
            out[4] = -out[3] / R
            out[5] = out[2] / R


@kernel
def classify(s, R):
    """Motion state of a ball state; snaps near-zero quantities to zero so
    that the state's closed form holds exactly from here on."""
    ux, uy = slip(s, R)
    if math.hypot(ux, uy) > V_EPS:
        return SLIDING
    if math.hypot(s[2], s[3]) > V_EPS:
        s[4] = -s[3] / R
        s[5] = s[2] / R
        return ROLLING
    s[2] = 0.0
    s[3] = 0.0
    s[4] = 0.0
    s[5] = 0.0
    if abs(s[6]) > W_EPS:
        return SPINNING
    s[6] = 0.0
    return STATIONARY


@kernel
def end_state(s, mode, P):
    """Apply the motion transition at the end of ``mode`` to the evolved
    state ``s`` in place and return the new mode."""
    R = P[P_R]
    if mode == SLIDING:
        # The slip has just vanished: impose the rolling constraint exactly.
        s[4] = -s[3] / R
        s[5] = s[2] / R
        if math.hypot(s[2], s[3]) > V_EPS:
            return ROLLING
        return classify(s, R)
    if mode == ROLLING:
        s[2] = 0.0
        s[3] = 0.0
        s[4] = 0.0
        s[5] = 0.0
        return SPINNING if abs(s[6]) > W_EPS else classify(s, R)
    if mode == SPINNING:
        s[6] = 0.0
        return STATIONARY
    return mode


@kernel
def energy(s, P, m):
    """Kinetic energy (translation + rotation) of one ball."""
    R = P[P_R]
    inertia = 0.4 * m * R * R
    return 0.5 * m * (s[2] * s[2] + s[3] * s[3]) + 0.5 * inertia * (
        s[4] * s[4] + s[5] * s[5] + s[6] * s[6]
    )
