"""The Agent protocol and what an agent sees (docs/design.md §6).

An agent is asked to act only when it is its turn. It sees a ``GameView``
(the position, the decision pending, the variant's options) and answers a
``Shot`` when ``view.kind == "shot"`` or a choice name (a string from
``view.choices``) when ``view.kind == "choice"``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol, runtime_checkable

from piramida.env.errors import PiramidaError
from piramida.env.shot import Shot
from piramida.env.view import GameView

Action = Shot | str

__all__ = ["Action", "Agent", "GameView", "NoLegalShotError", "ruled_view", "why_no_shot"]


class NoLegalShotError(PiramidaError):
    """Asked for a shot where the rules leave none: the frame is over, a
    choice is pending, or no ball the player may strike has a ball to
    contact (item 5.1). The message is one line and ends with the
    position."""


def why_no_shot(view: GameView) -> str | None:
    """The referee's one-line reason why no legal shot exists in ``view``
    (``BaseReferee.why_no_shot``), or None when one does. A view built by
    hand without a referee and state is judged from a fresh referee."""
    referee = view.referee
    state = view.state
    if referee is None or state is None:
        from piramida.env.rules import get_referee

        referee = get_referee(view.variant, dict(view.options) or None, view.position.table)
        state = referee.initial_state(view.position)
    check = getattr(referee, "why_no_shot", None)
    return None if check is None else check(state)


def ruled_view(view: GameView) -> GameView:
    """``view`` in the position its referee's state holds, where the
    initial state applied a rule to a position given by hand (item 21.2:
    every object ball in the house, so the ball in hand goes beyond the
    rear line) and a shot is still to be played; ``view`` itself
    otherwise (always, in a game)."""
    st = view.state
    if st is not None and st.position != view.position and st.next.kind == "shot":
        return replace(view, position=st.position, in_hand=st.next.in_hand)
    return view


@runtime_checkable
class Agent(Protocol):
    """``act`` answers a Shot or a choice name; ``reset`` starts a frame."""

    name: str

    def act(self, view: GameView) -> Action: ...

    def reset(self, seed: int | None = None) -> None: ...
