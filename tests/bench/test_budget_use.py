"""bench.planner budget-use: with a low cap on samples a candidate the
planner plays fewer strokes than the budget buys; raised, the clock ends
the search and buys more."""

from __future__ import annotations

from bench.planner import budget_use


def test_raising_the_sample_cap_lets_the_budget_buy_more_strokes() -> None:
    low = budget_use(0.3, 1, ["free"], samples=2)["variants"]["free"]
    high = budget_use(0.3, 1, ["free"], samples=4096)
    row = high["variants"]["free"]
    assert high["samples"] == 4096 and row["positions"] == 1
    assert row["mean_sims"] > low["mean_sims"]
    # Raised, the cap leaves the clock to end the search.
    assert row["mean_s"] >= 0.25
