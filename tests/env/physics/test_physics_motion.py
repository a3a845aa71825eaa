"""Closed-form motion against the textbook formulas (Alciatore TP 4.1-4.2)."""

from __future__ import annotations

import math

from physics_helpers import cue_speed, one_ball, shot

from piramida.env.physics import simulate


def test_rolling_ball_stops_after_v2_over_2_mu_r_g(table):
    # b = 2/5 R is the natural-roll height: the ball rolls from the tip.
    g, mu_r = table.physics.g, table.physics.mu_r
    for V in (0.3, 0.5, 0.7):
        r = simulate(one_ball(0.3, 0.3), shot("1", 90, V, b=0.4))
        kinds = [(e.type, e.from_, e.to) for e in r.events]
        assert ("motion", "stationary", "rolling") in kinds
        assert not any(e.to == "sliding" for e in r.events if e.type == "motion")
        v0 = cue_speed(table, V, b=0.4)
        expect = v0 * v0 / (2 * mu_r * g)
        (_, y), = r.final.ball_map.values()
        assert abs((y - 0.3) - expect) / expect < 0.005
        assert abs(r.duration - v0 / (mu_r * g)) / (v0 / (mu_r * g)) < 0.005


def test_centre_ball_slides_then_rolls_at_five_sevenths(table):
    g, mu_s = table.physics.g, table.physics.mu_s
    V = 1.5
    r = simulate(one_ball(0.5, 0.3), shot("1", 90, V))
    v0 = cue_speed(table, V)
    trans = [e for e in r.events if e.type == "motion" and e.from_ == "sliding"]
    assert trans and trans[0].to == "rolling"
    t_roll = trans[0].t
    assert abs(t_roll - 2 * v0 / (7 * mu_s * g)) < 1e-9 * max(1.0, t_roll) + 1e-12
    s = r.states_at(t_roll)["1"]
    assert abs(math.hypot(s[2], s[3]) - 5 / 7 * v0) < 1e-9
    # Rolling: the contact point no longer slips.
    R = table.ball_radius
    assert abs(s[3] + R * s[4]) < 1e-9 and abs(s[2] - R * s[5]) < 1e-9


def test_side_spin_decays_at_the_spin_friction_rate(table):
    # A stun shot with side, full into a close ball: the cue ball stops and
    # spins in place; spin decays at 5 mu_sp g / (2 R) (Leckie & Greenspan
    # 2005, eq. for the spinning state), so it rests 2 R wz / (5 mu_sp g) later.
    ph, R = table.physics, table.ball_radius
    from piramida.env.position import Position

    pos = Position.from_balls("free", {"0": (0.8, 0.5), "1": (0.8, 0.573)})
    r = simulate(pos, shot("0", 90, 2.0, a=0.5))
    spin = [e for e in r.events if e.type == "motion" and e.balls == ("0",) and e.to == "spinning"]
    assert spin, "the cue ball should end spinning in place"
    t0 = spin[0].t
    wz = r.states_at(t0)["0"][6]
    assert abs(wz) > 5.0
    t_stop = t0 + 2 * R * abs(wz) / (5 * ph.mu_sp * ph.g)
    stop = [e for e in r.events if e.type == "motion" and e.balls == ("0",) and e.from_ == "spinning"]
    assert stop and stop[0].to == "stationary"
    assert abs(stop[0].t - t_stop) < 1e-9 * t_stop
    half = r.states_at((t0 + t_stop) / 2)["0"]
    assert abs(half[6] - wz / 2) < 1e-6 * abs(wz)
    assert math.hypot(half[2], half[3]) == 0.0


def test_elevated_cue_with_side_curves_the_ball(table):
    # Masse: right side with the cue raised spins the ball about the travel
    # axis; the cloth friction on that slip bends the path to the right.
    # (Level, the same side only squirts the ball a little to the left.)
    straight = simulate(one_ball(0.8, 0.3), shot("1", 90, 1.0, a=0.4, theta=0))
    masse = simulate(one_ball(0.8, 0.3), shot("1", 90, 1.0, a=0.4, theta=45))
    left = simulate(one_ball(0.8, 0.3), shot("1", 90, 1.0, a=-0.4, theta=45))
    (xs, _), = straight.final.ball_map.values()
    (xm, ym), = masse.final.ball_map.values()
    (xl, _), = left.final.ball_map.values()
    assert -0.1 < xs - 0.8 < 0.0
    assert xm - 0.8 > 0.02 and 0.8 - xl > 0.02
    assert abs((xm - 0.8) + (xl - 0.8)) < 1e-9
    assert ym > 0.5
