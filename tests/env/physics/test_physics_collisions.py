"""Ball-ball and ball-cushion impacts against the models' formulas."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from physics_helpers import speed

from piramida.env.physics import simulate
from piramida.env.position import Position
from piramida.env.shot import Shot


def _before_after(r, t):
    before = r.states_at(math.nextafter(t, 0.0) - 1e-12)
    after = r.states_at(t)
    return before, after


def test_head_on_stun_shot_stops_the_cue_ball(table):
    # Balls 5 mm apart: the cue ball arrives sliding with almost no spin.
    e = table.physics.e_ball
    pos = Position.from_balls("free", {"0": (0.8, 0.5), "1": (0.8, 0.573)})
    r = simulate(pos, Shot("0", 90, 2.0))
    hits = [ev for ev in r.events if ev.type == "ball_ball"]
    assert len(hits) == 1  # found once, not twice
    hit = hits[0]
    before, after = _before_after(r, hit.t)
    v = speed(before["0"])
    assert v > 2.0
    # Equal masses, Newton restitution: object (1 + e)/2 v, cue (1 - e)/2 v.
    assert abs(speed(after["1"]) - (1 + e) / 2 * v) < 0.01 * v
    assert speed(after["0"]) < (1 - e) / 2 * v + 0.01 * v
    assert after["1"][3] > 0 and abs(after["1"][2]) < 1e-9


def _cut(table, friction: bool):
    R = table.ball_radius
    if not friction:
        phys = dataclasses.replace(table.physics, ball_friction_model="constant", mu_ball=1e-12)
        table = dataclasses.replace(table, physics=phys)
    pos = Position.from_balls("free", {"0": (0.8, 0.5), "1": (0.8 + R, 1.0)}, table=table)
    # b = 0.4: a rolling cue ball; object offset by R: a 30 degree cut.
    r = simulate(pos, Shot("0", 90, 1.5, b=0.4), table=table)
    hit = next(ev for ev in r.events if ev.type == "ball_ball")
    before, after = _before_after(r, hit.t)
    c, o = after["0"], after["1"]
    n = (o[0] - c[0], o[1] - c[1])
    ang = lambda v: math.degrees(math.atan2(v[1], v[0]))  # noqa: E731
    apart = abs(ang(c[2:4]) - ang(o[2:4]))
    throw = ang(o[2:4]) - ang(n)
    return apart, throw, before, after


def test_rolling_cut_sends_balls_about_90_degrees_apart(table):
    # Friction impulse <= mu * normal impulse, so throw <= atan(mu), and mu
    # never exceeds a + b (its value at zero slip speed); the object is
    # thrown towards the cue ball's travel (+y here).
    apart, throw, _, _ = _cut(table, friction=True)
    ph = table.physics
    assert ph.ball_friction_model == "alciatore"
    assert 0.2 < throw < math.degrees(math.atan(ph.mu_ball_a + ph.mu_ball_b)) + 1e-9
    # Without friction the cue ball keeps (1 - e)/2 of the normal speed, so
    # the angle is 90 - atan((1 - e)/2 cot(cut)); throw turns the object
    # ball towards the cue ball's path by the throw angle.
    e = table.physics.e_ball
    restitution = math.degrees(math.atan((1 - e) / 2 / math.tan(math.radians(30))))
    apart0, throw0, _, _ = _cut(table, friction=False)
    assert abs(throw0) < 1e-6
    assert abs(apart0 - (90 - restitution)) < 0.05
    assert abs(apart - (90 - restitution - throw)) < 0.5


def _han_formula(table, s):
    """Han 2005 eqs. 12-20 in vector form for a ball hitting the front
    cushion (inward normal +y): returns (vx, vy, wx, wy, wz) after."""
    R, m, h = table.ball_radius, table.ball_mass, table.cushion_height
    e, mu = table.physics.e_cushion, table.physics.mu_cushion
    sin_t = (h - R) / R
    cos_t = math.sqrt(1 - sin_t**2)
    v = np.array([s[2], s[3], 0.0])
    w = np.array(s[4:7])
    nrm = np.array([0.0, -1.0, 0.0])  # into the cushion
    rI = R * (cos_t * nrm + sin_t * np.array([0, 0, 1.0]))
    N = rI / R
    vI = v + np.cross(w, rI)
    c = vI @ N
    slip = vI - c * N
    pn = (1 + e) * m * c
    A = 7 / (2 * m)
    if np.linalg.norm(slip) / A <= mu * pn:
        F = -slip / A
    else:
        F = -mu * pn * slip / np.linalg.norm(slip)
    P = -pn * N + F
    v2 = v + P / m
    w2 = w + np.cross(rI, P) / (0.4 * m * R * R)
    return np.array([v2[0], v2[1], *w2])


@pytest.mark.parametrize(
    ("angle", "V", "b"), [(30.0, 0.8, 0.4), (60.0, 1.5, 0.0), (85.0, 2.5, -0.3)]
)
def test_cushion_rebound_matches_han_2005(table, angle, V, b):
    assert table.physics.cushion_model == "han2005"
    pos = Position.from_balls("free", {"1": (0.8, 0.25)})
    r = simulate(pos, Shot("1", -angle, V, b=b, a=0.2))
    hit = next(ev for ev in r.events if ev.type == "cushion")
    assert hit.cushion == "front"
    before, after = _before_after(r, hit.t)
    want = _han_formula(table, before["1"])
    got = after["1"][2:7]
    assert np.allclose(got, want, rtol=1e-6, atol=1e-6)
    assert got[1] > 0  # rebounds into the table
    # Restitution: the rebound normal speed is below the approach speed.
    assert got[1] < -before["1"][3]


def test_mathavan_model_rebounds_with_less_energy(table):
    phys = dataclasses.replace(table.physics, cushion_model="mathavan2010")
    t2 = dataclasses.replace(table, physics=phys)
    pos = Position.from_balls("free", {"1": (0.8, 0.25)}, table=t2)
    r = simulate(pos, Shot("1", -60, 1.5), table=t2)
    hit = next(ev for ev in r.events if ev.type == "cushion")
    before, after = _before_after(r, hit.t)
    R, m = t2.ball_radius, t2.ball_mass

    def energy(s):
        return 0.5 * m * (s[2] ** 2 + s[3] ** 2) + 0.2 * m * R * R * float(np.dot(s[4:7], s[4:7]))

    assert after["1"][3] > 0
    assert energy(after["1"]) < energy(before["1"])
    # Its normal rebound differs from Han's one-impulse answer but is close.
    han = _han_formula(table, before["1"])
    assert abs(after["1"][3] - han[1]) < 0.25 * han[1]


@pytest.mark.parametrize("v", [0.3, 3.0, 10.0])
def test_thin_contacts_are_neither_missed_nor_invented(table, v):
    # The cue ball's path passes the object ball's centre at 2R - 50 um
    # (a very thin hit) or 2R + 50 um (a clean miss).
    R = table.ball_radius
    for off, touches in ((2 * R - 5e-5, True), (2 * R + 5e-5, False)):
        pos = Position.from_balls("free", {"0": (0.5, 0.5), "1": (0.5 + off, 0.75)})
        r = simulate(pos, Shot("0", 90, v, b=0.4))
        assert any(e.type == "ball_ball" for e in r.events) == touches


def test_draw_comes_back_and_follow_goes_through(table):
    pos = Position.from_balls("free", {"0": (0.8, 0.5), "1": (0.8, 0.9)})
    draw = simulate(pos, Shot("0", 90, 3.0, b=-0.5))
    follow = simulate(pos, Shot("0", 90, 3.0, b=0.5))
    stun_y = 0.9 - 2 * table.ball_radius  # where the cue ball meets the object ball
    assert draw.final.xy("0")[1] < stun_y - 0.2
    assert follow.final.xy("0")[1] > stun_y + 0.2
