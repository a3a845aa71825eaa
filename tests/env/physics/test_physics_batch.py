"""simulate_batch is simulate, many times, bit for bit."""

from __future__ import annotations

import numpy as np

from piramida.env.physics import simulate
from piramida.env.physics.batch import ON_TABLE, simulate_batch
from piramida.env.position import Position
from piramida.env.shot import Shot


def _cases():
    rng = np.random.default_rng(11)
    start = Position.start("free", seed=5)
    positions, shots = [], []
    for k in range(24):
        if k % 3 == 0:
            positions.append(start)
            shots.append(Shot("0", 90 + rng.normal(0, 2), 6 + 3 * rng.random(), place=(0.8875, 0.6)))
        else:
            pos = Position.from_balls(
                "free",
                {"0": (0.3 + rng.random(), 0.4 + rng.random()), "3": (0.9, 1.8), "7": (1.2, 2.5), "9": (0.4, 3.0)},
            )
            positions.append(pos)
            shots.append(Shot("0", 360 * rng.random(), 0.5 + 4 * rng.random(), a=0.2, b=-0.1))
    return positions, shots


def test_batch_equals_simulate_bit_for_bit():
    positions, shots = _cases()
    seeds = list(range(100, 100 + len(shots)))
    out = simulate_batch(positions, shots, noise="amateur", seeds=seeds, events=True)
    assert out.results is not None and len(out) == len(shots)
    for k, (pos, sh) in enumerate(zip(positions, shots, strict=True)):
        ref = simulate(pos, sh, noise="amateur", seed=seeds[k])
        got = out.results[k]
        assert got.shot == ref.shot
        assert [e.to_dict() for e in got.events] == [e.to_dict() for e in ref.events]
        assert got.final.to_dict() == ref.final.to_dict()
        assert got.pocketed == ref.pocketed and got.off_table == ref.off_table
        # The compact arrays agree with the full result.
        on = [b for b, w in zip(out.ids[k], out.where[k], strict=False) if w == ON_TABLE]
        assert tuple(on) == ref.final.ids
        for i, b in enumerate(out.ids[k]):
            if out.where[k, i] == ON_TABLE:
                assert tuple(out.xy[k, i]) == ref.final.xy(b)
        assert sorted(out.pocketed(k)) == sorted(ref.pocketed)


def test_batch_without_events_gives_the_same_outcomes():
    positions, shots = _cases()
    a = simulate_batch(positions, shots, events=False)
    b = simulate_batch(positions, shots, events=True)
    assert a.results is None
    assert np.array_equal(a.where, b.where)
    assert np.array_equal(np.where(a.where[..., None] == ON_TABLE, a.xy, 0), np.where(b.where[..., None] == ON_TABLE, b.xy, 0))
    assert np.array_equal(a.n_events, b.n_events)


def test_batch_is_bit_identical_on_the_benchmark_suites():
    """The benchmark's seeded break, mid-game and two-ball shots
    (bench/inputs.py, quick sizes): simulate_batch's compact arrays and its
    full results equal simulate's, float for float."""
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[3])
    if root not in sys.path:
        sys.path.insert(0, root)
    from bench.inputs import suites

    cases = [c for s in suites(quick=True, seed=5).values() for c in s]
    positions, shots = [c.position for c in cases], [c.shot for c in cases]
    compact = simulate_batch(positions, shots)
    full = simulate_batch(positions, shots, events=True)
    assert full.results is not None
    assert np.array_equal(compact.where, full.where) and np.array_equal(compact.n_events, full.n_events)
    for k, (pos, sh) in enumerate(zip(positions, shots, strict=True)):
        ref = simulate(pos, sh)
        assert full.results[k].to_dict() == ref.to_dict()
        assert compact.n_events[k] == len(ref.events)
        for i, b in enumerate(compact.ids[k]):
            if compact.where[k, i] == ON_TABLE:
                assert tuple(compact.xy[k, i]) == ref.final.xy(b)
        assert sorted(compact.pocketed(k)) == sorted(ref.pocketed)
