"""Golden decision cases: a recorded frame (a saved game) and its next
decision - a lag shot, a shot with fouls reported from outside, a choice,
fouls reported on the last shot - with the ruling the rules give (the seed
item in ``source``) or the error of a refused decision. Each is judged
through ``Game`` and through ``piramida referee --game ... --json``, which
must agree. The files are what ``make_decisions.py`` writes."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from piramida.cli import app
from piramida.env.errors import PiramidaError
from piramida.env.events import events_from_list
from piramida.env.game import Game
from piramida.env.position import Position
from piramida.env.rules.ruling import Ruling
from piramida.env.shot import Shot

HERE = Path(__file__).resolve().parent
CASES = sorted(HERE.glob("*.json"))
runner = CliRunner()


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) or isinstance(b, float):
        return (
            isinstance(a, int | float)
            and isinstance(b, int | float)
            and math.isclose(a, b, abs_tol=1e-9)
        )
    return a == b


def test_the_committed_cases_are_what_make_decisions_writes(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(HERE / "make_decisions.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=HERE,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    made = {p.name: p.read_text(encoding="utf-8") for p in tmp_path.glob("*.json")}
    committed = {p.name: p.read_text(encoding="utf-8") for p in CASES}
    assert sorted(made) == sorted(committed)
    assert [n for n in sorted(made) if made[n] != committed[n]] == []


def test_every_kind_of_decision_is_covered() -> None:
    cases = [json.loads(p.read_text(encoding="utf-8")) for p in CASES]
    kinds = {next(k for k in ("shot", "choice", "report") if k in c["decision"]) for c in cases}
    assert kinds == {"shot", "choice", "report"}
    phases = {c["expected"].get("phase") for c in cases if c["expected"]}
    assert {"lag", "break", "shot", "choice"} <= phases
    assert sum(c["game"]["lag"] for c in cases) >= 10


def _by_game(case: dict) -> Ruling:
    g = Game.from_dict(case["game"])
    d = case["decision"]
    if "choice" in d:
        return g.judge_action(d["choice"])
    if "report" in d:
        for kind in d["report"]:
            ruling = g.report_foul(kind)
        return ruling
    table = g.referee.table
    return g.judge_action(
        Shot.from_dict(d["shot"]),
        events_from_list(d["events"]),
        Position.from_dict(d["after"], table),
        d["reported"],
    )


def _cli_args(case: dict) -> list[str]:
    d = case["decision"]
    args = ["referee", "--game", json.dumps(case["game"]), "--json"]
    if "choice" in d:
        return [*args, "--choice", d["choice"]]
    if "report" in d:
        return args + [a for k in d["report"] for a in ("--foul", k)]
    args += [
        "--shot",
        json.dumps(d["shot"]),
        "--events",
        json.dumps(d["events"]),
        "--after",
        json.dumps(d["after"]),
    ]
    return args + [a for k in d["reported"] for a in ("--foul", k)]


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_golden_decision(path: Path) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    assert case["source"], "every case names its seed item"
    res = runner.invoke(app, _cli_args(case))
    if case["error"]:
        with pytest.raises(PiramidaError, match=case["error"]):
            _by_game(case)
        assert res.exit_code == 2 and res.stdout == "", res.output
        err = res.stderr.strip()
        assert len(err.splitlines()) == 1 and err.startswith("error: ") and case["error"] in err
        return
    got = _by_game(case).to_dict()
    for key, want in case["expected"].items():
        assert _close(got[key], want), f"{key}: got {got[key]!r}, want {want!r}"
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout) == got
