"""One frame played through the environments: the ``Game``, its seeded
noise stream, and applying a decoded action (shared by the single-agent,
RLlib and PettingZoo envs).

Seeding (docs/design.md §5: ``reset(seed=...)`` is the only seeding): one integer
seeds a ``numpy.random.SeedSequence`` whose three children give the rack
shuffle and breaker (``Game.new(seed=...)``), the execution-noise stream
(one draw per shot passed to ``physics.simulate(seed=...)``), and the
opponent's generator.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from piramida.env.events import Event
from piramida.env.game import Game
from piramida.env.position import VARIANTS, Position
from piramida.env.shot import Shot

from .decode import Decoded, decode
from .encode import Legal, legal, target_of

# Noise preset of the environments: a strong player's execution error, so
# policies learn shots that survive it. "none" makes a frame a deterministic
# function of the actions.
DEFAULT_NOISE = "pro"


class Frame:
    """A ``Game`` of ``variant`` with seeded noise."""

    def __init__(
        self,
        variant: str,
        options: Mapping[str, Any] | None = None,
        noise: str | None = DEFAULT_NOISE,
    ) -> None:
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
        from piramida.env.physics import load_noise

        self.variant = variant
        self.options = dict(options or {})
        self.noise_name = noise or "none"
        self._noise = load_noise(None if self.noise_name == "none" else self.noise_name)
        self.game: Game | None = None
        self._noise_rng = np.random.default_rng(0)
        self.shots = 0

    def reset(
        self, seed: int, options: Mapping[str, Any] | None = None
    ) -> tuple[np.random.Generator, int]:
        """A new frame; returns the opponent's generator and seed.

        ``options["position"]`` (a ``Position``, or its text or JSON form)
        starts the frame there instead of the rack (drills, curricula); the
        player to act is its ``to_move``."""
        rack, noise, opp = np.random.SeedSequence(seed).spawn(3)
        self._noise_rng = np.random.default_rng(noise)
        rack_seed = int(rack.generate_state(1, np.uint32)[0])
        opp_seed = int(opp.generate_state(1, np.uint32)[0])
        start = _start_position(self.variant, (options or {}).get("position"))
        self.game = Game.new(
            self.variant,
            seed=rack_seed,
            options=self.options,
            simulate=self._simulate,
            position=start,
        )
        self.shots = 0
        return np.random.default_rng(opp_seed), opp_seed

    def _simulate(self, position: Position, shot: Shot) -> tuple[Sequence[Event], Position]:
        from piramida.env.physics import simulate

        seed = int(self._noise_rng.integers(2**63)) if self._noise is not None else None
        res = simulate(position, shot, noise=self._noise, seed=seed)
        return res.events, res.final

    @property
    def g(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        return self.game

    def legal(self) -> Legal:
        return legal(self.g)

    def apply(self, action: Shot | str) -> None:
        """Play a shot or make a choice for the player to act."""
        if isinstance(action, str):
            self.g.choose(action)
        else:
            self.g.play(action)
        self.shots += 1

    def apply_space_action(self, action: Mapping[str, Any]) -> Decoded:
        d = decode(self.g, action)
        self.apply(d.action)
        return d

    def potential(self, player: int) -> float:
        """Score difference over the target, from ``player``'s side (the
        shaping potential)."""
        s = self.g.state.position.score
        return (s[player] - s[1 - player]) / target_of(self.g)

    def final_reward(self, player: int) -> float:
        w = self.g.winner
        if not self.g.over or w is None:
            return 0.0
        return 1.0 if w == player else -1.0


def _start_position(variant: str, given: Any) -> Position | None:
    if given is None:
        return None
    pos = given if isinstance(given, Position) else Position.parse(str(given))
    if pos.variant != variant:
        raise ValueError(
            f"reset position is a {pos.variant} position, the env plays {variant} "
            f"(position: {pos.to_text()})"
        )
    return pos
