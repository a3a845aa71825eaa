"""Centre-line crossings: the centre passes y = L/2, with a direction."""

from __future__ import annotations

from physics_helpers import one_ball

from piramida.env.physics import simulate
from piramida.env.shot import Shot


def _crossings(r):
    return [(e.balls[0], e.to) for e in r.events if e.type == "centre_line"]


def test_crossing_to_the_rear_and_back_to_the_front(table):
    yc = table.centre_line
    r = simulate(one_ball(0.5, yc - 0.3), Shot("1", 90, 0.5, b=0.4))
    assert _crossings(r) == [("1", "rear")]
    t = next(e.t for e in r.events if e.type == "centre_line")
    assert abs(r.states_at(t)["1"][1] - yc) < 1e-9
    # Up to the rear cushion and back over the line towards the front.
    r = simulate(one_ball(0.5, yc - 0.3), Shot("1", 90, 3.5, b=0.4))
    assert _crossings(r)[:2] == [("1", "rear"), ("1", "front")]


def test_a_ball_starting_on_the_line_does_not_cross_by_moving_off(table):
    yc = table.centre_line
    r = simulate(one_ball(0.5, yc), Shot("1", 90, 0.5, b=0.4))
    assert _crossings(r) == []
    r = simulate(one_ball(0.5, yc), Shot("1", 270, 0.5, b=0.4))
    assert _crossings(r) == []
    # Moving along the line and off it is not a crossing either.
    r = simulate(one_ball(0.5, yc), Shot("1", 10, 0.8))
    assert _crossings(r) == []
    # But coming back over it is.
    r = simulate(one_ball(0.5, yc), Shot("1", 90, 3.0, b=0.4))
    assert _crossings(r)[:1] == [("1", "front")]
