"""bench/policy_restore.py's arithmetic (no training, no timing): the last
evaluation read back from a metrics.csv, frame and pair statistics of
duplicate pairs, interval overlap and the same-racks verdict."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import policy_restore as pr
from piramida.training.run import pair_columns, wilson


def test_summarize_counts_frames_and_pairs() -> None:
    s = pr.summarize([(1.0, 1.0), (1.0, 0.0), (0.5, 0.0), (0.0, 0.0)])
    assert s["frames"] == 8 and s["win"] == pytest.approx(3.5 / 8)
    assert s["ci"] == pytest.approx(list(wilson(3.5 / 8, 8)))
    # Pair scores 1, 1/2, 1/4, 0: the pentanomial [LL, LD+DL, LW+DD+WL, DW+WD, WW].
    assert s["pentanomial"] == [1, 1, 1, 0, 1] and s["pairs"] == 4
    assert s["pair_score"] == pytest.approx(s["win"])
    mu = 1.75 / 4
    var = ((0 - mu) ** 2 + (0.25 - mu) ** 2 + (0.5 - mu) ** 2 + (1 - mu) ** 2) / 4
    half = 1.959963984540054 * (var / 4) ** 0.5
    assert s["pair_ci"] == pytest.approx([max(0.0, mu - half), min(1.0, mu + half)])


def test_overlap() -> None:
    assert pr.overlap([0.2, 0.5], [0.5, 0.9]) and pr.overlap([0.0, 1.0], [0.4, 0.6])
    assert not pr.overlap([0.1, 0.3], [0.31, 0.5])


def test_last_evaluation_and_compare(tmp_path: Path) -> None:
    m = tmp_path / "metrics.csv"
    cols = pair_columns([0, 1, 2, 1, 0])
    m.write_text(
        "iteration,win_vs_greedy_eval,eval_frames,eval_ci_low,eval_ci_high,"
        "eval_pairs,eval_pentanomial,eval_pair_score,eval_pair_ci_low,eval_pair_ci_high\n"
        "1,0.5,8,0.2,0.8," + ",".join(str(cols[k]) for k in
        ("eval_pairs", "eval_pentanomial", "eval_pair_score", "eval_pair_ci_low", "eval_pair_ci_high")) + "\n"
        "2,,,,,,,,,\n",
        encoding="utf-8",
    )
    logged = pr.last_evaluation(m)
    assert logged is not None and logged["iteration"] == 1 and logged["pairs"] == 4
    assert logged["pentanomial"] == [0, 1, 2, 1, 0] and logged["pair_score"] == pytest.approx(0.5)
    same = pr.summarize([(0.5, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 0.5)])
    assert same["pentanomial"] == [0, 1, 2, 1, 0]
    v = pr.compare(logged, same, same)
    assert v == {"frame_intervals_overlap": True, "pair_intervals_overlap": True, "same_racks": True}
    worse = pr.summarize([(0.0, 0.0)] * 40)
    v = pr.compare(logged, worse, pr.summarize([(0.0, 0.0)] * 4))
    assert not v["frame_intervals_overlap"] and not v["same_racks"]
    assert pr.last_evaluation(tmp_path / "absent.csv") is None
    assert pr.checkpoint_iteration(Path("runs/x/checkpoints/iter_00012")) == 12
