"""Bradley-Terry ratings with the breaker's edge, checked on simulated
games whose true strengths are known."""

from __future__ import annotations

import math

import numpy as np
import pytest

from piramida.eval.ratings import ELO_PER_NAT, Game, fit, rate


def _simulate(strength: dict[str, float], h: float, pairs: int, seed: int) -> list[Game]:
    rng = np.random.default_rng(seed)
    names = sorted(strength)
    games = []
    for a in names:
        for b in names:
            if a >= b:
                continue
            for k in range(pairs):
                for breaker, other in ((a, b), (b, a)):
                    d = (strength[breaker] - strength[other] + h) / ELO_PER_NAT
                    win = rng.random() < 1 / (1 + math.exp(-d))
                    games.append(Game(breaker, other, 1.0 if win else 0.0, f"{a}-{b}-{k}"))
    return games


def test_recovers_known_strengths_and_the_breakers_edge() -> None:
    truth = {"greedy": 0.0, "planner": 200.0, "random": -400.0}
    games = _simulate(truth, h=60.0, pairs=1500, seed=1)
    est, h = fit(games)
    assert est["greedy"] == 0.0
    assert est["planner"] == pytest.approx(200, abs=25)
    assert est["random"] == pytest.approx(-400, abs=40)
    assert h == pytest.approx(60, abs=15)


def test_two_players_without_edge_is_the_logistic_elo() -> None:
    # 30 wins of 40, half of them breaking: r = 400 log10(30/10), shrunk a little by the prior.
    games = [Game("a" if i % 2 else "b", "b" if i % 2 else "a", 1.0 if (i < 30) == bool(i % 2) else 0.0, str(i // 2))
             for i in range(40)]
    est, _ = fit(games, anchor="b")
    wins_a = sum((g.breaker == "a") == (g.score == 1.0) for g in games)
    closed = 400 * math.log10(wins_a / (40 - wins_a))
    assert 0 < est["a"] <= closed + 1e-6 and est["a"] == pytest.approx(closed, rel=0.15)


def test_intervals_cover_and_shrink_with_more_pairs() -> None:
    truth = {"greedy": 0.0, "planner": 150.0}
    small, _ = rate(_simulate(truth, 0.0, 40, seed=2), bootstrap=100)
    large, _ = rate(_simulate(truth, 0.0, 400, seed=2), bootstrap=100)
    lo, hi = large["planner"].ci95
    assert lo < 150 < hi
    assert (hi - lo) < (small["planner"].ci95[1] - small["planner"].ci95[0])
    assert large["greedy"].elo == 0.0 and large["planner"].games == 800
