"""Observations: a ``Game`` seen by one player, as arrays (docs/design.md §5).

``observe(game, player)`` returns the Dict of ``spaces.observation_space``:

- ``balls`` (16, 3): per slot ``x / width``, ``y / length``, present (1 when
  the ball is on the table; 0 on a shelf, in hand, pocketed or unused).
- ``shelf`` (16,): +1 on the observer's shelf, -1 on the opponent's.
- ``score`` (2,): own score then the opponent's, divided by the variant's
  target (balls or points to win), clipped to [-4, 4].
- ``owed`` (2,): penalty balls owed (docs/game_rules.md §4.8, seed 003), own then
  opponent's, divided by 15.
- ``in_hand`` (4,): one-hot of none, house, rear_house, anywhere: where the
  observer may place his cue ball when he is to shoot (the lag counts as the
  house); "none" when he is not to shoot.
- ``is_break`` (1,): 1 when the next shot is the break.
- ``decision`` (2,): one-hot of shot, choice; zeros when the observer is
  not the one to act or the frame is over.
- ``action_mask`` (89,) int8: the legal discrete options of the observer
  (see ``spaces``); all zeros when it is not his turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from piramida.env.game import Game
from piramida.env.position import cue_ball_of

from .spaces import (
    CHOICE_INDEX,
    DECISIONS,
    IN_HAND_KINDS,
    MASK_SIZE,
    MASK_SLICES,
    N_SLOTS,
    OWED_BOUND,
    SCORE_BOUND,
    slot_ids,
)


@dataclass(frozen=True)
class Legal:
    """What the player to act may do now."""

    player: int
    kind: str  # "shot" (the lag included) or "choice" or "none"
    balls: tuple[str, ...] = ()
    call_balls: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    in_hand: str | None = None
    lag: bool = False


def needs_call(game: Game) -> bool:
    """Does the next shot need a call? Five-ball: always; classic pyramid:
    all but the break (docs/game_rules.md §5.6, §5.7)."""
    ref: Any = game.referee
    if not ref.game_type.called or game.state.next.kind == "lag":
        return False
    return game.variant == "five_ball" or not game.position.is_break


def legal(game: Game) -> Legal:
    """The options of the player to act."""
    st = game.state
    nxt = st.next
    if st.over or nxt.player is None or nxt.kind == "none":
        return Legal(player=-1, kind="none")
    player = int(nxt.player)
    pos = st.position
    if nxt.kind == "choice":
        return Legal(player, "choice", choices=tuple(nxt.choices))
    if nxt.kind == "lag":
        return Legal(
            player, "shot", balls=(cue_ball_of(game.variant, player),), in_hand="house", lag=True
        )
    ref: Any = game.referee
    balls = tuple(ref.allowed_cue_balls(pos))
    calls: tuple[str, ...] = ()
    if needs_call(game):
        if game.variant == "five_ball":
            calls = tuple(b for b in pos.ids if b not in balls)
        else:
            calls = tuple(b for b in pos.ids if b != "0")
    return Legal(player, "shot", balls=balls, call_balls=calls, in_hand=pos.in_hand)


def action_mask(game: Game, player: int, lg: Legal | None = None) -> np.ndarray:
    lg = lg or legal(game)
    m = np.zeros(MASK_SIZE, np.int8)
    if lg.player != player:
        return m
    slots = slot_ids(game.variant, player)
    if lg.kind == "shot":
        ball, call = MASK_SLICES["ball"], MASK_SLICES["call_ball"]
        for k, b in enumerate(slots):
            if b is not None and b in lg.balls:
                m[ball.start + k] = 1
            if b is not None and b in lg.call_balls:
                m[call.start + k] = 1
        if lg.call_balls:
            m[MASK_SLICES["call_pocket"]] = 1
    elif lg.kind == "choice":
        start = MASK_SLICES["choice"].start
        for c in lg.choices:
            if c not in CHOICE_INDEX:
                raise ValueError(f"choice {c!r} is not in the environment's choice vocabulary")
            m[start + CHOICE_INDEX[c]] = 1
    return m


def target_of(game: Game) -> float:
    ref: Any = game.referee
    try:
        return max(1.0, float(ref.target()))
    except (AttributeError, KeyError, TypeError, ValueError):
        return 8.0


def observe(game: Game, player: int, lg: Legal | None = None) -> dict[str, np.ndarray]:
    """The observation of ``player`` (see the module docstring)."""
    lg = lg or legal(game)
    pos = game.state.position
    t = pos.table
    slots = slot_ids(game.variant, player)
    where = pos.ball_map
    balls = np.zeros((N_SLOTS, 3), np.float32)
    shelf = np.zeros(N_SLOTS, np.float32)
    mine, theirs = set(pos.shelves[player]), set(pos.shelves[1 - player])
    for k, b in enumerate(slots):
        if b is None:
            continue
        if b in where:
            x, y = where[b]
            balls[k] = (min(max(x / t.width, 0.0), 1.0), min(max(y / t.length, 0.0), 1.0), 1.0)
        if b in mine:
            shelf[k] = 1.0
        elif b in theirs:
            shelf[k] = -1.0
    target = target_of(game)
    score = np.clip(
        np.array([pos.score[player], pos.score[1 - player]], np.float32) / target,
        -SCORE_BOUND,
        SCORE_BOUND,
    ).astype(np.float32)
    owed = np.clip(
        np.array([pos.owed[player], pos.owed[1 - player]], np.float32) / OWED_BOUND, 0, 1
    )
    in_hand = np.zeros(len(IN_HAND_KINDS), np.float32)
    decision = np.zeros(len(DECISIONS), np.float32)
    if lg.player == player:
        in_hand[IN_HAND_KINDS.index(lg.in_hand if lg.kind == "shot" else None)] = 1.0
        decision[DECISIONS.index(lg.kind)] = 1.0
    else:
        in_hand[0] = 1.0
    return {
        "balls": balls,
        "shelf": shelf,
        "score": score,
        "owed": owed.astype(np.float32),
        "in_hand": in_hand,
        "is_break": np.array([1.0 if pos.is_break else 0.0], np.float32),
        "decision": decision,
        "action_mask": action_mask(game, player, lg),
    }


__all__ = ["Legal", "action_mask", "legal", "needs_call", "observe", "target_of"]
