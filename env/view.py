"""GameView: what a player sees when asked to act (docs/design.md §6).

It lives in ``env`` so that both the agents and the environments' opponents
use the one definition (``env`` may not import ``agents``). Views are made
in two ways only: ``GameView.of(game)`` for the player to act in a game,
and ``GameView.for_position(position)`` for a position given by hand
(``piramida suggest``, benchmarks, tests).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from piramida.env.position import Position
from piramida.env.table import Table


@dataclass(frozen=True)
class GameView:
    """Everything an agent may look at when it is asked to act."""

    variant: str
    position: Position
    player: int
    kind: str  # "shot" or "choice"
    choices: tuple[str, ...] = ()
    in_hand: str | None = None
    cue_balls: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    shot_number: int = 0
    #: The game's referee and state, for agents that judge their own
    #: candidate shots (``greedy``); None in views built by hand.
    referee: Any = field(default=None, compare=False, repr=False)
    state: Any = field(default=None, compare=False, repr=False)

    @property
    def table(self) -> Table:
        return self.position.table

    @property
    def is_break(self) -> bool:
        return self.position.is_break

    @classmethod
    def of(cls, game: Any) -> GameView:
        """The view of ``game`` (a ``piramida.env.game.Game``) for the player
        to act."""
        state = game.state
        nxt = state.next
        referee = game.referee
        pos = state.position
        cue = tuple(referee.allowed_cue_balls(pos)) if nxt.kind == "shot" else ()
        return cls(
            variant=game.variant,
            position=pos,
            player=int(nxt.player) if nxt.player is not None else pos.to_move,
            kind=nxt.kind,
            choices=tuple(nxt.choices),
            in_hand=nxt.in_hand,
            cue_balls=cue,
            options=dict(referee.options),
            shot_number=len(game.history),
            referee=referee,
            state=state,
        )

    @classmethod
    def for_position(cls, position: Position, options: Mapping[str, Any] | None = None) -> GameView:
        """The view of the player to move in ``position``, given by hand:
        a shot to play (``kind`` "shot", even where the rules leave none:
        agents then say why), judged by a fresh referee of the position's
        variant with ``options`` from its initial state."""
        from piramida.env.rules import get_referee

        referee = get_referee(position.variant, dict(options) if options else None, position.table)
        state = referee.initial_state(position)
        return cls(
            variant=position.variant,
            position=position,
            player=position.to_move,
            kind="shot",
            in_hand=position.in_hand,
            cue_balls=tuple(referee.allowed_cue_balls(position)),
            options=dict(referee.options),
            referee=referee,
            state=state,
        )
