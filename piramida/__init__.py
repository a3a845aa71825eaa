"""piramida: self-play AI and shot-planning engine for Russian billiards.

Public API: the value types of the world. Heavier parts (physics, rules,
agents, training, evaluation) live in their subpackages:
``piramida.env``, ``piramida.agents``, ``piramida.training``, ``piramida.eval``.
"""

from importlib.metadata import PackageNotFoundError, version

from piramida.env import (
    VARIANTS,
    Event,
    IllegalShotError,
    InvalidEventsError,
    InvalidPositionError,
    InvalidShotError,
    InvalidTableError,
    PiramidaError,
    Position,
    Shot,
    Table,
    UnknownVariantError,
)

try:
    __version__ = version("piramida")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0+source"

__all__ = [
    "VARIANTS",
    "Event",
    "IllegalShotError",
    "InvalidEventsError",
    "InvalidPositionError",
    "InvalidShotError",
    "InvalidTableError",
    "PiramidaError",
    "Position",
    "Shot",
    "Table",
    "UnknownVariantError",
    "__version__",
]
