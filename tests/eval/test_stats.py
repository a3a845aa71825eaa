"""Checks against published figures (docs/references.md, Evaluation) and the
binomial itself, not against our own outputs."""

import math
import random

import pytest

from piramida.eval.stats import elo_difference, elo_interval, games_to_detect, wilson_interval


@pytest.mark.parametrize(("p", "elo"), [(0.55, 35), (0.60, 70), (0.75, 191)])
def test_elo_matches_reference_table(p, elo):
    assert elo_difference(p) == pytest.approx(elo, abs=1)


@pytest.mark.parametrize(("games", "half"), [(400, 0.049), (1000, 0.031)])
def test_wilson_half_width_at_half(games, half):
    lo, hi = wilson_interval(games / 2, games)
    assert (hi - lo) / 2 == pytest.approx(half, abs=0.001)
    assert lo + hi == pytest.approx(1.0)


@pytest.mark.parametrize(("p1", "n"), [(0.55, 785), (0.60, 197)])
def test_games_to_detect_reference(p1, n):
    assert games_to_detect(p1) == pytest.approx(n, rel=0.03)


def test_wilson_coverage_by_simulation():
    rng = random.Random(7)
    p, n, trials = 0.3, 60, 2000
    covered = 0
    for _ in range(trials):
        wins = sum(rng.random() < p for _ in range(n))
        lo, hi = wilson_interval(wins, n)
        covered += lo <= p <= hi
    # Binomial discreteness makes the true coverage wobble around 95%.
    assert 0.92 <= covered / trials <= 0.975


def test_edges_and_errors():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(10, 10)
    assert hi == 1.0 and 0.6 < lo < 0.8
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf
    e, lo, hi = elo_interval(60, 100)
    assert lo < e < hi
    with pytest.raises(ValueError, match="wins <= games"):
        wilson_interval(5, 3)
    with pytest.raises(ValueError, match="win rate"):
        elo_difference(1.5)
