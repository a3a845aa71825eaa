"""ShotResult builds its Python values on first read (result.py): any order
of reads gives the same values, and they equal what a validated build
gives."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from piramida.env.events import Event
from piramida.env.physics import simulate, simulate_batch
from piramida.env.position import Position
from piramida.env.shot import Shot

BREAK = (Position.start("free", seed=4), Shot("0", 90.4, 8.5, a=0.05, b=-0.1, place=(0.85, 0.6)))
CUT = (
    Position.from_balls("free", {"0": (0.6, 0.9), "4": (0.9, 2.2), "9": (1.4, 2.9), "2": (0.2, 0.3)}),
    Shot("0", 76.0, 3.0, a=0.3, b=0.2, theta=8.0),
)
READS = ("events", "final", "pocketed", "off_table", "frozen", "duration", "to_dict", "n_events")


def _read(r, name):
    if name == "to_dict":
        return r.to_dict()
    if name == "events":
        return [e.to_dict() for e in r.events]
    if name == "final":
        return r.final.to_dict()
    return getattr(r, name)


@pytest.mark.parametrize("case", [BREAK, CUT], ids=["break", "cut"])
def test_reads_in_any_order_give_the_same_values(case):
    pos, shot = case
    ref = simulate(pos, shot, noise="pro", seed=9)
    want = {name: _read(ref, name) for name in READS}
    assert want["n_events"] == len(ref.events)
    for order in itertools.islice(itertools.permutations(READS), 0, None, 997):
        r = simulate(pos, shot, noise="pro", seed=9)
        got = {name: _read(r, name) for name in order}
        assert got == want
        # Read twice: the same objects.
        assert r.events is r.events and r.final is r.final


def test_lazy_values_equal_validated_ones():
    r = simulate(*BREAK)
    # Every event passes the checked constructor unchanged.
    assert [Event.from_dict(e.to_dict()) for e in r.events] == r.events
    # The final position passes the checked constructor unchanged.
    again = Position.from_dict(r.final.to_dict(), r.final.table)
    assert again.to_dict() == r.final.to_dict()
    assert {b for b, _ in r.pocketed} == {e.balls[0] for e in r.events if e.type == "pocket"}
    assert r.off_table == [e.balls[0] for e in r.events if e.type == "off_table"]
    assert r.duration == r.events[-1].t


def test_results_do_not_share_the_loop_scratch():
    """A result keeps its own copies of the kernel's records: later shots
    (which reuse the scratch buffers) do not change it."""
    r1 = simulate(*CUT)
    traj = {b: tuple(a.copy() for a in v) for b, v in r1.trajectories.items()}
    first = r1.to_dict()
    r2 = simulate(*BREAK)
    assert r1.to_dict() == first and r1.to_dict() != r2.to_dict()
    for b, (t, x, y) in r1.trajectories.items():
        assert np.array_equal(t, traj[b][0]) and np.array_equal(x, traj[b][1]) and np.array_equal(y, traj[b][2])


def test_batch_results_equal_single_shots_read_lazily():
    positions = [BREAK[0], CUT[0], CUT[0]]
    shots = [BREAK[1], CUT[1], Shot("4", 250.0, 2.0)]
    out = simulate_batch(positions, shots, noise="pro", seeds=[1, 2, 3], events=True)
    assert out.results is not None
    for k, (pos, sh) in enumerate(zip(positions, shots, strict=True)):
        ref = simulate(pos, sh, noise="pro", seed=k + 1)
        got = out.results[k]
        # Different first reads on the two sides.
        assert got.pocketed == ref.pocketed
        assert got.final.to_dict() == ref.final.to_dict()
        assert got.to_dict() == ref.to_dict() and got.frozen == ref.frozen and got.shot == ref.shot
