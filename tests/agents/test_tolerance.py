"""The error tolerance of a shot (agents/tolerance.py) against what does not
come from its search: the geometry of the balls and the pockets, and a
dense scan of the aim with the same physics.

The pocket checks turn the aim window into the object ball's sideways miss
at the pocket's mouth. An aim error delta sends the struck ball along a
line passing p = d sin(delta) from the object ball's centre (d: centre to
centre), so the line of centres at contact is beta = asin(p / 2R) off the
stroke, and the object ball leaves beta - delta off the pocket's axis;
throw (ball-ball friction) turns it back toward the stroke by at most
atan(tan(beta) / 7) (a stun stroke's contact stops slipping: Alciatore, TP
A-14), so the deviation lies between (6/7) beta - delta and beta - delta.
At the jaws, D from the object ball, that is a sideways miss e = D tan(.).
The edge stroke's e must lie between

- the clearance c = mouth / 2 - R: a ball whose centre passes the mouth
  within c of the axis touches neither jaw and drops (the facings behind
  run parallel to the axis), so the window is at least that wide; and
- the bounce limit: a ball meeting a jaw (a circle of radius r_j, its
  centre J = mouth / 2 + r_j off the axis) with its centre line e off the
  axis is hit at an angle psi from its path with sin(psi) = (J - e) /
  (R + r_j); the jaw (cushion rubber, restitution e_c) sends it back out
  of the pocket when (1 + e_c) cos^2(psi) > 1. So e < J - (R + r_j)
  sqrt(e_c / (1 + e_c)). Friction and the cushion's height are left out
  of that bound, so it is checked with the throw bound's side of e.

And a pocket's acceptance is a width at its mouth: measured from two
distances it is the same (to 10%: the jaw's deflection depends a little on
the speed and angle the ball arrives with).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from piramida.agents.tolerance import tolerance
from piramida.env.errors import PiramidaError
from piramida.env.physics import simulate_batch
from piramida.env.position import Position
from piramida.env.shot import Shot
from piramida.env.table import POCKETS, Table

T = Table.default()
R = T.ball_radius


def on_axis(pocket: str, D: float, d: float) -> tuple[Position, Shot]:
    """Ball 1 on the pocket's axis D from its mouth, ball 0 d behind it:
    the straight pot, aimed exactly."""
    p = T.pockets[pocket]
    ux, uy = -p.axis[0], -p.axis[1]  # from the pocket into the table
    ob = (p.mouth_centre[0] + ux * D, p.mouth_centre[1] + uy * D)
    cb = (ob[0] + ux * d, ob[1] + uy * d)
    pos = Position.from_balls("free", {"0": cb, "1": ob})
    phi = math.degrees(math.atan2(-uy, -ux))
    return pos, Shot("0", phi, 2.0)


def miss_at_mouth(delta_deg: float, D: float, d: float, throw: bool) -> float:
    """The object ball's sideways miss at the mouth for an aim error (see
    the module's docstring); with ``throw`` the most throw can take off."""
    delta = math.radians(delta_deg)
    beta = math.asin(d * math.sin(delta) / (2 * R))
    dev = beta - delta - (math.atan(math.tan(beta) / 7) if throw else 0.0)
    return D * math.tan(dev)


def bounce_limit(pocket: str) -> float:
    p = T.pockets[pocket]
    rj = p.jaws[0].radius
    e = T.physics.e_cushion
    return p.mouth / 2 + rj - (R + rj) * math.sqrt(e / (1 + e))


def pots_in(position: Position, shots: list[Shot], ball: str, pocket: str) -> np.ndarray:
    b = simulate_batch(position, shots)
    return np.array([int(b.where[k, b.ids[k].index(ball)]) == POCKETS.index(pocket) for k in range(len(shots))])


@pytest.mark.parametrize(("pocket", "far", "near", "d"), [("ml", 0.8985, 0.461, 0.5), ("fl", 1.2, 0.6, 0.4)])
def test_a_straight_pot_has_the_window_its_pocket_mouth_gives(pocket: str, far: float, near: float, d: float) -> None:
    p = T.pockets[pocket]
    clearance = p.mouth / 2 - R
    accepted = []
    for D in (far, near):
        pos, shot = on_axis(pocket, D, d)
        tol = tolerance(pos, shot)
        assert (tol.outcome.kind, tol.outcome.ball, tol.outcome.pocket) == ("pot", "1", pocket)
        w = tol.phi
        assert w is not None and w.minus > 0 and w.plus > 0  # the exact aim is inside
        # A straight pot is symmetric: both edges agree to the bisection's precision.
        assert abs(w.minus - w.plus) <= 2e-4, (w.minus, w.plus)
        edge = min(w.minus, w.plus)
        assert miss_at_mouth(edge, D, d, throw=False) >= clearance, (pocket, D, edge)
        assert miss_at_mouth(edge, D, d, throw=True) < bounce_limit(pocket), (pocket, D, edge)
        accepted.append(miss_at_mouth(edge, D, d, throw=False))
    assert accepted[0] == pytest.approx(accepted[1], rel=0.10), accepted


def test_the_middle_pocket_accepts_a_wider_miss_than_the_corner() -> None:
    wide = tolerance(*on_axis("ml", 0.6, 0.4)).phi
    tight = tolerance(*on_axis("fl", 0.6, 0.4)).phi
    assert wide is not None and tight is not None
    assert min(wide.minus, wide.plus) > 1.5 * min(tight.minus, tight.plus)


