"""Suggestions where the referee accepts a shot, a one-line reason where it
accepts none (docs/rules.md "How a frame ends", docs/agents.md): the
planner never ranks fouls as advice when no legal shot exists, always finds
a legal shot when one does, and greedy's fallback never fails on an empty
table."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from piramida.agents import make_agent
from piramida.agents.base import NoLegalShotError
from piramida.agents.greedy import GreedyAgent
from piramida.agents.planner import Allowance, PlannerAgent
from piramida.agents.shots.context import Context
from piramida.agents.shots.strokes import fallback
from piramida.agents.suggestions import suggest
from piramida.cli import app
from piramida.env.errors import PiramidaError
from piramida.env.physics import simulate
from piramida.env.position import VARIANTS, Position, cue_ball_of, object_ball_ids
from piramida.env.view import GameView

runner = CliRunner()
SIMS = 120


def plan(text: str, sims: int = SIMS, top: int = 1) -> list:
    return suggest(Position.parse(text), budget_s=None, n_sims=sims, top=top)


def assert_legal(pos: Position, shot: object) -> None:
    view = GameView.for_position(pos)
    view.referee.check_shot(view.state, shot)
    simulate(view.state.position, shot)  # the physics takes it too


# ------------------------------------------------------------------ no legal shot
NONE = [
    (
        "variant=combined balls=0:0.8,1.0",
        "no legal shot exists: only the cue ball 0 is on the table, with no object ball to contact "
        "(item 5.1); the frame is over, a draw at 0-0",
    ),
    (
        "variant=classic71 balls=0:0.8,1.0 score=20,30",
        "no legal shot exists: only the cue ball 0 is on the table",
    ),
    (
        "variant=free balls=0:0.8,1.0",
        "no legal shot exists: only ball 0 is left, with no other ball to contact (item 5.1); "
        "the frame is over, a draw at 0-0",
    ),
    (
        "variant=free balls=3:0.8,1.0 shelves=1,2,4,6,7|8,9,10 score=5,3",
        "no legal shot exists: only ball 3 is left, with no other ball to contact (item 5.1); "
        "the frame is over, player 0 won 5-3",
    ),
    (
        "variant=five_ball balls=w1:0.8,1.0",
        "no legal shot exists: no ball the player may strike has another ball to call (item 5.1)",
    ),
    (
        "variant=combined balls=0:0.8,1.0;9:0.5,2.0 shelves=1,2,3,4,5,6,7,8|- score=8,0",
        "the frame is over: player 0 won 8-0",
    ),
]


@pytest.mark.parametrize(("text", "want"), NONE)
def test_no_legal_shot_is_one_clear_line(text: str, want: str) -> None:
    with pytest.raises(NoLegalShotError) as err:
        plan(text)
    msg = str(err.value)
    assert msg.startswith(want) and "\n" not in msg
    assert msg.endswith(")") and "(position: variant=" in msg
    assert isinstance(err.value, PiramidaError)


def test_the_suggest_command_prints_the_reason_on_one_line() -> None:
    res = runner.invoke(app, ["suggest", "--position", "variant=combined balls=0:0.8,1.0", "--sims", "50"])
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "no legal shot exists: only the cue ball 0 is on the table" in lines[0]


def test_greedy_fallback_on_an_empty_table_says_why() -> None:
    for text in ("variant=free balls=-", "variant=free balls=5:0.5,1.0", "variant=combined balls=0:0.5,1.0"):
        pos = Position.parse(text)
        ctx = Context(GameView.for_position(pos))
        with pytest.raises(NoLegalShotError, match="no legal shot exists|frame is over"):
            fallback(ctx)
        with pytest.raises(NoLegalShotError):
            GreedyAgent().act(GameView.for_position(pos))


# ------------------------------------------------------------------ a legal shot exists
def test_free_pyramid_with_the_coloured_ball_in_hand_gets_a_legal_suggestion() -> None:
    # The position: the referee lets the coloured ball be placed in
    # the house and struck; the planner used to find nothing.
    text = "variant=free balls=3:1.3,2.95;5:0.5,2.5 in_hand=house"
    plans = plan(text, sims=200, top=3)
    assert plans
    pos = Position.parse(text)
    for p in plans:
        assert p.shot.ball == "0" and p.shot.place is not None
        assert pos.table.in_house(*p.shot.place)
        assert_legal(pos, p.shot)
    assert plans[0].kind == "pot" and plans[0].p_foul < 0.5


@pytest.mark.parametrize("variant", ["free", "combined"])
def test_a_break_with_one_object_ball_is_played_to_pot_it(variant: str) -> None:
    # Item 12.1: with one object ball only a pot makes the break legal; the
    # planner offers pots from the house, and its best shot does not foul
    # every time.
    text = f"variant={variant} balls=5:0.8,2.5 in_hand=house break=1"
    plans = plan(text, sims=400, top=5)
    assert any(p.kind == "pot" for p in plans)
    assert plans[0].p_foul < 1.0 and plans[0].p_pot > 0.0
    for p in plans:
        assert_legal(Position.parse(text), p.shot)


def test_in_hand_in_the_house_with_every_object_ball_there_is_played_from_beyond_the_rear_line() -> None:
    text = "variant=combined balls=3:0.8,0.5;4:0.3,0.4 in_hand=house"
    plans = plan(text)
    assert plans and plans[0].shot.place is not None
    assert Position.parse(text).table.in_rear_house(*plans[0].shot.place)


def _random_position(rng: random.Random, variant: str, kind: str | None) -> Position:
    objs = list(object_ball_ids(variant)) + (["w2"] if variant == "five_ball" else [])
    chosen = rng.sample(objs, rng.randint(1, min(4, len(objs))))
    if kind is None:
        chosen.append(cue_ball_of(variant, 0))
    balls: dict[str, tuple[float, float]] = {}
    for b in chosen:
        while True:
            x, y = rng.uniform(0.1, 1.67), rng.uniform(0.1, 3.45)
            if all((x - a) ** 2 + (y - c) ** 2 > 0.08**2 for a, c in balls.values()):
                balls[b] = (x, y)
                break
    return Position.from_balls(variant, balls, in_hand=kind)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_position_the_referee_accepts_gets_a_legal_suggestion(variant: str) -> None:
    rng = random.Random(VARIANTS.index(variant))
    for kind in (None, "house", "rear_house", "anywhere"):
        for _ in range(2):
            pos = _random_position(rng, variant, kind)
            view = GameView.for_position(pos)
            why = view.referee.why_no_shot(view.state)
            planner = PlannerAgent(budget=Allowance(budget_s=None, n_sims=40))
            if why is not None:
                with pytest.raises(NoLegalShotError):
                    planner.plan(view, top=1)
                continue
            plans = planner.plan(view, top=1)
            assert plans, pos.to_text()
            assert_legal(pos, plans[0].shot)


def test_agents_act_legally_in_a_free_position_with_the_coloured_ball_in_hand() -> None:
    from piramida.env.game import Game

    pos = Position.parse("variant=free balls=3:1.3,2.95;5:0.5,2.5 in_hand=house")
    for name in ("random", "greedy", "planner"):
        game = Game.new("free", position=pos)
        kw = {"budget_s": None, "n_sims": 60} if name == "planner" else {}
        shot = make_agent(name, seed=0, **kw).act(GameView.of(game))
        game.check_shot(shot)
        assert shot.ball == "0" and shot.place is not None
