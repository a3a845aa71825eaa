"""Game: playing recorded shots, choices, undo, reported fouls, the shot
clock, the lag, and save/load replaying to the same state."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))
from random_outcomes import random_outcome  # noqa: E402

from piramida.agents.random_agent import RandomAgent  # noqa: E402
from piramida.env import physics  # noqa: E402
from piramida.env.errors import IllegalShotError, InvalidEventsError  # noqa: E402
from piramida.env.events import Event  # noqa: E402
from piramida.env.game import Game, PhysicsUnavailableError  # noqa: E402
from piramida.env.position import Position  # noqa: E402
from piramida.env.shot import Shot  # noqa: E402

CX = 1.775 / 2
STD = {"0": (CX, 1.0), "1": (0.5, 2.0), "2": (1.2, 2.2), "3": (0.3, 1.2)}
SHELVES = (("4", "5", "6", "7", "8", "9"), ("10", "11", "12", "13", "14", "15"))


def std_game(variant: str = "combined", **kw: object) -> Game:
    pos = Position.from_balls(variant, STD, shelves=SHELVES, score=(6, 6))
    return Game.new(variant, position=pos, options=kw.get("options"))  # type: ignore[arg-type]


def after(game: Game, gone: tuple[str, ...] = (), cue_to: tuple[float, float] = (0.6, 1.5)) -> Position:
    balls = {b: xy for b, xy in game.position.ball_map.items() if b not in gone}
    if "0" not in gone:
        balls["0"] = cue_to
    return game.position.replace(balls=tuple((b, x, y) for b, (x, y) in balls.items()), in_hand=None)


SHOT = Shot("0", 90, 3.0)
POT1 = [Event(0, "cue", ("0",)), Event(0.1, "ball_ball", ("0", "1")), Event(0.2, "pocket", ("1",), pocket="rl")]
MISS = [Event(0, "cue", ("0",)), Event(0.1, "cushion", ("0",), cushion="rear")]


def test_legal_pot_continues_and_scores() -> None:
    g = std_game()
    r = g.play_recorded(SHOT, POT1, after(g, ("1",)))
    assert r is not None and r.legal and r.scored[0] == ("1",)
    assert g.score == (7, 6) and g.to_move == 0 and g.next.kind == "shot"


def test_foul_then_choices() -> None:
    g = std_game()
    g.play_recorded(SHOT, MISS, after(g))
    assert g.to_move == 1 and g.legal_choices() == ("take_ball:1", "take_ball:2", "take_ball:3")
    with pytest.raises(IllegalShotError):
        g.play_recorded(SHOT, MISS, after(g))
    with pytest.raises(IllegalShotError):
        g.choose("shoot")
    g.choose("take_ball:2")
    assert g.score == (6, 7) and "2" not in g.position
    assert g.legal_choices() == ("shoot", "make_offender_shoot")
    g.choose("make_offender_shoot")
    assert g.to_move == 0 and g.next.kind == "shot"


def test_undo_restores_the_previous_state() -> None:
    g = std_game()
    first = g.state
    g.play_recorded(SHOT, MISS, after(g))
    g.choose("take_ball:2")
    g.undo()
    assert g.legal_choices()[0] == "take_ball:1"
    g.undo()
    assert g.state == first
    with pytest.raises(IllegalShotError):
        g.undo()


def test_report_foul_rejudges_the_last_shot() -> None:
    g = std_game()
    g.play_recorded(SHOT, POT1, after(g, ("1",)))
    r = g.report_foul("touched a ball")
    assert not r.legal and r.fouls == ("reported",)
    assert "1" in r.respotted and g.score == (6, 6) and g.to_move == 1
    # The report is part of the history: a saved game keeps it.
    g2 = Game.from_dict(json.loads(g.to_json()))
    assert g2.state == g.state


def test_report_needs_a_shot() -> None:
    with pytest.raises(IllegalShotError):
        std_game().report_foul("reported")


def test_shot_clock_with_one_extension() -> None:
    g = std_game(options={"shot_clock_s": 45})
    g.play_recorded(SHOT, POT1, after(g, ("1",)), think_s=60)  # extension used
    assert g.rulings[-1] is not None and g.rulings[-1].legal
    balls_left = after(g, ("2",))
    pot2 = [Event(0, "cue", ("0",)), Event(0.1, "ball_ball", ("0", "2")), Event(0.2, "pocket", ("2",), pocket="rr")]
    r = g.play_recorded(SHOT, pot2, balls_left, think_s=60)
    assert r is not None and r.fouls == ("shot_clock",)


def test_shot_clock_beyond_double_is_a_foul() -> None:
    g = std_game(options={"shot_clock_s": 45})
    r = g.play_recorded(SHOT, POT1, after(g, ("1",)), think_s=95)
    assert r is not None and r.fouls == ("shot_clock",)


def test_illegal_shots_are_refused() -> None:
    g = std_game()
    with pytest.raises(IllegalShotError):
        g.referee.check_shot(g.state, Shot("1", 90, 3.0))  # combined: the coloured ball only
    with pytest.raises(IllegalShotError):
        g.referee.check_shot(g.state, Shot("0", 90, 3.0, place=(CX, 0.5)))  # not in hand
    start = Game.new("combined", seed=1)
    with pytest.raises(IllegalShotError):
        start.referee.check_shot(start.state, Shot("0", 90, 3.0))  # in hand: needs place
    with pytest.raises(IllegalShotError):
        start.referee.check_shot(start.state, Shot("0", 90, 3.0, place=(CX, 1.2)))  # outside the house
    classic = Game.new("classic71", position=Position.from_balls("classic71", STD))
    with pytest.raises(IllegalShotError, match="call"):
        classic.referee.check_shot(classic.state, SHOT)


def test_malformed_log_is_an_error() -> None:
    g = std_game()
    with pytest.raises(InvalidEventsError):
        g.play_recorded(SHOT, POT1[1:], after(g, ("1",)))  # no cue event
    with pytest.raises(InvalidEventsError):
        g.play_recorded(SHOT, POT1, after(g))  # pocketed ball still on the table
    assert g.history == []


def test_seed_picks_the_breaker() -> None:
    firsts = {Game.new("free", seed=s).to_move for s in range(20)}
    assert firsts == {0, 1}


def test_physics_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(physics, "simulate", None, raising=False)
    g = Game.new("free", seed=0)
    with pytest.raises(PhysicsUnavailableError, match="simulate"):
        g.play(Shot("0", 90, 8.0, place=(CX, 0.5)))


def _lag_sim(stops: list[float]):
    """A lag simulator: the ball touches the rear cushion once and stops at
    the next y in ``stops``."""

    def sim(pos: Position, shot: Shot):
        y = stops.pop(0)
        ev = [Event(0, "cue", (shot.ball,)), Event(1, "cushion", (shot.ball,), cushion="rear")]
        assert shot.place is not None
        return ev, pos.replace(balls=((shot.ball, shot.place[0], y),), in_hand=None)

    return sim


def test_lag_phase_winner_chooses() -> None:
    g = Game.new("combined", seed=0, lag=True, simulate=_lag_sim([0.5, 0.3, 0.2, 0.2, 0.4, 0.3]))
    assert g.next.kind == "lag" and g.to_move == 0
    g.play(Shot("0", 90, 3.0, place=(0.5, 0.3)))
    assert g.next.kind == "lag" and g.to_move == 1
    g.play(Shot("0", 90, 3.0, place=(1.3, 0.3)))  # 0.3 is nearer the front cushion: p1 wins
    assert g.legal_choices() == ("break", "make_opponent_break") and g.to_move == 1
    g.choose("make_opponent_break")
    assert g.to_move == 0 and g.position.is_break and g.next.in_hand == "house"
    with pytest.raises(IllegalShotError):
        Game.new("combined", lag=True, simulate=_lag_sim([0.5])).play(Shot("0", 90, 3.0, place=(1.3, 0.3)))


def test_lag_tie_is_replayed() -> None:
    g = Game.new("combined", seed=0, lag=True, simulate=_lag_sim([0.2, 0.2]))
    g.play(Shot("0", 90, 3.0, place=(0.5, 0.3)))
    g.play(Shot("0", 90, 3.0, place=(1.3, 0.3)))
    assert g.next.kind == "lag" and g.to_move == 0


def _random_game(variant: str, seed: int, actions: int) -> Game:
    rng = random.Random(seed)
    g = Game.new(variant, seed=seed, simulate=lambda p, s: random_outcome(p, s, rng))
    agent = RandomAgent(seed)
    for _ in range(actions):
        if g.over:
            break
        st = g.state
        cue = g.referee.allowed_cue_balls(st.position) if st.next.kind == "shot" else ()
        view = SimpleNamespace(variant=variant, position=st.position, kind=st.next.kind,
                               choices=st.next.choices, in_hand=st.next.in_hand, cue_balls=cue)
        a = agent.act(view)
        if isinstance(a, str):
            g.choose(a)
        else:
            g.play(a)
    return g


@pytest.mark.parametrize("variant", ["free", "moscow", "classic71", "five_ball"])
def test_save_load_replays_to_the_same_state(variant: str, tmp_path: Path) -> None:
    g = _random_game(variant, 7, 80)
    assert len(g.history) > 10
    path = tmp_path / "game.json"
    g.save(path)
    g2 = Game.load(path)
    assert g2.state == g.state and g2.history == g.history
    assert [r.to_dict() if r else None for r in g2.rulings] == [r.to_dict() if r else None for r in g.rulings]


def test_check_shot_says_what_play_would_refuse_in_the_lag_and_after() -> None:
    g = Game.new("combined", seed=0, lag=True, simulate=_lag_sim([0.5, 0.3]))
    g.check_shot(Shot("0", 90, 3.0, place=(0.5, 0.3)))  # player 0, his side
    with pytest.raises(IllegalShotError, match="your side"):
        g.check_shot(Shot("0", 90, 3.0, place=(1.3, 0.3)))
    with pytest.raises(IllegalShotError, match="placed in the house"):
        g.check_shot(Shot("0", 90, 3.0))
    g.play(Shot("0", 90, 3.0, place=(0.5, 0.3)))
    g.play(Shot("0", 90, 3.0, place=(1.3, 0.3)))
    assert g.shots == 2 and g.legal_choices() == ("break", "make_opponent_break")
