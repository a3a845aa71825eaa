"""The random agent: a legal shot or choice drawn uniformly (docs/design.md §6).

It answers a choice with one of ``view.choices`` and a shot with a random
cue ball among those allowed, a random placement in the allowed area when the
ball is in hand, a random direction, speed and tip offset, and a random call
where the variant needs one. In the lag it plays a random lag from its half
of the house (``random_lag_shot``). It reads only the attributes of a GameView
(``variant``, ``position``, ``kind``, ``choices``, ``in_hand``,
``cue_balls``), so any object with them will do. The strokes themselves are
``piramida.env.random_shots`` (the frame driver plays them too, in place
of an action the referee refuses).
"""

from __future__ import annotations

import random
from typing import Any

from piramida.env.random_shots import random_lag_shot, random_place, random_shot
from piramida.env.shot import Shot

__all__ = ["RandomAgent", "random_lag_shot", "random_place", "random_shot"]


class RandomAgent:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = random.Random(seed)

    def act(self, view: Any) -> Shot | str:
        if view.kind == "choice":
            return self.rng.choice(list(view.choices))
        if view.kind == "lag":
            player = getattr(view, "player", view.position.to_move)
            return random_lag_shot(view.variant, player, view.position.table, self.rng)
        return random_shot(view.variant, view.position, view.in_hand, tuple(view.cue_balls), self.rng)
