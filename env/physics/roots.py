"""Polynomial root isolation for event times (numba kernels).

Event times are roots of low-degree polynomials in t: degree 2 for a ball
against a straight line, degree 4 for two balls or a ball and a jaw circle
(Leckie & Greenspan 2005, §4). Closed-form quartic formulas lose digits when
two balls start touching, so roots are isolated instead: the critical
points of f come from the roots of f' (found the same way, one degree
lower, down to an exact quadratic), f is monotone between them, and each
monotone piece is bracketed down to adjacent floats. This finds every sign change in
order, never misses a grazing root that really crosses and never reports a
root twice.

Polynomials are 5-tuples (c0, c1, c2, c3, c4), lowest power first.
"""

from __future__ import annotations

import math

import numpy as np

from piramida.env.physics.jit import kernel

# bisect's direction as numpy bools: numba compiles a callee once per
# literal argument (loop._I).
_UP, _DOWN = np.bool_(True), np.bool_(False)


@kernel
def peval(c, t):
    return (((c[4] * t + c[3]) * t + c[2]) * t + c[1]) * t + c[0]


@kernel
def deriv(c):
    return (c[1], 2.0 * c[2], 3.0 * c[3], 4.0 * c[4], 0.0)


@kernel
def quad_roots(a, b, c):
    """Real roots of a t^2 + b t + c, sorted (count, r1, r2); stable form."""
    if a == 0.0:
        if b == 0.0:
            return 0, math.nan, math.nan
        r = -c / b
        return 1, r, r
    disc = b * b - 4.0 * a * c
    if disc < 0.0:
        return 0, math.nan, math.nan
    sq = math.sqrt(disc)
    q = -0.5 * (b + math.copysign(sq, b))
    r1 = q / a
    r2 = c / q if q != 0.0 else r1
    if r1 > r2:
        r1, r2 = r2, r1
    return 2, r1, r2


@kernel
def bisect(c, lo, hi, target, increasing):
    """Bracketing point of f(t) = target on [lo, hi] where f is monotone.

    Returns the end of the final bracket on the far side of the target
    (f > target when increasing, f <= target when decreasing), so the
    caller's condition holds exactly at the returned time. The bracket is
    shrunk until its ends are adjacent floats, as plain bisection would, but
    by Illinois false-position steps (Dowell & Jarratt 1971) with a
    bisection every fourth step: a handful of evaluations instead of ~55."""
    flo = peval(c, lo) - target
    fhi = peval(c, hi) - target
    side = 0
    for it in range(200):
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        x = mid
        if it % 4 != 3 and fhi != flo:
            xf = (lo * fhi - hi * flo) / (fhi - flo)
            if lo < xf < hi:
                x = xf
        fx = peval(c, x)
        if (fx > target) if increasing else (fx <= target):
            hi = x
            fhi = fx - target
            if side == 1:
                flo *= 0.5
            side = 1
        else:
            lo = x
            flo = fx - target
            if side == -1:
                fhi *= 0.5
            side = -1
    return hi


@kernel
def _monotone_breaks(c, lo, hi, out):
    """Points lo = p0 < p1 < ... < pk = hi between which the polynomial c
    (degree <= 4) is monotone. Writes into ``out`` (length >= 6); returns k+1."""
    d1 = deriv(c)
    d2 = deriv(d1)
    # Roots of f'' (a quadratic) split [lo, hi] into pieces where f' is monotone.
    n2, r1, r2 = quad_roots(d2[2], d2[1], d2[0])
    a1 = hi
    a2 = hi
    if n2 >= 1 and lo < r1 < hi:
        a1 = r1
        if n2 == 2 and r1 < r2 < hi:
            a2 = r2
    elif n2 == 2 and lo < r2 < hi:
        a1 = r2
    out[0] = lo
    k = 1
    a = lo
    for s in range(3):
        b = a1 if s == 0 else (a2 if s == 1 else hi)
        if b <= a:
            continue
        fa, fb = peval(d1, a), peval(d1, b)
        if (fa < 0.0 < fb) or (fa > 0.0 > fb):
            r = bisect(d1, a, b, 0.0, fb > fa)
            if lo < r < hi and r > out[k - 1]:
                out[k] = r
                k += 1
        elif fb == 0.0 and b < hi and b > out[k - 1]:
            out[k] = b
            k += 1
        a = b
    out[k] = hi
    return k + 1


@kernel
def contact_times(c, lo, hi, eps, dtol, out, pts):
    """Times in [lo, hi] where f enters contact: f <= eps while decreasing.

    f is a squared-gap or signed-gap function (positive when apart). One
    candidate per decreasing monotone piece, in time order, written to
    ``out``; returns the count. ``pts`` is scratch (length >= 6). A piece
    that starts already in contact counts at its start when f' < -dtol there
    (approaching now), else where f has fallen eps/2 below min(start, 0),
    so a zero-speed contact never produces an event that changes nothing."""
    n = _monotone_breaks(c, lo, hi, pts)
    d1 = deriv(c)
    k = 0
    for s in range(n - 1):
        p, q = pts[s], pts[s + 1]
        fp, fq = peval(c, p), peval(c, q)
        if not fq < fp:
            continue
        if fp > eps:
            if fq <= eps:
                out[k] = bisect(c, p, q, eps, _DOWN)
                k += 1
        elif peval(d1, p) < -dtol:
            out[k] = p
            k += 1
        else:
            # Touching but not closing yet: the contact counts once the gap
            # has shrunk by eps/2 past zero, so repeated zero-speed touches
            # cannot ratchet a ball into a cushion.
            target = min(fp, 0.0) - 0.5 * eps
            if fq <= target:
                out[k] = bisect(c, p, q, target, _DOWN)
                k += 1
    return k


@kernel
def first_rise(c, lo, hi, pts):
    """First time in (lo, hi] where f goes from <= 0 to > 0; inf if none.
    ``pts`` is scratch (length >= 6)."""
    n = _monotone_breaks(c, lo, hi, pts)
    for s in range(n - 1):
        p, q = pts[s], pts[s + 1]
        fp, fq = peval(c, p), peval(c, q)
        if fp <= 0.0 < fq:
            return bisect(c, p, q, 0.0, _UP)
    return math.inf
