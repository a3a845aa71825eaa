"""``MultiAgentPyramid``: the raw two-player environment as an RLlib
``MultiAgentEnv``.

Its logic is ``piramida.env.gym.MultiAgentPyramidCore``, which needs no
ray; this module mixes in RLlib's base class, so only code that runs under
RLlib imports ray (the environment layer never does; docs/design.md §1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ray.rllib.env.multi_agent_env import MultiAgentEnv

from piramida.env.gym import MultiAgentPyramidCore


class MultiAgentPyramid(MultiAgentPyramidCore, MultiAgentEnv):  # type: ignore[misc]
    __doc__ = MultiAgentPyramidCore.__doc__

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        MultiAgentPyramidCore.__init__(self, config)
        MultiAgentEnv.__init__(self)
