"""Agent specs: NAME or NAME:key=value:... everywhere an agent is named."""

from __future__ import annotations

import pytest

from piramida.agents.specs import AgentSpecError, parse_duration, parse_spec, parse_specs


def test_plain_names_and_options() -> None:
    assert parse_spec("greedy").name == "greedy"
    p = parse_spec("planner:budget=500ms:noise=amateur")
    assert p.name == "planner" and dict(p.options) == {"budget_s": 0.5, "noise": "amateur"}
    assert str(p) == "planner:budget=500ms:noise=amateur"
    assert [s.name for s in parse_specs("planner:sims=300,greedy", count=2)] == ["planner", "greedy"]


def test_caller_defaults_fill_what_the_spec_leaves_out() -> None:
    defaults = {"budget_s": 1.0, "n_sims": None, "noise": "pro"}
    assert parse_spec("planner").kwargs(defaults) == defaults
    # sims in the spec replaces the caller's time budget
    assert parse_spec("planner:sims=200").kwargs(defaults) == {"budget_s": None, "n_sims": 200, "noise": "pro"}
    assert parse_spec("greedy").kwargs({"seed": 4}) == {"seed": 4}
    # so does a rollout count, and a time budget replaces the caller's count
    assert parse_spec("planner:rollouts=20").kwargs(defaults) == {"budget_s": None, "n_rollouts": 20, "noise": "pro"}
    counted = {"budget_s": None, "n_sims": 200, "noise": "pro"}
    assert parse_spec("planner:budget=2s").kwargs(counted) == {"budget_s": 2.0, "noise": "pro"}


def test_built_agents_take_the_options() -> None:
    agent = parse_spec("planner:sims=123:noise=novice:book=false").build({"seed": 3})
    assert agent.n_sims == 123 and agent.budget_s is None and agent.noise.name == "novice" and agent.search.book is False


def test_a_planner_takes_a_named_search() -> None:
    """``planner:search=NAME`` gives it that search, field for field; the
    spec's list of names is the planner's (parsing a spec imports no
    planner)."""
    from piramida.agents.planner import PLANNER_SEARCHES
    from piramida.agents.shots import PLANNER, SEARCHES
    from piramida.agents.specs import KEYS

    assert parse_spec("planner:sims=10").build({}).search == PLANNER
    for name in PLANNER_SEARCHES:
        assert KEYS["planner"]["search"].parse(name, "planner:search") == name
        assert parse_spec(f"planner:sims=10:search={name}").build({}).search == SEARCHES[name]
    assert SEARCHES["wide"] != PLANNER and SEARCHES["lean"] != PLANNER


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "agent spec is NAME"),
        ("alphazero", "unknown agent 'alphazero'; known: random, greedy, planner"),
        ("greedy:budget=1s", r"greedy: unknown key 'budget' \(known: noise\)"),
        ("planner:depth=3", r"unknown key 'depth' \(known: budget, sims, rollouts, noise, value, book, seed, prior, top, explore, blend, gen, samples, search\)"),
        ("planner:blend=-1", "blend must be a number from 0 to 100"),
        ("planner:blend=much", "blend must be a number from 0 to 100"),
        ("planner:search=greedy", "search must be one of planner, wide, lean"),
        ("planner:budget", "expected key=value"),
        ("planner:budget=fast", "budget must look like"),
        ("planner:budget=0s", "more than 0"),
        ("planner:sims=0", "from 1 to"),
        ("planner:sims=1e9", "whole number"),
        ("planner:noise=expert", "noise preset 'expert' not found"),
        ("planner:value=best", "must be one of auto, race, turn"),
        ("planner:book=maybe", "true or false"),
        ("planner:sims=5:sims=6", "given twice"),
        ("planner:sims=5:budget=1s", "one of budget, sims and rollouts"),
        ("planner:rollouts=5:sims=9", "one of budget, sims and rollouts"),
        ("planner:rollouts=0", "rollouts"),
    ],
)
def test_bad_specs_are_one_line(text: str, match: str) -> None:
    with pytest.raises(Exception, match=match) as info:
        parse_spec(text)
    assert "\n" not in str(info.value)
    from piramida.env.errors import PiramidaError

    assert isinstance(info.value, PiramidaError)


def test_counts_and_durations() -> None:
    with pytest.raises(AgentSpecError, match="expected 2 agents"):
        parse_specs("greedy", count=2)
    assert parse_duration("2") == 2.0 and parse_duration("250ms") == 0.25


def test_planner_seed_key_changes_its_seeds_and_zero_changes_nothing():
    from piramida.agents.specs import parse_spec

    plain = parse_spec("planner:sims=30").build()
    salted = parse_spec("planner:sims=30:seed=7").build()
    plain.reset(123)
    salted.reset(123)
    assert plain.seed == 123
    assert salted.seed != 123
    again = parse_spec("planner:sims=30:seed=7").build()
    again.reset(123)
    assert again.seed == salted.seed


def test_model_files_are_the_policy_and_value_files_a_spec_names() -> None:
    guided = parse_spec("planner:sims=50:value=models/free_value.pt:prior=models/free_policy.pt")
    assert guided.model_files() == ["models/free_value.pt", "models/free_policy.pt"]
    assert parse_spec("planner:value=race:noise=pro").model_files() == []
    assert parse_spec("policy:path=models/free_policy.pt").model_files() == ["models/free_policy.pt"]
