"""The Agent protocol and what an agent sees (DESIGN.md §6).

An agent is asked to act only when it is its turn. It sees a ``GameView``
(the position, the decision pending, the variant's options) and answers a
``Shot`` when ``view.kind == "shot"`` or a choice name (a string from
``view.choices``) when ``view.kind == "choice"``.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from piramida.env.shot import Shot
from piramida.env.view import GameView

Action = Shot | str

__all__ = ["Action", "Agent", "GameView"]


@runtime_checkable
class Agent(Protocol):
    """``act`` answers a Shot or a choice name; ``reset`` starts a frame."""

    name: str

    def act(self, view: GameView) -> Action: ...

    def reset(self, seed: int | None = None) -> None: ...
