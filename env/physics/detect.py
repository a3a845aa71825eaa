"""Next-event times (numba kernels).

Every ball's centre is a quadratic r(t) = r0 + v0 t + a t^2 / 2 in its
current motion state (motion.py), so:

- ball-ball contact |ri - rj|^2 = (2R)^2 is a quartic (Leckie & Greenspan
  2005, §4.1);
- a ball on a jaw circle |r - c|^2 = (R + r_jaw)^2 is a quartic;
- a ball on a straight cushion or pocket facing, n.(r - p) = R, is a
  quadratic, valid where the contact point lies on the segment;
- pocket capture (the centre crosses the capture line, docs/game_rules.md §1 and
  env/table.py) and centre-line crossings are quadratics.

Contacts are "gap <= eps while closing" (roots.contact_times), so balls
that start exactly touching, as in the rack, collide at once when pushed
together and never when they move apart.
"""

from __future__ import annotations

import math

from piramida.env.physics.jit import kernel
from piramida.env.physics.roots import contact_times, first_rise, peval

# Contact tolerance in metres: a gap this small is touching.
GAP_EPS = 1e-9
# Closing speed below which a touching pair is not "approaching now" (m/s).
SPEED_EPS = 1e-9


@kernel
def pos_at(s, ax, ay, t):
    return s[0] + s[2] * t + 0.5 * ax * t * t, s[1] + s[3] * t + 0.5 * ay * t * t


@kernel
def line_time(s, ax, ay, lo, hi, px, py, qx, qy, nx, ny, R, out, pts):
    """First time in [lo, hi] the ball touches the segment p-q (normal n
    towards the ball's side) with its contact point on the segment."""
    c = (
        (s[0] - px) * nx + (s[1] - py) * ny - R,
        s[2] * nx + s[3] * ny,
        0.5 * (ax * nx + ay * ny),
        0.0,
        0.0,
    )
    k = contact_times(c, lo, hi, GAP_EPS, SPEED_EPS, out, pts)
    tx, ty = qx - px, qy - py
    seg = math.hypot(tx, ty)
    tx, ty = tx / seg, ty / seg
    for m in range(k):
        t = out[m]
        x, y = pos_at(s, ax, ay, t)
        u = (x - R * nx - px) * tx + (y - R * ny - py) * ty
        if -1e-12 <= u <= seg + 1e-12:
            return t
    return math.inf


@kernel
def circle_time(s, ax, ay, lo, hi, cx, cy, rad, out, pts):
    """First time in [lo, hi] the centre comes within ``rad`` of (cx, cy)."""
    px, py = s[0] - cx, s[1] - cy
    vx, vy = s[2], s[3]
    hx, hy = 0.5 * ax, 0.5 * ay
    c = (
        px * px + py * py - rad * rad,
        2.0 * (px * vx + py * vy),
        vx * vx + vy * vy + 2.0 * (px * hx + py * hy),
        2.0 * (vx * hx + vy * hy),
        hx * hx + hy * hy,
    )
    k = contact_times(c, lo, hi, 2.0 * rad * GAP_EPS, 2.0 * rad * SPEED_EPS, out, pts)
    return out[0] if k > 0 else math.inf


@kernel
def pair_time(si, ai_x, ai_y, sj, aj_x, aj_y, hi, D, out, pts):
    """First time in [0, hi] two balls, both given at the same instant, touch
    while closing (quartic in t)."""
    px, py = sj[0] - si[0], sj[1] - si[1]
    vx, vy = sj[2] - si[2], sj[3] - si[3]
    hx, hy = 0.5 * (aj_x - ai_x), 0.5 * (aj_y - ai_y)
    gap = math.hypot(px, py) - D
    # Cheap rejection: they cannot close the gap within the horizon.
    bound = math.hypot(vx, vy) * hi + math.hypot(hx, hy) * hi * hi
    if gap > bound + 1e-9:
        return math.inf
    c = (
        px * px + py * py - D * D,
        2.0 * (px * vx + py * vy),
        vx * vx + vy * vy + 2.0 * (px * hx + py * hy),
        2.0 * (vx * hx + vy * hy),
        hx * hx + hy * hy,
    )
    k = contact_times(c, 0.0, hi, 2.0 * D * GAP_EPS, 2.0 * D * SPEED_EPS, out, pts)
    return out[0] if k > 0 else math.inf


@kernel
def capture_time(s, ax, ay, lo, hi, mx, my, axx, axy, depth, half, R, pts):
    """First time the centre passes ``depth`` beyond the mouth line along
    the pocket axis, between the facings."""
    c = (
        (s[0] - mx) * axx + (s[1] - my) * axy - depth,
        s[2] * axx + s[3] * axy,
        0.5 * (ax * axx + ay * axy),
        0.0,
        0.0,
    )
    if peval(c, lo) > 0.0:
        t = lo
    else:
        t = first_rise(c, lo, hi, pts)
        if t == math.inf:
            return t
    x, y = pos_at(s, ax, ay, t)
    v = -(x - mx) * axy + (y - my) * axx
    return t if abs(v) <= half + R else math.inf


@kernel
def centre_time(s, ax, ay, lo, hi, yc, side, pts):
    """First time the centre crosses y = yc away from ``side`` (+1: the ball
    is on the rear side y > yc, -1 the front side); inf if none."""
    sg = -1.0 if side > 0 else 1.0
    c = (sg * (s[1] - yc), sg * s[3], sg * 0.5 * ay, 0.0, 0.0)
    return first_rise(c, lo, hi, pts)
