"""``Simulator``: many shots from one position, packed once, give what
``simulate`` gives, bit for bit, and refuse what it refuses."""

from __future__ import annotations

import numpy as np
import pytest

from piramida.env.errors import IllegalShotError
from piramida.env.physics import Simulator, simulate
from piramida.env.position import Position
from piramida.env.shot import Shot


def _same(a, b) -> None:
    assert a.status == b.status
    assert a.n_events == b.n_events
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
    assert a.final.balls == b.final.balls
    assert a.pocketed == b.pocketed
    assert a.shot == b.shot


def test_simulator_matches_simulate_with_and_without_noise() -> None:
    pos = Position.start("free", seed=3)
    sim = Simulator(pos)
    shots = [
        Shot(ball="0", phi=88.0, v=6.0, place=(0.9, 0.6)),
        Shot(ball="0", phi=91.5, v=3.0, b=0.3, place=(0.9, 0.6)),
        Shot(ball="0", phi=80.0, v=4.0, place=(0.7, 0.5)),
    ]
    for shot in shots:
        _same(sim(shot), simulate(pos, shot))
        for seed in (1, 2):
            _same(sim(shot, noise="pro", seed=seed), simulate(pos, shot, noise="pro", seed=seed))
    # The cached packing is not changed by a shot played from it.
    _same(sim(shots[0]), simulate(pos, shots[0]))


def test_simulator_on_table_ball_and_its_errors() -> None:
    after = simulate(Position.start("free", seed=3), Shot(ball="0", phi=88.0, v=6.0, place=(0.9, 0.6))).final
    sim = Simulator(after)
    ball = after.ids[0]
    shot = Shot(ball=ball, phi=33.0, v=2.0)
    _same(sim(shot), simulate(after, shot))
    bad = Shot(ball=ball, phi=33.0, v=2.0, place=(0.5, 0.5))
    with pytest.raises(IllegalShotError) as got:
        sim(bad)
    with pytest.raises(IllegalShotError) as want:
        simulate(after, bad)
    assert str(got.value) == str(want.value)
    assert np.isfinite(sim(shot).duration)
