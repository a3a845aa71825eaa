"""PettingZoo AEC adapter (docs/design.md §5): ``player_0`` and ``player_1``
acting in turn over ``MultiAgentPyramidCore``.

``agent_selection`` is the player to act (a player who pots shoots again,
so the order is not a plain alternation). ``observe(agent)`` works for
either player at any time; its ``action_mask`` is all zeros when it is not
that player's turn. The action space's ``sample(mask)`` takes that mask, as
PettingZoo's ``api_test`` does. Spaces, rewards, arguments and seeding are
those of the core (the Dict spaces, or Boxes with ``flat=True``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pettingzoo import AECEnv

from .encode import observe
from .frame import DEFAULT_NOISE
from .multi import AGENTS, MultiAgentPyramidCore
from .single import DEFAULT_MAX_SHOTS


class TurnsAEC(AECEnv):
    """The AEC bookkeeping over a two-player core that says whose turn it
    is (``actor()``) and steps with ``{agent: action}`` as RLlib's
    multi-agent envs do; subclasses build ``self.core`` and observe."""

    core: Any

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.core.reset(seed=seed, options=options)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.core.actor()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        # The core checks the action first: a refused one changes nothing here.
        _, rew, terms, truncs, infos = self.core.step({agent: action})
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: float(rew.get(a, 0.0)) for a in self.agents}
        for a, info in infos.items():
            self.infos[a] = info
        if terms["__all__"] or truncs["__all__"]:
            self.terminations = {a: bool(terms[a]) for a in self.agents}
            self.truncations = {a: bool(truncs[a]) for a in self.agents}
        else:
            self.agent_selection = self.core.actor()
        self._accumulate_rewards()

    def close(self) -> None:
        pass


class PyramidAEC(TurnsAEC):
    """One frame of ``variant`` as a PettingZoo AEC game."""

    metadata = {
        "name": "piramida_v0",
        "render_modes": ["rgb_array", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str = "free",
        noise: str | None = DEFAULT_NOISE,
        options: Mapping[str, Any] | None = None,
        max_shots: int = DEFAULT_MAX_SHOTS,
        render_mode: str | None = None,
        reward_shaping: float = 0.0,
        flat: bool = False,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}"
            )
        self.core = MultiAgentPyramidCore(
            {
                "variant": variant,
                "noise": noise,
                "options": dict(options or {}),
                "max_shots": max_shots,
                "reward_shaping": reward_shaping,
                "flat": flat,
                "render_mode": render_mode,
            }
        )
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)

    def observation_space(self, agent: str) -> Any:
        return self.core.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.core.action_spaces[agent]

    def observe(self, agent: str) -> Any:
        o = observe(self.core.frame.g, AGENTS.index(agent))
        if self.core.flat_obs:
            from gymnasium import spaces

            return spaces.flatten(self.core._dict_obs_space, o)
        return o

    def render(self) -> Any:
        return self.core.render()
