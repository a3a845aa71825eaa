"""Noise keeps a shot valid: a direction pushed past MAX_PHI wraps by whole
turns (the same stroke), so a shot aimed at the limit plays, alone or in a
batch, and shots the wrap does not touch play bit for bit as before."""

from __future__ import annotations

import math

import numpy as np
from typer.testing import CliRunner

from piramida.cli import app
from piramida.env.physics import simulate
from piramida.env.physics.batch import simulate_batch
from piramida.env.physics.noise import load_noise, wrap_phi
from piramida.env.position import Position
from piramida.env.shot import MAX_PHI, Shot

POS = Position.parse(
    "variant=free balls=0:0.8875,1.0;5:0.8875,2.0 shelves=-|- score=0,0 owed=0,0 to_move=0 in_hand=- break=0"
)


def test_wrap_phi_moves_only_what_is_past_the_limit() -> None:
    for phi in (0.0, -0.0, 359.9, MAX_PHI, -MAX_PHI, 3599.999):
        assert wrap_phi(phi) == phi
    assert wrap_phi(3600.53) == 3600.53 - 360.0
    assert wrap_phi(-3600.53) == -3600.53 + 360.0
    assert wrap_phi(MAX_PHI + 720.5) == MAX_PHI + 720.5 - 1080.0
    for phi in (3600.53, -3601.0, 4321.0, -5000.0):
        w = wrap_phi(phi)
        assert abs(w) <= MAX_PHI and math.isclose(math.cos(math.radians(w)), math.cos(math.radians(phi)), abs_tol=1e-9)


def test_a_shot_at_the_limit_plays_under_noise() -> None:
    # The case of the command line: novice noise with seed 3 pushes phi to 3600.53.
    shot = Shot.parse("ball=0 phi=3600 v=2 a=0 b=0 theta=0")
    res = simulate(POS, shot, noise="novice", seed=3)
    assert 3239 < res.shot.phi < 3241
    # The same stroke as aimed one turn lower.
    novice = load_noise("novice")
    assert novice is not None
    raw = novice.perturb(Shot.parse("ball=0 phi=3240 v=2"), np.random.default_rng(3))
    assert math.isclose(res.shot.phi, raw.phi, abs_tol=1e-9)


def test_the_command_line_case() -> None:
    out = CliRunner().invoke(app, [
        "simulate", "--position", POS.to_text(), "--shot", "ball=0 phi=3600 v=2 a=0 b=0 theta=0",
        "--noise", "novice", "--seed", "3",
    ])  # fmt: skip
    assert out.exit_code == 0, out.output
    assert out.stdout.startswith("played: ball=0 phi=3240.53")


def test_one_shot_at_the_limit_does_not_sink_a_batch() -> None:
    shots = [Shot("0", 80.0 + 5 * k, 1.5 + 0.2 * k, a=0.1) for k in range(6)]
    seeds = list(range(40, 46))
    plain = simulate_batch(POS, shots, noise="novice", seeds=seeds, events=True)
    limit = shots[:3] + [Shot("0", MAX_PHI, 2.0)] + shots[3:]
    out = simulate_batch(POS, limit, noise="novice", seeds=seeds[:3] + [3] + seeds[3:], events=True)
    assert out.results is not None and plain.results is not None
    assert abs(out.results[3].shot.phi) <= MAX_PHI
    # The other shots: bit for bit what they were without it, and what
    # simulate gives each alone.
    for k, (a, b) in enumerate(zip(plain.results, out.results[:3] + out.results[4:], strict=True)):
        assert a.shot == b.shot
        assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
        assert a.final.to_dict() == b.final.to_dict()
        alone = simulate(POS, shots[k], noise="novice", seed=seeds[k])
        assert alone.shot == a.shot and alone.final.to_dict() == a.final.to_dict()
