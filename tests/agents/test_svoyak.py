"""Свояк (the struck ball in off an object ball, agents/svoyak.py): the
tangent-line geometry, the simulated aim correction, and the referee's
scoring of the result in free and combined pyramid (docs/game_rules.md §5.1, §5.2)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from piramida.agents.base import GameView
from piramida.agents.shots.candidates import PLANNER, candidates
from piramida.agents.shots.context import Budget, Context
from piramida.agents.shots.lines import targets_for
from piramida.agents.shots.svoyak import pots_struck, refine_svoyak, svoyak_lines, svoyak_speed
from piramida.env.game import Game
from piramida.env.physics import simulate
from piramida.env.position import Position
from piramida.env.table import Table

T = Table.default()
R = T.ball_radius


def _pos(variant: str) -> Position:
    cue = "3" if variant == "free" else "0"
    return Position.from_balls(variant, {cue: (0.9, 1.1), "5": (1.3, 1.55), "9": (0.3, 2.9)})


def test_lines_leave_along_the_tangent() -> None:
    pos = _pos("free")
    lines = svoyak_lines(pos, "3")
    assert lines and all(ln.svoyak for ln in lines)
    for ln in lines:
        tp = pos.xy(ln.target)
        g, a = ln.ghost, ln.aim
        # The ghost touches the object ball ...
        assert math.isclose(math.dist(g, tp), 2 * R, rel_tol=1e-9)
        # ... and the pocket is at right angles to the line of centres.
        dot = (a[0] - g[0]) * (tp[0] - g[0]) + (a[1] - g[1]) * (tp[1] - g[1])
        assert abs(dot) < 1e-9
        assert 15.0 <= ln.cut <= 75.0


@pytest.mark.parametrize("variant", ["free", "combined"])
def test_refined_svoyak_goes_in_and_scores(variant: str) -> None:
    pos = _pos(variant)
    game = Game.new(variant, position=pos)
    ctx = Context(GameView.of(game))
    struck = ctx.cue_balls()[0] if variant == "combined" else "3"
    lines = svoyak_lines(pos, struck, targets_for(ctx, struck))
    got = None
    for ln in lines[:4]:
        for k, b in ((1.0, 0.0), (1.4, 0.0), (1.2, -0.3)):
            got = refine_svoyak(ctx, ln, None, svoyak_speed(ln, T) * k, b=b)
            if got is not None:
                break
        if got is not None:
            break
    assert got is not None, "no свояк went in"
    assert pots_struck(got, ln)
    res = simulate(pos, got.shot)
    ruling = game.referee.judge(pos, got.shot, res.events, res.final, (), game.state)
    assert ruling.legal
    if variant == "free":
        # Every ball pocketed on a legal shot scores, the struck ball too.
        assert struck in ruling.scored[0]
    else:
        # The cue ball in after a legal contact: an object ball is owed to
        # the shooter, who plays on from hand (docs/game_rules.md §5.2).
        assert ruling.state.pending is not None and "svoyak" in ruling.state.pending.stages


def test_planner_offers_svoyaks_only_where_they_score() -> None:
    for variant, want in (("free", True), ("combined", True), ("classic71", False)):
        pos = _pos(variant) if variant != "classic71" else Position.from_balls(
            "classic71", {"0": (0.9, 1.1), "5": (1.3, 1.55), "9": (0.3, 2.9)}
        )
        game = Game.new(variant, position=pos)
        cands = candidates(GameView.of(game), "pro", replace(PLANNER, svoyaks=4), Budget(None, 400))
        got = [c for c in cands if c.line is not None and c.line.svoyak]
        assert bool(got) == want, variant
        for c in got:
            assert c.kind == "pot" and c.trial is not None and pots_struck(c.trial, c.line)
    view = GameView.of(Game.new("free", position=_pos("free")))
    off = candidates(view, "pro", PLANNER, Budget(None, 400))
    assert not any(c.line is not None and c.line.svoyak for c in off)
