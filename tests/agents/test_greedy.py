"""The greedy agent in hand-built positions (noise none): it pots a straight
shot and a cut, its shot passes the referee, and it corrects for throw."""

from __future__ import annotations

import math

import pytest

from piramida.agents import UnknownAgentError, make_agent
from piramida.agents.base import GameView
from piramida.agents.greedy import GreedyAgent
from piramida.agents.shots.ghost import aim_point, pot_lines
from piramida.env.game import Game
from piramida.env.physics import simulate
from piramida.env.position import Position
from piramida.env.shot import Shot
from piramida.env.table import Table

T = Table.default()
R = T.ball_radius


def _setup(
    variant: str,
    struck: str,
    cut_deg: float,
    pocket: str = "rr",
    d_obj: float = 0.6,
    d_cue: float = 0.6,
):
    """Target ``d_obj`` from the pocket on its axis; the struck ball ``d_cue``
    behind the ghost ball, turned by ``cut_deg`` about it."""
    pk = T.pockets[pocket]
    ap = aim_point(pk, T)
    ux, uy = -pk.axis[0], -pk.axis[1]
    tgt = (ap[0] + ux * d_obj, ap[1] + uy * d_obj)
    gx, gy = tgt[0] + ux * 2 * R, tgt[1] + uy * 2 * R
    a = math.radians(cut_deg)
    cx = gx + d_cue * (ux * math.cos(a) - uy * math.sin(a))
    cy = gy + d_cue * (ux * math.sin(a) + uy * math.cos(a))
    pos = Position.from_balls(variant, {struck: (cx, cy), "5": tgt, "9": (0.3, 0.5)})
    game = Game.new(variant, position=pos)
    return game, pos


CASES = [
    ("free", "3", 0.0),
    ("free", "3", 30.0),
    ("combined", "0", 0.0),
    ("combined", "0", 30.0),
]


@pytest.mark.parametrize(("variant", "struck", "cut"), CASES)
def test_greedy_pots_and_the_referee_accepts(variant: str, struck: str, cut: float) -> None:
    game, pos = _setup(variant, struck, cut)
    view = GameView.of(game)
    shot = GreedyAgent(seed=0).act(view)
    assert isinstance(shot, Shot)
    game.referee.check_shot(game.state, shot)  # raises if illegal
    res = simulate(pos, shot)
    assert ("5", "rr") in res.pocketed or (struck, "rr") in res.pocketed
    ruling = game.play(shot)
    assert ruling is not None and ruling.legal
    assert game.score[0] >= 1
    assert game.next.player == 0  # a pot keeps the turn


def test_greedy_corrects_the_cut_for_throw() -> None:
    """Ball-ball friction throws the object ball off the line of centres: the
    chosen direction differs from the ghost-ball line, and by more than the
    pot's tolerance would allow if it were ignored."""
    game, pos = _setup("combined", "0", 30.0)
    line = next(ln for ln in pot_lines(pos, "0", ["5"]) if ln.pocket == "rr")
    shot = GreedyAgent().act(GameView.of(game))
    assert isinstance(shot, Shot)
    assert abs(((shot.phi - line.phi + 180) % 360) - 180) > 0.05
    assert ("5", "rr") in simulate(pos, shot).pocketed


def test_greedy_is_deterministic() -> None:
    game, _ = _setup("free", "3", 20.0)
    view = GameView.of(game)
    assert GreedyAgent(seed=1).act(view) == GreedyAgent(seed=2).act(view)


def test_greedy_calls_the_ball_it_pots_in_classic() -> None:
    game, pos = _setup("classic71", "0", 15.0)
    shot = GreedyAgent().act(GameView.of(game))
    assert isinstance(shot, Shot) and shot.call is not None
    game.referee.check_shot(game.state, shot)
    assert shot.call in simulate(pos, shot).pocketed


def test_greedy_breaks_legally() -> None:
    game = Game.new("free", seed=3)
    shot = GreedyAgent().act(GameView.of(game))
    assert isinstance(shot, Shot) and shot.place is not None
    assert T.in_house(*shot.place)
    ruling = game.play(shot)
    assert ruling is not None and ruling.legal


def test_greedy_with_nothing_to_pot_plays_a_legal_safety() -> None:
    # The only object ball is far from every pocket line the coloured ball
    # can reach: no open pot (the agent has no candidate lines here).
    from piramida.agents.shots.context import Context
    from piramida.agents.shots.lines import candidate_lines

    pos = Position.from_balls("combined", {"0": (0.3, 0.9), "5": (1.4, 2.2)})
    game = Game.new("combined", position=pos)
    view = GameView.of(game)
    assert candidate_lines(Context(view)) == []
    shot = GreedyAgent().act(view)
    assert isinstance(shot, Shot)
    ruling = game.play(shot)
    assert ruling is not None and ruling.legal


def test_choice_takes_the_easiest_ball_for_the_opponent() -> None:
    from piramida.agents.shots.choices import rank_targets

    game, pos = _setup("free", "3", 0.0)
    ranked = rank_targets(pos, ["5", "9"])
    # Ball 5 sits 0.6 m in front of a pocket with the struck ball behind it.
    assert ranked[0] == "5"


def test_registry() -> None:
    assert make_agent("greedy").name == "greedy"
    assert make_agent("random", seed=1).name == "random"
    with pytest.raises(UnknownAgentError, match="unknown agent"):
        make_agent("nobody")


def test_greedy_answers_every_choice_after_a_foul_with_an_allowed_one() -> None:
    game, pos = _setup("free", "3", 0.0)
    # A miss: ball 9 rolled gently away from everything (no contact, item 5.3).
    ruling = game.play(Shot(ball="9", phi=270.0, v=0.5))
    assert ruling is not None and "no_contact" in ruling.fouls
    agent = GreedyAgent()
    seen = 0
    while game.next.kind == "choice":
        view = GameView.of(game)
        choice = agent.act(view)
        assert choice in view.choices
        if choice.startswith("take_ball:"):
            # Ball 5 is the one the offender would pot next.
            assert choice == "take_ball:5"
        game.choose(choice)
        seen += 1
    assert seen >= 1


def test_greedy_calls_and_plays_five_ball_legally() -> None:
    pk = T.pockets["rr"]
    ap = aim_point(pk, T)
    ux, uy = -pk.axis[0], -pk.axis[1]
    r1 = (ap[0] + ux * 0.5, ap[1] + uy * 0.5)
    w1 = (ap[0] + ux * 1.1, ap[1] + uy * 1.1 + 0.05)
    pos = Position.from_balls(
        "five_ball", {"w1": w1, "r1": r1, "y": T.centre_spot, "r2": (0.5, 2.9)}
    )
    game = Game.new("five_ball", position=pos)
    shot = GreedyAgent().act(GameView.of(game))
    assert isinstance(shot, Shot) and shot.ball == "w1" and shot.call is not None
    game.referee.check_shot(game.state, shot)
    ruling = game.play(shot)
    assert ruling is not None and ruling.legal
