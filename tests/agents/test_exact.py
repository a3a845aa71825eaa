"""The compiled geometry gives Python's floats: ``exact_hypot`` is
CPython's ``math.hypot`` and the compiled object legs are the Python
ones."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from piramida.agents.shots import ghost
from piramida.agents.shots.exact import exact_hypot, same_as_python
from piramida.env.position import Position
from piramida.env.position_sets import SETS, load_positions


@njit(cache=False)
def _many(xs, ys, out):  # pragma: no cover - compiled
    for i in range(xs.shape[0]):
        out[i] = exact_hypot(xs[i], ys[i])


@njit(cache=False)
def _libm(xs, ys, out):  # pragma: no cover - compiled
    for i in range(xs.shape[0]):
        out[i] = math.hypot(xs[i], ys[i])


def test_exact_hypot_is_pythons_where_the_c_library_is_not() -> None:
    assert same_as_python()
    rng = np.random.default_rng(11)
    libm_differs = 0
    # Normal numbers only: between subnormals it may differ in the last bit (exact.py).
    for scale in (1e-300, 1e-6, 0.05, 1.0, 3.5, 1e6, 1e300):
        xs, ys = rng.normal(0, scale, 200_000), rng.normal(0, scale, 200_000)
        got, libm = np.empty_like(xs), np.empty_like(xs)
        _many(xs, ys, got)
        _libm(xs, ys, libm)
        want = np.array([math.hypot(x, y) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)])
        assert np.array_equal(got, want), scale
        libm_differs += int((libm != want).sum())
    # The reason it exists: numba's math.hypot rounds some of these the other way.
    assert libm_differs > 0
    inf, nan = math.inf, math.nan
    for x, y in ((0.0, 0.0), (-0.0, 3.0), (5e-324, 0.0), (3e-308, 1e-310), (inf, nan), (nan, -inf), (1.0, nan),
                 (1.7e308, 1.7e308), (-3.0, 4.0)):
        got, want = exact_hypot(x, y), math.hypot(x, y)
        assert got == want or (math.isnan(got) and math.isnan(want)), (x, y)


@pytest.mark.parametrize("name", ["reference.jsonl", "played.jsonl"])
def test_compiled_object_legs_are_the_python_ones(name: str) -> None:
    root = Path(__file__).resolve().parents[2] / "bench" / "positions"
    legs = 0
    for line in (root / name).read_text().splitlines():
        if not line.strip():
            continue
        pos = Position.from_dict(json.loads(line)["position"])
        t = pos.table
        balls = pos.ball_map
        pockets = list(t.pockets.values())
        aims = [ghost.aim_point(p, t) for p in pockets]
        xy = np.array(list(balls.values()), dtype=np.float64).reshape(-1, 2)
        near = ghost.near_paths(xy, np.array(aims), 2 * t.ball_radius)
        args = (t, list(balls), pockets, aims, xy, near)
        got = ghost.compiled_legs(*args)
        assert got == ghost.python_legs(*args)
        legs += sum(len(v) for v in got.values())
    assert legs > 2000


@pytest.mark.parametrize("name", ["reference", "played"])
def test_many_lines_are_python_pot_lines_merged(name: str) -> None:
    # Every ball struck at every other (free pyramid's search) and, for the
    # other half of the positions, one ball at some of them: the compiled
    # lines, merged, are pot_lines' to the last bit and in the same order.
    lines = 0
    for k, row in enumerate(load_positions(SETS[name])):
        pos = row["position"]
        ids = list(pos.ids)
        if k % 2 == 0:
            pairs = [(s, [b for b in ids if b != s]) for s in ids]
        else:
            pairs = [(ids[0], ids[1::2])]
        want = [ln for s, targets in pairs for ln in ghost.pot_lines(pos, s, targets)]
        want.sort(key=lambda ln: ln.difficulty)
        assert ghost.many_lines(pos, pairs) == want
        assert ghost.many_lines(pos, pairs, 5) == want[:5]
        lines += len(want)
    assert lines > 2000


@pytest.mark.parametrize("name", ["reference", "played"])
def test_compiled_safety_pairs_are_the_python_ones(name: str) -> None:
    # Every variant's positions, ball in hand included (its placements).
    from piramida.agents.shots import strokes
    from piramida.agents.shots.context import Context
    from piramida.env.view import GameView

    pairs = in_hand = 0
    for row in load_positions(SETS[name]):
        pos = row["position"]
        ctx = Context(GameView.for_position(pos))
        got = strokes.safety_pairs(ctx)
        assert got == strokes.safety_pairs_python(ctx, strokes.safety_starts(ctx))
        pairs += len(got)
        in_hand += pos.in_hand is not None and bool(got)
    assert pairs > 200 and in_hand >= 1
