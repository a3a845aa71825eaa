"""Statistics with the duplicate pair as the unit.

Both games of a pair share the rack and the noise streams with the seats
swapped, so the two results are correlated: treating 2N games as
independent understates the noise when a rack favours the breaker and
overstates it when it doesn't. As in fishtest (Stockfish's testing
framework), a pair's score is the mean of its two game scores (win 1, draw
1/2, loss 0), so it takes one of five values 0, 1/4, 1/2, 3/4, 1; their
counts are the *pentanomial* [LL, LD+DL, LW+DD+WL, DW+WD, WW]. Without
draws only 0, 1/2 and 1 occur.

- score mu: the mean pair score (the point estimate); its variance per
  pair var;
- the 95% interval of the score is Bayesian (``score_interval``): a
  Dirichlet posterior on the five cells with half a pair at each extreme
  as the prior (0 and 1), whose mean score is approximated by the Beta
  distribution of the same mean and variance. The normal interval
  mu +- 1.96 sqrt(var / N) has width zero whenever every pair scored the
  same (four lost pairs give [0, 0], four split pairs [1/2, 1/2]), which
  the sample does not justify; the posterior never has. On samples of
  won and lost pairs only it is exactly the Jeffreys interval of a
  binomial proportion (Brown, Cai & DasGupta 2001), with the usual ends
  at 0 and 1 when every pair was lost or won; on many pairs it is the
  normal interval;
- Elo: -400 log10(1/mu - 1), with the interval's image;
- normalized Elo (fishtest's nElo for pairs): (mu - 1/2) / sqrt(2 var) *
  800 / ln 10;
- LOS, the likelihood of superiority: the posterior probability that the
  score is above 1/2 (on many pairs fishtest's
  Phi((mu - 1/2) / sqrt(var / N)); on one won pair not 1, as that is);
- GSPRT: the log-likelihood ratio LLR = N sum_i p_i log(p1_i / p0_i), where
  p_i are the observed frequencies and p0, p1 the maximum-likelihood
  distributions on the same five values whose expected score is the one
  elo0 and elo1 give (logistic Elo). Stop at log(beta / (1 - alpha)) (H0)
  and log((1 - beta) / alpha) (H1). Counts are regularized by 1e-3 as
  fishtest does, so that an empty cell does not make the MLE degenerate.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: The five pair scores, in the pentanomial's order.
PAIR_SCORES: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)
NELO_PER_T = 800 / math.log(10)
_REGULARIZE = 1e-3
#: The prior of the score's posterior, in pairs per cell: half a pair
#: lost and half a pair won (Jeffreys' prior of the two-point case). It
#: puts the prior's weight where its variance is largest, so the
#: interval errs wide, and weighs one pair in all, so from about 30 pairs
#: on it moves an interval's ends by less than a tenth of its width.
PRIOR_PAIRS: tuple[float, ...] = (0.5, 0.0, 0.0, 0.0, 0.5)


def pair_score(first: float, second: float) -> float:
    """The score of a pair from one agent's two game scores (1, 0.5, 0)."""
    for s in (first, second):
        if s not in (0, 0.5, 1):
            raise ValueError(f"a game score is 0, 0.5 or 1, got {s}")
    return (first + second) / 2


def pentanomial(pair_scores: Iterable[float]) -> tuple[int, int, int, int, int]:
    """Counts of pairs scoring 0, 1/4, 1/2, 3/4, 1."""
    counts = [0] * 5
    for s in pair_scores:
        i = round(s * 4)
        if not (0 <= i <= 4 and abs(i / 4 - s) < 1e-9):
            raise ValueError(f"a pair score is one of {PAIR_SCORES}, got {s}")
        counts[i] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def logistic_score(elo: float) -> float:
    """The expected score of an Elo difference (logistic model)."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of(score: float) -> float:
    """The Elo difference of an expected score; +-inf at 1 and 0."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


