"""Shot-selection environments: the learner picks one of the toolbox's
candidates (docs/training.md).

Each decision offers up to ``K`` options (``agents.policy_obs.options``:
the candidate shots of a search, or the choices the rules offer after a
foul, the penalty ball, the ball removed after a свояк; the lag stroke as
the one option of a lag). The observation is RLlib's action-masking
layout, ``{"observations": {"balls", "candidates", "globals"},
"action_mask"}`` (``policy_obs.observe``); the action is an option's index,
``Discrete(K)``. A masked index (past the options offered) is replaced by
option 0 and reported in ``info["corrections"]``, as the raw-parameter
envs correct their masked parts; a module that masks its logits never
sends one.

Roles. ``player_0`` is the learner; ``player_1`` its opponent, either a
second learner (self-play: the RLlib policy mapping decides which module
plays it) or, for a frame, a fixed agent of ``opponents`` played inside the
env (then only ``player_0`` acts in that frame). The roles' seats are
drawn per frame (or alternate within a duplicate pair), and who breaks
comes from the rack seed, so both roles break and follow.

``ShotCore`` holds the logic without gymnasium's or ray's base classes;
``ShotSelectionEnv`` is the single-agent Gymnasium env against a fixed
opponent (ids ``piramida/<Variant>Shots-v0``), ``rllib_env_class()`` the
RLlib ``MultiAgentEnv`` (``MultiAgentShots``) and ``shot_aec.ShotsAEC`` the
PettingZoo AEC game.

Config (``env_config``): ``variant`` ("free"), ``noise`` ("pro"; the
execution noise of every stroke and the skill the candidates are made
for), ``options`` ({}), ``max_shots`` (200 actions of both players, then
truncated), ``search`` ("planner", "wide", "lean" or "greedy": the candidates offered),
``opponents`` ({agent spec or "self": weight}; weight 0 leaves one out; the
planner plays at ``OPPONENT_SIMS`` simulations a decision unless its spec
says otherwise), ``duplicate`` (False: with
True, frames come in pairs of one rack with the seats swapped, the racks
numbered from ``seed``, and the infos say which: ``pair``, ``game`` 0 or
1), ``seed`` (0).

Rewards: +1 / -1 to the winner / loser at the end of the frame, 0 for a
draw or truncation; both roles get their final observation and reward.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from piramida.agents.base import GameView
from piramida.agents.policy_obs import (
    BALL_F,
    CAND_F,
    GLOBAL_F,
    MAX_BALLS,
    SEARCHES,
    K,
    Option,
    observe,
    options,
)
from piramida.agents.specs import parse_spec
from piramida.env.driver import FrameDriver
from piramida.env.gym.multi import AGENTS

SELF = "self"
DEFAULT_MAX_SHOTS = 200
#: The planner as an opponent plays at this small simulation budget unless
#: its spec says otherwise (``planner:sims=100``, ``planner:budget=1s``):
#: a count, so its frames play the same on any machine.
OPPONENT_SIMS = 30
CONFIG_KEYS = ("variant", "noise", "options", "max_shots", "search", "opponents", "duplicate", "seed")


def observation_space() -> spaces.Dict:
    f32 = np.float32
    return spaces.Dict(
        {
            "observations": spaces.Dict(
                {
                    "balls": spaces.Box(-1.0, 2.0, (MAX_BALLS, BALL_F), f32),
                    "candidates": spaces.Box(-10.0, 10.0, (K, CAND_F), f32),
                    "globals": spaces.Box(-4.0, 4.0, (GLOBAL_F,), f32),
                }
            ),
            "action_mask": spaces.Box(0, 1, (K,), np.int8),
        }
    )


def action_space() -> spaces.Discrete:
    return spaces.Discrete(K)


class ShotCore:
    """Frames between the roles ``player_0`` and ``player_1`` (see the module
    docstring); ``reset`` and ``step`` have RLlib's multi-agent dict API."""

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        cfg = dict(config or {})
        unknown = sorted(k for k in cfg if k not in CONFIG_KEYS)
        if unknown:
            raise ValueError(f"unknown env_config key(s) {unknown}; known: {list(CONFIG_KEYS)}")
        self.variant = str(cfg.get("variant", "free"))
        self.noise = str(cfg.get("noise", "pro"))
        self.search = str(cfg.get("search", "planner"))
        if self.search not in SEARCHES:
            raise ValueError(f"search must be one of {', '.join(SEARCHES)}, got {self.search!r}")
        self.max_shots = int(cfg.get("max_shots", DEFAULT_MAX_SHOTS))
        self.duplicate = bool(cfg.get("duplicate", False))
        self.base_seed = int(cfg.get("seed", 0))
        weights = dict(cfg.get("opponents") or {SELF: 1.0})
        w = np.array([float(v) for v in weights.values()])
        if w.min() < 0 or w.sum() <= 0:
            raise ValueError(f"opponents weights must be >= 0 with a positive sum, got {weights}")
        # An opponent of weight 0 never plays (and is not built).
        self.opponent_names = [n for n, v in weights.items() if float(v) > 0]
        w = w[w > 0]
        self.opponent_p = w / w.sum()
        self.fixed = {n: opponent_agent(n, self.noise) for n in self.opponent_names if n != SELF}
        self.driver = FrameDriver(self.variant, self.noise, cfg.get("options"))
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.rng = np.random.default_rng(self.base_seed)
        self.frames = 0
        #: With ``duplicate``: the frame's pair and which of its two games
        #: it is (0 or 1), in the infos as ``pair`` and ``game``.
        self.pair: tuple[int, int] | None = None
        self.opponent = SELF
        self.seat_of = {AGENTS[0]: 0, AGENTS[1]: 1}
        self.opts: list[Option] = []
        self.done = True

    # ------------------------------------------------------------- API
    def reset(
        self, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
            self.frames = 0
        while True:
            self._new_frame()
            if not self.done:
                break
        actor = self.actor()
        return {actor: self._obs(actor)}, {actor: self._info(actor, ())}

    def step(self, action_dict: Mapping[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if self.done:
            raise RuntimeError("the frame is over: call reset() before step()")
        actor = self.actor()
        if actor not in action_dict:
            raise ValueError(f"{actor} is to act; got actions for {sorted(action_dict)}")
        idx = int(np.asarray(action_dict[actor]).reshape(-1)[0])
        corrections: tuple[str, ...] = ()
        if not 0 <= idx < len(self.opts):
            corrections = (f"option {idx} is masked ({len(self.opts)} offered): played option 0",)
            idx = 0
        self.driver.apply(self.opts[idx].action)
        self._advance()
        if self.done:
            return self._end(actor, corrections)
        nxt = self.actor()
        return (
            {nxt: self._obs(nxt)},
            {actor: 0.0},
            {"__all__": False},
            {"__all__": False},
            {nxt: self._info(nxt, corrections if nxt == actor else ())},
        )

    # ------------------------------------------------------------- frames
    def _new_frame(self) -> None:
        if self.duplicate:
            pair, swap = divmod(self.frames, 2)
            seed, learner_seat = self.base_seed + pair, swap
            self.pair = (pair, swap)
            if swap == 0:  # both games of a pair against one opponent
                self.opponent = str(self.rng.choice(self.opponent_names, p=self.opponent_p))
        else:
            seed = int(self.rng.integers(2**62))
            learner_seat = int(self.rng.integers(2))
            self.opponent = str(self.rng.choice(self.opponent_names, p=self.opponent_p))
        self.frames += 1
        self.seat_of = {AGENTS[0]: learner_seat, AGENTS[1]: 1 - learner_seat}
        self.driver.reset(seed, 0)
        agent = self.fixed.get(self.opponent)
        if agent is not None and hasattr(agent, "reset"):
            agent.reset(self.driver.agent_seed(1 - learner_seat))
        self.agents = [AGENTS[0]] if self.opponent != SELF else list(AGENTS)
        self.done = False
        self._advance()

    def _advance(self) -> None:
        """Play the fixed opponent's turns; stop at a learner's decision
        (its options listed) or the end of the frame."""
        d = self.driver
        while not d.game.over and d.actions < self.max_shots:
            seat = d.seat_to_act()
            if self.opponent != SELF and seat == self.seat_of[AGENTS[1]]:
                d.act(self.fixed[self.opponent])
                continue
            self.opts = options(d.view(), self.noise, self.search)
            return
        self.done = True
        self.opts = []

    def _end(self, actor: str, corrections: tuple[str, ...]) -> tuple[dict, dict, dict, dict, dict]:
        over = self.driver.game.over
        obs = {a: self._obs(a) for a in self.agents}
        rewards = {a: self.outcome(a) for a in self.agents}
        infos = {a: self._info(a, corrections if a == actor else ()) for a in self.agents}
        terms = {a: over for a in self.agents} | {"__all__": over}
        truncs = {a: not over for a in self.agents} | {"__all__": not over}
        return obs, rewards, terms, truncs, infos

    # ------------------------------------------------------------- helpers
    def actor(self) -> str:
        seat = self.driver.seat_to_act()
        return AGENTS[0] if seat == self.seat_of[AGENTS[0]] else AGENTS[1]

    def outcome(self, agent: str) -> float:
        """+1 won, -1 lost, 0 drawn or not over (for ``agent``'s role)."""
        g = self.driver.game
        if not g.over or g.winner is None:
            return 0.0
        return 1.0 if g.winner == self.seat_of[agent] else -1.0

    def view_of(self, agent: str) -> GameView:
        """``agent``'s view: the decision when it is to act, else the table
        seen from its seat with nothing to decide."""
        v = self.driver.view()
        seat = self.seat_of[agent]
        if not self.done and v.player == seat:
            return v
        return replace(v, player=seat, kind="wait", choices=(), in_hand=None, cue_balls=())

    def observe(self, agent: str) -> dict[str, Any]:
        return self._obs(agent)

    def _obs(self, agent: str) -> dict[str, Any]:
        v = self.view_of(agent)
        acting = v.kind != "wait"
        o = observe(v, self.opts if acting else [])
        o["action_mask"] = o["action_mask"].astype(np.int8)
        return o

    def _info(self, agent: str, corrections: tuple[str, ...]) -> dict[str, Any]:
        g = self.driver.game
        info: dict[str, Any] = {
            "opponent": self.opponent,
            "seat": self.seat_of[agent],
            "shots": self.driver.actions,
            "corrections": corrections,
        }
        if self.pair is not None:
            info["pair"], info["game"] = self.pair
        if self.done:
            info["outcome"] = self.outcome(agent)
            info["score"] = tuple(g.state.position.score)
        return info


def opponent_agent(name: str, noise: str) -> Any:
    """The fixed opponent an ``opponents`` spec names, playing under the
    frame's ``noise`` (the planner at ``OPPONENT_SIMS`` simulations a
    decision unless the spec gives a budget)."""
    spec = parse_spec(name)
    return spec.build(spec.defaults({"noise": noise, "n_sims": OPPONENT_SIMS, "budget_s": None}))


class ShotSelectionEnv(gym.Env):
    """Single-agent shot selection against a fixed opponent (``opponent``,
    an agent spec: greedy by default); see the module docstring. The
    learner's seat alternates with the frame's draw; ``reset(seed=...)``
    is the only seeding."""

    metadata = {"render_modes": []}

    def __init__(
        self,
        variant: str = "free",
        opponent: str = "greedy",
        noise: str = "pro",
        options: Mapping[str, Any] | None = None,
        max_shots: int = DEFAULT_MAX_SHOTS,
        search: str = "planner",
    ) -> None:
        if opponent == SELF:
            raise ValueError("a single-agent env needs a fixed opponent (an agent spec), not 'self'")
        self.core = ShotCore(
            {
                "variant": variant,
                "noise": noise,
                "options": dict(options or {}),
                "max_shots": max_shots,
                "search": search,
                "opponents": {opponent: 1.0},
            }
        )
        self.observation_space = observation_space()
        self.action_space = action_space()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict]:
        super().reset(seed=seed)
        obs, infos = self.core.reset(seed=int(self.np_random.integers(2**62)))
        return obs[AGENTS[0]], infos[AGENTS[0]]

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
        obs, rew, terms, truncs, infos = self.core.step({AGENTS[0]: action})
        a = AGENTS[0]
        return obs[a], float(rew.get(a, 0.0)), bool(terms["__all__"]), bool(truncs["__all__"]), infos[a]


@lru_cache(maxsize=1)
def rllib_env_class() -> type:
    """``MultiAgentShots``: the core as an RLlib ``MultiAgentEnv`` (imports
    ray; call it only where ray may be loaded)."""
    from ray.rllib.env.multi_agent_env import MultiAgentEnv

    class MultiAgentShots(ShotCore, MultiAgentEnv):  # type: ignore[misc]
        __doc__ = ShotCore.__doc__

        def __init__(self, config: Mapping[str, Any] | None = None) -> None:
            ShotCore.__init__(self, config)
            MultiAgentEnv.__init__(self)
            # MultiAgentEnv's __init__ resets these; the core's lists win.
            self.possible_agents = list(AGENTS)
            self.agents = list(AGENTS)
            self.observation_spaces = {a: observation_space() for a in AGENTS}
            self.action_spaces = {a: action_space() for a in AGENTS}

    MultiAgentShots.__module__ = "piramida.training.shot_env"
    MultiAgentShots.__qualname__ = "MultiAgentShots"
    return MultiAgentShots


def __getattr__(name: str) -> Any:
    if name == "MultiAgentShots":
        return rllib_env_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "AGENTS",
    "SELF",
    "ShotCore",
    "ShotSelectionEnv",
    "action_space",
    "observation_space",
    "rllib_env_class",
]
