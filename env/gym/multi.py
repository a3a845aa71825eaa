"""Two players acting in turn, for self-play (docs/design.md §5).

``MultiAgentPyramidCore`` has RLlib's ``MultiAgentEnv`` dict API without
importing ray; ``piramida.training.rllib_env.MultiAgentPyramid`` mixes it
into RLlib's base class (docs/design.md §1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from .decode import Decoded, InvalidActionError, show
from .encode import action_mask, observe
from .frame import DEFAULT_NOISE, Frame
from .single import DEFAULT_MAX_SHOTS
from .spaces import action_space, observation_space
from .wrappers import flat_action_space, unflatten_action

AGENTS: tuple[str, str] = ("player_0", "player_1")

Obs = Any  # a Dict observation, or a flat array with flat=True


class MultiAgentPyramidCore:
    """A frame between two learners, ``player_0`` and ``player_1``.

    ## Description

    One frame of ``variant``; only the player to act gets an observation
    (seen from his side, as in ``PyramidEnv``), so a player who pots keeps
    receiving observations. When the frame ends, BOTH players get a last
    observation, their reward and ``terminateds[agent] = True``, even one
    who never shot in the frame (docs/references.md, RL and self-play).

    ## Action Space

    Per agent, ``spaces.action_space()`` (the Dict of ``PyramidEnv``), or
    with ``flat_action=True`` the 96-number Box of ``wrappers``, whose
    discrete parts are argmaxes under the action mask. RLlib 2.60's default
    PPO module does sample the Dict action (one distribution per part) once
    the observation is flat, but it does not apply the mask, so masked-out
    parts reach ``decode`` and are corrected; the flat Box action never
    proposes a masked-out option, which is why the self-play test and
    training use ``flat=True``. Either way an action outside its space is
    an ``InvalidActionError`` (or a documented correction, see ``decode``)
    raised before the frame changes.

    ## Observation Space

    Per agent, ``spaces.observation_space()``; with ``flat_obs=True`` its
    ``gymnasium.spaces.flatten_space`` Box (the action mask is part of it):
    RLlib's default modules need a flat observation.

    ## Rewards

    +1 to the winner and -1 to the loser when the frame ends (0 each for a
    draw or truncation). With ``reward_shaping = w`` the player who just
    acted also gets ``w`` times the change of his (own - opponent's score) /
    target over his action.

    ## Starting State

    As ``PyramidEnv``: the variant's start position, breaker from the seed,
    or ``reset(options={"position": P})``.

    ## Episode End

    ``terminateds["__all__"]`` when the frame is over;
    ``truncateds["__all__"]`` after ``max_shots`` actions.

    ## Arguments

    ``config`` (RLlib's ``env_config``): ``variant`` ("free"), ``noise``
    ("pro"), ``options`` ({}), ``max_shots`` (300), ``reward_shaping`` (0),
    ``flat`` (False: sets both of ``flat_obs`` and ``flat_action``),
    ``render_mode`` (None, "rgb_array" or "ansi").
    ``reset(seed=...)`` is the only seeding.

    ## Version History

    - v0: initial version.
    """

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        cfg = dict(config or {})
        known = {
            "variant",
            "noise",
            "options",
            "max_shots",
            "reward_shaping",
            "flat",
            "flat_obs",
            "flat_action",
            "render_mode",
        }
        unknown = sorted(k for k in cfg if k not in known)
        if unknown:
            raise ValueError(f"unknown env_config key(s) {unknown}; known: {sorted(known)}")
        self.variant = str(cfg.get("variant", "free"))
        self.frame = Frame(self.variant, cfg.get("options"), cfg.get("noise", DEFAULT_NOISE))
        self.max_shots = int(cfg.get("max_shots", DEFAULT_MAX_SHOTS))
        self.reward_shaping = float(cfg.get("reward_shaping", 0.0))
        flat = bool(cfg.get("flat", False))
        self.flat_obs = bool(cfg.get("flat_obs", flat))
        self.flat_action = bool(cfg.get("flat_action", flat))
        self.render_mode = cfg.get("render_mode")
        self._dict_obs_space = observation_space()
        obs_space: spaces.Space[Any] = (
            spaces.flatten_space(self._dict_obs_space) if self.flat_obs else self._dict_obs_space
        )
        act_space: spaces.Space[Any] = flat_action_space() if self.flat_action else action_space()
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.observation_spaces = {a: obs_space for a in AGENTS}
        self.action_spaces = {a: act_space for a in AGENTS}
        self.observation_space = spaces.Dict(dict(self.observation_spaces))
        self.action_space = spaces.Dict(dict(self.action_spaces))
        self._rng, _ = seeding.np_random(None)
        self._done = True

    # ------------------------------------------------------------- API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        if seed is not None:
            self._rng, _ = seeding.np_random(seed)
        self.frame.reset(int(self._rng.integers(2**63)), options)
        self.agents = list(AGENTS)
        self._done = False
        actor = self.actor()
        return {actor: self._obs(actor)}, {actor: self._info(())}

    def step(
        self, action_dict: Mapping[str, Any]
    ) -> tuple[
        dict[str, Obs],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        if self._done:
            raise RuntimeError("the frame is over: call reset() before step()")
        actor = self.actor()
        if not isinstance(action_dict, Mapping):
            raise InvalidActionError(
                f"step takes a dict {{agent: action}}, got {type(action_dict).__name__}"
            )
        if actor not in action_dict:
            raise InvalidActionError(
                f"{actor} is to act; got actions for {show(list(action_dict))}"
            )
        player = AGENTS.index(actor)
        action = action_dict[actor]
        if self.flat_action:
            action = unflatten_action(action, action_mask(self.frame.g, player))
        before = self.frame.potential(player)
        decoded: Decoded = self.frame.apply_space_action(action)
        rewards: dict[str, float] = {actor: 0.0}
        if self.reward_shaping:
            rewards[actor] = self.reward_shaping * (self.frame.potential(player) - before)
        over = self.frame.g.over
        truncated = not over and self.frame.shots >= self.max_shots
        if over or truncated:
            self._done = True
            obs = {a: self._obs(a) for a in AGENTS}
            infos = {a: self._info(decoded.corrections if a == actor else ()) for a in AGENTS}
            for i, a in enumerate(AGENTS):
                rewards[a] = rewards.get(a, 0.0) + self.frame.final_reward(i)
            terms = {a: over for a in AGENTS} | {"__all__": over}
            truncs = {a: truncated for a in AGENTS} | {"__all__": truncated}
            self.agents = []
            return obs, rewards, terms, truncs, infos
        nxt = self.actor()
        return (
            {nxt: self._obs(nxt)},
            rewards,
            {"__all__": False},
            {"__all__": False},
            {nxt: self._info(decoded.corrections if nxt == actor else ())},
        )

    def render(self) -> Any:
        if self.render_mode is None or self.frame.game is None:
            return None
        from piramida.env import render

        pos = self.frame.g.state.position
        return (
            render.render_rgb(pos) if self.render_mode == "rgb_array" else render.render_ansi(pos)
        )

    def close(self) -> None:
        pass

    # ------------------------------------------------------------- helpers
    def actor(self) -> str:
        """The agent to act now."""
        lg = self.frame.legal()
        if lg.player < 0:
            raise RuntimeError("the frame is over")
        return AGENTS[lg.player]

    def _obs(self, agent: str) -> Obs:
        o = observe(self.frame.g, AGENTS.index(agent))
        if self.flat_obs:
            return np.asarray(spaces.flatten(self._dict_obs_space, o), dtype=np.float32)
        return o

    def _info(self, corrections: tuple[str, ...]) -> dict[str, Any]:
        g = self.frame.g
        return {
            "score": tuple(g.state.position.score),
            "shots": self.frame.shots,
            "corrections": corrections,
        }
