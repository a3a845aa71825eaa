"""Python's own ``math.hypot``, compiled: the same floats in numba.

Compiled code that must give the search's Python answers to the last bit
(the candidates' digest pins every float) cannot use numba's
``math.hypot``: it calls the C library's, which differs from CPython's in
the last bit for about one pair in 170 (5,000,000 random pairs, glibc
2.35). CPython (3.10 on) computes a hypotenuse its own way: the
coordinates scaled by a power of two, squared and summed exactly as
double-length numbers, a square root, then one differential correction.
``exact_hypot`` is that procedure, step for step (CPython 3.11's
``vector_norm`` for two coordinates), and gives the same floats wherever
the larger coordinate is a normal number (above 2.2e-308: every distance
on a table); between subnormal coordinates it may differ in the last bit
(4 pairs in 2,000 around 1e-310).

``same_as_python()`` says whether it gives this interpreter's
``math.hypot`` on a fixed set of pairs, checked once, when first asked
(not at import: loading the first compiled kernel of a process costs a
third of a second, which a process that never searches should not pay):
a later CPython may round differently, and then callers keep their Python
path (tests/agents/test_exact.py compares about a million pairs).
"""

from __future__ import annotations

import math
from functools import cache

from numba import njit

#: The smallest normal double (C's DBL_MIN).
_DBL_MIN = 2.2250738585072014e-308


@njit(cache=True, error_model="numpy", inline="always")
def _split(x):  # pragma: no cover - compiled
    # Veltkamp's split: x = hi + lo, each with half the mantissa.
    t = x * 134217729.0
    hi = t - (t - x)
    return hi, x - hi


@njit(cache=True, error_model="numpy", inline="always")
def _mul(x, y):  # pragma: no cover - compiled
    # Dekker's exact product: x * y = hi + lo.
    xh, xl = _split(x)
    yh, yl = _split(y)
    p = xh * yh
    q = xh * yl + xl * yh
    z = p + q
    return z, p - z + q + xl * yl


@njit(cache=True, error_model="numpy", inline="always")
def _fast_sum(a, b):  # pragma: no cover - compiled
    # a + b = hi + lo, exactly, for |a| >= |b|.
    x = a + b
    return x, b - (x - a)


@njit(cache=True, error_model="numpy")
def _norm(x, y, mx):  # pragma: no cover - compiled
    """CPython's ``vector_norm`` of (x, y), both finite and non-negative,
    ``mx`` the larger and not zero."""
    e = math.frexp(mx)[1]
    if e < -1023:
        # Subnormal: scaled up by DBL_MIN first, as CPython does.
        return _DBL_MIN * _norm(x / _DBL_MIN, y / _DBL_MIN, mx / _DBL_MIN)
    scale = math.ldexp(1.0, -e)
    csum, frac1, frac2 = 1.0, 0.0, 0.0
    v = x * scale
    ph, pl = _mul(v, v)
    csum, sl = _fast_sum(csum, ph)
    frac1 += pl
    frac2 += sl
    v = y * scale
    ph, pl = _mul(v, v)
    csum, sl = _fast_sum(csum, ph)
    frac1 += pl
    frac2 += sl
    h = math.sqrt(csum - 1.0 + (frac1 + frac2))
    ph, pl = _mul(-h, h)
    csum, sl = _fast_sum(csum, ph)
    frac1 += pl
    frac2 += sl
    v = csum - 1.0 + (frac1 + frac2)
    h += v / (2.0 * h)
    return h / scale


@njit(cache=True, error_model="numpy")
def exact_hypot(x, y):  # pragma: no cover - compiled
    """``math.hypot(x, y)`` as CPython computes it."""
    x, y = abs(x), abs(y)
    if math.isinf(x) or math.isinf(y):
        return math.inf
    if math.isnan(x) or math.isnan(y):
        return math.nan
    mx = x if x > y else y
    if mx == 0.0:
        return mx
    return _norm(x, y, mx)


@cache
def same_as_python() -> bool:
    """Whether ``exact_hypot`` is this interpreter's ``math.hypot`` on a
    fixed spread of pairs (table distances, tiny and huge ones, and pairs
    numba's own ``hypot`` rounds the other way here)."""
    pairs = [(0.3 * k - 1.7, 0.11 * k * k - 2.3) for k in range(40)]
    pairs += [(1e-300, 3e-301), (1e300, 7e299), (0.0, -0.0), (-3.0, 4.0)]
    pairs += [(a * 1.000000001 ** k, b) for k, (a, b) in enumerate([(0.6123, 1.3377)] * 40)]
    return all(exact_hypot(a, b) == math.hypot(a, b) for a, b in pairs)


__all__ = ["exact_hypot", "same_as_python"]
