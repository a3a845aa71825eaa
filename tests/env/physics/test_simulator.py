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


def test_a_result_from_the_loop_buffers_is_the_simulators() -> None:
    # A kernel that plays strokes itself (agents/shots/probe.py) hands its
    # last stroke's buffers back: the result made from them is the one the
    # simulator makes.
    from piramida.env.physics.loop import run

    pos = Position.start("free", seed=3)
    sim = Simulator(pos)
    shot = Shot(ball="0", phi=89.0, v=5.0, b=0.2, place=(0.9, 0.6))
    inp = sim.loop_inputs(shot)
    S, mode = inp.S0.copy(), np.zeros(len(inp.ids), dtype=np.int64)
    t = inp.table
    nev, nseg, status = run(
        S, mode, inp.ids.index("0"), np.radians(shot.phi), np.radians(shot.theta), shot.v, shot.a, shot.b,
        t.CU, t.JW, t.FC, t.PK, t.P, inp.ev, inp.seg, inp.fw, inp.iw, inp.mw,
    )
    got = sim.result(shot, inp, status, nev, nseg, S, mode)
    _same(got, simulate(pos, shot))
    # The states at rest it was played from are untouched.
    assert inp.S0.tolist() == sim.loop_inputs(shot).S0.tolist()


def test_states_of_is_state_of_at_each_time_up_to_the_first_without_one() -> None:
    pos = Position.start("free", seed=3)
    res = simulate(pos, Shot(ball="0", phi=88.0, v=8.0, place=(0.9, 0.6)))
    assert res.pocketed == [("6", "rl")]  # ball 6 has no state once it drops
    times = np.linspace(0.0, res.duration + 1.0, 40)
    cut = 0
    for ball in ("0", "1", "6"):
        rows = res.states_of(ball, times)
        singles = [res.state_of(ball, float(t)) for t in times]
        n = next((k for k, s in enumerate(singles) if s is None), len(times))
        assert len(rows) == n
        cut += n < len(times)
        for row, single in zip(rows, singles[:n], strict=True):
            assert row.tolist() == single.tolist()
    assert cut == 1
    assert len(res.states_of("nope", times)) == 0
