"""Actions: from the action space to a ``Shot`` or a choice name
(docs/design.md §5).

Every action enters through ``check_action`` (the Dict action) or
``check_flat`` (the flat Box action of ``wrappers``): the single-agent env,
``FlatActionWrapper``, the RLlib ``MultiAgentPyramid`` and the PettingZoo
``PyramidAEC`` all read actions with them, before anything in the frame
changes. An action either is refused with an ``InvalidActionError`` (a
``ValueError``) whose message is one line, or is played with the
corrections listed below; the frame is untouched by a refused action, so
the agent may simply act again.

Refused (``InvalidActionError``):

- not a dict (a Mapping): None, a number, a string, a list, an array;
- a dict without exactly the keys ``ball``, ``call_ball``, ``call_pocket``,
  ``choice``, ``shot`` (all five, every time, even where a part is not read
  in the current decision; no other key);
- a discrete part (``ball``, ``call_ball``, ``call_pocket``, ``choice``)
  that is not an integer inside its ``Discrete(n)``, i.e. in ``[0, n)``:
  negative or too large integers (10**400 too), NaN, infinity, a float
  with a fraction, a bool, None, a string, a container of more or less
  than one number. Accepted as integers: Python and numpy integers,
  floats with an integral value (``3.0``), and a list or array (of any
  shape) holding exactly one such number;
- ``shot`` that is neither a list or tuple of exactly 7 real numbers
  (Python or numpy ints and floats; not bools, None, strings, nested
  lists, complex numbers, or an int too large for a float such as 10**400)
  nor an array of shape ``(7,)`` with an integer or float dtype; or any of
  the 7 is NaN or infinite;
- a flat action that is not 96 finite real numbers in the same sense
  (``check_flat``);
- an action when the frame is over.

Corrected (the action is played):

- each shot parameter outside [-1, 1] is clipped to it first (silently: it
  is not listed in ``corrections``); the flat action's 89 scores are
  compared as given and its shot part clipped the same way;
- a struck ball that may not be struck becomes the first allowed one in
  slot order, an illegal called ball the first legal one, an illegal choice
  the first legal choice (in the referee's order): discrete values inside
  the space that the action mask rules out are corrected, never refused;
- a ball in hand placed on another ball is moved to the nearest free point
  of its zone.

Each of the last two kinds is named in ``Decoded.corrections`` ("ball",
"call_ball", "choice", "place"; also the env's ``info["corrections"]``),
so an agent that ignores the mask still plays legal moves and a trainer
can count or penalise corrections. Parts not read in the current decision
(the shot during a choice, the call where no call is needed) are checked
as above and otherwise ignored.

Continuous parameters (each in [-1, 1] after the clipping):

- ``phi``: ``180 * u`` degrees (the whole circle).
- ``v``: ``V_MIN + (u + 1) / 2 * (MAX_SPEED - V_MIN)`` m/s (0.1 to 12).
- ``a``, ``b``: ``MISCUE_LIMIT * u`` ball radii, then pulled radially onto
  the miscue disc when outside it (``shot.MISCUE_LIMIT``).
- ``theta``: ``(u + 1) / 2 * MAX_THETA`` degrees (0 to 60).
- ``place_x``, ``place_y``: only when the cue ball is in hand: mapped
  linearly onto the allowed zone (the house, the rear house beyond the rear
  line, anywhere, or in the lag the player's half of the house), then moved
  to the nearest free point of that zone when it would overlap a ball.
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
from .spaces import CHOICES, N_CHOICES, N_POCKETS, N_SHOT, N_SLOTS, slot_ids

V_MIN = 0.1
_EPS = 1e-6


class InvalidActionError(PiramidaError):
    """An action that cannot be read at all (wrong shape, NaN, no turn)."""


@dataclass(frozen=True)
class Decoded:
    action: Shot | str
    corrections: tuple[str, ...] = ()


def show(x: Any, limit: int = 60) -> str:
    """``x`` for an error message: one line, at most ``limit`` characters."""
    if isinstance(x, int) and not isinstance(x, bool) and abs(x) >= 10**18:
        return f"an integer of {x.bit_length()} bits"
    try:
        text = " ".join(repr(x).split())
    except Exception:  # a repr that fails must not hide the real error
        text = f"<{type(x).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _real(x: Any) -> float | None:
    """One element of a list of numbers as a float (None: not a real number)."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, float, np.integer, np.floating)):
        return None
    try:
        return float(x)
    except OverflowError:  # an int too large for a float (10**400)
        return None


def _array_like(x: Any) -> bool:
    return isinstance(x, (list, tuple, np.ndarray)) or (
        hasattr(x, "__array__") and not isinstance(x, (str, bytes, np.generic))
    )


