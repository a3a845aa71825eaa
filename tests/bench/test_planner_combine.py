"""``python -m bench.planner combine``: pooling ``piramida match --json`` runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.planner import combine
from piramida.eval.stats import wilson_interval


def _run(tmp: Path, name: str, seed: int, wins: tuple[float, float], variant: str = "free") -> Path:
    games = int(sum(wins))
    d = {
        "variant": variant, "agents": ["planner", "greedy"], "seed": seed, "noise": "pro",
        "games": games, "wins": list(wins), "draws": 0,
        "balls_per_visit": [2.0 + seed, 1.0], "fouls_per_frame": [0.1, 0.2],
        "pot_rate": [0.9, None], "mean_shots": 10.0 + seed,
    }
    p = tmp / name
    p.write_text(json.dumps(d), encoding="utf-8")
    return p


def test_combine_pools_wins_and_weights_rates(tmp_path: Path) -> None:
    a = _run(tmp_path, "a.json", 1, (70, 30))
    b = _run(tmp_path, "b.json", 2, (15, 35))
    out = combine([a, b])
    assert out["games"] == 150 and out["wins"] == [85, 65]
    assert out["ci95"][0] == list(wilson_interval(85, 150))
    # Weighted by games: (3 * 100 + 4 * 50) / 150.
    assert out["balls_per_visit"][0] == pytest.approx(500 / 150)
    assert out["pot_rate"] == [pytest.approx(0.9), None]
    assert out["seeds"] == [1, 2]


def test_combine_refuses_mixed_or_broken_files(tmp_path: Path) -> None:
    a = _run(tmp_path, "a.json", 1, (7, 3))
    c = _run(tmp_path, "c.json", 2, (5, 5), variant="combined")
    with pytest.raises(SystemExit, match="mix variants"):
        combine([a, c])
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(SystemExit, match="cannot read"):
        combine([a, bad])
