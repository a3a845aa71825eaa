"""``bench.break_recall``: the recalled strokes and fresh ones choose the
same break (the benchmark refuses to report otherwise), the recall is
actually used, and a variant without a break is refused in one line."""

from __future__ import annotations

import json

import pytest

from bench import break_recall
from piramida.env.physics import Simulator


def test_both_ways_time_the_same_decision_and_the_recall_is_hit(capsys: pytest.CaptureFixture[str]) -> None:
    break_recall.main(["--racks", "1", "--variants", "free", "--json"])
    out = json.loads(capsys.readouterr().out)
    (row,) = out["results"]
    assert row["variant"] == "free" and row["racks"] == 1
    assert row["fresh_ms"] > 0 and row["recalled_ms"] > 0
    assert out["recall"]["hits"] > 0
    assert out["version"] and out["command"] == "python -m bench.break_recall --racks 1 --variants free --json"


def test_fresh_strokes_is_undone() -> None:
    kept = Simulator.recalled
    with break_recall.fresh_strokes():
        assert Simulator.recalled is not kept
    assert Simulator.recalled is kept


def test_a_variant_without_a_break_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        break_recall.main(["--variants", "free,five_ball"])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "five_ball" in err and "known:" in err
