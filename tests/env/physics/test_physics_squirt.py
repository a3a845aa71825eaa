"""Squirt (docs/physics.md, "Cue strike"): with side the ball leaves off the
cue line by TP A-31's angle, away from the side struck; the spin follows
from the impulse; no end mass, no squirt."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from piramida.env.physics import simulate
from piramida.env.physics.arrays import table_arrays
from piramida.env.physics.codes import P_CUE_END_M
from piramida.env.physics.collide import cue_strike, squirt_impulse
from piramida.env.position import Position
from piramida.env.shot import Shot
from piramida.env.table import Table

TABLE = Table.default()
R, M_BALL = TABLE.ball_radius, TABLE.ball_mass


def tp_a31(a: float, m_e: float) -> float:
    """Alciatore TP A-31: squirt angle (radians) for side a (ball radii)."""
    return math.atan(2.5 * a * math.sqrt(1 - a * a) / (1 + M_BALL / m_e + 2.5 * (1 - a * a)))


def _strike(phi: float, a: float, b: float = 0.0, theta: float = 0.0, P: np.ndarray | None = None) -> np.ndarray:
    s = np.zeros(7)
    cue_strike(s, math.radians(phi), math.radians(theta), 2.0, a, b, table_arrays(TABLE).P if P is None else P)
    return s


def test_default_end_mass_gives_one_to_two_degrees_at_maximum_side():
    m_e = TABLE.physics.cue_end_mass
    assert m_e == 0.007
    assert 1.0 < math.degrees(tp_a31(0.5, m_e)) < 2.0
    assert 1.0 < math.degrees(tp_a31(0.6, m_e)) < 2.0  # MISCUE_LIMIT


@pytest.mark.parametrize("a", [0.05, 0.1, 0.2, 0.3, 0.45, 0.6])
@pytest.mark.parametrize("phi", [90.0, 17.0, 233.0])
def test_squirt_angle_against_tp_a31(a, phi):
    m_e = TABLE.physics.cue_end_mass
    for side in (a, -a):
        s = _strike(phi, side)
        dev = math.atan2(s[3], s[2]) - math.radians(phi)
        dev = (dev + math.pi) % (2 * math.pi) - math.pi
        # Right side (a > 0) squirts the ball left of the cue line (counterclockwise).
        assert dev == pytest.approx(math.copysign(tp_a31(a, m_e), side), abs=1e-12)


def test_squirt_impulse_closed_form_with_top_or_bottom():
    P = table_arrays(TABLE).P
    m_e = TABLE.physics.cue_end_mass
    for a, b in ((0.3, 0.4), (-0.2, -0.5), (0.5, 0.0)):
        want = -2.5 * a * math.sqrt(1 - a * a - b * b) / (1 + M_BALL / m_e + 2.5 * (1 - a * a))
        assert squirt_impulse(a, b, P) == pytest.approx(want, rel=1e-14)


def test_spin_is_the_moment_of_the_whole_impulse():
    """w = Q x P / I with P = J d + P1 e1 (the lateral impulse trims the side
    spin a little), checked in 3D for an elevated cue with side and draw."""
    P = table_arrays(TABLE).P
    phi, theta, a, b = math.radians(40.0), math.radians(20.0), 0.35, -0.3
    s = _strike(40.0, a, b, 20.0)
    m, Mc, e = M_BALL, TABLE.physics.cue_mass, TABLE.physics.e_cue
    J = (1 + e) * m * 2.0 / (1 + m / Mc + 2.5 * (a * a + b * b))
    d = np.array([math.cos(theta) * math.cos(phi), math.cos(theta) * math.sin(phi), -math.sin(theta)])
    e1 = np.array([math.sin(phi), -math.cos(phi), 0.0])
    e3 = np.cross(e1, d)
    Q = R * (a * e1 + b * e3 - math.sqrt(1 - a * a - b * b) * d)
    imp = J * d + squirt_impulse(a, b, P) * J * e1
    w = np.cross(Q, imp) / (0.4 * m * R * R)
    assert np.allclose(s[4:7], w, rtol=1e-12, atol=1e-9)
    assert np.allclose(s[2:4], imp[:2] / m, rtol=1e-12, atol=1e-12)
    # Less side spin than the frictionless tip alone would give.
    assert abs(s[6]) < abs(J * R / (0.4 * m * R * R) * a * e3[2])


def test_no_end_mass_no_squirt():
    P = table_arrays(TABLE).P.copy()
    P[P_CUE_END_M] = 0.0
    s = _strike(90.0, 0.5, P=P)
    assert s[2] == pytest.approx(0.0, abs=1e-15)
    t = dataclasses.replace(TABLE, physics=dataclasses.replace(TABLE.physics, cue_end_mass=0.0))
    r = simulate(Position.from_balls("free", {"1": (0.8, 0.3)}, table=t), Shot("1", 90.0, 1.0, a=0.4), table=t)
    assert r.final.xy("1")[0] == pytest.approx(0.8, abs=1e-9)


def test_a_centre_ball_hit_does_not_squirt():
    s = _strike(90.0, 0.0, 0.4)
    assert s[2] == pytest.approx(0.0, abs=1e-15)


def test_side_squirts_the_ball_off_the_line_on_the_table():
    """Right side sends the ball left of the aim line by about the squirt
    angle over its slide, then swerve-free (level cue) roll."""
    r = simulate(Position.from_balls("free", {"1": (0.8, 0.3)}), Shot("1", 90.0, 1.0, a=0.5))
    x, y = r.final.xy("1")
    off = math.degrees(math.atan2(0.8 - x, y - 0.3))
    assert off == pytest.approx(math.degrees(tp_a31(0.5, TABLE.physics.cue_end_mass)), abs=0.05)
