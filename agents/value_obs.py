"""A position as the value network reads it (docs/training.md, "The learned value").

The value network (``agents.value_net``) scores a table for the player
about to shoot: the chance that he wins the frame, and in the points games
the expected final margin. It reads what ``encode`` makes of a position:

- ``balls`` (``MAX_BALLS``, ``BALL_F``): one token per ball on the table -
  x / width, y / length, the coloured ball, a ball the shooter may strike,
  the ball's points over 15 in the points games (0 in the games won by
  balls, where every ball counts one), present - padded with zero rows;
- ``globals`` (``GLOBAL_F``): the shooter's and the other's score over the
  target, what each still needs over the target, the penalty balls each
  owes, where the cue ball may be placed (none, house, rear house,
  anywhere), the break, how many balls are left over ``MAX_BALLS``, a
  points game, and the hand-made prior (``prior``): the chance that the
  shooter pots his easiest open ball (the planner's next-pot curve) and
  the race model's chance that he wins the frame (0.5 in the points games).
  With the prior among its inputs the network learns what the hand-made
  value misses rather than the geometry of potting from scratch.

No token names a ball, so a network that pools the tokens (DeepSets) sees
the same table whatever order the balls are listed in. The table is
symmetric under the mirror x -> width - x, and so are the rules: ``mirror``
flips the tokens, which doubles the training data for free.
``VALUE_OBS_VERSION`` changes with this layout.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from piramida.env.position import COLOURED, Position
from piramida.env.view import GameView

VALUE_OBS_VERSION = 1
MAX_BALLS = 16
BALL_F = 6
GLOBAL_F = 15
#: Where the cue ball may be placed, one-hot in the globals.
IN_HAND = (None, "house", "rear_house", "anywhere")
#: The variants scored by points (the network's second output, the margin,
#: is trained there).
POINT_GAMES = ("classic71", "five_ball")


def is_points_game(variant: str, options: Mapping[str, Any] | None = None) -> bool:
    """Points, not balls, decide the frame (classic71, five balls, free
    pyramid played for points)."""
    return variant in POINT_GAMES or (options or {}).get("scoring") == "points"


def ball_points(ball: str, variant: str, options: Mapping[str, Any] | None = None) -> float:
    """What potting ``ball`` scores in a points game (the ace its
    ``ace_value``; the coloured ball and the games won by balls: 0, every
    ball there counts the same)."""
    opts = options or {}
    if not is_points_game(variant, opts) or not ball.isdigit() or ball == COLOURED:
        return 0.0
    if ball == "1" and "ace_value" in opts:
        return float(opts["ace_value"])
    return float(int(ball))


def encode(
    pos: Position,
    player: int,
    cue_balls: Sequence[str],
    target: float,
    in_hand: str | None = None,
    extra: Sequence[int] = (0, 0),
    options: Mapping[str, Any] | None = None,
    prior: tuple[float, float] = (0.5, 0.5),
) -> tuple[np.ndarray, np.ndarray]:
    """``(balls, globals)`` of ``pos`` for ``player`` about to shoot,
    striking one of ``cue_balls``; ``extra``: balls each player is certain
    to get besides his score (a pending penalty ball); ``prior``: (his
    next-pot chance, the race model's win chance), see the module
    docstring."""
    t = pos.table
    w, length = t.width, t.length
    cues = set(cue_balls)
    points = is_points_game(pos.variant, options)
    # One list of rows and one array: this runs for every noisy sample the
    # planner values, and ``pos.balls`` directly (a lookup by id scans).
    rows = [
        (
            x / w,
            y / length,
            float(b == COLOURED),
            float(b in cues),
            ball_points(b, pos.variant, options) / 15.0 if points else 0.0,
            1.0,
        )
        for b, x, y in pos.balls[:MAX_BALLS]
    ]
    balls = np.zeros((MAX_BALLS, BALL_F), np.float32)
    if rows:
        balls[: len(rows)] = rows
    target = max(1.0, float(target))
    me, op = int(player), 1 - int(player)
    mine = pos.score[me] + int(extra[me])
    theirs = pos.score[op] + int(extra[op])
    where = IN_HAND.index(in_hand) if in_hand in IN_HAND else 0
    g = np.array(
        (
            _clip4(mine / target),
            _clip4(theirs / target),
            _clip4((target - mine) / target),
            _clip4((target - theirs) / target),
            min(pos.owed[me] / 15.0, 1.0),
            min(pos.owed[op] / 15.0, 1.0),
            *(float(i == where) for i in range(len(IN_HAND))),
            float(pos.is_break),
            len(pos.ids) / MAX_BALLS,
            float(points),
            float(prior[0]),
            float(prior[1]),
        ),
        np.float32,
    )
    return balls, g


def _clip4(x: float) -> float:
    return min(4.0, max(-4.0, x))


def target_of(referee: Any) -> float:
    """The variant's target (balls or points to win), at least 1."""
    try:
        return max(1.0, float(referee.target()))
    except (AttributeError, KeyError, TypeError, ValueError):
        return 8.0


def encode_view(view: GameView, prior: tuple[float, float] = (0.5, 0.5)) -> tuple[np.ndarray, np.ndarray]:
    """``encode`` for the player to shoot in ``view`` (a shot decision)."""
    return encode(
        view.position,
        view.player,
        view.cue_balls,
        target_of(view.referee),
        view.in_hand,
        options=view.options,
        prior=prior,
    )


def mirror(balls: np.ndarray) -> np.ndarray:
    """The tokens of the mirror-image table (x -> width - x) for the
    present balls; the padding stays zero."""
    out = np.array(balls, copy=True)
    present = out[..., -1] > 0
    out[..., 0] = np.where(present, 1.0 - out[..., 0], 0.0)
    return out


__all__ = [
    "BALL_F",
    "GLOBAL_F",
    "IN_HAND",
    "MAX_BALLS",
    "POINT_GAMES",
    "VALUE_OBS_VERSION",
    "ball_points",
    "encode",
    "encode_view",
    "is_points_game",
    "mirror",
    "target_of",
]
