"""bench/value.py's measures against their definitions."""

from __future__ import annotations

import itertools

import numpy as np

from bench.value import auc, fit_logistic, reliability


def test_auc_is_the_share_of_won_lost_pairs_ranked_right_ties_half() -> None:
    rng = np.random.default_rng(1)
    score = rng.integers(0, 5, 60).astype(float)  # many ties
    outcome = rng.choice([0.0, 0.5, 1.0], 60)
    won = score[outcome == 1.0]
    lost = score[outcome == 0.0]
    by_hand = np.mean([1.0 if w > v else 0.5 if w == v else 0.0 for w, v in itertools.product(won, lost)])
    assert abs(auc(score, outcome) - by_hand) < 1e-12
    assert auc(np.array([0.9, 0.8, 0.1]), np.array([1.0, 1.0, 0.0])) == 1.0


def test_reliability_bins_cover_every_prediction_once() -> None:
    p = np.array([0.0, 0.05, 0.1, 0.55, 0.99, 1.0])
    o = np.array([0.0, 1.0, 0.0, 1.0, 1.0, 1.0])
    rows = reliability(p, o)
    assert len(rows) == 10 and sum(r["n"] for r in rows) == len(p)
    assert rows[0]["n"] == 2 and rows[0]["observed"] == 0.5 and abs(rows[0]["predicted"] - 0.025) < 1e-12
    assert rows[9]["n"] == 2 and rows[9]["observed"] == 1.0


def test_the_logistic_map_recovers_the_slope_and_offset_it_was_drawn_from() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(0.0, 2.0, 20000)
    y = (rng.random(len(x)) < 1.0 / (1.0 + np.exp(-(0.8 * x - 0.5)))).astype(float)
    a, b = fit_logistic(x, y)
    assert abs(a - 0.8) < 0.05 and abs(b + 0.5) < 0.05
    # A value that says nothing maps to the base rate.
    a0, b0 = fit_logistic(np.zeros(1000), np.r_[np.ones(300), np.zeros(700)])
    assert abs(1.0 / (1.0 + np.exp(-b0)) - 0.3) < 1e-6
