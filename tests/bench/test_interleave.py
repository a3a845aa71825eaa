"""bench.interleave: both versions' searches run in one process on the same
positions, each with its own modules; one-line errors."""

from __future__ import annotations

import re

import pytest

from bench.interleave import main


def test_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # (A bad commit or round count: tests/bench/test_comparison_errors.py.)
    assert main(["HEAD", "--limit", "0"]) == 2
    assert "--limit must be at least 1" in capsys.readouterr().err
    assert main([]) == 2
    assert "name the commit" in capsys.readouterr().err


@pytest.mark.slow
def test_head_against_itself_finds_the_same_candidates(capsys: pytest.CaptureFixture[str]) -> None:
    # The old tree is HEAD: both versions list the same candidates, each
    # from its own files, and the ratio is a ratio of two positive times.
    assert main(["HEAD", "--limit", "3", "--rounds", "1", "--json"]) == 0
    import json

    out = json.loads(capsys.readouterr().out)
    assert re.fullmatch(r"[0-9a-f]{40}", out["old_commit"])
    assert out["positions"] == 3 and out["positions_whose_candidate_counts_differ"] == 0
    assert out["old_mean_ms"] > 0 and out["new_mean_ms"] > 0
    assert out["ratio"] == pytest.approx(out["old_mean_ms"] / out["new_mean_ms"])
    kinds = out["by_kind_ms"]
    assert sum(v["positions"] for v in kinds.values()) == 3
    assert all(v["old_ms"] > 0 and v["new_ms"] > 0 for v in kinds.values())


def test_kinds_of_position() -> None:
    from bench.interleave import kind_of

    assert kind_of({"variant": "combined", "break": True}) == "break"
    assert kind_of({"variant": "free", "in_hand": "house"}) == "ball in hand"
    assert kind_of({"variant": "free", "in_hand": None}) == "free pyramid"
    assert kind_of({"variant": "moscow", "break": False}) == "on the table"
