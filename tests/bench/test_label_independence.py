"""bench/label_independence.py: its statistics against known values, and a
small run in which every sample comes out the same on every labelling."""

from __future__ import annotations

import math

import pytest

from bench import label_independence as B


def test_chi2_survival_function_against_closed_forms() -> None:
    # df 2: exp(-x/2); df 1: erfc(sqrt(x/2)); df 3 at its 95% point 7.8147.
    assert B.chi2_sf(5.991464547, 2) == pytest.approx(0.05, abs=1e-9)
    assert B.chi2_sf(3.841458821, 1) == pytest.approx(0.05, abs=1e-9)
    assert B.chi2_sf(7.814727903, 3) == pytest.approx(0.05, abs=1e-9)
    assert B.chi2_sf(0.0, 2) == 1.0


def test_homogeneity_tests_see_agreement_and_difference() -> None:
    assert B.chi2_homogeneity([10, 10, 10], 100) == (0.0, 2, 1.0)
    assert B.chi2_homogeneity([0, 0, 0], 100) == (0.0, 2, 1.0)
    stat, df, p = B.chi2_homogeneity([98, 6, 6], 100)
    assert df == 2 and stat > 100 and p < 1e-20
    h, df, p = B.kruskal_wallis([[1, 2, 3], [1, 2, 3], [1, 2, 3]])
    assert h == pytest.approx(0.0, abs=1e-12) and p == pytest.approx(1.0)
    h, _, p = B.kruskal_wallis([[0, 0, 1, 0], [5, 6, 7, 5], [9, 9, 8, 9]])
    assert h > 8 and p < 0.02 and math.isfinite(h)


def test_a_small_run_is_identical_on_every_labelling() -> None:
    out = B.run(samples=4, labellings=[1, 2, 3], noise="pro", seed=0)
    for name, s in out["strokes"].items():
        assert s["same_samples"] == 4, name
        rows = list(s["per_labelling"].values())
        assert all(r == rows[0] for r in rows), name
        assert s["chi2_pot"][2] == 1.0 and s["chi2_svoyak"][2] == 1.0
        assert s["kruskal_crossing"][2] == pytest.approx(1.0)
