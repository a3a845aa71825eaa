"""The rules never read a ball's motion-state changes: judging a shot on
``ShotResult.rule_events`` (the log without them, what the shot search
passes) gives the same ruling as on the full log, in every variant."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from piramida.agents.base import GameView
from piramida.agents.shots.context import Context
from piramida.env.errors import PiramidaError
from piramida.env.position import Position
from piramida.env.shot import Shot

REFERENCE = Path(__file__).resolve().parents[3] / "bench" / "positions" / "reference.jsonl"


def _views() -> list[GameView]:
    rows = [json.loads(line) for line in REFERENCE.read_text().splitlines() if line.strip()]
    return [GameView.for_position(Position.from_dict(r["position"])) for r in rows]


@pytest.mark.parametrize("part", range(4))
def test_rulings_on_rule_events_equal_rulings_on_the_full_log(part: int) -> None:
    rng = random.Random(part)
    views = _views()[part::4]
    judged = 0
    for view in views:
        ctx = Context(view)
        balls = [b for b in ctx.cue_balls() if b in ctx.pos] or list(ctx.cue_balls())
        for _ in range(8):
            ball = rng.choice(balls)
            place = None
            if ball not in ctx.pos:
                place = (rng.uniform(0.2, ctx.table.width - 0.2), rng.uniform(0.1, 0.6))
            b = rng.uniform(-0.5, 0.5)
            a = rng.uniform(-1, 1) * math.sqrt(max(0.0, 0.55**2 - b * b))
            shot = Shot(ball=ball, phi=rng.uniform(0, 360), v=rng.uniform(0.4, 7.0), a=a, b=b, place=place)
            try:
                res = ctx.simulate(shot)
            except PiramidaError:
                continue
            motions = sum(e.type == "motion" for e in res.events)
            assert len(res.rule_events) == len(res.events) - motions
            full = ctx.referee.judge(ctx.pos, shot, res.events, res.final, (), ctx.state)
            lean = ctx.referee.judge(ctx.pos, shot, res.rule_events, res.final, (), ctx.state)
            assert lean == full, (view.position.to_text(), shot.to_text())
            judged += 1
    assert judged >= 250
