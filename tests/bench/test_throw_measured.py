"""bench/data/throw_measured.csv parses, and bench/throw.py's mean
absolute error is the plain mean of |model - measured| (no timing)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from bench import throw as tc


def test_measured_csv_parses() -> None:
    pts = tc.read_measured(tc.DATA)
    assert len(pts) == 52
    assert {p["spin"] for p in pts} == {"roll"}
    assert all(p["source"].startswith("Domenech-Carbo 2023 Fig. 5") for p in pts)
    assert all(math.isclose(p["speed_mps"], 0.8) for p in pts)
    cuts = [p["cut_deg"] for p in pts]
    assert min(cuts) > 7 and max(cuts) < 72
    assert all(0.5 < p["throw_deg"] < 7 for p in pts)
    # Marlow's three built-in points come first.
    assert len(tc.measured_points()) == 55


def test_bad_rows_rejected(tmp_path: Path) -> None:
    f = tmp_path / "m.csv"
    f.write_text("# c\nsource,spin,speed_mps,cut_deg,throw_deg\nx,draw,1,30,2\n", encoding="utf-8")
    with pytest.raises(ValueError, match="spin"):
        tc.read_measured(f)
    f.write_text("source,spin,speed_mps,cut_deg,throw_deg\nx,stun,1,95,2\n", encoding="utf-8")
    with pytest.raises(ValueError, match="range"):
        tc.read_measured(f)
    assert tc.read_measured(tmp_path / "absent.csv") == []


def test_mean_abs_error() -> None:
    assert tc.mean_abs_error([1.0, 2.0, 3.0], [1.5, 1.0, 3.0]) == pytest.approx(0.5)
    assert tc.mean_abs_error([2.0], [-1.0]) == pytest.approx(3.0)
    assert math.isnan(tc.mean_abs_error([], []))
    with pytest.raises(ValueError):
        tc.mean_abs_error([1.0], [])


def test_mae_of_model_against_points() -> None:
    P = tc._params()
    pts = tc.read_measured(tc.DATA)[:5]
    model = [-tc.model_throw(p["speed_mps"], p["cut_deg"], p["spin"], P) for p in pts]
    want = sum(abs(m - p["throw_deg"]) for m, p in zip(model, pts, strict=True)) / len(pts)
    assert tc.mean_abs_error([p["throw_deg"] for p in pts], model) == pytest.approx(want)
    # At these five cuts the rolling model throws less than those balls did (their friction is higher).
    assert all(m < p["throw_deg"] for m, p in zip(model, pts, strict=True))
