"""Ruling, Next and State: what a referee says about a shot (docs/design.md §2).

``Ruling.to_dict()`` is the public JSON, with exactly the keys ``legal``,
``fouls``, ``scored``, ``respotted``, ``penalty``, ``score``, ``next``,
``winner``, ``owed`` (the balls each player owes, seed 003 "Штрафы") and
``phase`` (the kind of decision next: lag, break, shot, choice, over) and
``special`` (the special cases of seed 003 applied, usually none). The
ruling also carries the resulting ``State`` (the next position plus the
decision pending in the frame) for ``Game``; that part is not in the JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from piramida.env.position import Position

# Canonical order of the foul names (docs/game_rules.md §4.12, then the variant ones).
FOUL_ORDER: tuple[str, ...] = (
    "no_contact",
    "illegal_break",
    "push",
    "illegal_completion",
    "jumped_ball",
    "cue_ball_pocketed",
    "shot_clock",
    "reported",
    "balls_moving",
    "cue_misuse",
    "feet_off_floor",
    "touched_ball",
    "double_hit",
)

#: Fouls the physics cannot see, reported on a shot from outside
#: (``Game.report_foul``, ``piramida referee --foul``): seed 004 item 29.1
#: and seed 003 "Штрафы"; ``reported`` is any other.
REPORTED_FOULS: dict[str, str] = {
    "touched_ball": "a ball touched by hand, body, clothes, chalk or cue (item 17; seed 003)",
    "feet_off_floor": "both feet off the floor (item 16; seed 003)",
    "cue_misuse": "the cue ball struck other than with the tip (item 15; seed 003)",
    "balls_moving": "struck before the balls stopped (item 14.2; seed 003)",
    "double_hit": "the tip touched the cue ball twice (item 18)",
    "push": "the tip kept on the cue ball until the contact (item 19.1)",
    "shot_clock": "over the shot clock (item 26)",
    "reported": "any other foul reported",
}


def reported_foul(kind: str) -> str:
    """The foul name a reported ``kind`` is judged as: its own name when it
    is one of ``REPORTED_FOULS``, else ``reported``."""
    return kind if kind in REPORTED_FOULS else "reported"

# Names of the decisions a player makes outside a shot (docs/design.md §4).
SHOOT = "shoot"
MAKE_OFFENDER_SHOOT = "make_offender_shoot"
ACCEPT_AND_SHOOT = "accept_and_shoot"
ACCEPT_AND_MAKE_OFFENDER_SHOOT = "accept_and_make_offender_shoot"
RERACK_AND_BREAK = "rerack_and_break"
RERACK_AND_MAKE_OFFENDER_BREAK = "rerack_and_make_offender_break"
BALL_IN_HAND_ANYWHERE = "ball_in_hand_anywhere"
TAKE_BALL = "take_ball:"
REMOVE_BALL = "remove_ball:"
BREAK = "break"
MAKE_OPPONENT_BREAK = "make_opponent_break"

AFTER_FOUL_CHOICES: tuple[str, ...] = (SHOOT, MAKE_OFFENDER_SHOOT)
AFTER_BREAK_FOUL_CHOICES: tuple[str, ...] = (
    ACCEPT_AND_SHOOT,
    ACCEPT_AND_MAKE_OFFENDER_SHOOT,
    RERACK_AND_BREAK,
    RERACK_AND_MAKE_OFFENDER_BREAK,
)


def order_fouls(fouls: set[str] | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Each foul once (item 29.2: several fouls are penalised once; the
    names are kept for the record), in the canonical order."""
    known = [f for f in FOUL_ORDER if f in fouls]
    extra = sorted(f for f in set(fouls) if f not in FOUL_ORDER)
    return tuple(known + extra)


@dataclass(frozen=True)
class Next:
    """Who acts next and how: ``kind`` is "shot", "choice", "lag" (the lag
    phase of docs/game_rules.md §4.1) or "none" once the frame is over."""

    player: int | None
    kind: str
    choices: tuple[str, ...] = ()
    in_hand: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "kind": self.kind,
            "choices": list(self.choices),
            "in_hand": self.in_hand,
        }


