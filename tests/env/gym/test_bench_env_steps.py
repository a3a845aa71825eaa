"""bench/env_steps.py (the benchmark of the environments) measures what it says."""

from __future__ import annotations

import pytest

import piramida.env.gym as pg

env_steps = pytest.importorskip("bench.env_steps")


def test_single_counts_steps_actions_and_physics_time() -> None:
    row = env_steps._single("piramida/FiveBall-v0", 12)
    assert row["steps"] == 12
    # Each learner step includes at least its own action; the opponent's
    # replies make more.
    assert row["actions_per_s"] >= row["steps_per_s"] > 0
    assert 0 < row["physics_share"] < 1


def test_table_lists_every_env() -> None:
    rows = {
        e: {
            "steps_per_s": 1.0,
            "actions_per_s": 2.0,
            "ms_per_step": 1000.0,
            "physics_share": 0.5,
            "frames": 1,
            "multi_steps_per_s": 3.0,
        }
        for e in pg.ENV_IDS
    }
    report = {"pinned": "m", "noise": "pro", "steps_per_variant": 1, "repeat": 1, "results": rows}
    text = env_steps.table(report)
    assert all(e in text for e in pg.ENV_IDS)
    assert "50%" in text
