"""Pair-level statistics (eval/pairs.py) against closed forms computed here
by hand from fishtest's published formulas."""

from __future__ import annotations

import math

import pytest

from piramida.eval.pairs import (
    PAIR_SCORES,
    beta_cdf,
    beta_ppf,
    llr,
    logistic_score,
    mle_with_mean,
    pair_score,
    pair_stats,
    pentanomial,
    score_interval,
    sprt_bounds,
    sprt_result,
)


def test_pentanomial_counts_pairs() -> None:
    scores = [pair_score(1, 1), pair_score(1, 0), pair_score(0.5, 1), pair_score(0, 0), pair_score(0.5, 0)]
    assert pentanomial(scores) == (1, 1, 1, 1, 1)
    with pytest.raises(ValueError):
        pair_score(2, 0)
    with pytest.raises(ValueError):
        pentanomial([0.3])


def test_pair_stats_by_hand() -> None:
    counts = (5, 0, 10, 0, 25)  # LL, LW+WL, WW without draws: 40 pairs
    st = pair_stats(counts)
    mu = (0 * 5 + 0.5 * 10 + 1 * 25) / 40
    var = (5 * mu**2 + 10 * (0.5 - mu) ** 2 + 25 * (1 - mu) ** 2) / 40
    assert st.score == pytest.approx(mu)
    assert st.var == pytest.approx(var)
    # The Bayesian interval is close to the normal one on 40 pairs (a
    # tenth of its width) and is shifted towards 1/2 by the prior.
    half = 1.959964 * math.sqrt(var / 40)
    assert st.score_ci == pytest.approx((mu - half, mu + half), abs=0.2 * half)
    assert st.score_ci[0] < mu - half and st.score_ci[1] < mu + half
    assert st.elo == pytest.approx(-400 * math.log10(1 / mu - 1))
    assert st.nelo == pytest.approx((mu - 0.5) / math.sqrt(2 * var) * 800 / math.log(10))
    assert st.los == pytest.approx(0.5 * (1 + math.erf((mu - 0.5) / math.sqrt(var / 40) / math.sqrt(2))), abs=1e-4)


def test_beta_cdf_against_closed_forms() -> None:
    for x in (0.01, 0.2, 0.5, 0.77, 0.999):
        assert beta_cdf(x, 1, 1) == pytest.approx(x, abs=1e-12)
        assert beta_cdf(x, 3.5, 1) == pytest.approx(x**3.5, abs=1e-12)
        assert beta_cdf(x, 1, 7) == pytest.approx(1 - (1 - x) ** 7, abs=1e-12)
        assert beta_cdf(x, 0.5, 0.5) == pytest.approx(2 / math.pi * math.asin(math.sqrt(x)), abs=1e-12)
        assert beta_cdf(beta_ppf(x, 40.5, 12.5), 40.5, 12.5) == pytest.approx(x, abs=1e-9)


def test_intervals_are_never_of_width_zero_on_a_small_or_one_sided_sample() -> None:
    lost = pair_stats((4, 0, 0, 0, 0))
    assert lost.score == 0 and lost.score_ci[0] == 0 and lost.score_ci[1] > 0.3
    assert lost.elo_ci[1] > -100 and lost.los < 0.05
    split = pair_stats((0, 0, 4, 0, 0))
    assert split.score == 0.5 and split.score_ci[0] < 0.35 and split.score_ci[1] > 0.65
    assert split.elo_ci[0] < -100 < 100 < split.elo_ci[1] and split.los == pytest.approx(0.5)
    won = pair_stats((0, 0, 0, 0, 1))
    assert won.score_ci[1] == 1 and won.score_ci[0] < 0.5 and 0.5 < won.los < 0.95
    # Lost and won pairs only: the Jeffreys interval, Beta(w + 1/2, l + 1/2):
    # for none of 4 the upper end solves (1 - p)^4.5 ... numerically 0.4448.
    assert score_interval((4, 0, 0, 0, 0))[1] == pytest.approx(0.444763, abs=1e-5)
    lo, hi = score_interval((3, 0, 0, 0, 7))
    assert beta_cdf(lo, 7.5, 3.5) == pytest.approx(0.025, abs=1e-9)
    assert beta_cdf(hi, 7.5, 3.5) == pytest.approx(0.975, abs=1e-9)
    assert score_interval((0, 0, 0, 0, 0)) == (0.0, 1.0)


def test_the_interval_is_the_normal_one_on_many_pairs() -> None:
    counts = (300, 900, 1800, 1100, 400)
    st = pair_stats(counts)
    half = 1.959964 * math.sqrt(st.var / st.pairs)
    assert st.score_ci == pytest.approx((st.score - half, st.score + half), abs=0.01 * half)


def test_mle_has_the_mean_and_sums_to_one() -> None:
    pdf = [0.1, 0.2, 0.4, 0.2, 0.1]
    for s in (0.3, 0.5, 0.62):
        p = mle_with_mean(pdf, PAIR_SCORES, s)
        assert sum(p) == pytest.approx(1, abs=1e-9)
        assert sum(pi * a for pi, a in zip(p, PAIR_SCORES, strict=True)) == pytest.approx(s, abs=1e-9)
    # the mean it already has: the MLE is the distribution itself
    assert mle_with_mean(pdf, PAIR_SCORES, 0.5) == pytest.approx(pdf)


def test_llr_two_point_is_the_bernoulli_ratio() -> None:
    # Only 0 and 1 pairs: the constrained MLE is Bernoulli(s), so
    # LLR = k log(s1/s0) + (n-k) log((1-s1)/(1-s0)) (up to the 1e-3 regularization).
    k, n = 70, 100
    s0, s1 = logistic_score(0), logistic_score(20)
    closed = k * math.log(s1 / s0) + (n - k) * math.log((1 - s1) / (1 - s0))
    assert llr((n - k, 0, 0, 0, k), 0, 20) == pytest.approx(closed, rel=2e-3)


def test_llr_matches_the_normal_approximation_for_many_pairs() -> None:
    # fishtest's approximation: LLR ~ N (s1 - s0)(2 mu - s0 - s1) / (2 var).
    counts = (300, 900, 1800, 1100, 400)
    n = sum(counts)
    mu = sum(c * a for c, a in zip(counts, PAIR_SCORES, strict=True)) / n
    var = sum(c * (a - mu) ** 2 for c, a in zip(counts, PAIR_SCORES, strict=True)) / n
    s0, s1 = logistic_score(0), logistic_score(10)
    approx = n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var)
    assert llr(counts, 0, 10) == pytest.approx(approx, rel=0.02)


def test_sprt_decisions() -> None:
    lo, hi = sprt_bounds(0.05, 0.05)
    assert (lo, hi) == pytest.approx((-2.944439, 2.944439), abs=1e-6)
    assert sprt_result((2, 5, 20, 40, 60), 0, 20)["result"] == "H1"
    assert sprt_result((60, 40, 20, 5, 2), 0, 20)["result"] == "H0"
    res = sprt_result((1, 2, 3, 2, 1), 0, 20)
    assert res["result"] == "none" and lo < res["llr"] < hi and res["pairs"] == 9
    with pytest.raises(ValueError):
        sprt_result((1, 1, 1, 1, 1), 10, 0)
