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


# --- packing order and remembered strokes ---------------------------------


def _loop(S0: np.ndarray, cue: int, shot: Shot) -> tuple[int, int, np.ndarray, np.ndarray, np.ndarray]:
    """``loop.run`` on the states ``S0`` as given (any ball order)."""
    import math

    from piramida.env.physics.arrays import table_arrays
    from piramida.env.physics.loop import alloc, run
    from piramida.env.physics.scratch import scratch

    ta = table_arrays(Position.start("free").table)
    ev, seg = alloc()
    S, mode = S0.copy(), np.zeros(len(S0), dtype=np.int64)
    nev, nseg, status = run(
        S, mode, cue, math.radians(shot.phi), math.radians(shot.theta), shot.v, shot.a, shot.b,
        ta.CU, ta.JW, ta.FC, ta.PK, ta.P, ev, seg, *scratch(len(S0)),
    )
    assert status == 0
    return nev, nseg, ev[:nev].copy(), S, mode


@pytest.mark.parametrize("v", [8.0, 3.0])
def test_the_loop_does_not_read_the_order_of_its_balls(v: float) -> None:
    """``Simulator.recalled`` keeps a stroke with its balls in the order of
    their spots and hands it to another labelling renamed: right only
    because the event loop's output, ball for ball, is the same in any
    order. A break played with its balls in two orders gives the same
    numbers, bit for bit, with the ball indices of the events permuted."""
    from piramida.env.physics.codes import NSTATE

    shot = Shot(ball="0", phi=89.3, v=v, place=(0.9, 0.6))
    balls = [*Position.start("free", seed=0).balls, ("0", 0.9, 0.6)]
    rng = np.random.default_rng(7)
    orders = [list(range(len(balls))), list(rng.permutation(len(balls)))]
    outs = []
    for order in orders:
        S0 = np.zeros((len(balls), NSTATE))
        S0[:, 0] = [balls[k][1] for k in order]
        S0[:, 1] = [balls[k][2] for k in order]
        cue = order.index(len(balls) - 1)
        outs.append((order, _loop(S0, cue, shot)))
    (o1, (n1, s1, ev1, S1, m1)), (o2, (n2, s2, ev2, S2, m2)) = outs
    assert (n1, s1) == (n2, s2) and n1 > 50
    # Ball k of the first order is ball o2.index(o1[k]) of the second.
    where = [o2.index(o1[k]) for k in range(len(o1))]
    assert np.array_equal(S1, S2[where]) and np.array_equal(m1, m2[where])
    assert np.array_equal(ev1[:, [0, 1, 4, 5]], ev2[:, [0, 1, 4, 5]])

    def balls(row: np.ndarray, to: list[int] | None) -> frozenset[int]:
        # A contact names its two balls lower index first: a pair, unordered.
        return frozenset((to[int(x)] if to else int(x)) for x in row[2:4] if x >= 0)

    assert [balls(r, where) for r in ev1] == [balls(r, None) for r in ev2]


def test_a_remembered_break_is_the_one_played_on_another_labelling() -> None:
    """``Simulator.recalled``: the break of one shuffled rack, asked from
    another (the same spots, other labels), is not played again, and is
    what ``simulate`` gives on that rack, events and labels included."""
    from piramida.env.physics.simulate import recall_stats

    shot = Shot(ball="0", phi=90.7, v=7.5, place=(0.93, 0.61))
    first = Simulator(Position.start("free", seed=101)).recalled(shot)
    _same(first, simulate(Position.start("free", seed=101), shot))
    before = recall_stats()
    for seed in (102, 103):
        pos = Position.start("free", seed=seed)
        got = Simulator(pos).recalled(shot)
        _same(got, simulate(pos, shot))
        assert got.final.balls != first.final.balls  # other labels in the same places
        assert sorted((x, y) for _, x, y in got.final.balls) == sorted((x, y) for _, x, y in first.final.balls)
    after = recall_stats()
    assert after["hits"] - before["hits"] == 2 and after["plays"] == before["plays"]
    # Another stroke, or another table layout, is played.
    Simulator(Position.start("free", seed=102)).recalled(Shot(ball="0", phi=90.8, v=7.5, place=(0.93, 0.61)))
    assert recall_stats()["plays"] == after["plays"] + 1


def test_remembered_strokes_are_bounded_and_the_oldest_goes_first() -> None:
    from piramida.env.physics.simulate import RECALL_SIZE, recall_stats

    sim = Simulator(Position.start("free", seed=5))

    def stroke(k: int) -> Shot:
        return Shot(ball="0", phi=80.0 + 0.01 * k, v=0.5, place=(0.9, 0.6))

    for k in range(RECALL_SIZE + 3):
        sim.recalled(stroke(k))
    assert recall_stats()["kept"] == RECALL_SIZE
    plays = recall_stats()["plays"]
    sim.recalled(stroke(RECALL_SIZE + 2))  # kept
    assert recall_stats()["plays"] == plays
    sim.recalled(stroke(0))  # gone
    assert recall_stats()["plays"] == plays + 1
