"""``strokes.best_break`` keeps the values of greedy's break strokes per
rack layout where the referee says a break's value does not read the
balls' numbers (``Referee.break_by_layout``): the next frame from that
layout judges only the stroke chosen, and gets the trial, and counts the
strokes, that judging them all gives."""

from __future__ import annotations

import pytest

from piramida.agents.shots import Budget
from piramida.agents.shots.context import Context
from piramida.agents.shots.strokes import best_break, break_strokes, break_trials
from piramida.env.game import Game
from piramida.env.position import Position
from piramida.env.rules import get_referee
from piramida.env.view import GameView

COUNTED = ("free", "combined", "moscow", "nevskaya", "dynamic")


def ctx_of(pos: Position, options: dict | None = None, budget: Budget | None = None) -> Context:
    return Context(GameView.of(Game.new(pos.variant, position=pos, options=options)), budget)


def judged_all(ctx: Context):
    """The first of the highest-valued trials, every stroke judged."""
    best = None
    for tr in break_trials(ctx):
        if best is None or tr.value > best.value:
            best = tr
    return best


@pytest.mark.parametrize("variant", COUNTED)
def test_the_break_values_do_not_read_the_numbers(variant: str) -> None:
    """What ``break_by_layout`` claims, on the racks of several frames (the
    same spots, the balls shuffled): every stroke's value is the same."""
    seen, layouts, labellings = set(), set(), set()
    for seed in range(4):
        pos = Position.start(variant, seed=seed)
        layouts.add(tuple(sorted((x, y) for _b, x, y in pos.balls)))
        labellings.add(pos.balls)
        ctx = ctx_of(pos)
        assert ctx.referee.break_by_layout(ctx.state)
        seen.add(tuple(tr.value for tr in break_trials(ctx)))
    # One rack, its balls shuffled: the claim is tested, not assumed.
    assert len(layouts) == 1 and len(labellings) == 4
    assert len(seen) == 1


@pytest.mark.parametrize("variant", COUNTED)
def test_a_remembered_layout_judges_one_stroke_and_gives_the_same_trial(variant: str, monkeypatch) -> None:
    best_break(ctx_of(Position.start(variant, seed=10)))  # the layout's values kept
    pos = Position.start(variant, seed=11)
    want_ctx = ctx_of(pos, budget=Budget(None, 10**6))
    want = judged_all(want_ctx)
    ctx = ctx_of(pos, budget=Budget(None, 10**6))
    rulings = []
    inner = ctx.ruling
    monkeypatch.setattr(ctx, "ruling", lambda shot, res: rulings.append(shot) or inner(shot, res))
    got = best_break(ctx)
    assert want is not None and got is not None
    assert len(rulings) == 1
    assert got.shot == want.shot and (got.value, got.legal) == (want.value, want.legal)
    assert got.ruling.to_dict() == want.ruling.to_dict()
    assert got.ruling.position == want.ruling.position
    assert ctx.budget is not None and want_ctx.budget is not None
    assert ctx.budget.used == want_ctx.budget.used == len(break_strokes(ctx))


@pytest.mark.parametrize(
    ("variant", "options"), [("classic71", None), ("free", {"scoring": "points"}), ("five_ball", None)]
)
def test_no_values_are_kept_where_the_numbers_count(variant: str, options: dict | None, monkeypatch) -> None:
    pos = Position.start(variant, seed=3)
    ctx = ctx_of(pos, options)
    assert not ctx.referee.break_by_layout(ctx.state)
    best_break(ctx_of(pos, options))
    again = ctx_of(Position.start(variant, seed=4), options)
    rulings = []
    inner = again.ruling
    monkeypatch.setattr(again, "ruling", lambda shot, res: rulings.append(shot) or inner(shot, res))
    best_break(again)
    assert len(rulings) == len(break_trials(ctx_of(Position.start(variant, seed=4), options)))


def test_only_a_fresh_frame_breaks_by_layout() -> None:
    """A re-rack later in a frame carries a score (the break may win the
    frame, and its value reads the score): not kept."""
    ref = get_referee("combined")
    fresh = Position.start("combined", seed=0)
    assert ref.break_by_layout(ref.initial_state(fresh))
    later = fresh.replace(score=(3, 1))
    assert not ref.break_by_layout(ref.initial_state(later))
    assert not get_referee("free", {"scoring": "points"}).break_by_layout(ref.initial_state(fresh))
