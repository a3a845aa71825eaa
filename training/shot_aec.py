"""Self-play shot selection as a PettingZoo AEC game over
``shot_env.ShotCore`` (spaces, rewards and config as there)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from piramida.env.gym.aec import TurnsAEC
from piramida.training.shot_env import (
    AGENTS,
    DEFAULT_MAX_SHOTS,
    ShotCore,
    action_space,
    observation_space,
)


class ShotsAEC(TurnsAEC):
    """Self-play shot selection as a PettingZoo AEC game: ``player_0``
    and ``player_1`` acting in turn (a player who pots acts again).
    ``observe(agent)`` works for either at any time; its
    ``action_mask`` is all zeros when it is not that agent's turn."""

    metadata = {"name": "piramida_shots_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self, variant: str = "free", noise: str = "pro", max_shots: int = DEFAULT_MAX_SHOTS,
                 search: str = "planner", options: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        self.core = ShotCore({"variant": variant, "noise": noise, "max_shots": max_shots,
                              "search": search, "options": dict(options or {})})
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.spaces = (observation_space(), action_space())

    def observation_space(self, agent: str) -> Any:
        return self.spaces[0]

    def action_space(self, agent: str) -> Any:
        return self.spaces[1]

    def observe(self, agent: str) -> Any:
        return self.core.observe(agent)

    def render(self) -> Any:
        return None


__all__ = ["ShotsAEC"]
