"""piramida.training: RLlib self-play over shot selection (docs/training.md).

Importing the package registers the single-agent shot-selection ids
``piramida/<Name>Shots-v0`` (``SHOT_ENV_IDS``; e.g.
``gymnasium.make("piramida/FreePyramidShots-v0")``), when gymnasium is
installed. ray is imported only by the modules that train
(``module``, ``league``, ``run``).
"""

from __future__ import annotations

#: Registered name -> variant (the raw-parameter ids of piramida.env.gym,
#: with "Shots").
SHOT_ENV_IDS: dict[str, str] = {
    "piramida/FreePyramidShots-v0": "free",
    "piramida/CombinedPyramidShots-v0": "combined",
    "piramida/MoscowPyramidShots-v0": "moscow",
    "piramida/NevskayaPyramidShots-v0": "nevskaya",
    "piramida/DynamicPyramidShots-v0": "dynamic",
    "piramida/ClassicPyramidShots-v0": "classic71",
    "piramida/FiveBallShots-v0": "five_ball",
}


def register() -> bool:
    """Register ``SHOT_ENV_IDS`` with gymnasium (False without it)."""
    try:
        import gymnasium
    except ImportError:  # pragma: no cover - the gym extra is installed in development
        return False
    for env_id, variant in SHOT_ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="piramida.training.shot_env:ShotSelectionEnv",
                kwargs={"variant": variant},
            )
    return True


register()

__all__ = ["SHOT_ENV_IDS", "register"]
