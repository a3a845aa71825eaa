"""The opponent in the single-agent environments.

``piramida.env`` may not import ``piramida.agents`` (DESIGN.md §1), so the
env talks to agents by their protocol only: an opponent is

- ``None`` or ``"random"``: ``RandomOpponent``, a uniformly random point of
  the action space under the action mask (so it also makes random legal
  choices), drawn from the generator the env's ``reset(seed=...)`` seeds;
- any object with ``act(view) -> Shot | str`` (``piramida.agents.base.Agent``):
  it gets a ``TurnView``, field for field the same as
  ``piramida.agents.base.GameView`` (a test pins that), and its
  ``reset(seed)`` is called on every env reset;
- a callable ``f(game) -> Shot | str``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from piramida.env.game import Game
from piramida.env.position import Position
from piramida.env.shot import Shot
from piramida.env.table import Table

from .decode import decode
from .encode import action_mask, legal
from .spaces import MASK_PARTS, MASK_SLICES, N_SHOT


@dataclass(frozen=True)
class TurnView:
    """What an agent sees when asked to act (the fields of
    ``piramida.agents.base.GameView``)."""

    variant: str
    position: Position
    player: int
    kind: str
    choices: tuple[str, ...] = ()
    in_hand: str | None = None
    cue_balls: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    shot_number: int = 0
    #: The game's referee and state, for agents that judge their own
    #: candidate shots.
    referee: Any = field(default=None, compare=False, repr=False)
    state: Any = field(default=None, compare=False, repr=False)

    @property
    def table(self) -> Table:
        return self.position.table

    @property
    def is_break(self) -> bool:
        return self.position.is_break

    @classmethod
    def of(cls, game: Game) -> TurnView:
        st = game.state
        nxt = st.next
        ref: Any = game.referee
        pos = st.position
        cue = tuple(ref.allowed_cue_balls(pos)) if nxt.kind == "shot" else ()
        return cls(
            variant=game.variant,
            position=pos,
            player=int(nxt.player) if nxt.player is not None else pos.to_move,
            kind=nxt.kind,
            choices=tuple(nxt.choices),
            in_hand=nxt.in_hand,
            cue_balls=cue,
            options=dict(ref.options),
            shot_number=len(game.history),
            referee=ref,
            state=st,
        )


def random_action(mask: np.ndarray, rng: np.random.Generator) -> dict[str, Any]:
    """A uniformly random action under the flat ``mask``: each discrete part
    uniform over its legal options (0 when it has none), the shot parameters
    uniform in [-1, 1]. The same distribution as
    ``ActionSpace.sample(mask)``, without its per-part overhead."""
    out: dict[str, Any] = {}
    for name, _ in MASK_PARTS:
        idx = np.flatnonzero(mask[MASK_SLICES[name]])
        out[name] = int(idx[rng.integers(idx.size)]) if idx.size else 0
    out["shot"] = rng.uniform(-1.0, 1.0, N_SHOT).astype(np.float32)
    return out


class RandomOpponent:
    """Uniform over the action space, restricted by the action mask."""

    name = "random"

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act_on(self, game: Game) -> Shot | str:
        lg = legal(game)
        action = random_action(action_mask(game, lg.player, lg), self.rng)
        return decode(game, action, lg).action


Opponent = Any


def make_opponent(spec: Opponent) -> Callable[[Game], Shot | str]:
    """A function ``game -> Shot | str`` for the opponent spec (see the
    module docstring); ``reset`` of the spec, if any, is kept on it."""
    if spec is None or spec == "random":
        return _Bound(RandomOpponent(), "random")
    if hasattr(spec, "act"):
        return _Bound(spec, "agent")
    if callable(spec):
        return _Bound(spec, "callable")
    raise ValueError(
        f"opponent must be 'random', an Agent (with act(view)) or a callable, got {spec!r}"
    )


class _Bound:
    def __init__(self, obj: Any, how: str) -> None:
        self.obj, self.how = obj, how

    def reset(self, seed: int) -> None:
        fn = getattr(self.obj, "reset", None)
        if self.how != "callable" and callable(fn):
            fn(seed=seed)

    def __call__(self, game: Game) -> Shot | str:
        if self.how == "random":
            return self.obj.act_on(game)
        if self.how == "agent":
            return self.obj.act(TurnView.of(game))
        return self.obj(game)
