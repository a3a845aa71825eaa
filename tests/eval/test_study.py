"""The strategy study at toy scale: the shipped configuration is valid in
every variant, the command plays, resumes and answers in text, JSON, HTML
and Markdown, and its numbers are what the games say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from piramida.cli import app
from piramida.env.position import VARIANTS
from piramida.eval.study import break_stats, findings, load_study, play_stats
from piramida.eval.tournament import TournamentError

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]

TOY = """
[tournament]
agents = ["random", "greedy", "planner:sims=3"]
variants = ["free", "moscow"]
pairs = 1
seed = 1

[study]
contrasts = [
  { label = "search over greedy", agent = "planner:sims=3", baseline = "greedy" },
]
"""


def test_the_shipped_study_plays_every_variant_with_each_variants_models(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    study = load_study("configs/tournaments/study.toml")  # every agent checked in every variant it plays
    cfg = study.tournament
    assert set(cfg.variants) == set(VARIANTS)
    learned = [a for a in cfg.agents if "{variant}" in a]
    assert learned and all(set(cfg.variants_of(a)) == set(VARIANTS) for a in learned)
    assert {c.label for c in study.contrasts} >= {"search over greedy", "learning over search"}


def test_a_contrast_must_name_agents_of_the_tournament(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(TOY.replace('baseline = "greedy"', 'baseline = "planner:sims=9"'))
    with pytest.raises(TournamentError, match="is not one of the agents"):
        load_study(bad)


def _g(a: int, b: int, pair: int, breaker: int, winner: int | None, shots: int = 10) -> dict:
    stats = {"fouls": [1, 0], "safeties": [0, 2], "pot_attempts": [4, 4], "pots_made": [3, 1]}
    return {"agent_a": a, "agent_b": b, "pair": pair, "breaker": breaker, "winner": winner, "shots": shots,
            "stats": stats}


def test_break_and_play_statistics() -> None:
    games = [
        _g(1, 2, 0, 1, 1), _g(1, 2, 0, 2, 2),  # split 1-1 by the break
        _g(1, 2, 1, 1, 1), _g(1, 2, 1, 2, 1),  # one side won both
        _g(1, 2, 2, 1, None),  # half a pair
    ]
    b = break_stats(games)
    assert b["pairs"] == 2 and b["split_by_break"] == 1 and b["split_share"] == 0.5
    assert b["breaker_wins"] == pytest.approx((1 + 1 + 1 + 0 + 0.5) / 5)
    p = play_stats(games)
    assert p["shots_per_frame"] == 10 and p["fouls_per_frame"] == 1 and p["safeties_per_frame"] == 2
    assert p["pot_rate"] == 0.5 and p["drawn"] == pytest.approx(0.2)


def test_findings_name_the_variants_the_numbers_point_to() -> None:
    def variant(split: float, wins: float, shots: float, score: float, lo: float, hi: float, lead: bool) -> dict:
        return {
            "best": {"leaders": ["planner"] if lead else ["planner", "greedy"], "significant": lead},
            "contrasts": [{"label": "search over greedy", "pairs": 40, "score": score, "score_ci95": [lo, hi],
                           "significant": lo > 0.5}],
            "break": {"breaker_wins": wins, "split_share": split},
            "play": {"shots_per_frame": shots, "fouls_per_frame": 1.0, "safeties_per_frame": 0.5, "pot_rate": 0.6},
        }

    res = {"contrasts": ["search over greedy"], "variants": {
        "free": variant(0.7, 0.75, 20, 0.60, 0.45, 0.75, False),
        "moscow": variant(0.2, 0.55, 60, 0.90, 0.80, 0.97, True),
        "classic71": variant(0.3, 0.60, 50, 0.85, 0.75, 0.93, True),
    }}
    text = findings(res)
    assert text[0].startswith("A significant leader in 2 of 3 variants: planner in moscow, classic71; in free")
    assert "from 0.600 [0.450, 0.750] (free) to 0.900 [0.800, 0.970] (moscow)" in text[1]
    assert "significantly above 1/2 in 2 of 3" in text[1] and "do not overlap" in text[1]
    assert "55% of frames in moscow and 75% in free" in text[2] and "70% of the pairs in free" in text[2]
    assert "only 30% of its pairs" in text[2]
    assert "falls with the length of the frame" in text[-1]


def test_the_study_command_plays_resumes_and_reports(tmp_path: Path) -> None:
    cfg = tmp_path / "toy.toml"
    cfg.write_text(TOY)
    db = tmp_path / "s.sqlite"
    res = runner.invoke(app, ["study", "--config", str(cfg), "--db", str(db), "--no-progress", "--bootstrap", "10",
                              "--html", str(tmp_path / "s.html"), "--markdown", str(tmp_path / "s.md")])
    assert res.exit_code == 0, res.output
    assert "12 games played now, 0 already" in res.output
    assert "study: complete: 12 of 12 games" in res.output and "search over greedy: pair score" in res.output
    assert "across variants:" in res.output
    page = (tmp_path / "s.html").read_text()
    assert page.count("data:image/png;base64,") >= 3
    assert "| variant | breaker wins |" in (tmp_path / "s.md").read_text()
    again = runner.invoke(app, ["study", "--config", str(cfg), "--db", str(db), "--no-progress", "--json",
                                "--bootstrap", "10"])
    out = json.loads(again.output)
    assert out["complete"] and out["games"] == 12
    for v in ("free", "moscow"):
        d = out["variants"][v]
        assert [r["agent"] for r in d["ranking"]].count("greedy") == 1 and len(d["ranking"]) == 3
        assert d["break"]["pairs"] == 3 and d["contrasts"][0]["pairs"] == 1
        assert d["play"]["frames"] == 6
    assert out["findings"]
    # Reading only: a missing file is one line; the file is not created.
    gone = tmp_path / "none.sqlite"
    res = runner.invoke(app, ["study", "--config", str(cfg), "--db", str(gone), "--no-play"])
    assert res.exit_code == 2 and "no such results file" in res.output and not gone.exists()
