"""``BaseReferee.settled``: the position a shot leaves is the same whether
the balls are taken over from the position after the shot unchecked or
built and checked, and a set of balls that is not the position after's
is checked."""

from __future__ import annotations

from dataclasses import replace

import pytest

from piramida.env.errors import InvalidPositionError
from piramida.env.physics import simulate
from piramida.env.position import Position
from piramida.env.rules import get_referee
from piramida.env.shot import Shot


@pytest.mark.parametrize("variant", ["free", "combined", "classic71", "five_ball"])
def test_rule_gives_the_same_position_with_and_without_the_after_position(variant: str) -> None:
    ref = get_referee(variant)
    before = Position.start(variant, seed=4)
    state = ref.initial_state(before)
    cue = ref.allowed_cue_balls(before)[0]
    hand = before.in_hand is not None
    for phi, v in ((88.0, 7.0), (91.0, 3.0), (60.0, 1.5)):
        shot = Shot(ball=cue, phi=phi, v=v, place=(before.table.width / 2, 0.6) if hand else None)
        if variant == "classic71":
            shot = replace(shot, call=("1", "rl"))
        res = simulate(before, shot)
        facts, fouls = ref.facts_and_fouls(ref.fouls_position(before), shot, res.events, res.final, ())
        assert facts.after is res.final
        fast = ref.rule(before, shot, facts, set(fouls), state)
        slow = ref.rule(before, shot, replace(facts, after=None), set(fouls), state)
        assert fast.state.position == slow.state.position
        assert fast.score == slow.score and fast.fouls == slow.fouls


def test_balls_other_than_the_position_after_are_checked() -> None:
    ref = get_referee("free")
    before = Position.start("free", seed=4)
    res = simulate(before, Shot(ball="0", phi=88.0, v=7.0, place=(0.9, 0.6)))
    facts, _ = ref.facts_and_fouls(before, res.shot, res.events, res.final, ())
    balls = dict(facts.final)
    b0, b1 = list(balls)[:2]
    balls[b1] = balls[b0]  # two balls on one spot
    with pytest.raises(InvalidPositionError, match="overlap"):
        ref.settled(before, facts, balls, in_hand=None, is_break=False)
    same = ref.settled(before, facts, dict(facts.final), in_hand=None, is_break=False)
    assert same.balls == res.final.balls and same.shelves == before.shelves and same.to_move == before.to_move
