"""``bench.planner match``: the planner with changed keywords against greedy
or against the planner as it is."""

from __future__ import annotations

from bench.planner import match


def test_a_changed_planner_plays_the_planner_as_it_is() -> None:
    out = match("free", 2, sims=30, budget=None, seed=1, extra={"max_lines": 2, "keep_pots": 2}, against="planner")
    assert out["agents"] == ["planner", "planner"] and out["games"] == 2
    assert out["planner_kwargs"]["max_lines"] == 2 and out["planner_kwargs"]["n_sims"] == 30
    # The opponent is the planner at the same budget, without the changes.
    assert out["against_kwargs"] == {"noise": "pro", "n_sims": 30, "budget_s": None}
    assert sum(out["wins"]) + out["draws"] == 2


def test_against_greedy_by_default() -> None:
    out = match("free", 2, sims=30, budget=None, seed=1)
    assert out["agents"] == ["planner", "greedy"] and out["against_kwargs"] == {}
