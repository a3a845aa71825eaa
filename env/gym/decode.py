"""Actions: from the action space to a ``Shot`` or a choice name
(DESIGN.md §5).

Continuous parameters (each clipped to [-1, 1] first; NaN or infinity is an
``InvalidActionError``):

- ``phi``: ``180 * u`` degrees (the whole circle).
- ``v``: ``V_MIN + (u + 1) / 2 * (MAX_SPEED - V_MIN)`` m/s (0.1 to 12).
- ``a``, ``b``: ``MISCUE_LIMIT * u`` ball radii, then pulled radially onto
  the miscue disc when outside it (``shot.MISCUE_LIMIT``).
- ``theta``: ``(u + 1) / 2 * MAX_THETA`` degrees (0 to 60).
- ``place_x``, ``place_y``: only when the cue ball is in hand: mapped
  linearly onto the allowed zone (the house, the rear house beyond the rear
  line, anywhere, or in the lag the player's half of the house), then moved
  to the nearest free point of that zone when it would overlap a ball.

Discrete parts that the mask rules out are corrected, never refused: a
struck ball that may not be struck becomes the first allowed one in slot
order, an illegal called ball the first legal one, an illegal choice the
first legal choice (in the referee's order). Each correction is named in
``Decoded.corrections`` (and in the env's ``info["corrections"]``), so an
agent that ignores the mask still plays legal moves and a trainer can count
or penalise corrections.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from piramida.env.errors import PiramidaError
from piramida.env.game import Game
from piramida.env.position import Position
from piramida.env.shot import MAX_SPEED, MAX_THETA, MISCUE_LIMIT, Shot
from piramida.env.table import POCKETS

from .encode import Legal, legal
from .spaces import CHOICES, N_SHOT, slot_ids

V_MIN = 0.1
_EPS = 1e-6


class InvalidActionError(PiramidaError):
    """An action that cannot be read at all (wrong shape, NaN, no turn)."""


@dataclass(frozen=True)
class Decoded:
    action: Shot | str
    corrections: tuple[str, ...] = ()


def _unit(x: float) -> float:
    return min(1.0, max(-1.0, x))


def shot_params(u: Any) -> tuple[float, float, float, float, float, float, float]:
    """``phi, v, a, b, theta, place_u, place_v`` from the 7 numbers in [-1, 1]."""
    arr = np.asarray(u, dtype=np.float64).reshape(-1)
    if arr.shape != (N_SHOT,):
        raise InvalidActionError(f"shot parameters must be {N_SHOT} numbers, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise InvalidActionError(f"shot parameters must be finite, got {arr.tolist()}")
    p = [_unit(float(x)) for x in arr]
    phi = 180.0 * p[0]
    v = V_MIN + (p[1] + 1.0) / 2.0 * (MAX_SPEED - V_MIN)
    a, b = MISCUE_LIMIT * p[2], MISCUE_LIMIT * p[3]
    r = math.hypot(a, b)
    if r > MISCUE_LIMIT:
        k = MISCUE_LIMIT / r * (1 - 1e-9)
        a, b = a * k, b * k
    theta = (p[4] + 1.0) / 2.0 * MAX_THETA
    return phi, v, a, b, theta, p[5], p[6]


def zone(
    position: Position, kind: str, lag_player: int | None = None
) -> tuple[float, float, float, float]:
    """``(x0, x1, y0, y1)``: where a ball in hand of ``kind`` may go."""
    t = position.table
    r = t.ball_radius
    x0, x1, y0, y1 = r, t.width - r, r, t.length - r
    if kind == "house":
        y1 = t.house_line - _EPS
    elif kind == "rear_house":
        y0 = t.rear_line + _EPS
    if lag_player is not None:
        # Game._check_lag_shot: player 1 is on the side x > width / 2.
        if lag_player == 0:
            x1 = min(x1, t.width / 2)
        else:
            x0 = max(x0, t.width / 2 + _EPS)
    return x0, x1, y0, y1


def place_in_zone(
    position: Position, kind: str, pu: float, pv: float, lag_player: int | None = None
) -> tuple[tuple[float, float], bool]:
    """The placement for (pu, pv) in [-1, 1]^2 and whether it had to move off
    a ball. Searches rings of growing radius around the mapped point."""
    x0, x1, y0, y1 = zone(position, kind, lag_player)
    x = x0 + (pu + 1.0) / 2.0 * (x1 - x0)
    y = y0 + (pv + 1.0) / 2.0 * (y1 - y0)
    r = position.table.ball_radius
    others = [(bx, by) for _, bx, by in position.balls]

    def free(px: float, py: float) -> bool:
        return all(math.hypot(px - bx, py - by) >= 2 * r + _EPS for bx, by in others)

    if free(x, y):
        return (x, y), False
    step = r / 4
    for ring in range(1, 4000):
        rho = ring * step
        n = max(8, int(2 * math.pi * rho / step))
        for i in range(n):
            ang = 2 * math.pi * i / n
            px, py = x + rho * math.cos(ang), y + rho * math.sin(ang)
            if x0 <= px <= x1 and y0 <= py <= y1 and free(px, py):
                return (px, py), True
    raise InvalidActionError(
        f"no free point for the ball in hand ({kind}) (position: {position.to_text()})"
    )


def _index(action: Mapping[str, Any], key: str) -> int:
    try:
        return int(np.asarray(action[key]).reshape(()))
    except KeyError:
        raise InvalidActionError(f"the action needs a {key!r} entry") from None
    except (TypeError, ValueError):
        raise InvalidActionError(
            f"action[{key!r}] must be one integer, got {action[key]!r}"
        ) from None


def decode(game: Game, action: Mapping[str, Any], lg: Legal | None = None) -> Decoded:
    """The Shot or choice that ``action`` stands for, for the player to act."""
    lg = lg or legal(game)
    if lg.kind == "none":
        raise InvalidActionError("the frame is over: there is nothing to act on")
    if not isinstance(action, Mapping):
        raise InvalidActionError(
            f"the action must be a dict of the action space, got {type(action).__name__}"
        )
    fixes: list[str] = []
    if lg.kind == "choice":
        k = _index(action, "choice")
        name = CHOICES[k] if 0 <= k < len(CHOICES) else None
        if name not in lg.choices:
            fixes.append("choice")
            name = lg.choices[0]
        return Decoded(name, tuple(fixes))
    slots = slot_ids(game.variant, lg.player)
    k = _index(action, "ball")
    ball = slots[k] if 0 <= k < len(slots) else None
    if ball not in lg.balls:
        fixes.append("ball")
        ball = next((b for b in slots if b in lg.balls), lg.balls[0])
    call = None
    if lg.call_balls:
        k = _index(action, "call_ball")
        cb = slots[k] if 0 <= k < len(slots) else None
        if cb not in lg.call_balls:
            fixes.append("call_ball")
            cb = next((b for b in slots if b in lg.call_balls), lg.call_balls[0])
        kp = _index(action, "call_pocket")
        if not 0 <= kp < len(POCKETS):
            fixes.append("call_pocket")
            kp = 0
        call = (str(cb), POCKETS[kp])
    if "shot" not in action:
        raise InvalidActionError("the action needs a 'shot' entry (7 numbers in [-1, 1])")
    phi, v, a, b, theta, pu, pv = shot_params(action["shot"])
    place = None
    pos = game.state.position
    if lg.lag:
        place, moved = place_in_zone(pos.replace(balls=()), "house", pu, pv, lag_player=lg.player)
    elif lg.in_hand is not None:
        place, moved = place_in_zone(pos, lg.in_hand, pu, pv)
        if moved:
            fixes.append("place")
    assert ball is not None
    return Decoded(Shot(ball, phi, v, a, b, theta, place=place, call=call), tuple(fixes))
