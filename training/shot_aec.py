"""Self-play shot selection as a PettingZoo AEC game over
``shot_env.ShotCore`` (spaces, rewards and config as there)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pettingzoo import AECEnv

from piramida.training.shot_env import (
    AGENTS,
    DEFAULT_MAX_SHOTS,
    ShotCore,
    action_space,
    observation_space,
)


class ShotsAEC(AECEnv):
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

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.core.reset(seed=seed)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.core.actor()

    def observe(self, agent: str) -> Any:
        return self.core.observe(agent)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        _, rew, terms, truncs, infos = self.core.step({agent: action})
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: float(rew.get(a, 0.0)) for a in self.agents}
        self.infos.update(infos)
        if terms["__all__"] or truncs["__all__"]:
            self.terminations = {a: bool(terms[a]) for a in self.agents}
            self.truncations = {a: bool(truncs[a]) for a in self.agents}
        else:
            self.agent_selection = self.core.actor()
        self._accumulate_rewards()

    def render(self) -> Any:
        return None

    def close(self) -> None:
        pass


__all__ = ["ShotsAEC"]
