"""Ratings: Bradley-Terry by maximum likelihood, with the breaker's edge.

Each game is one comparison between the agent who broke and the other:

    P(breaker i beats j) = 1 / (1 + exp(-(r_i - r_j + h)))

``r`` are the agents' strengths and ``h`` the advantage of breaking (the
first-mover advantage BayesElo and Ordo fit as well). A draw counts as half
a win for each side. Strengths are reported in Elo (400 / ln 10 times the
logistic scale), with one agent anchored at 0 (greedy by default).

A rating's 95% interval is the hull of two: a bootstrap that resamples
whole duplicate pairs (both games of a pair together, the statistical
unit, so it carries their correlation), and the normal approximation of
the posterior (the inverse of the log-posterior's curvature at the fit,
prior included). The bootstrap alone fails on small or one-sided samples:
three pairs that greedy won against random resample to the same three
pairs every time and give an interval of width zero; the posterior's
curvature does not vanish there (the prior keeps it positive), and on
many pairs the bootstrap is the wider of the two.

The fit is Newton's method on the log-likelihood with a weak Gaussian prior
(one virtual draw's worth) on the strengths, so that an agent that won or
lost every game still gets a finite rating; ``h`` has no prior.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

ELO_PER_NAT = 400 / math.log(10)
#: Weight of the prior on each strength (in games' worth of information).
PRIOR = 0.5


@dataclass(frozen=True)
class Game:
    """One game for the ratings: who broke, who did not, the breaker's score
    (1 win, 0.5 draw, 0 loss) and the pair it belongs to."""

    breaker: str
    other: str
    score: float
    pair: str


@dataclass(frozen=True)
class Rating:
    elo: float
    ci95: tuple[float, float]
    games: int


Z95 = 1.959964


def fit(games: Sequence[Game], anchor: str | None = "greedy") -> tuple[dict[str, float], float]:
    """Strengths in Elo (anchor at 0, or mean 0 without one) and the
    breaker's advantage in Elo."""
    point, h, _ = _fit(games, anchor)
    return point, h


def _fit(
    games: Sequence[Game], anchor: str | None
) -> tuple[dict[str, float], float, dict[tuple[str, str], float]]:
    """``fit`` and the posterior's variance of every difference of two
    strengths (in Elo squared), keyed by the two names."""
    names = sorted({g.breaker for g in games} | {g.other for g in games})
    if not names:
        return {}, 0.0, {}
    idx = {n: i for i, n in enumerate(names)}
    k = len(names)
    bi = np.array([idx[g.breaker] for g in games])
    oi = np.array([idx[g.other] for g in games])
    s = np.array([g.score for g in games], dtype=float)
    theta = np.zeros(k + 1)  # strengths, then h
    for _ in range(100):
        r, h = theta[:k], theta[k]
        p = 1 / (1 + np.exp(-(r[bi] - r[oi] + h)))
        resid = s - p
        w = p * (1 - p)
        grad = np.zeros(k + 1)
        np.add.at(grad, bi, resid)
        np.add.at(grad, oi, -resid)
        grad[k] = resid.sum()
        grad[:k] -= PRIOR * r
        hess = np.zeros((k + 1, k + 1))
        np.add.at(hess, (bi, bi), w)
        np.add.at(hess, (oi, oi), w)
        np.add.at(hess, (bi, oi), -w)
        np.add.at(hess, (oi, bi), -w)
        col = np.zeros(k)
        np.add.at(col, bi, w)
        np.add.at(col, oi, -w)
        hess[:k, k] = col
        hess[k, :k] = col
        hess[k, k] = w.sum()
        hess[np.arange(k), np.arange(k)] += PRIOR
        step = np.linalg.solve(hess + 1e-12 * np.eye(k + 1), grad)
        theta += step
        if np.max(np.abs(step)) < 1e-10:
            break
    r = theta[:k] * ELO_PER_NAT
    zero = r[idx[anchor]] if anchor in idx else float(r.mean())
    # The curvature at the fit (``hess`` of the last step is within 1e-10
    # of it): its inverse is the posterior's covariance.
    cov = np.linalg.inv(hess + 1e-12 * np.eye(k + 1))[:k, :k] * ELO_PER_NAT**2
    diff = {
        (a, b): float(cov[i, i] + cov[j, j] - 2 * cov[i, j]) for a, i in idx.items() for b, j in idx.items()
    }
    if anchor not in idx:  # against the mean of all strengths
        mean_c = np.full(k, 1 / k)
        for a, i in idx.items():
            c = -mean_c
            c[i] += 1
            diff[(a, "")] = float(c @ cov @ c)
    return {n: float(r[i] - zero) for n, i in idx.items()}, float(theta[k] * ELO_PER_NAT), diff


def rate(
    games: Sequence[Game],
    anchor: str | None = "greedy",
    bootstrap: int = 200,
    seed: int = 0,
) -> tuple[dict[str, Rating], float]:
    """Ratings with 95% intervals (the hull of the bootstrap over pairs and
    the posterior's normal approximation), and the breaker's advantage in
    Elo."""
    point, h, diff = _fit(games, anchor)
    by_pair: dict[str, list[Game]] = {}
    for g in games:
        by_pair.setdefault(g.pair, []).append(g)
    keys = sorted(by_pair)
    rng = np.random.default_rng(seed)
    samples: dict[str, list[float]] = {n: [] for n in point}
    for _ in range(bootstrap if keys else 0):
        pick = rng.integers(len(keys), size=len(keys))
        resampled = [g for i in pick for g in by_pair[keys[i]]]
        est, _ = fit(resampled, anchor)
        for n in point:
            if n in est:
                samples[n].append(est[n])
    counts = {n: sum(1 for g in games if n in (g.breaker, g.other)) for n in point}
    out = {}
    for n, e in point.items():
        xs = samples[n]
        half = Z95 * math.sqrt(max(0.0, diff[(n, anchor)] if anchor in point else diff[(n, "")]))
        lo, hi = e - half, e + half
        if xs:
            lo, hi = min(lo, float(np.percentile(xs, 2.5))), max(hi, float(np.percentile(xs, 97.5)))
        out[n] = Rating(e, (lo, hi), counts[n])
    return out, h


def los_matrix(games: Sequence[Game], anchor: str | None = "greedy") -> dict[str, dict[str, float]]:
    """The likelihood of superiority of every agent over every other from
    the ratings: Phi of the difference of strengths over its posterior
    standard deviation (agents that never met are compared through those
    they both met)."""
    from statistics import NormalDist

    point, _, diff = _fit(games, anchor)
    phi = NormalDist().cdf
    return {
        a: {b: phi((point[a] - point[b]) / math.sqrt(diff[(a, b)])) if a != b and diff[(a, b)] > 0 else 0.5
            for b in point}
        for a in point
    }