@dataclass(frozen=True)
class PairStats:
    """The statistics of N pairs from one agent's point of view."""

    counts: tuple[int, int, int, int, int]
    pairs: int
    score: float
    var: float
    score_ci: tuple[float, float]
    elo: float
    elo_ci: tuple[float, float]
    nelo: float
    los: float

    def to_dict(self) -> dict[str, object]:
        def f(x: float) -> float | None:
            return x if math.isfinite(x) else None

        return {
            "pentanomial": list(self.counts),
            "pairs": self.pairs,
            "score": self.score,
            "score_ci95": list(self.score_ci),
            "elo": f(self.elo),
            "elo_ci95": [f(self.elo_ci[0]), f(self.elo_ci[1])],
            "nelo": f(self.nelo),
            "los": self.los,
        }


def pair_stats(counts: Sequence[int], confidence: float = 0.95) -> PairStats:
    """Score, interval, Elo, normalized Elo and LOS from pentanomial counts."""
    n = _check_counts(counts)
    if n == 0:
        return PairStats(tuple(counts), 0, 0.5, 0.0, (0.0, 1.0), 0.0, (-math.inf, math.inf), 0.0, 0.5)  # type: ignore[arg-type]
    mu = sum(c * a for c, a in zip(counts, PAIR_SCORES, strict=True)) / n
    var = sum(c * (a - mu) ** 2 for c, a in zip(counts, PAIR_SCORES, strict=True)) / n
    lo, hi = score_interval(counts, confidence)
    if var > 0:
        nelo = (mu - 0.5) / math.sqrt(2 * var) * NELO_PER_T
    else:
        nelo = 0.0 if mu == 0.5 else math.copysign(math.inf, mu - 0.5)
    return PairStats(
        (counts[0], counts[1], counts[2], counts[3], counts[4]),
        n,
        mu,
        var,
        (lo, hi),
        elo_of(mu),
        (elo_of(lo), elo_of(hi)),
        nelo,
        los(counts),
    )


def posterior_beta(counts: Sequence[int]) -> tuple[float, float]:
    """(a, b): the Beta distribution with the mean and variance of the
    posterior mean score (counts plus ``PRIOR_PAIRS``, a Dirichlet
    posterior). For a Dirichlet with weights w (total W) the mean score
    sum w_i a_i / W has variance (sum w_i a_i^2 / W - m^2) / (W + 1); with
    pairs only at 0 and 1 the Beta is that mean's exact distribution."""
    _check_counts(counts)
    w = [c + p for c, p in zip(counts, PRIOR_PAIRS, strict=True)]
    total = sum(w)
    m = sum(wi * a for wi, a in zip(w, PAIR_SCORES, strict=True)) / total
    var = (sum(wi * a * a for wi, a in zip(w, PAIR_SCORES, strict=True)) / total - m * m) / (total + 1)
    k = m * (1 - m) / var - 1  # > 0: a mean on [0, 1] has variance below m (1 - m)
    return m * k, (1 - m) * k


def score_interval(counts: Sequence[int], confidence: float = 0.95) -> tuple[float, float]:
    """The equal-tailed ``confidence`` interval of the pair score (see the
    module docstring); the whole of [0, 1] without pairs."""
    n = _check_counts(counts)
    if n == 0:
        return (0.0, 1.0)
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    a, b = posterior_beta(counts)
    tail = (1 - confidence) / 2
    lo, hi = beta_ppf(tail, a, b), beta_ppf(1 - tail, a, b)
    mu = sum(c * s for c, s in zip(counts, PAIR_SCORES, strict=True)) / n
    # Jeffreys' ends: a sample at an end of the scale keeps that end.
    return (0.0 if mu == 0 else min(lo, mu), 1.0 if mu == 1 else max(hi, mu))


def los(counts: Sequence[int]) -> float:
    """The likelihood of superiority: the posterior probability that the
    pair score is above 1/2 (1/2 without pairs)."""
    if _check_counts(counts) == 0:
        return 0.5
    a, b = posterior_beta(counts)
    return 1.0 - beta_cdf(0.5, a, b)


