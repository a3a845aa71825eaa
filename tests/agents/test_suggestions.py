"""agents/suggestions.py: the shown shots are measured alike and ordered by
the value they show, their rates come with Wilson intervals, a time budget
is spent or the answer says why not, and shots read rounded."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from piramida.agents import suggestions as S
from piramida.agents.planner import PlannerAgent
from piramida.agents.suggestions import advise, ranking_agent, suggestions_for, wilson
from piramida.env.position import Position
from piramida.env.shot import Shot

ROOT = Path(__file__).resolve().parents[2]
MIDGAME = Position.from_dict(json.loads((ROOT / "docs" / "examples" / "combined_midgame.json").read_text()))
FREE = Position.from_dict(json.loads((ROOT / "docs" / "examples" / "free_reference.json").read_text()))


# ------------------------------------------------------------------ the interval
@pytest.mark.parametrize(
    ("k", "n", "lo", "hi"),
    # Wilson's 95% intervals as tabulated (Newcombe 1998, Table I; Agresti & Coull 1998).
    [(0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634), (10, 10, 0.7225, 1.0), (81, 263, 0.2553, 0.3662)],
)
def test_wilson_interval_matches_the_tables(k: int, n: int, lo: float, hi: float) -> None:
    got = wilson(k, n)
    assert got[0] == pytest.approx(lo, abs=6e-5) and got[1] == pytest.approx(hi, abs=6e-5)


def test_wilson_interval_holds_the_rate_and_narrows_with_samples() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    widths = []
    for n in (8, 32, 128, 512):
        k = round(0.9 * n)
        lo, hi = wilson(k, n)
        assert 0.0 <= lo <= k / n <= hi <= 1.0
        widths.append(hi - lo)
    assert widths == sorted(widths, reverse=True)


# ------------------------------------------------------------------ rounding
def test_a_shot_reads_rounded_and_parses_back_close_to_the_exact_one() -> None:
    shot = Shot("0", phi=70.07283556406661, v=1.23456, a=0.123456, b=-0.34567, theta=2.0049,
                place=(0.12345, 0.67891))
    text = shot.to_text(rounded=True)
    assert text == "ball=0 phi=70.07 v=1.23 a=0.12 b=-0.35 theta=2 place=0.123,0.679"
    back = Shot.from_text(text)
    for name in ("phi", "v", "a", "b", "theta"):
        assert getattr(back, name) == pytest.approx(getattr(shot, name), abs=0.005)
    assert back.place == pytest.approx(shot.place, abs=0.0005)
    assert Shot("0", phi=90.0, v=1.0).to_text(rounded=True) == "ball=0 phi=90 v=1 a=0 b=0 theta=0"


# ------------------------------------------------------------------ order and samples
def test_shown_shots_are_measured_alike_and_ordered_by_their_value() -> None:
    ranker = ranking_agent("planner", None, "pro", 0, 300)
    found = suggestions_for(MIDGAME, ranker, top=3)
    plans = found.plans
    assert len(plans) == 3
    values = [p.value for p in plans]
    assert values == sorted(values, reverse=True)
    # The same samples each, at least the least shown, with common draws.
    assert len({p.samples for p in plans}) == 1 and plans[0].samples >= S.MIN_SHOWN_SAMPLES
    # The shown shots are the ones the planner's search ranked highest.
    searched = ranking_agent("planner", None, "pro", 0, 300)
    from piramida.env.view import GameView

    top = searched.plan(GameView.for_position(MIDGAME), top=3)
    assert {p.shot for p in plans} == {p.shot for p in top}
    # The value sorted by is the one the JSON and the text carry.
    shots = found.to_dict()["shots"]
    assert [s["value"] for s in shots] == [round(v, 4) for v in values]
    assert [s["value_text"] for s in shots] == [f"{v:+.3f}" for v in values]


def test_the_value_says_what_it_is_and_for_whom() -> None:
    turn = advise(MIDGAME, ranking_agent("planner", None, "pro", 0, 100), top=1)
    assert turn.meaning.startswith(f"what the shot is worth to p{MIDGAME.to_move}, the player to move, in balls")
    assert "the table it leaves" in turn.meaning and not turn.win_chance
    race = advise(FREE, ranking_agent("planner", None, "pro", 0, 100), top=1)
    assert race.win_chance and f"the chance that p{FREE.to_move}" in race.meaning and "wins the frame" in race.meaning
    assert race.value_text(race.plans[0]).endswith("%")


def test_the_json_gives_each_rate_its_interval_over_the_samples() -> None:
    found = advise(MIDGAME, ranking_agent("planner", None, "pro", 0, 200), top=2)
    d = found.to_dict()
    assert list(d) == ["value_meaning", "shots", "search"]
    assert set(d["search"]) == {"budget_s", "sims", "time_s", "candidates", "strokes", "stopped"}
    assert d["search"]["sims"] == 200 and d["search"]["strokes"] >= 200 + 2 * S.MIN_SHOWN_SAMPLES
    for s, p in zip(d["shots"], found.plans, strict=True):
        n = s["samples"]
        for rate in ("p_pot", "p_foul"):
            lo, hi = s[f"{rate}_interval"]
            want = wilson(round(getattr(p, rate) * n), n)
            assert (lo, hi) == (round(want[0], 4), round(want[1], 4))
            assert lo <= s[rate] <= hi
        assert Shot.from_text(s["shot"]) == p.shot  # exact: it round-trips
        assert s["rounded"] == p.shot.to_text(rounded=True)


def test_without_noise_one_stroke_decides_and_no_interval_is_given() -> None:
    found = advise(MIDGAME, ranking_agent("planner", None, "none", 0, 100), top=2)
    assert "without noise" in found.stopped and not found.noisy
    assert all(s["p_pot_interval"] is None for s in found.to_dict()["shots"])


# ------------------------------------------------------------------ budgets
def test_a_time_budget_is_spent_or_the_answer_says_why_it_stopped() -> None:
    budget = 1.0
    found = advise(MIDGAME, ranking_agent("planner", budget, "pro", 0, None), top=3)
    assert found.budget_s == budget and found.n_sims is None
    if "budget was spent" in found.stopped:
        assert found.time_s >= 0.8 * budget
    else:
        assert f"{S.MAX_SHOWN_SAMPLES} samples" in found.stopped
    # The measuring went on past what the search alone gives a shot.
    assert found.plans[0].samples > PlannerAgent().n_samples or found.time_s >= 0.8 * budget


def test_a_time_budget_stops_early_at_the_most_samples_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(S, "MAX_SHOWN_SAMPLES", 64)
    found = advise(MIDGAME, ranking_agent("planner", 30.0, "pro", 0, None), top=2)
    m = re.fullmatch(r"stopped after (\d+\.\d\d) s: every shown shot has 64 samples, the most it gets.*",
                     found.stopped)
    assert m is not None, found.stopped
    assert math.isclose(float(m.group(1)), found.time_s, abs_tol=0.05)
    assert all(p.samples == 64 for p in found.plans)


def test_a_simulation_count_gives_the_same_answer_every_time() -> None:
    a = advise(MIDGAME, ranking_agent("planner", None, "pro", 5, 150), top=3).to_dict()
    b = advise(MIDGAME, ranking_agent("planner", None, "pro", 5, 150), top=3).to_dict()
    a["search"].pop("time_s")
    b["search"].pop("time_s")
    assert a == b and "simulation count" in a["search"]["stopped"]


def test_a_rollout_count_limits_the_search_and_says_so() -> None:
    """``planner:rollouts=N`` in ``suggest``: the search spends its N noisy
    samples (not an unlimited search), and the answer says so."""
    found = advise(MIDGAME, ranking_agent("planner:rollouts=40", None, "pro", 5, None), top=3)
    again = advise(MIDGAME, ranking_agent("planner:rollouts=40", None, "pro", 5, None), top=3)
    assert found.stopped.startswith("a simulation count: 40 noisy samples of search")
    assert [p.shot for p in found.plans] == [p.shot for p in again.plans]
    shown = len(found.plans) * found.plans[0].samples
    # The search's trials plus 40 rollouts plus the shown shots' samples.
    assert found.strokes - shown < 200
