"""A single flat Box action for algorithms that need one (docs/design.md §5).

The flat action has ``FLAT_SIZE = 16 + 16 + 6 + 51 + 7 = 96`` numbers in
[-1, 1]: a score per struck-ball slot, per called-ball slot, per pocket and
per choice, then the seven shot parameters. Each discrete part becomes the
legal option with the highest score (the mask decides what is legal; with
no legal option in a part, the overall highest), so a Gaussian policy over
the Box never proposes a masked-out option. ``FlatActionWrapper`` applies it
to ``PyramidEnv``; the RLlib env does the same with ``flat=True``.

A flat action that is not exactly 96 finite real numbers is an
``InvalidActionError`` (``decode.check_flat``); the scores are compared as
given and the shot part is clipped to [-1, 1] (see ``decode``).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .decode import check_flat
from .encode import action_mask
from .spaces import MASK_PARTS, MASK_SIZE, MASK_SLICES, N_SHOT

FLAT_SIZE = MASK_SIZE + N_SHOT


def flat_action_space() -> spaces.Box:
    return spaces.Box(-1.0, 1.0, (FLAT_SIZE,), np.float32)


def unflatten_action(flat: Any, mask: np.ndarray | None = None) -> dict[str, Any]:
    """The Dict action for a flat vector under the flat action ``mask``."""
    vec = check_flat(flat, FLAT_SIZE)
    out: dict[str, Any] = {}
    for name, _ in MASK_PARTS:
        scores = vec[MASK_SLICES[name]].copy()
        if mask is not None:
            legal = np.asarray(mask[MASK_SLICES[name]], dtype=bool)
            if legal.any():
                scores[~legal] = -np.inf
        out[name] = int(np.argmax(scores))
    out["shot"] = np.clip(vec[MASK_SIZE:], -1.0, 1.0).astype(np.float32)
    return out


class FlatActionWrapper(gym.ActionWrapper):
    """``PyramidEnv`` with the flat Box action (combine with
    ``gymnasium.wrappers.FlattenObservation`` for a flat observation)."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.action_space = flat_action_space()

    def action(self, action: Any) -> dict[str, Any]:
        base: Any = self.env.unwrapped
        game = base.frame.g
        return unflatten_action(action, action_mask(game, base.learner))
