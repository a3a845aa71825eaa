"""Learning curves from a run's metrics.csv (training/curves.py)."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from piramida.training.curves import CurvesError, plot_curves, read_metrics, summary

HEADER = "iteration,seconds,win_vs_pool,win_vs_greedy_eval,eval_pair_score,eval_pair_ci_low,eval_pair_ci_high,snapshot\n"


def _run(tmp_path: Path, body: str) -> Path:
    run = tmp_path / "run"
    run.mkdir()
    (run / "metrics.csv").write_text(HEADER + body)
    return run


def test_training_time_adds_up_and_the_last_evaluation_is_reported(tmp_path: Path) -> None:
    run = _run(tmp_path, "1,1800,0.4,,,,,frozen_1\n2,1800,0.5,0.6,0.55,0.45,0.65,\n3,3600,0.45,,,,,\n")
    rows = read_metrics(run)
    assert [r["hours"] for r in rows] == [0.5, 1.0, 2.0]
    assert math.isnan(rows[0]["eval_pair_score"]) and rows[0]["snapshot"] == 1.0
    s = summary(run)
    assert s["iterations"] == 3 and s["last_eval_iteration"] == 2
    assert s["pair_score_vs_greedy"] == 0.55 and s["pair_ci95"] == [0.45, 0.65]
    png = plot_curves(run, tmp_path / "c.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("body, match", [("", "no iterations"), ("1,abc,0.4,,,,,\n", "column seconds")])
def test_bad_metrics_are_one_line_errors(tmp_path: Path, body: str, match: str) -> None:
    with pytest.raises(CurvesError, match=match):
        read_metrics(_run(tmp_path, body))


def test_curves_command_refuses_a_folder_without_metrics(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "piramida", "curves", str(tmp_path)], capture_output=True, text=True)
    assert out.returncode == 2
    assert out.stderr.strip().count("\n") == 0 and "no metrics file" in out.stderr
