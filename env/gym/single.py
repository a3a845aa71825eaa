"""The single-agent environments ``piramida/<Variant>-v0`` (docs/design.md §5)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np

from .encode import observe
from .frame import DEFAULT_NOISE, Frame
from .opponents import Opponent, make_opponent
from .spaces import action_space, observation_space

DEFAULT_MAX_SHOTS = 300


class PyramidEnv(gym.Env[dict[str, np.ndarray], dict[str, Any]]):
    """A frame of Russian billiards against an opponent agent.

    ## Description

    The learner is player 0 of one frame of ``variant`` (docs/game_rules.md §5: free,
    combined, moscow, nevskaya, dynamic, classic71, five_ball); the opponent
    agent plays player 1. Who breaks is drawn from the reset seed (or decided
    by the lag when the variant option ``lag`` is on). The learner is asked to
    act only when it is its turn; every opponent action in between is played
    inside ``step``. Shots are simulated by ``piramida.env.physics`` with the
    execution noise preset ``noise`` and judged by the variant's referee.

    ## Action Space

    ``Dict`` (``spaces.action_space``): ``ball`` Discrete(16) the struck ball
    slot; ``call_ball`` Discrete(16) and ``call_pocket`` Discrete(6) the call
    (five-ball, and classic pyramid after the break; ignored elsewhere);
    ``choice`` Discrete(51) an index into ``spaces.CHOICES`` when a decision
    is pending (post-foul choice, the four options after an illegal break,
    penalty ball, ball to remove, Nevskaya's take-or-hand, lag winner);
    ``shot`` Box(-1, 1, (7,)) phi, v, a, b, theta, place x, place y, mapped
    to the legal ranges as described in ``decode``. Masked-out discrete
    values are corrected to the first legal option and reported in
    ``info["corrections"]``. An action outside the space (a missing or
    unknown key, an index outside its ``Discrete``, NaN or infinity, a wrong
    type or shape) is a ``decode.InvalidActionError`` raised before the
    frame changes; ``decode`` lists what is refused and what corrected.
    ``FlatActionWrapper`` offers one Box instead.

    ## Observation Space

    ``Dict`` of float32 boxes seen from the learner's side (``encode``):
    ``balls`` (16, 3) x/width, y/length, present; ``shelf`` (16,) +1 own,
    -1 opponent's; ``score`` (2,) own and opponent's over the target;
    ``owed`` (2,); ``in_hand`` (4,) one-hot none/house/rear_house/anywhere;
    ``is_break`` (1,); ``decision`` (2,) one-hot shot/choice; and
    ``action_mask`` int8 (89,) over the discrete parts (ball, call_ball,
    call_pocket, choice). Five-ball uses slots 0-4: own white, opponent's
    white, r1, r2, y.

    ## Rewards

    +1 when the learner wins the frame, -1 when it loses, 0 for a draw
    (classic pyramid with ``tie = "draw"``) or a truncated frame. With
    ``reward_shaping = w > 0`` every step also pays ``w * (P' - P)`` where
    P is (own score - opponent's score) / target before the learner's action
    and P' the same after the opponent's reply: a potential-based shaping
    (Ng, Harada & Russell 1999) that sums to ``w * P_final`` over a frame.
    Off by default.

    ## Starting State

    The variant's start position (docs/game_rules.md §2, §5.7): the rack (shuffled
    from the reset seed except in classic pyramid), the cue ball in hand in
    the house, the break to come. If the opponent breaks, its break (and
    anything it plays until the learner's turn) is played inside ``reset``.
    ``reset(options={"position": P})`` starts from the position ``P`` (a
    ``Position`` or its text/JSON form) instead, ``P.to_move`` to act.

    ## Episode End

    Terminated when the frame is over (a player reached the target, or the
    referee ended the frame). Truncated when ``max_shots`` actions (shots
    and choices of both players) have been played without an end.

    ## Arguments

    - ``variant``: the variant name (fixed by each registered id).
    - ``opponent``: ``"random"`` (default), an Agent (``act(view)``) or a
      callable ``game -> Shot | str`` (see ``opponents``). An illegal
      action of the opponent is replaced as the frame driver documents
      (``piramida.env.driver``: the first choice offered, or a random legal
      stroke).
    - ``noise``: execution-noise preset of ``configs/noise`` (default
      ``"pro"``; ``"none"`` plays shots exactly).
    - ``options``: variant options overriding ``configs/variants/NAME.toml``.
    - ``max_shots``: truncation length in actions of both players (300).
    - ``render_mode``: ``"rgb_array"`` (``render.render_rgb``) or ``"ansi"``.
    - ``reward_shaping``: weight of the score-difference shaping (0: off).

    ``reset(seed=...)`` is the only seeding: rack, breaker, the noise
    streams and the opponent's seed all derive from it (the frame driver's
    scheme, ``piramida.env.driver``).

    ## Version History

    - v0: initial version.
    """

    metadata = {"render_modes": ["rgb_array", "ansi"], "render_fps": 2}

    def __init__(
        self,
        variant: str = "free",
        opponent: Opponent = "random",
        noise: str | None = DEFAULT_NOISE,
        options: Mapping[str, Any] | None = None,
        max_shots: int = DEFAULT_MAX_SHOTS,
        render_mode: str | None = None,
        reward_shaping: float = 0.0,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}"
            )
        if max_shots < 1:
            raise ValueError(f"max_shots must be >= 1, got {max_shots}")
        self.frame = Frame(variant, options, noise)
        self.variant = variant
        self.opponent = make_opponent(opponent)
        self.max_shots = int(max_shots)
        self.render_mode = render_mode
        self.reward_shaping = float(reward_shaping)
        self.learner = 0
        self.observation_space = observation_space()
        self.action_space = action_space()
        self._done = True

    # ------------------------------------------------------------- gym API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self.frame.reset(int(self.np_random.integers(2**63)), options)
        self.opponent.reset(self.frame.agent_seed(1 - self.learner))
        self._done = False
        self._run_opponent()
        return self._obs(), self._info(())

    def step(
        self, action: Mapping[str, Any]
    ) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: call reset() before step()")
        before = self.frame.potential(self.learner)
        decoded = self.frame.apply_space_action(action)
        self._run_opponent()
        g = self.frame.g
        terminated = g.over
        truncated = not terminated and self.frame.shots >= self.max_shots
        self._done = terminated or truncated
        reward = self.frame.final_reward(self.learner)
        if self.reward_shaping:
            reward += self.reward_shaping * (self.frame.potential(self.learner) - before)
        return self._obs(), float(reward), terminated, truncated, self._info(decoded.corrections)

    def render(self) -> Any:
        if self.render_mode is None or self.frame.game is None:
            return None
        from piramida.env import render

        pos = self.frame.g.state.position
        if self.render_mode == "rgb_array":
            return render.render_rgb(pos)
        return render.render_ansi(pos)

    # ------------------------------------------------------------- helpers
    def _run_opponent(self) -> None:
        f = self.frame
        while not f.g.over and f.shots < self.max_shots:
            lg = f.legal()
            if lg.player == self.learner:
                return
            f.take(self.opponent(f.g))

    def _obs(self) -> dict[str, np.ndarray]:
        return observe(self.frame.g, self.learner)

    def _info(self, corrections: tuple[str, ...]) -> dict[str, Any]:
        g = self.frame.g
        return {
            "variant": self.variant,
            "score": tuple(g.state.position.score),
            "winner": g.winner,
            "shots": self.frame.shots,
            "corrections": corrections,
        }
