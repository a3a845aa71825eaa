"""``bench/positions/played.jsonl``: positions from seeded frames of greedy
against greedy. The committed file is what ``played.py`` makes (checked on
its first frame), every position is one the referee accepts with the
variants in turn, and it has what the reference positions lack: balls in
the jaws."""

from __future__ import annotations

import json
import math

from bench.positions import SETS, played
from piramida.env.position import VARIANTS, Position
from piramida.env.rules import get_referee

ROWS = [json.loads(line) for line in SETS["played"].read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_file_is_what_the_generator_makes() -> None:
    assert len(ROWS) == played.N_POSITIONS
    assert [r["id"] for r in ROWS] == list(range(len(ROWS)))
    first = played.frame_positions(0)
    assert first, "frame 0 keeps no position"
    assert [r["position"] for r in ROWS[: len(first)]] == [d["position"] for d in first]


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
    # generate.py keeps every ball 8 cm from the pocket mouths.
    near = 0
    for r in ROWS:
        pos = Position.from_dict(r["position"])
        mouths = [p.mouth_centre for p in pos.table.pockets.values()]
        near += any(math.hypot(x - mx, y - my) < 0.08 for _, x, y in pos.balls for mx, my in mouths)
    assert near >= 10, near
