"""bench.planner budget-use: with a low cap on samples a candidate the cap
ends the search before the clock; raised, the clock does and buys more
strokes."""

from __future__ import annotations

from bench.planner import budget_use


def test_raising_the_sample_cap_lets_the_budget_buy_more_strokes() -> None:
    low = budget_use(0.3, 1, ["free"], samples=2)["variants"]["free"]
    high = budget_use(0.3, 1, ["free"], samples=4096)
    row = high["variants"]["free"]
    assert high["samples"] == 4096 and row["positions"] == 1
    assert row["mean_sims"] > low["mean_sims"]
    assert low["mean_s"] < 0.3 <= row["mean_s"] + 0.05