def beta_cdf(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function I_x(a, b): the continued
    fraction of the incomplete beta integral (evaluated by the modified
    Lentz method), on the side of the symmetry I_x(a, b) = 1 - I_{1-x}(b, a)
    where it converges fast."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    if x > (a + 1) / (a + b + 2):
        return 1.0 - beta_cdf(1 - x, b, a)
    log_front = a * math.log(x) + b * math.log1p(-x) - math.log(a) - (
        math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)
    )
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    f = d
    for m in range(1, 100_000):
        for num in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            f *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return min(1.0, max(0.0, math.exp(log_front) * f))


def beta_ppf(q: float, a: float, b: float) -> float:
    """The ``q`` quantile of Beta(a, b), by bisection on ``beta_cdf``."""
    lo, hi = 0.0, 1.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if beta_cdf(mid, a, b) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _check_counts(counts: Sequence[int]) -> int:
    if len(counts) != 5 or any((not isinstance(c, int)) or c < 0 for c in counts):
        raise ValueError(f"pentanomial counts are five non-negative integers, got {list(counts)}")
    return sum(counts)


def mle_with_mean(pdf: Sequence[float], scores: Sequence[float], s: float) -> list[float]:
    """The distribution on ``scores`` closest in likelihood to ``pdf`` whose
    mean is ``s``: p_i = pdf_i / (1 + x (a_i - s)), x the root of
    sum_i pdf_i (a_i - s) / (1 + x (a_i - s)) = 0 (found by bisection; the
    sum falls monotonically in x on the interval where all p_i > 0)."""
    lo_a, hi_a = min(scores), max(scores)
    if not lo_a < s < hi_a:
        raise ValueError(f"the mean {s} must lie strictly between {lo_a} and {hi_a}")
    d = [a - s for a in scores]
    lo, hi = -1 / (hi_a - s), 1 / (s - lo_a)

    def g(x: float) -> float:
        return sum(p * di / (1 + x * di) for p, di in zip(pdf, d, strict=True))

    # The ends make some 1 + x d_i vanish; stay just inside.
    a, b = lo + 1e-12 * (hi - lo), hi - 1e-12 * (hi - lo)
    for _ in range(200):
        m = (a + b) / 2
        if g(m) > 0:
            a = m
        else:
            b = m
    x = (a + b) / 2
    return [p / (1 + x * di) for p, di in zip(pdf, d, strict=True)]


def llr(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """fishtest's GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0)
    for pentanomial counts (logistic Elo)."""
    n = _check_counts(counts)
    if n == 0:
        return 0.0
    reg = [max(float(c), _REGULARIZE) for c in counts]
    total = sum(reg)
    pdf = [c / total for c in reg]
    p0 = mle_with_mean(pdf, PAIR_SCORES, logistic_score(elo0))
    p1 = mle_with_mean(pdf, PAIR_SCORES, logistic_score(elo1))
    return total * sum(p * math.log(b / a) for p, a, b in zip(pdf, p0, p1, strict=True))


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """(lower, upper): accept H0 at or below ``lower``, H1 at or above ``upper``."""
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError(f"alpha and beta must be in (0, 1), got {alpha}, {beta}")
    return (math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha))


def sprt_result(
    counts: Sequence[int], elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05
) -> dict[str, object]:
    """``{"result": "H0" | "H1" | "none", "llr", "bounds", "pairs"}``."""
    if not elo1 > elo0:
        raise ValueError(f"elo1 must be above elo0, got elo0={elo0}, elo1={elo1}")
    value = llr(counts, elo0, elo1)
    lo, hi = sprt_bounds(alpha, beta)
    result = "H1" if value >= hi else "H0" if value <= lo else "none"
    return {"result": result, "llr": value, "bounds": [lo, hi], "pairs": sum(counts)}
