"""From the action space to legal shots: parameter maps and placement."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from piramida.env.game import Game
from piramida.env.gym.decode import InvalidActionError, decode, place_in_zone, shot_params, zone
from piramida.env.gym.encode import legal
from piramida.env.gym.spaces import CHOICE_INDEX, CHOICES, action_space
from piramida.env.position import Position
from piramida.env.shot import MAX_SPEED, MAX_THETA, MISCUE_LIMIT, Shot
from piramida.env.table import Table

unit = st.floats(-1.5, 1.5, allow_nan=False)


@settings(max_examples=80)
@given(st.lists(unit, min_size=7, max_size=7))
def test_any_parameters_make_a_valid_shot(u: list[float]) -> None:
    phi, v, a, b, theta, pu, pv = shot_params(u)
    shot = Shot("0", phi, v, a, b, theta)  # raises on anything out of range
    assert -180 <= shot.phi <= 180 and 0 < shot.v <= MAX_SPEED
    assert math.hypot(shot.a, shot.b) <= MISCUE_LIMIT and 0 <= shot.theta <= MAX_THETA
    assert -1 <= pu <= 1 and -1 <= pv <= 1


def test_parameter_ends_reach_the_legal_range_ends() -> None:
    lo = shot_params([-1] * 7)
    hi = shot_params([1, 1, 0, 0, 1, 1, 1])
    assert lo[0] == -180 and hi[0] == 180
    assert lo[1] == pytest.approx(0.1) and hi[1] == pytest.approx(MAX_SPEED)
    assert lo[4] == 0 and hi[4] == pytest.approx(MAX_THETA)
    with pytest.raises(InvalidActionError, match="7 numbers"):
        shot_params([0.0] * 6)


def _crowded_house(table: Table) -> Position:
    # Balls scattered in the house, the coloured ball in hand in the house.
    rng = np.random.default_rng(0)
    r = table.ball_radius
    balls: dict[str, tuple[float, float]] = {}
    ids = iter(str(i) for i in range(1, 16))
    while len(balls) < 12:
        x = float(rng.uniform(r, table.width - r))
        y = float(rng.uniform(r, table.house_line - r))
        if all(math.hypot(x - bx, y - by) >= 2 * r for bx, by in balls.values()):
            balls[next(ids)] = (x, y)
    # One ball beyond the house: with every ball in the house the referee
    # would move the ball in hand beyond the rear line (docs/game_rules.md item 21.2).
    balls[next(ids)] = (table.width / 2, table.length / 2)
    return Position.from_balls("free", balls, in_hand="house", table=table)


@settings(max_examples=60)
@given(unit, unit, st.sampled_from(["house", "rear_house", "anywhere"]))
def test_placement_is_in_the_zone_and_free(pu: float, pv: float, kind: str) -> None:
    t = Table.default()
    pos = _crowded_house(t)
    (x, y), _ = place_in_zone(pos, kind, max(-1, min(1, pu)), max(-1, min(1, pv)))
    x0, x1, y0, y1 = zone(pos, kind)
    assert x0 <= x <= x1 and y0 <= y <= y1
    assert all(math.hypot(x - bx, y - by) >= 2 * t.ball_radius for _, bx, by in pos.balls)
    if kind == "house":
        assert t.in_house(x, y)
    if kind == "rear_house":
        assert t.in_rear_house(x, y)


def test_decoded_in_hand_shot_passes_the_referee() -> None:
    t = Table.default()
    game = Game.new("free", position=_crowded_house(t))
    ref: Any = game.referee
    space = action_space()
    space.seed(1)
    moved = 0
    for _ in range(40):
        d = decode(game, space.sample())
        assert isinstance(d.action, Shot)
        ref.check_shot(game.state, d.action)  # raises IllegalShotError if not
        moved += "place" in d.corrections
    assert moved > 0  # the crowded house made some placements move


def test_lag_places_each_player_on_his_side() -> None:
    game = Game.new("moscow", seed=0, lag=True)
    space = action_space()
    space.seed(0)
    for _ in range(10):
        lg = legal(game)
        assert lg.lag
        shot = decode(game, space.sample()).action
        assert isinstance(shot, Shot) and shot.place is not None
        assert (shot.place[0] > game.referee.table.width / 2) == (lg.player == 1)
        game.play(shot)  # Game refuses a lag shot from the wrong side
        if not legal(game).lag:
            break
    assert legal(game).kind in ("choice", "shot")


def test_illegal_choice_becomes_the_first_legal_one() -> None:
    game = Game.new("free", seed=0)
    # Drive random play until a choice is pending.
    space = action_space()
    space.seed(3)
    for _ in range(400):
        lg = legal(game)
        if lg.kind == "choice":
            break
        d = decode(game, space.sample())
        game.play(d.action) if isinstance(d.action, Shot) else game.choose(d.action)
    lg = legal(game)
    assert lg.kind == "choice"
    bad = next(i for i, c in enumerate(CHOICES) if c not in lg.choices)
    rest = {"ball": 0, "call_ball": 0, "call_pocket": 0, "shot": np.zeros(7, np.float32)}
    d = decode(game, rest | {"choice": bad})
    assert d.action == lg.choices[0] and d.corrections == ("choice",)
    with pytest.raises(InvalidActionError, match="missing"):
        decode(game, {"choice": bad})  # every key of the action space, every time
    good = decode(game, rest | {"choice": CHOICE_INDEX[lg.choices[-1]]})
    assert good.action == lg.choices[-1] and good.corrections == ()


@pytest.mark.parametrize(
    "variant", ["free", "combined", "moscow", "nevskaya", "dynamic", "classic71", "five_ball"]
)
def test_every_choice_a_referee_can_offer_is_in_the_vocabulary(variant: str) -> None:
    from piramida.env.rules import get_referee

    ref: Any = get_referee(variant)
    pos = Position.start(variant, seed=0)
    for stage in ("after", "after_break", "take", "take_or_hand", "svoyak", "lag_winner"):
        offered = ref.stage_choices(pos, stage)
        assert set(offered) <= set(CHOICES), (stage, offered)