@dataclass(frozen=True)
class Pending:
    """The referee's private note of what the pending choices lead to.

    ``stages`` is the queue of decisions still to make ("take", "after",
    "after_break", "svoyak", "take_or_hand", "lag_winner"; "svoyak_pass": a
    свояк on a shot whose turn passes, seed 003 special cases); ``chooser`` makes
    them; ``offender`` is the player who fouled (or the shooter of a свояк);
    ``in_hand`` is the ball-in-hand kind for whoever shoots next.
    """

    stages: tuple[str, ...]
    chooser: int
    offender: int
    in_hand: str | None = None

    def balls_owed(self) -> tuple[int, int]:
        """Balls each player is certain to get from these choices, not yet
        in his score: the ball the non-offender takes after a foul (docs/game_rules.md
        §5.1 penalty, §5.4 take-or-hand) and the ball a свояк earns (§5.2)."""
        owed = [0, 0]
        if "take" in self.stages or "take_or_hand" in self.stages:
            owed[self.chooser] += 1
        if "svoyak" in self.stages or "svoyak_pass" in self.stages:
            owed[self.offender] += 1
        return owed[0], owed[1]


@dataclass(frozen=True)
class State:
    """The frame between actions: position, the next decision, and the
    bookkeeping that is not in a Position (fouls charged in points games)."""

    position: Position
    next: Next
    pending: Pending | None = None
    winner: int | None = None
    over: bool = False
    fouls_charged: tuple[int, int] = (0, 0)
    breaker: int = 0


@dataclass(frozen=True)
class Ruling:
    legal: bool
    fouls: tuple[str, ...]
    scored: Mapping[int, tuple[str, ...]]
    respotted: Mapping[str, tuple[float, float]]
    penalty: str | None
    score: tuple[int, int]
    next: Next
    winner: int | None
    state: State = field(compare=False, repr=False, default=None)  # type: ignore[assignment]
    #: The special cases of seed 003 the ruling applied ("on_rail",
    #: "returned", "hanging_drop"; docs/rules.md "Special cases").
    special: tuple[str, ...] = ()

    @property
    def position(self) -> Position:
        """The position after the shot, re-spotting and the frame update."""
        return self.state.position

    def to_dict(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "fouls": list(self.fouls),
            "scored": {str(p): list(self.scored.get(p, ())) for p in (0, 1)},
            "respotted": {b: [xy[0], xy[1]] for b, xy in self.respotted.items()},
            "penalty": self.penalty,
            "score": list(self.score),
            "next": self.next.to_dict(),
            "winner": self.winner,
            "owed": list(self.state.position.owed) if self.state is not None else [0, 0],
            "phase": self.phase,
            "special": list(self.special),
        }

    @property
    def phase(self) -> str:
        """The kind of decision next: ``lag``, ``break`` (a shot that breaks
        a rack), ``shot``, ``choice`` or ``over``."""
        if self.next.kind == "none":
            return "over"
        if self.next.kind == "shot" and self.state is not None and self.state.position.is_break:
            return "break"
        return self.next.kind

    @classmethod
    def of_action(cls, before: State, after: State, note: str | None) -> Ruling:
        """The ruling on a decision the referee does not judge as a shot (a
        lag shot, a choice): legal, no fouls; the balls it puts on a shelf
        scored; ``note`` says what happened."""
        scored = {
            p: tuple(b for b in after.position.shelves[p] if b not in before.position.shelves[p]) for p in (0, 1)
        }
        return cls(True, (), scored, {}, note, after.position.score, after.next, after.winner, state=after)

    def summary(self) -> str:
        """One readable line."""
        verdict = "legal" if self.legal else "FOUL " + ",".join(self.fouls)
        scored = "; ".join(f"p{p} scored {','.join(b)}" for p, b in self.scored.items() if b)
        nxt = "frame over" if self.next.kind == "none" else f"next p{self.next.player} {self.next.kind}"
        if self.next.choices:
            shown = list(self.next.choices[:6]) + (["..."] if len(self.next.choices) > 6 else [])
            nxt += " [" + " ".join(shown) + "]"
        if self.next.in_hand:
            nxt += f" in hand ({self.next.in_hand})"
        parts = [verdict]
        if scored:
            parts.append(scored)
        if self.respotted:
            parts.append("respotted " + ",".join(self.respotted))
        if self.penalty:
            parts.append(self.penalty)
        parts.append(f"score {self.score[0]}-{self.score[1]}")
        parts.append(nxt)
        if self.winner is not None:
            parts.append(f"WINNER p{self.winner}")
        elif self.next.kind == "none":
            parts.append("DRAW")
        return " | ".join(parts)
