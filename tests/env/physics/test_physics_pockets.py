"""Pockets: capture, jaws, and where a ball first touches a jaw."""

from __future__ import annotations

import math

import pytest
from physics_helpers import one_ball

from piramida.env.physics import simulate
from piramida.env.shot import Shot
from piramida.env.table import POCKETS


def _approach(table, name, offset, dist=0.3):
    """Start ``dist`` before the mouth on the pocket axis, shifted sideways
    by ``offset``; aim along the axis."""
    p = table.pockets[name]
    ax, ay = p.axis
    sx = p.mouth_centre[0] - dist * ax - ay * offset
    sy = p.mouth_centre[1] - dist * ay + ax * offset
    phi = math.degrees(math.atan2(ay, ax))
    return (sx, sy), phi


@pytest.mark.parametrize("name", POCKETS)
def test_slow_ball_at_the_centre_of_each_pocket_drops(table, name):
    (x, y), phi = _approach(table, name, 0.0)
    r = simulate(one_ball(x, y), Shot("1", phi, 0.8, b=0.4))
    assert r.pocketed == [("1", name)]
    assert r.final.balls == ()
    assert not any(e.type == "cushion" for e in r.events)


def _first_jaw_contact(table, name, start, phi):
    """Where a straight path first reaches a jaw of the pocket: centre at
    distance R + r_jaw from the jaw circle's centre (line-circle roots)."""
    R = table.ball_radius
    dx, dy = math.cos(math.radians(phi)), math.sin(math.radians(phi))
    best = None
    for jaw in table.pockets[name].jaws:
        fx, fy = start[0] - jaw.centre[0], start[1] - jaw.centre[1]
        b = fx * dx + fy * dy
        c = fx * fx + fy * fy - (R + jaw.radius) ** 2
        disc = b * b - c
        if disc < 0:
            continue
        s = -b - math.sqrt(disc)
        if s > 0 and (best is None or s < best[0]):
            best = (s, jaw)
    assert best is not None
    s, jaw = best
    return (start[0] + s * dx, start[1] + s * dy), jaw


def _first_line_contact(table, name, start, phi):
    """Distance along the path to the first touch of either cushion nose
    of the pocket (inside the segment), or inf."""
    R = table.ball_radius
    dx, dy = math.cos(math.radians(phi)), math.sin(math.radians(phi))
    best = math.inf
    for jaw in table.pockets[name].jaws:
        c = table.cushions[jaw.cushion]
        nx, ny = c.normal
        dn = dx * nx + dy * ny
        if dn >= 0:
            continue
        s = ((start[0] - c.start[0]) * nx + (start[1] - c.start[1]) * ny - R) / -dn
        px, py = start[0] + s * dx - R * nx, start[1] + s * dy - R * ny
        tx, ty = c.end[0] - c.start[0], c.end[1] - c.start[1]
        u = ((px - c.start[0]) * tx + (py - c.start[1]) * ty) / (tx * tx + ty * ty)
        if 0 <= u <= 1 and s > 0:
            best = min(best, s)
    return best


@pytest.mark.parametrize("name", POCKETS)
@pytest.mark.parametrize("side", [1, -1])
def test_ball_a_ball_width_off_stays_on_the_table(table, name, side):
    R = table.ball_radius
    start, phi = _approach(table, name, side * 2 * R)
    r = simulate(one_ball(*start), Shot("1", phi, 0.8, b=0.4))
    assert r.pocketed == []
    assert [b for b, _, _ in r.final.balls] == ["1"]
    first = next(e for e in r.events if e.type == "cushion")
    assert first.cushion in table.cushion_of_pocket_side(name)


@pytest.mark.parametrize("name", POCKETS)
@pytest.mark.parametrize("k", [0, 1])
def test_first_contact_on_a_jaw_is_where_geometry_says(table, name, k):
    R = table.ball_radius
    jaw = table.pockets[name].jaws[k]
    c = table.cushions[jaw.cushion]
    nx, ny = c.normal
    # The nose ends at T, where the jaw circle touches it; roll straight at
    # the cushion, 0.3 R past T towards the pocket, so the nose is missed.
    tx, ty = jaw.centre[0] + jaw.radius * nx, jaw.centre[1] + jaw.radius * ny
    other = c.start if math.hypot(c.end[0] - tx, c.end[1] - ty) < 1e-9 else c.end
    ux, uy = tx - other[0], ty - other[1]
    nu = math.hypot(ux, uy)
    ux, uy = ux / nu, uy / nu
    start = (tx + 0.3 * nx + 0.3 * R * ux, ty + 0.3 * ny + 0.3 * R * uy)
    phi = math.degrees(math.atan2(-ny, -nx))
    (cx, cy), hit_jaw = _first_jaw_contact(table, name, start, phi)
    assert hit_jaw == jaw
    s_jaw = math.hypot(cx - start[0], cy - start[1])
    assert s_jaw < _first_line_contact(table, name, start, phi)
    r = simulate(one_ball(*start), Shot("1", phi, 0.8, b=0.4))
    first = next(e for e in r.events if e.type == "cushion")
    # The event names the cushion that the jaw ends.
    assert first.cushion == jaw.cushion
    s = r.states_at(first.t)["1"]
    # Contact where geometry says, to well under a micrometre.
    assert math.hypot(s[0] - cx, s[1] - cy) < 1e-7
    d = math.hypot(s[0] - jaw.centre[0], s[1] - jaw.centre[1])
    assert abs(d - (R + jaw.radius)) < 1e-8
