"""One check for every lag shot (docs/game_rules.md §4.1; seed 004 items 7.1,
10.1-10.2): played live (``Game.check_shot``, ``Game.play``), recorded
(``Game.play_recorded``) or read from a saved game (``Game.from_dict``), a
lag shot placed outside the house (the house line is not part of it) or on
the opponent's side of the long axis is refused with one line that names
the shot and the reason, and never wins the lag."""

from __future__ import annotations

import json

import pytest

from piramida.env.errors import IllegalShotError
from piramida.env.events import Event
from piramida.env.game import Game, InvalidSaveError, check_lag_shot, lag_distance, lag_winner
from piramida.env.position import Position
from piramida.env.shot import Shot
from piramida.env.table import Table

T = Table.default()
L, W = T.length, T.width

#: Placements no lag shot may have, for player 0 then player 1, and why.
BAD = [
    ((0.5, L / 4), (1.3, L / 4), "outside the house"),  # on the house line (item 10.2)
    ((0.5, 1.5), (1.2, 1.5), "outside the house"),
    ((1.2, 0.3), (0.5, 0.3), "side of the long axis"),
    ((-5.0, 0.3), (5.0, 0.3), "not on the playing surface"),
    ((0.02, 0.3), (W - 0.02, 0.3), "not on the playing surface"),  # cutting the long cushion
]


def _lag(player: int, place: tuple[float, float], stop: float, variant: str = "combined") -> tuple:
    """A lag shot of ``player`` from ``place``, its log (the rear cushion
    once) and the position it left: the ball ``stop`` from the front
    cushion on the player's own side, a lag that counts if the shot does."""
    ball = "0" if variant != "five_ball" else ("w1", "w2")[player]
    shot = Shot(ball, 90.0, 3.0, place=place)
    events = [Event(0, "cue", (ball,)), Event(1, "cushion", (ball,), cushion="rear")]
    after = Position(variant, ((ball, (0.5, 1.3)[player], stop),), table=T)
    return shot, events, after


def _played_first() -> Game:
    g = Game.new("combined", seed=0, lag=True)
    g.play_recorded(*_lag(0, (0.5, 0.3), 0.6))
    return g


@pytest.mark.parametrize("p0, p1, why", BAD)
def test_live_recorded_and_loaded_lag_shots_are_refused_alike(p0, p1, why) -> None:
    # Player 0's bad lag shot: live, then recorded.
    g = Game.new("combined", seed=0, lag=True)
    shot, events, after = _lag(0, p0, 0.2)
    with pytest.raises(IllegalShotError, match=why):
        g.check_shot(shot)
    with pytest.raises(IllegalShotError, match=why):
        g.play(shot)
    with pytest.raises(IllegalShotError, match=f"^shot 1: lag: .*{why}") as exc:
        g.play_recorded(shot, events, after)
    assert "\n" not in str(exc.value)
    assert g.history == [] and g.next.kind == "lag" and g.to_move == 0
    # Player 1's: it would win the lag (0.2 is nearer the front than 0.6).
    g = _played_first()
    shot, events, after = _lag(1, p1, 0.2)
    with pytest.raises(IllegalShotError, match=why):
        g.check_shot(shot)
    with pytest.raises(IllegalShotError, match=f"^shot 2: lag: .*{why}"):
        g.play_recorded(shot, events, after)
    assert len(g.history) == 1 and g.next.kind == "lag" and g.to_move == 1
    # The same shot in a saved game.
    good = _played_first()
    good.play_recorded(*_lag(1, (1.3, 0.3), 0.2))
    assert good.legal_choices() == ("break", "make_opponent_break") and good.to_move == 1
    saved = json.loads(good.to_json())
    saved["history"][1]["shot"]["place"] = list(p1)
    with pytest.raises(InvalidSaveError, match=f"^saved game: history entry 2 \\(shot 2\\): lag: .*{why}") as exc:
        Game.from_dict(saved)
    assert "\n" not in str(exc.value)
    # And with the module's check, as the referee command calls it.
    with pytest.raises(IllegalShotError, match=why):
        check_lag_shot("combined", 1, shot, T)
    with pytest.raises(IllegalShotError, match=why):
        lag_distance("combined", 1, shot, events, after, T)


def test_a_legal_recorded_lag_is_judged_as_a_live_one() -> None:
    # Just inside the house and on the own side: accepted, and the nearer ball wins.
    g = Game.new("combined", seed=0, lag=True)
    g.play_recorded(*_lag(0, (W / 2, L / 4 - 1e-9), 0.6))
    g.play_recorded(*_lag(1, (W / 2 + 1e-9, 0.3), 0.2))
    assert g.to_move == 1 and g.legal_choices() == ("break", "make_opponent_break")
    again = Game.from_dict(json.loads(g.to_json()))
    assert again.state == g.state and again.history == g.history


def test_lag_shots_name_no_ball_the_empty_table_lacks() -> None:
    g = Game.new("combined", seed=0, lag=True)
    for shot in (
        Shot("0", 90.0, 3.0, place=(0.5, 0.3), call=("5", "rr")),
        Shot("0", 90.0, 3.0, place=(0.5, 0.3), declare_frozen="5"),
    ):
        with pytest.raises(IllegalShotError, match="not .*on the table"):
            g.check_shot(shot)


def test_five_ball_lag_checks_the_same_placement() -> None:
    g = Game.new("five_ball", seed=0, lag=True)
    shot, events, after = _lag(0, (0.5, L / 4), 0.2, "five_ball")
    with pytest.raises(IllegalShotError, match="^shot 1: lag: .*outside the house"):
        g.play_recorded(shot, events, after)
    with pytest.raises(IllegalShotError, match="strike ball w1"):
        g.play_recorded(*_lag(1, (1.3, 0.3), 0.2, "five_ball"))


def test_lag_winner() -> None:
    assert lag_winner(0.3, 0.5) == 0 and lag_winner(0.5, 0.3) == 1
    assert lag_winner(0.3, None) == 0 and lag_winner(None, 0.3) == 1
    assert lag_winner(None, None) is None and lag_winner(0.4, 0.4) is None
