"""One frame played through the environments (shared by the single-agent,
RLlib and PettingZoo envs): the frame driver (``env/driver.py``) with the
environments' bookkeeping - the legal-action summary, decoded space actions,
the shaping potential and the final reward.

Seeding (docs/design.md §5: ``reset(seed=...)`` is the only seeding): the
integer an env's ``reset`` draws from its seeded generator is the frame
driver's seed (pair 0), so the rack and breaker (``rack_seed``), the
execution noise of every stroke (``noise_rng`` keyed by seat and stroke
number) and the opponent's seed (``agent_seed`` of its seat) all derive from
it, exactly as in a match frame with that seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from piramida.env.driver import FrameDriver
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
    """A ``Game`` of ``variant`` with seeded noise, through a ``FrameDriver``."""

    def __init__(
        self,
        variant: str,
        options: Mapping[str, Any] | None = None,
        noise: str | None = DEFAULT_NOISE,
    ) -> None:
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
        self.variant = variant
        self.options = dict(options or {})
        self.noise_name = noise or "none"
        self.driver = FrameDriver(variant, self.noise_name, self.options)
        self.shots = 0  # actions (shots and choices of both players) this frame

    def reset(self, seed: int, options: Mapping[str, Any] | None = None) -> None:
        """A new frame of the driver's seed ``seed``.

        ``options["position"]`` (a ``Position``, or its text or JSON form)
        starts the frame there instead of the rack (drills, curricula); the
        player to act is its ``to_move``."""
        start = _start_position(self.variant, (options or {}).get("position"))
        self.driver.reset(seed, 0, position=start)
        self.shots = 0

    def agent_seed(self, seat: int) -> int:
        """The seed of the agent in ``seat`` for this frame (the opponent's)."""
        return self.driver.agent_seed(seat)

    @property
    def game(self) -> Game | None:
        return self.driver.game if self.driver.started else None

    @property
    def g(self) -> Game:
        if not self.driver.started:
            raise RuntimeError("call reset() before step()")
        return self.driver.game

    def legal(self) -> Legal:
        return legal(self.g)

    def apply(self, action: Shot | str) -> None:
        """Play a shot or make a choice for the player to act (strict: an
        illegal action raises and changes nothing)."""
        self.driver.apply(action)
        self.shots += 1

    def take(self, action: Any) -> None:
        """Play an opponent agent's action: an illegal one is replaced as
        the frame driver documents (the first choice offered, or a random
        legal stroke)."""
        self.driver.take(action)
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