def _reals(value: Any, what: str, n: int) -> np.ndarray:
    """``value`` as ``n`` finite float64 numbers, or an InvalidActionError: a
    list or tuple of ``n`` real numbers, or an array of shape ``(n,)`` with an
    integer or float dtype."""

    def bad() -> InvalidActionError:
        return InvalidActionError(f"{what} must be {n} real numbers, got {show(value)}")

    if isinstance(value, (list, tuple)):
        if len(value) != n:
            raise InvalidActionError(
                f"{what} must be {n} numbers, got {len(value)}: {show(value)}"
            )
        xs = [_real(x) for x in value]
        if any(x is None for x in xs):
            raise bad()
        out = np.array(xs, dtype=np.float64)
    else:
        if not _array_like(value):
            raise bad()
        try:
            arr = np.asarray(value)
        except (TypeError, ValueError, OverflowError):
            raise bad() from None
        if arr.dtype.kind not in "iuf":  # bool, complex, str, object, ...
            raise bad()
        if arr.shape != (n,):
            raise InvalidActionError(f"{what} must be {n} numbers, got shape {arr.shape}")
        out = arr.astype(np.float64)
    if not np.isfinite(out).all():
        raise InvalidActionError(f"{what} must be finite, got {show(out.tolist())}")
    return out


def _integer(value: Any, key: str, n: int) -> int:
    """``action[key]`` as an index in ``[0, n)``, or an InvalidActionError."""
    v = value
    if _array_like(v):
        try:
            arr = np.asarray(v)
        except (TypeError, ValueError, OverflowError):
            arr = None
        ok = arr is not None and arr.size == 1 and arr.dtype.kind in "iuf"
        v = arr.reshape(-1)[0] if ok and arr is not None else None
    k: int | None = None
    if isinstance(v, (bool, np.bool_)):
        k = None
    elif isinstance(v, (int, np.integer)):
        k = int(v)
    elif isinstance(v, (float, np.floating)) and math.isfinite(v) and float(v).is_integer():
        k = int(v)
    if k is None or not 0 <= k < n:
        raise InvalidActionError(
            f"action[{key!r}] must be an integer in [0, {n}), got {show(value)}"
        )
    return k


@dataclass(frozen=True)
class Action:
    """A checked Dict action: indices inside their spaces, ``shot`` the 7
    parameters as finite float64 numbers (not yet clipped)."""

    ball: int
    call_ball: int
    call_pocket: int
    choice: int
    shot: np.ndarray


ACTION_KEYS: tuple[str, ...] = ("ball", "call_ball", "call_pocket", "choice", "shot")
_SIZES = {"ball": N_SLOTS, "call_ball": N_SLOTS, "call_pocket": N_POCKETS, "choice": N_CHOICES}


def check_action(action: Any) -> Action:
    """``action`` read as a point of ``spaces.action_space()``, or an
    ``InvalidActionError`` (see the module docstring for what is refused)."""
    if isinstance(action, Action):
        return action
    if not isinstance(action, Mapping):
        raise InvalidActionError(
            f"the action must be a dict with the keys {', '.join(ACTION_KEYS)}, "
            f"got {type(action).__name__} {show(action)}"
        )
    missing = [k for k in ACTION_KEYS if k not in action]
    extra = [k for k in action if k not in ACTION_KEYS]
    if missing or extra:
        what = [f"missing {missing}"] * bool(missing) + [f"unknown {show(extra)}"] * bool(extra)
        raise InvalidActionError(
            f"the action must have exactly the keys {', '.join(ACTION_KEYS)}: {'; '.join(what)}"
        )
    idx = {key: _integer(action[key], key, n) for key, n in _SIZES.items()}
    shot = _reals(action["shot"], "shot parameters", N_SHOT)
    return Action(shot=shot, **idx)


def check_flat(flat: Any, size: int) -> np.ndarray:
    """A flat Box action as ``size`` finite float64 numbers, or an
    ``InvalidActionError``."""
    return _reals(flat, "a flat action", size)


def _unit(x: float) -> float:
    return min(1.0, max(-1.0, x))


def shot_params(u: Any) -> tuple[float, float, float, float, float, float, float]:
    """``phi, v, a, b, theta, place_u, place_v`` from the 7 numbers, each
    clipped to [-1, 1] (an InvalidActionError unless 7 finite numbers)."""
    arr = _reals(u, "shot parameters", N_SHOT)
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


def decode(game: Game, action: Any, lg: Legal | None = None) -> Decoded:
    """The Shot or choice that ``action`` stands for, for the player to act
    (``check_action`` first: a refused action raises before anything else)."""
    act = check_action(action)
    lg = lg or legal(game)
    if lg.kind == "none":
        raise InvalidActionError("the frame is over: there is nothing to act on")
    fixes: list[str] = []
    if lg.kind == "choice":
        name = CHOICES[act.choice]
        if name not in lg.choices:
            fixes.append("choice")
            name = lg.choices[0]
        return Decoded(name, tuple(fixes))
    slots = slot_ids(game.variant, lg.player)
    ball = slots[act.ball]
    if ball not in lg.balls:
        fixes.append("ball")
        ball = next((b for b in slots if b in lg.balls), lg.balls[0])
    call = None
    if lg.call_balls:
        cb = slots[act.call_ball]
        if cb not in lg.call_balls:
            fixes.append("call_ball")
            cb = next((b for b in slots if b in lg.call_balls), lg.call_balls[0])
        call = (str(cb), POCKETS[act.call_pocket])
    phi, v, a, b, theta, pu, pv = shot_params(act.shot)
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
