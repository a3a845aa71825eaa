"""A break does not depend on which number sits on which spot of the rack
(docs/physics.md, "Simultaneous contacts"): contacts due at the same instant
are resolved jointly, in an order taken from geometry, never from labels."""

from __future__ import annotations

import math
import tomllib

import numpy as np
import pytest

from piramida.configs import CONFIG_DIR
from piramida.env.physics import simulate
from piramida.env.physics.arrays import table_arrays
from piramida.env.physics.codes import BF_CONSTANT, P_BF_MODEL, P_E_BALL, P_MU_BALL
from piramida.env.physics.collide import ball_ball_round
from piramida.env.physics.scratch import scratch
from piramida.env.position import Position
from piramida.env.shot import Shot
from piramida.env.table import Table

TABLE = Table.default()
R = TABLE.ball_radius


def book_stroke() -> Shot:
    """The free-pyramid break book's first stroke (configs/agents/break_book.toml)."""
    e = tomllib.loads((CONFIG_DIR / "agents" / "break_book.toml").read_text())["free"][0]
    return Shot("0", float(e["phi"]), float(e["v"]), b=float(e.get("b", 0.0)), place=tuple(e["place"]))


STROKES = {
    "apex": Shot("0", 90.0, 8.0, place=(TABLE.width / 2, 0.6)),
    "book": book_stroke(),
}
#: Seeds of Position.start("free"): six numberings of the same rack.
LABELLINGS = (0, 1, 2, 5, 11, 23)


def by_spot(seed: int, shot: Shot) -> dict[tuple[float, float] | str, tuple[tuple[float, float] | None, str | None]]:
    """Start spot (the cue ball: "cue") -> (final centre or None, pocket or None)."""
    start = Position.start("free", seed=seed)
    spot: dict[str, tuple[float, float] | str] = {b: (round(x, 9), round(y, 9)) for b, x, y in start.balls}
    spot[shot.ball] = "cue"
    r = simulate(start, shot)
    assert r.status == 0
    final = {b: (x, y) for b, x, y in r.final.balls}
    pockets = dict(r.pocketed)
    return {spot[b]: (final.get(b), pockets.get(b)) for b in spot}


@pytest.mark.parametrize("stroke", sorted(STROKES))
def test_noise_free_break_is_the_same_on_every_labelling(stroke):
    want = by_spot(LABELLINGS[0], STROKES[stroke])
    for seed in LABELLINGS[1:]:
        got = by_spot(seed, STROKES[stroke])
        assert got.keys() == want.keys()
        for s, (xy, pocket) in want.items():
            gxy, gpocket = got[s]
            assert gpocket == pocket, f"labelling {seed}: the ball from {s} went to {gpocket}, not {pocket}"
            if xy is None:
                assert gxy is None
            else:
                assert gxy is not None and math.dist(gxy, xy) <= 1e-3, f"labelling {seed}, ball from {s}"


@pytest.mark.parametrize("stroke", sorted(STROKES))
def test_final_coordinates_and_pockets_as_sets(stroke):
    """The form of the requirement: the balls' final coordinates as a set
    within 1 mm, and the same pockets."""
    outs = []
    for seed in LABELLINGS:
        r = simulate(Position.start("free", seed=seed), STROKES[stroke])
        outs.append((sorted((x, y) for _, x, y in r.final.balls), sorted(p for _, p in r.pocketed)))
    for xy, pockets in outs[1:]:
        assert pockets == outs[0][1]
        assert len(xy) == len(outs[0][0])
        assert max(math.dist(a, b) for a, b in zip(xy, outs[0][0], strict=True)) <= 1e-3


def _params(mu: float | None = None) -> np.ndarray:
    P = table_arrays(TABLE).P.copy()
    if mu is not None:
        P[P_BF_MODEL] = BF_CONSTANT
        P[P_MU_BALL] = mu
    return P


