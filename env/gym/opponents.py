"""The opponent in the single-agent environments.

``piramida.env`` may not import ``piramida.agents`` (docs/design.md §1), so the
env talks to agents by their protocol only: an opponent is

- ``None`` or ``"random"``: ``RandomOpponent``, a uniformly random point of
  the action space under the action mask (so it also makes random legal
  choices), drawn from the generator the env's ``reset(seed=...)`` seeds;
- any object with ``act(view) -> Shot | str`` (``piramida.agents.base.Agent``):
  it gets a ``piramida.env.view.GameView`` and its ``reset(seed)`` is
  called on every env reset;
- a callable ``f(game) -> Shot | str``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from piramida.env.game import Game
from piramida.env.shot import Shot
from piramida.env.view import GameView

from .decode import decode
from .encode import action_mask, legal
from .spaces import MASK_PARTS, MASK_SLICES, N_SHOT


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
            return self.obj.act(GameView.of(game))
        return self.obj(game)
