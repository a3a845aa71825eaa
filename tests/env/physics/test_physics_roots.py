"""Root isolation for event times (env/physics/roots.py)."""

from __future__ import annotations

import numpy as np
import pytest

from piramida.env.physics.roots import contact_times, first_rise


def _poly(roots, scale=1.0):
    c = np.polynomial.polynomial.polyfromroots(roots) * scale
    return tuple(float(x) for x in np.pad(c, (0, 5 - len(c))))


def _contacts(c, lo, hi, eps=0.0, dtol=0.0):
    out, pts = np.empty(8), np.empty(8)
    k = contact_times(c, lo, hi, eps, dtol, out, pts)
    return list(out[:k])


def test_every_entering_root_of_a_quartic_in_order():
    # (t-1)(t-2)(t-3)(t-4): f falls through 0 at 1 and 3.
    got = _contacts(_poly([1, 2, 3, 4]), 0.0, 10.0)
    assert got == pytest.approx([1.0, 3.0], abs=1e-12)
    assert first_rise(_poly([1, 2, 3, 4]), 0.0, 10.0, np.empty(8)) == pytest.approx(2.0, abs=1e-12)


def test_close_roots_are_not_merged_or_missed():
    got = _contacts(_poly([0.5, 0.5 + 1e-7, 2, 3]), 0.0, 1.0)
    assert got == pytest.approx([0.5], abs=1e-9)
    got = _contacts(_poly([0.5, 0.5 + 1e-7, 0.9, 0.9 + 1e-6]), 0.0, 1.0)
    assert got == pytest.approx([0.5, 0.9], abs=1e-8)


def test_touching_and_closing_counts_now_touching_and_opening_never():
    # f(0) = 0, f'(0) < 0: contact at once; f'(0) > 0: no contact.
    assert _contacts((0.0, -1.0, 0.0, 0.0, 0.0), 0.0, 1.0, 1e-9, 1e-12) == [0.0]
    assert _contacts((0.0, 1.0, 0.0, 0.0, 0.0), 0.0, 1.0, 1e-9, 1e-12) == []


def test_critical_point_beyond_a_negative_second_derivative_root():
    # Regression: f'' has one root before lo and one inside; the inner one
    # must still split f' (a pair of touching balls that close in later).
    c = (3.666e-07, 1.1912e-04, -1.1238e-02, 1.034e-01, 1.0813)
    got = _contacts(c, 0.0, 0.0945, 1.36e-10, 1.36e-10)
    assert len(got) == 1
    t = got[0]
    assert 0.01 < t < 0.02
    f = sum(ci * t**i for i, ci in enumerate(c))
    assert f <= 1.36e-10
