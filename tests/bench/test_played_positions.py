"""``bench/positions/played.jsonl``: positions from seeded frames of greedy
against greedy, a fixed benchmark set (made once; a change to greedy or
the physics would make other frames, and the file is kept as it is so
that measurements stay comparable). Its rows are laid out as
``played.py`` lays them out, every position is one the referee accepts,
with the variants in their shares, and it has what the reference
positions lack: balls in the jaws. The generator still makes such rows."""

from __future__ import annotations

import json
import math

from bench.positions import played
from piramida.env.position import VARIANTS, Position
from piramida.env.position_sets import SETS
from piramida.env.rules import get_referee

ROWS = [json.loads(line) for line in SETS["played"].read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_rows_are_laid_out_as_the_generator_lays_them_out() -> None:
    assert len(ROWS) == played.N_POSITIONS
    assert [r["id"] for r in ROWS] == list(range(len(ROWS)))
    for r in ROWS:
        assert r["shot"] % played.EVERY == r["frame"] % played.EVERY, r["id"]
    shares = [sum(r["variant"] == v for r in ROWS) for v in VARIANTS]
    assert max(shares) - min(shares) <= 1 and sum(shares) == len(ROWS)


def test_the_generator_keeps_every_fourth_decision_of_a_frame() -> None:
    got = played.frame_positions(1)
    assert got and all(d["frame"] == 1 and d["variant"] == VARIANTS[1] for d in got)
    assert [d["shot"] for d in got] == [1 + played.EVERY * k for k in range(len(got))]
    for d in got:
        Position.from_dict(d["position"])


def test_every_position_stands_and_every_variant_is_there() -> None:
    seen = set()
    for r in ROWS:
        pos = Position.from_dict(r["position"])
        assert pos.variant == r["variant"] == VARIANTS[r["frame"] % len(VARIANTS)]
        ref = get_referee(pos.variant, None, pos.table)
        assert ref.allowed_cue_balls(pos), r["id"]
        seen.add(pos.variant)
    assert seen == set(VARIANTS)


def test_some_balls_lie_where_the_reference_positions_never_put_one() -> None:
    # reference_position keeps every ball 8 cm from the pocket mouths.
    near = 0
    for r in ROWS:
        pos = Position.from_dict(r["position"])
        mouths = [p.mouth_centre for p in pos.table.pockets.values()]
        near += any(math.hypot(x - mx, y - my) < 0.08 for _, x, y in pos.balls for mx, my in mouths)
    assert near >= 10, near
