"""Statistics for match results: win-rate intervals and Elo differences.

Wilson score interval (Wilson 1927) for a binomial proportion: better than
the normal approximation near 0 or 1 and for small samples, which is where
agent comparisons usually live. Elo difference from a win rate by the
logistic model: D = -400 log10(1/p - 1) (docs/references.md: 55% -> +35,
60% -> +70, 75% -> +191).
"""

from __future__ import annotations

import math
from statistics import NormalDist


def z_for(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson_interval(wins: float, games: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for ``wins`` successes in ``games`` trials.

    Draws may be counted as half wins (``wins`` is a float). With no games
    the interval is the whole of [0, 1].
    """
    if games < 0 or wins < 0 or wins > games:
        raise ValueError(f"need 0 <= wins <= games, got wins={wins}, games={games}")
    if games == 0:
        return (0.0, 1.0)
    z = z_for(confidence)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo_difference(p: float) -> float:
    """Elo difference implied by win rate ``p``; +-inf at 1 and 0."""
    if not 0 <= p <= 1:
        raise ValueError(f"win rate must be in [0, 1], got {p}")
    if p == 0:
        return -math.inf
    if p == 1:
        return math.inf
    return -400 * math.log10(1 / p - 1)


def elo_interval(wins: float, games: int, confidence: float = 0.95) -> tuple[float, float, float]:
    """(elo, lo, hi): the Elo difference and the image of the Wilson interval."""
    p = wins / games if games else 0.5
    lo, hi = wilson_interval(wins, games, confidence)
    return elo_difference(p), elo_difference(lo), elo_difference(hi)


def games_to_detect(p1: float, p0: float = 0.5, alpha: float = 0.05, power: float = 0.8) -> int:
    """Games needed for a two-sided test at level ``alpha`` to tell win rate
    p1 from p0 with the given power (normal approximation). docs/references.md:
    55% vs 50% ~785; 60% ~197."""
    if not (0 < p0 < 1 and 0 < p1 < 1) or p1 == p0:
        raise ValueError("need 0 < p0, p1 < 1 and p1 != p0")
    za = NormalDist().inv_cdf(1 - alpha / 2)
    zb = NormalDist().inv_cdf(power)
    num = za * math.sqrt(p0 * (1 - p0)) + zb * math.sqrt(p1 * (1 - p1))
    return math.ceil((num / (p1 - p0)) ** 2)
