"""Random legal strokes: what the random agent plays, and what the frame
driver (env/driver.py) plays in place of an action the referee refuses.

They live in ``env`` so that the driver can use them (``env`` never imports
``agents``); ``piramida.agents.random_agent`` re-exports them. Each draws
from the ``random.Random`` it is given, in a fixed order, so a seed gives
the same stroke.
"""

from __future__ import annotations

import math
import random
from typing import Any

from piramida.env.position import Position, cue_ball_of
from piramida.env.shot import MISCUE_LIMIT, Shot
from piramida.env.table import POCKETS


def random_lag_shot(variant: str, player: int, table: Any, rng: random.Random) -> Shot:
    """A lag shot the game accepts (docs/game_rules.md §4.1, item 7): the player's own
    ball, placed at random in the house on his side of the long axis (player
    0 left of it, 1 right), sent up the table within 5 degrees of straight
    at a random pace, so that a lag is won now and then and the phase ends."""
    r = table.ball_radius
    half = table.width / 2
    lo, hi = (r + 1e-3, half - 1e-3) if player == 0 else (half + 1e-3, table.width - r - 1e-3)
    place = (rng.uniform(lo, hi), rng.uniform(r + 1e-3, table.house_line - 1e-3))
    return Shot(
        ball=cue_ball_of(variant, player),
        phi=rng.uniform(85.0, 95.0),
        v=rng.uniform(1.5, 5.0),
        place=place,
    )


def random_shot(
    variant: str,
    position: Position,
    in_hand: str | None,
    cue_balls: tuple[str, ...],
    rng: random.Random,
) -> Shot:
    """A shot the referee accepts in ``position``."""
    ball = rng.choice(list(cue_balls)) if cue_balls else cue_ball_of(variant, position.to_move)
    place = random_place(position, in_hand, rng) if in_hand else None
    call = None
    needs_call = variant == "five_ball" or (variant == "classic71" and not position.is_break)
    if needs_call:
        targets = [b for b in position.ids if b != ball and b != "0"]
        if targets:
            call = (rng.choice(targets), rng.choice(POCKETS))
    off = rng.uniform(0, MISCUE_LIMIT * 0.9)
    ang = rng.uniform(0, 2 * math.pi)
    v = rng.uniform(5.0, 9.0) if position.is_break else rng.uniform(0.5, 6.0)
    return Shot(
        ball=ball,
        phi=rng.uniform(0, 360),
        v=v,
        a=off * math.cos(ang),
        b=off * math.sin(ang),
        theta=rng.uniform(0, 10),
        place=place,
        call=call,
    )


def random_place(position: Position, in_hand: str, rng: random.Random) -> tuple[float, float]:
    """A free spot in the area where the ball in hand may go."""
    t = position.table
    r = t.ball_radius
    lo, hi = r, t.length - r
    if in_hand == "house":
        hi = t.house_line - 1e-6
    elif in_hand == "rear_house":
        lo = t.rear_line + 1e-6
    for _ in range(1000):
        x, y = rng.uniform(r, t.width - r), rng.uniform(lo, hi)
        if all(math.hypot(x - bx, y - by) >= 2 * r for _, bx, by in position.balls):
            return (x, y)
    raise ValueError(f"no free spot for the ball in hand ({in_hand}) in {position.to_text()}")
