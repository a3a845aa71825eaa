"""piramida.env: the world - table, position, shot, events, physics, rules, game, gym envs.

Imports only numpy, numba and the standard library (rendering libraries
lazily); never torch or ray (docs/design.md §1).
"""

from piramida.env.errors import (
    IllegalShotError,
    InvalidEventsError,
    InvalidPositionError,
    InvalidShotError,
    InvalidTableError,
    PiramidaError,
    UnknownVariantError,
)
from piramida.env.events import Event
from piramida.env.position import VARIANTS, Position
from piramida.env.shot import Shot
from piramida.env.table import Table

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
]