def test_the_bisection_finds_the_edges_a_dense_scan_finds() -> None:
    pos, shot = on_axis("ml", 0.8985, 0.5)
    step = 0.002
    offsets = np.arange(-0.3, 0.3 + step / 2, step)
    ok = pots_in(pos, [shot.aimed(shot.phi + float(x)) for x in offsets], "1", "ml")
    centre = int(np.argmin(np.abs(offsets)))
    assert ok[centre]
    lo = hi = centre
    while lo > 0 and ok[lo - 1]:
        lo -= 1
    while hi < len(ok) - 1 and ok[hi + 1]:
        hi += 1
    w = tolerance(pos, shot).phi
    assert w is not None
    assert -offsets[lo] <= w.minus + 1e-4 < -offsets[lo] + step
    assert offsets[hi] <= w.plus + 1e-4 < offsets[hi] + step


def centred_cut(cut_deg: float, d: float) -> tuple[Position, Shot]:
    """Ball 1 on the middle pocket's axis, ball 0 d from the ghost ball at
    ``cut_deg`` off the line, aimed at the middle of the directions that pot
    (a dense scan: throw turns a cut off its ghost-ball line)."""
    p = T.pockets["ml"]
    ob = (p.mouth_centre[0] + 0.8985, p.mouth_centre[1])
    ghost = (ob[0] + 2 * R, ob[1])
    cut = math.radians(cut_deg)
    cb = (ghost[0] + d * math.cos(cut), ghost[1] + d * math.sin(cut))
    pos = Position.from_balls("free", {"0": cb, "1": ob})
    aim = math.degrees(math.atan2(ghost[1] - cb[1], ghost[0] - cb[0]))
    offsets = np.arange(-3.0, 3.0, 0.005)
    shots = [Shot("0", aim + float(x), 2.0) for x in offsets]
    ok = pots_in(pos, shots, "1", "ml")
    assert ok.any(), "no direction pots the cut"
    run = np.flatnonzero(ok)
    assert run[-1] - run[0] + 1 == len(run), "the directions that pot are one run"
    return pos, Shot("0", aim + float(offsets[run].mean()), 2.0)


def test_a_thinner_cut_tolerates_less_aim_error() -> None:
    straight = tolerance(*centred_cut(0.0, 0.5)).phi
    thin = tolerance(*centred_cut(35.0, 0.5)).phi
    assert straight is not None and thin is not None
    assert thin.minus > 0 and thin.plus > 0
    # The line of centres turns 1 / cos(cut) times faster with the aim.
    assert thin.minus + thin.plus < 0.95 * (straight.minus + straight.plus)


def test_a_shot_that_touches_a_ball_keeps_touching_it_over_the_ball_s_width() -> None:
    # Ball 0 meets ball 1 while its line passes within 2R of 1's centre:
    # asin(2R / d) either way, whatever else happens (nothing is potted).
    d = 0.5
    pos = Position.from_balls("free", {"0": (0.8875, 0.7), "1": (0.8875, 0.7 + d)})
    tol = tolerance(pos, Shot("0", 90.0, 1.0))
    assert (tol.outcome.kind, tol.outcome.ball) == ("contact", "1")
    half = math.degrees(math.asin(2 * R / d))
    assert tol.phi is not None
    assert tol.phi.minus == pytest.approx(half, abs=2e-3)
    assert tol.phi.plus == pytest.approx(half, abs=2e-3)


def test_a_called_ball_that_cannot_drop_has_no_window() -> None:
    pos, shot = on_axis("ml", 0.8985, 0.5)
    too_slow = Shot("0", shot.phi, 0.3, call=("1", "ml"))
    tol = tolerance(pos, too_slow)
    assert (tol.outcome.kind, tol.outcome.ball, tol.outcome.pocket) == ("miss", "1", "ml")
    assert (tol.phi, tol.v, tol.a, tol.b) == (None, None, None, None)
    assert tol.to_dict()["phi"] is None
    # Called in the other middle pocket: the straight line cannot take it there.
    tol = tolerance(pos, Shot("0", shot.phi, 2.0, call=("1", "mr")))
    assert tol.outcome.kind == "miss" and tol.phi is None


def test_spin_and_pace_windows_hold_the_exact_stroke_and_respect_the_limits() -> None:
    pos, shot = on_axis("ml", 0.8985, 0.5)
    tol = tolerance(pos, shot)
    assert tol.v is not None and tol.a is not None and tol.b is not None
    # Too slow never reaches the pocket; the fastest stroke the cue allows (12 m/s) still pots.
    assert 0 < tol.v.minus < 1 and tol.v.at_limit == (False, True)
    assert tol.v.plus == pytest.approx(12.0 / shot.v - 1)
    # Side spin throws the object ball off the line; height does not (a straight pot).
    assert 0 < tol.a.minus < 0.6 and 0 < tol.a.plus < 0.6
    assert tol.b.at_limit == (True, True) and tol.b.minus == pytest.approx(0.6)
    # The stroke just inside each edge pots, the one just outside does not.
    a_in = Shot("0", shot.phi, 2.0, a=tol.a.plus)
    a_out = Shot("0", shot.phi, 2.0, a=tol.a.plus + 2e-3)
    assert list(pots_in(pos, [a_in, a_out], "1", "ml")) == [True, False]


def test_a_ball_that_is_not_there_is_one_line() -> None:
    pos, _ = on_axis("ml", 0.8985, 0.5)
    with pytest.raises(PiramidaError) as err:
        tolerance(pos, Shot("5", 180.0, 2.0))
    assert "\n" not in str(err.value) and "5" in str(err.value)
