"""bench/crosscheck.py helpers that need neither engine: the probe geometry
and the velocity read off sampled trajectories."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.crosscheck import CUT_ANGLE, _cue_speed_for_rolling, _traj_state, probes
from piramida.env.table import Table


@pytest.fixture(scope="module")
def groups():
    return probes()


def test_cut_probes_make_a_30_degree_cut(groups) -> None:
    cuts = [p for p in groups["big"] if p.kind == "cut"]
    assert [p.label for p in cuts] == ["stun", "rolling"]
    for p in cuts:
        r = p.position.table.ball_radius
        (cx, cy), (ox, oy) = p.position.xy("0"), p.position.xy("1")
        dx, dy = p.shot.direction
        # Travel along the cue line to the ghost ball: centres then 2R apart,
        # and the line of centres is CUT_ANGLE to the left of the cue line.
        gx, gy = cx + dx * p.params["travel"], cy + dy * p.params["travel"]
        assert math.hypot(ox - gx, oy - gy) == pytest.approx(2 * r, abs=1e-12)
        cross = dx * (oy - gy) - dy * (ox - gx)
        dot = dx * (ox - gx) + dy * (oy - gy)
        assert math.degrees(math.atan2(cross, dot)) == pytest.approx(CUT_ANGLE, abs=1e-9)


def test_cushion_probes_hit_the_left_cushion_at_the_angle(groups) -> None:
    t = Table.default()
    for p in (q for q in groups["std"] if q.kind == "cushion"):
        x, y = p.position.xy("0")
        dx, dy = p.shot.direction
        # Where the centre reaches x = R: on the left front cushion's straight part.
        s = (x - t.ball_radius) / -dx
        yh = y + s * dy
        cush = t.cushions["left_front"]
        assert cush.start[1] < yh < cush.end[1]
        assert math.degrees(math.atan2(abs(dy), -dx)) == pytest.approx(p.params["angle"])


def test_rolling_probes_do_not_reach_a_cushion(groups) -> None:
    for p in (q for q in groups["big"] if q.kind == "rolling"):
        t = p.position.table
        ph = t.physics
        # Centre hit, point impact: launch speed, then the slide and the roll
        # of the standard model (each bounded by its closed form).
        v0 = (1 + ph.e_cue) * p.shot.v / (1 + t.ball_mass / ph.cue_mass)
        travel = 12 * v0**2 / (49 * ph.mu_s * ph.g) + (5 * v0 / 7) ** 2 / (2 * ph.mu_r * ph.g)
        assert p.position.xy("0")[1] + travel < t.length - 1.0


def test_cue_speed_for_rolling_inverts_the_point_impact_model() -> None:
    t = Table.default()
    ph = t.physics
    v_cue = _cue_speed_for_rolling(t, 1.5)
    ball = (1 + ph.e_cue) * v_cue / (1 + t.ball_mass / ph.cue_mass + 2.5 * 0.4**2)
    assert ball == pytest.approx(1.5)


@settings(max_examples=30, deadline=None)
@given(
    x0=st.floats(-5, 5),
    v=st.floats(-5, 5),
    acc=st.floats(-3, 3),
    t_event=st.floats(0.1, 2.0),
)
def test_velocity_from_samples_is_exact_for_quadratic_segments(x0, v, acc, t_event) -> None:
    """Two quadratic segments meeting at t_event (a collision: velocity
    jumps); samples as piramida's trajectories give them (segment ends
    repeated). The velocity read just before/after is exact."""
    dt = 1 / 60
    v2 = -0.5 * v + 1.0
    t_a = np.append(np.arange(0.0, t_event, dt), t_event)
    t_b = np.append(t_event + np.arange(0.0, 1.0, dt), t_event + 1.0)
    x_a = x0 + v * t_a + 0.5 * acc * t_a**2
    x_end = x0 + v * t_event + 0.5 * acc * t_event**2
    v_end = v + acc * t_event
    x_b = x_end + v2 * (t_b - t_event) - 0.5 * acc * (t_b - t_event) ** 2
    ts = np.concatenate([t_a, t_b])
    xs = np.concatenate([x_a, x_b])
    before = _traj_state((ts, xs, xs), t_event, after=False)
    after = _traj_state((ts, xs, xs), t_event, after=True)
    # A grid sample within a hair of the event (t_event = 1.000000001 after
    # the sample at 1.0) leaves no segment to read the velocity from.
    if len(t_a) >= 3 and t_a[-1] - t_a[-2] > 1e-6:
        assert before is not None
        assert before["v"][0] == pytest.approx(v_end, abs=1e-6)
        assert before["r"][0] == pytest.approx(x_end, abs=1e-9)
    assert after is not None
    assert after["v"][0] == pytest.approx(v2, abs=1e-6)
