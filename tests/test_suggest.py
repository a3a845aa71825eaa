"""``piramida suggest``: the top shots as text and JSON, the picture, budget
parsing, and bad input -> one line, exit 2. Simulation-count budgets keep
the answers the same on any machine."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from piramida.agents.shots.ghost import aim_point
from piramida.cli import app
from piramida.commands.suggest import parse_budget
from piramida.env.position import Position
from piramida.env.shot import Shot
from piramida.env.table import Table

runner = CliRunner()
T = Table.default()
R = T.ball_radius
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
MIDGAME = Path(__file__).resolve().parents[1] / "docs" / "examples" / "combined_midgame.json"


def _straight(variant: str = "combined") -> Position:
    pk = T.pockets["rl"]
    ap = aim_point(pk, T)
    ux, uy = -pk.axis[0], -pk.axis[1]
    tgt = (ap[0] + ux * 0.6, ap[1] + uy * 0.6)
    cue = (tgt[0] + ux * (2 * R + 0.5), tgt[1] + uy * (2 * R + 0.5))
    return Position.from_balls(variant, {"0": cue, "5": tgt, "9": (1.4, 0.6)})


def _run(*args: str) -> str:
    res = runner.invoke(app, ["suggest", *args])
    assert res.exit_code == 0, res.output
    return res.stdout


def _bad(*args: str) -> str:
    res = runner.invoke(app, ["suggest", *args])
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    err = res.stderr.strip()
    assert len(err.splitlines()) == 1, err
    return err


def test_json_has_exactly_the_documented_keys() -> None:
    pos = _straight()
    out = _run("--position", pos.to_text(), "--sims", "80", "--top", "2", "--noise", "none", "--json")
    d = json.loads(out)
    assert list(d) == ["value_meaning", "shots", "search"] and len(d["shots"]) == 2
    assert list(d["search"]) == ["budget_s", "sims", "time_s", "candidates", "strokes", "stopped"]
    for s in d["shots"]:
        assert list(s) == ["shot", "rounded", "value", "value_text", "samples", "p_pot", "p_pot_interval",
                           "p_foul", "p_foul_interval", "expected_points", "description"]
        Shot.from_text(s["shot"])  # the text form parses
        assert 0.0 <= s["p_pot"] <= 1.0 and 0.0 <= s["p_foul"] <= 1.0
    best = d["shots"][0]
    assert best["p_pot"] == 1.0 and best["expected_points"] >= 1.0
    assert " into the " in best["description"] and ", leaves " in best["description"]


def test_same_seed_same_answer_and_text_output() -> None:
    pos = _straight().to_text()
    a = _run("--position", pos, "--sims", "100", "--seed", "3", "--json")
    b = _run("--position", pos, "--sims", "100", "--seed", "3", "--json")
    assert _masked(a) == _masked(b)
    text = _run("--position", pos, "--sims", "60", "--top", "1")
    lines = text.splitlines()
    assert lines[0].startswith("value: ") and "simulation count" in lines[1]
    assert lines[2].startswith("1. ball=0 ") and "pot " in lines[3] and "foul " in lines[3]


def test_png_is_written(tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    _run("--position", _straight().to_text(), "--sims", "40", "--noise", "none", "--png", str(out))
    assert out.read_bytes()[:8] == PNG_MAGIC


@pytest.mark.parametrize(("text", "want"), [("2s", 2.0), ("500ms", 0.5), ("2", 2.0), (" 1.5s ", 1.5)])
def test_parse_budget(text: str, want: float) -> None:
    assert parse_budget(text) == pytest.approx(want)


@pytest.mark.parametrize("text", ["", "2x", "-1s", "0", "s", "1e9", "2 s s"])
def test_parse_budget_rejects(text: str) -> None:
    with pytest.raises(ValueError):
        parse_budget(text)


def test_bad_input_is_one_line() -> None:
    pos = _straight().to_text()
    assert "--budget" in _bad("--position", pos, "--budget", "fast")
    err = _bad("--variant", "free", "--position", pos)
    assert "combined" in err and "free" in err
    assert "variant" in _bad("--variant", "snooker", "--position", pos)
    assert "--top" in _bad("--position", pos, "--top", "0")
    assert "noise" in _bad("--position", pos, "--noise", "godlike")
    assert ".png" in _bad("--position", pos, "--png", "x.jpg")
    _bad("--position", "variant=free balls=0:0.1,0.1;1:0.1,0.1")


def test_demo_suggestions_draw_each_pyramid_variant(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from piramida.commands import suggest as S
    from piramida.env.position import PYRAMID_VARIANTS

    monkeypatch.setattr(S, "DEMO_SIMS", 40)
    S.demo_suggestions(tmp_path, seed=0)
    out = capsys.readouterr().out
    for v in PYRAMID_VARIANTS:
        png = tmp_path / f"suggest_{v}.png"
        assert png.read_bytes()[:8] == PNG_MAGIC
        assert str(png) in out
    assert out.count("-> ball=") == len(PYRAMID_VARIANTS)


def test_agent_spec_names_the_ranking_agent_and_its_keys_win() -> None:
    pos = _straight().to_text()
    plain = _masked(_run("--position", pos, "--sims", "60", "--noise", "none", "--json"))
    assert _masked(_run("--position", pos, "--agent", "planner:sims=60:noise=none", "--json")) == plain
    # The spec's own keys override the shorthands.
    assert (
        _masked(_run(
            "--position",
            pos,
            "--sims",
            "7",
            "--noise",
            "pro",
            "--agent",
            "planner:sims=60:noise=none",
            "--json",
        ))
        == plain
    )
    assert (
        _masked(_run("--position", pos, "--agent", "planner", "--sims", "60", "--noise", "none", "--json"))
        == plain
    )


def test_agents_that_do_not_rank_shots_are_refused_in_one_line() -> None:
    pos = _straight().to_text()
    for name in ("greedy", "random"):
        err = _bad("--position", pos, "--agent", name)
        assert "ranks shots" in err and "planner" in err and name in err
    assert "unknown agent" in _bad("--position", pos, "--agent", "oracle")
    assert "unknown key" in _bad("--position", pos, "--agent", "planner:depth=3")
    assert "one of budget, sims and rollouts" in _bad("--position", pos, "--agent", "planner:sims=5:budget=1s")


def _masked(out: str) -> dict:
    d = json.loads(out)
    d["search"].pop("time_s")
    return d


def test_the_position_may_be_given_as_an_argument_or_with_the_option_once() -> None:
    pos = _straight().to_text()
    as_arg = _run(pos, "--sims", "60", "--json")
    assert _masked(as_arg) == _masked(_run("--position", pos, "--sims", "60", "--json"))
    assert "not both" in _bad(pos, "--position", pos)
    assert "no position given" in _bad("--sims", "60")


VALUE = re.compile(r"^   value ([-+]\d+\.\d{3}): pot (\d+)% \[(\d+), (\d+)\] of (\d+), foul (\d+)% \[(\d+), (\d+)\], ")


def test_text_is_ordered_by_the_value_it_prints_with_intervals_and_rounded_shots() -> None:
    out = _run(str(MIDGAME), "--sims", "300", "--top", "3")
    lines = out.splitlines()
    assert lines[0].startswith("value: what the shot is worth to p0, the player to move")
    shots = [ln for ln in lines if re.match(r"^\d\. ball=", ln)]
    odds = [VALUE.match(ln) for ln in lines if ln.startswith("   value ")]
    assert len(shots) == len(odds) == 3 and all(odds)
    values = [float(m.group(1)) for m in odds if m]
    assert values == sorted(values, reverse=True)
    for m in odds:
        assert m is not None
        pot, lo, hi, n = (int(m.group(i)) for i in (2, 3, 4, 5))
        assert lo <= pot <= hi and n >= 32
    # Rounded: at most two decimals in the stroke, three in a place.
    for ln in shots:
        for key in ("phi", "v", "a", "b", "theta"):
            assert re.search(rf" {key}=-?\d+(\.\d{{1,2}})?( |$)", ln), ln
