"""Shared helpers for the physics tests (imported by basename)."""

from __future__ import annotations

import math

from piramida.env.position import Position
from piramida.env.shot import Shot
from piramida.env.table import Table


def cue_speed(table: Table, V: float, a: float = 0.0, b: float = 0.0, theta: float = 0.0) -> float:
    """Ball speed right after the cue: J cos(theta) / m with
    J = (1 + e_cue) m V / (1 + m/M + 5 (a^2 + b^2) / 2) (Alciatore TP A-30)."""
    ph = table.physics
    m = table.ball_mass
    J = (1 + ph.e_cue) * m * V / (1 + m / ph.cue_mass + 2.5 * (a * a + b * b))
    return J / m * math.cos(math.radians(theta))


def one_ball(x: float, y: float, ball: str = "1") -> Position:
    return Position.from_balls("free", {ball: (x, y)})


def aim(frm: tuple[float, float], to: tuple[float, float]) -> float:
    return math.degrees(math.atan2(to[1] - frm[1], to[0] - frm[0]))


def shot(ball: str, phi: float, v: float, **kw: float) -> Shot:
    return Shot(ball, phi, v, **kw)  # type: ignore[arg-type]


def speed(s) -> float:
    return math.hypot(s[2], s[3])
