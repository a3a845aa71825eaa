"""Gymnasium, multi-agent and PettingZoo adapters (docs/design.md §5).

Importing this package registers the Gymnasium ids ``piramida/<Name>-v0``
(``ENV_IDS``), so ``gymnasium.make("piramida/FreePyramid-v0")`` works after
``import piramida.env.gym`` (and on remote RLlib runners, which import the
entry point module).

``MultiAgentPyramidCore`` has RLlib's multi-agent dict API without ray;
``piramida.training.rllib_env.MultiAgentPyramid`` is it as an RLlib
``MultiAgentEnv`` (``piramida.env`` never imports ray; docs/design.md §1).
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium
except ImportError as exc:  # pragma: no cover - the extra is installed in development
    raise ImportError(
        "piramida.env.gym needs gymnasium (and pettingzoo for PyramidAEC): "
        "pip install 'piramida[gym]'"
    ) from exc

from .frame import DEFAULT_NOISE, Frame
from .multi import MultiAgentPyramidCore
from .single import PyramidEnv
from .spaces import CHOICES, action_space, observation_space
from .wrappers import FlatActionWrapper, flat_action_space, unflatten_action

# Registered name -> variant.
ENV_IDS: dict[str, str] = {
    "piramida/FreePyramid-v0": "free",
    "piramida/CombinedPyramid-v0": "combined",
    "piramida/MoscowPyramid-v0": "moscow",
    "piramida/NevskayaPyramid-v0": "nevskaya",
    "piramida/DynamicPyramid-v0": "dynamic",
    "piramida/ClassicPyramid-v0": "classic71",
    "piramida/FiveBall-v0": "five_ball",
}


def _register() -> None:
    for env_id, variant in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="piramida.env.gym.single:PyramidEnv",
                kwargs={"variant": variant},
            )


_register()


def __getattr__(name: str) -> Any:
    if name == "PyramidAEC":
        from .aec import PyramidAEC

        globals()[name] = PyramidAEC
        return PyramidAEC
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CHOICES",
    "DEFAULT_NOISE",
    "ENV_IDS",
    "FlatActionWrapper",
    "Frame",
    "MultiAgentPyramidCore",
    "PyramidAEC",
    "PyramidEnv",
    "action_space",
    "flat_action_space",
    "observation_space",
    "unflatten_action",
]
