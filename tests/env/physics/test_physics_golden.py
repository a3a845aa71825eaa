"""Recorded event logs (tests/env/physics/golden): the physics still tells
the same story. Times and coordinates to 1e-9; regenerate with
golden/make_golden.py only after a deliberate physics change."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"
sys.path.insert(0, str(GOLDEN))

from make_golden import CASES, record  # noqa: E402


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_event_log(name):
    want = json.loads((GOLDEN / f"{name}.json").read_text())
    got = json.loads(json.dumps(record(name)))
    assert got["shot"] == want["shot"]
    assert len(got["events"]) == len(want["events"])
    for g, w in zip(got["events"], want["events"], strict=True):
        assert {k: v for k, v in g.items() if k != "t"} == {k: v for k, v in w.items() if k != "t"}
        assert g["t"] == pytest.approx(w["t"], abs=1e-9)
    assert got["pocketed"] == want["pocketed"] and got["off_table"] == want["off_table"]
    assert got["final"]["balls"].keys() == want["final"]["balls"].keys()
    for b, xy in want["final"]["balls"].items():
        assert got["final"]["balls"][b] == pytest.approx(xy, abs=1e-9)