def _fan(v: float = 2.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ball 0 moving up (+y) into balls 1 and 2 touching it at +-30 degrees
    from its path (the apex of a rack and the two balls behind it)."""
    S = np.zeros((3, 7))
    S[0, :2] = (0.8, 2.0)
    for k, sgn in ((1, -1.0), (2, 1.0)):
        S[k, 0] = 0.8 + sgn * 2 * R * math.sin(math.radians(30))
        S[k, 1] = 2.0 + 2 * R * math.cos(math.radians(30))
    S[0, 3] = v
    S[0, 5] = 0.0  # stun: no spin
    return S, np.array([0, 0]), np.array([1, 2])


def test_joint_impact_on_two_balls_matches_the_closed_form():
    """Frictionless: both contacts push with lam = (1 + e) m v cos30 / (2 + cos60)
    (the 2x2 Newton system), the two balls leave along their normals at the
    same speed and the striker keeps v (1 - 2 cos30 lam / (m v))."""
    P = _params(mu=0.0)
    e, m, v = P[P_E_BALL], TABLE.ball_mass, 2.0
    S, ci, cj = _fan(v)
    assert ball_ball_round(S, ci, cj, 2, P, *scratch(len(S)))
    c30 = math.cos(math.radians(30))
    lam = (1 + e) * m * v * c30 / 2.5
    for k, sgn in ((1, -1.0), (2, 1.0)):
        assert S[k, 2] == pytest.approx(sgn * lam / m * 0.5, abs=1e-12)
        assert S[k, 3] == pytest.approx(lam / m * c30, abs=1e-12)
    assert S[0, 2] == pytest.approx(0.0, abs=1e-12)
    assert S[0, 3] == pytest.approx(v - 2 * lam / m * c30, abs=1e-12)
    # Momentum is kept; kinetic energy falls by the restitution loss.
    assert S[:, 3].sum() == pytest.approx(v, abs=1e-12)
    ke = 0.5 * m * (S[:, 2] ** 2 + S[:, 3] ** 2).sum()
    assert ke < 0.5 * m * v * v


def test_joint_impact_does_not_depend_on_the_order_of_the_contacts():
    P = _params()
    S1, ci, cj = _fan()
    S1[0, 6] = 30.0  # some side spin, so friction acts unevenly
    S2 = S1.copy()
    assert ball_ball_round(S1, ci, cj, 2, P, *scratch(len(S1)))
    # The same contacts listed the other way round and oriented j -> i.
    assert ball_ball_round(S2, np.array([2, 0]), np.array([0, 1]), 2, P, *scratch(len(S2)))
    # Normal impulses are the unique solution and the frictions are applied
    # together: only rounding differs.
    assert np.abs(S1 - S2).max() < 1e-12


def test_a_contact_that_separates_anyway_pushes_nothing():
    """Complementarity: ball 0 drives 1 into 2 head on while 2 already moves
    away fast; the 1-2 contact gets no impulse and the 0-1 contact is the
    two-ball collision alone."""
    P = _params(mu=0.0)
    S = np.zeros((3, 7))
    S[0, :2] = (0.5, 1.0)
    S[1, :2] = (0.5 + 2 * R, 1.0)
    S[2, :2] = (0.5 + 4 * R, 1.0)
    S[0, 2] = 1.0
    S[2, 2] = 5.0
    assert ball_ball_round(S, np.array([0, 1]), np.array([1, 2]), 2, P, *scratch(len(S)))
    e = P[P_E_BALL]
    assert S[1, 2] == pytest.approx((1 + e) / 2, abs=1e-12)
    assert S[0, 2] == pytest.approx((1 - e) / 2, abs=1e-12)
    assert S[2, 2] == 5.0


def test_joint_impact_treats_the_two_sides_alike():
    """With friction (the default speed-dependent model) the two balls behind
    the apex still leave as mirror images: no side of the rack goes first."""
    P = _params()
    S, ci, cj = _fan(3.0)
    before = 0.5 * TABLE.ball_mass * 9.0
    assert ball_ball_round(S, ci, cj, 2, P, *scratch(len(S)))
    assert S[1, 2] == pytest.approx(-S[2, 2], rel=1e-12)
    assert S[1, 3] == pytest.approx(S[2, 3], rel=1e-12)
    assert S[0, 2] == pytest.approx(0.0, abs=1e-12)
    # Throw: each ball is turned off its line of centres towards the striker's path.
    for k in (1, 2):
        off = math.degrees(math.atan2(abs(S[k, 2]), S[k, 3]))
        assert 0.5 < 30.0 - off < 8.0
    m, inertia = TABLE.ball_mass, 0.4 * TABLE.ball_mass * R * R
    after = sum(0.5 * m * (s[2] ** 2 + s[3] ** 2) + 0.5 * inertia * (s[4] ** 2 + s[5] ** 2 + s[6] ** 2) for s in S)
    assert after < before


@pytest.mark.parametrize("spin", [(0.0, 0.0, 0.0), (0.0, 50.0, 0.0), (20.0, -30.0, 40.0)])
def test_a_round_of_one_contact_is_the_pairwise_model(spin):
    """The joint solver with one contact and its sub-stepped friction gives
    the pairwise impact (collide.ball_ball): to rounding without spin; with
    top or back spin the slip has a vertical part, whose friction turns the
    ball but cannot lift it, so the slip turns as friction acts and the
    sub-steps follow it where the pairwise model keeps its first direction
    (a difference of a few 1e-4 m/s here)."""
    from piramida.env.physics.collide import ball_ball

    P = _params()
    S = np.zeros((2, 7))
    S[1, :2] = (2 * R * math.cos(0.6), 2 * R * math.sin(0.6))
    S[0, 2:4] = (1.2, 0.1)
    S[0, 4:7] = spin
    S2 = S.copy()
    assert ball_ball_round(S, np.array([0]), np.array([1]), 1, P, *scratch(len(S)))
    ball_ball(S2[0], S2[1], P)
    tol = 1e-9 if spin == (0.0, 0.0, 0.0) else 1e-3
    assert np.abs(S[:, 2:4] - S2[:, 2:4]).max() < tol
    assert np.abs(S[:, 4:7] - S2[:, 4:7]).max() < tol / R
