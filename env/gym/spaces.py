"""Observation and action spaces shared by every piramida environment
(docs/design.md §5).

Ball slots. Every observation and the ``ball``/``call_ball`` action parts
use 16 ball slots. In the pyramid games slot ``k`` is ball ``str(k)`` (slot 0
the coloured ball). In five-ball the first five slots are, from the point of
view of the player who observes: his own white, the opponent's white, ``r1``,
``r2``, ``y``; slots 5..15 are always empty. So one policy can play either
seat.

Choices. The ``choice`` action part indexes one FIXED vocabulary, the same in
every variant (``CHOICES``): the nine named decisions of docs/game_rules.md §4 and the
lag, then ``take_ball:<id>`` and ``remove_ball:<id>`` for every ball id of
every variant.

The action mask is ONE flat 0/1 vector (``MASK_SIZE`` entries): the struck
ball slots, the called ball slots, the pockets, the choices, in that order.
``ActionSpace.sample(mask)`` accepts that vector, so PettingZoo's
``api_test`` and RLlib-style masking can use it directly.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from piramida.env.position import FIVE_BALL_IDS, PYRAMID_IDS
from piramida.env.rules.ruling import (
    ACCEPT_AND_MAKE_OFFENDER_SHOOT,
    ACCEPT_AND_SHOOT,
    BALL_IN_HAND_ANYWHERE,
    BREAK,
    MAKE_OFFENDER_SHOOT,
    MAKE_OPPONENT_BREAK,
    REMOVE_BALL,
    RERACK_AND_BREAK,
    RERACK_AND_MAKE_OFFENDER_BREAK,
    SHOOT,
    TAKE_BALL,
)
from piramida.env.table import POCKETS

N_SLOTS = 16
N_POCKETS = len(POCKETS)
IN_HAND_KINDS: tuple[str | None, ...] = (None, "house", "rear_house", "anywhere")
DECISIONS: tuple[str, ...] = ("shot", "choice")

_ALL_IDS: tuple[str, ...] = PYRAMID_IDS + FIVE_BALL_IDS
CHOICES: tuple[str, ...] = (
    (
        SHOOT,
        MAKE_OFFENDER_SHOOT,
        ACCEPT_AND_SHOOT,
        ACCEPT_AND_MAKE_OFFENDER_SHOOT,
        RERACK_AND_BREAK,
        RERACK_AND_MAKE_OFFENDER_BREAK,
        BALL_IN_HAND_ANYWHERE,
        BREAK,
        MAKE_OPPONENT_BREAK,
    )
    + tuple(TAKE_BALL + b for b in _ALL_IDS)
    + tuple(REMOVE_BALL + b for b in _ALL_IDS)
)
CHOICE_INDEX: dict[str, int] = {c: i for i, c in enumerate(CHOICES)}
N_CHOICES = len(CHOICES)

# The continuous shot parameters, each in [-1, 1] (see decode.py for the maps).
SHOT_PARAMS: tuple[str, ...] = ("phi", "v", "a", "b", "theta", "place_x", "place_y")
N_SHOT = len(SHOT_PARAMS)

# Layout of the flat action mask.
MASK_PARTS: tuple[tuple[str, int], ...] = (
    ("ball", N_SLOTS),
    ("call_ball", N_SLOTS),
    ("call_pocket", N_POCKETS),
    ("choice", N_CHOICES),
)
MASK_SIZE = sum(n for _, n in MASK_PARTS)


def mask_slices() -> dict[str, slice]:
    """Where each discrete part lies in the flat mask."""
    out: dict[str, slice] = {}
    i = 0
    for name, n in MASK_PARTS:
        out[name] = slice(i, i + n)
        i += n
    return out


MASK_SLICES = mask_slices()


def slot_ids(variant: str, player: int) -> tuple[str | None, ...]:
    """Ball id of each of the 16 slots seen by ``player`` (None: unused)."""
    if variant == "five_ball":
        own, other = ("w1", "w2") if player == 0 else ("w2", "w1")
        return (own, other, "r1", "r2", "y") + (None,) * (N_SLOTS - 5)
    return PYRAMID_IDS


class ActionSpace(spaces.Dict):
    """The Dict action space; ``sample`` also takes the flat action mask
    of the observation (a plain Dict would need one mask per part)."""

    def sample(self, mask: Any = None, probability: Any = None) -> dict[str, Any]:
        if isinstance(mask, np.ndarray):
            mask = {
                name: np.asarray(mask[MASK_SLICES[name]], dtype=np.int8) for name, _ in MASK_PARTS
            } | {"shot": None}
        return super().sample(mask=mask, probability=probability)


def action_space() -> ActionSpace:
    """``ball`` (slot struck), ``call_ball`` (slot called), ``call_pocket``
    (index into ``table.POCKETS``), ``choice`` (index into ``CHOICES``) and
    ``shot`` (the seven continuous parameters in [-1, 1])."""
    return ActionSpace(
        {
            "ball": spaces.Discrete(N_SLOTS),
            "call_ball": spaces.Discrete(N_SLOTS),
            "call_pocket": spaces.Discrete(N_POCKETS),
            "choice": spaces.Discrete(N_CHOICES),
            "shot": spaces.Box(-1.0, 1.0, (N_SHOT,), np.float32),
        }
    )


SCORE_BOUND = 4.0  # scores / target, clipped (classic pyramid scores may go negative)
OWED_BOUND = 15.0


def observation_space() -> spaces.Dict:
    """See ``encode.observe`` for the meaning of every entry."""
    f32 = np.float32
    return spaces.Dict(
        {
            "balls": spaces.Box(0.0, 1.0, (N_SLOTS, 3), f32),
            "shelf": spaces.Box(-1.0, 1.0, (N_SLOTS,), f32),
            "score": spaces.Box(-SCORE_BOUND, SCORE_BOUND, (2,), f32),
            "owed": spaces.Box(0.0, 1.0, (2,), f32),
            "in_hand": spaces.Box(0.0, 1.0, (len(IN_HAND_KINDS),), f32),
            "is_break": spaces.Box(0.0, 1.0, (1,), f32),
            "decision": spaces.Box(0.0, 1.0, (len(DECISIONS),), f32),
            "action_mask": spaces.Box(0, 1, (MASK_SIZE,), np.int8),
        }
    )
