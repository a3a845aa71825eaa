"""training/break_study.py (piramida calibrate breaks): the stroke grid
covers the rack's outer balls from the house, local moves stay in the house, the book keeps distinct strokes,
and a stroke's samples are judged by the referee on differently labelled
racks."""

from __future__ import annotations

import pytest

from piramida.env.position import Position
from piramida.training import break_study as B


def test_outer_balls_are_the_apex_and_both_ends_of_each_row() -> None:
    pos = Position.start("free", seed=1)
    outer = B.outer_balls(pos)
    assert sorted(outer) == ["row1", "row2L", "row2R", "row3L", "row3R", "row4L", "row4R", "row5L", "row5R"]
    ys = sorted({round(y, 4) for _, _, y in pos.balls})
    assert outer["row1"][1] == pytest.approx(ys[0])  # the apex faces the house
    assert outer["row5L"][0] < outer["row5R"][0]


def test_grid_strokes_come_from_the_house() -> None:
    pos = Position.start("free", seed=1)
    strokes = B.grid(pos)
    assert len(strokes) == len(B.SPOTS) * 9 * len(B.OFFSETS) * len(B.SPEEDS)
    t = pos.table
    for s in strokes:
        assert t.in_house(*s["place"]) and 0 < s["v"] <= 8.0
    for s in B.neighbours(strokes[0], 1.0, t.house_line):
        assert s["place"][1] < t.house_line and -0.6 <= s["b"] <= 0.6


def test_pick_prefers_one_stroke_per_ball_and_spot() -> None:
    rows = [
        {"target": "row5R", "place": (1.08, 0.8), "value": 0.62},
        {"target": "row5R", "place": (1.09, 0.8), "value": 0.61},
        {"target": "row5L", "place": (0.69, 0.8), "value": 0.60},
    ]
    assert [r["value"] for r in B.pick(rows, 2)] == [0.62, 0.60]
    assert [r["value"] for r in B.pick(rows, 3)] == [0.62, 0.60, 0.61]


def test_a_strokes_samples_are_refereed_on_different_racks() -> None:
    B._init("free")
    pos = Position.start("free", seed=1)
    far_miss = {**B.grid(pos)[0], "phi": 270.0, "v": 2.0}  # away from the rack: no contact
    row = B.evaluate((far_miss, 3))
    assert row["p_legal"] == 0.0 and row["p_pot"] == 0.0 and 0.0 <= row["value"] < 0.5
    assert B._rack(0)[0].balls != B._rack(1)[0].balls  # other labels, same spots
    assert sorted((x, y) for _, x, y in B._rack(0)[0].balls) == sorted((x, y) for _, x, y in B._rack(1)[0].balls)
