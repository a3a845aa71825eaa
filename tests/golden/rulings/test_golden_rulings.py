"""Golden referee cases: each JSON file in this folder is a position before,
a shot, an event log, the position after, options, and the ruling expected
by the rules (docs/game_rules.md; the seed item is named in ``source``). The files are
written by ``make_cases.py``; the expectations there are reasoned by hand,
and the committed files are what it writes (regenerated and compared here)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from piramida.env.events import events_from_list
from piramida.env.position import Position
from piramida.env.rules import get_referee
from piramida.env.shot import Shot

HERE = Path(__file__).resolve().parent
CASES = sorted(HERE.glob("*.json"))


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, int | float) and isinstance(b, int | float) and math.isclose(a, b, abs_tol=1e-9)
    return a == b


def test_the_committed_cases_are_what_make_cases_writes(tmp_path: Path) -> None:
    """An expectation edited in a JSON file but not in make_cases.py (or the
    other way round) is caught here."""
    out = subprocess.run(
        [sys.executable, str(HERE / "make_cases.py"), str(tmp_path)],
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


def test_enough_cases() -> None:
    assert len(CASES) >= 80
    variants = {json.loads(p.read_text())["variant"] for p in CASES}
    assert variants == {"free", "combined", "moscow", "nevskaya", "dynamic", "classic71", "five_ball"}


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_golden_ruling(path: Path) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    assert case["source"], "every case names its seed item or docs/game_rules.md section"
    ref = get_referee(case["variant"], case["options"])
    before = Position.from_dict(case["before"])
    shot = Shot.from_dict(case["shot"])
    after = Position.from_dict(case["after"])
    events = events_from_list(case["events"])
    state = ref.initial_state(before)
    ref.check_shot(state, shot)
    ruling = ref.judge(before, shot, events, after, case["extra_fouls"], state)
    got = ruling.to_dict()
    for key, want in case["expected"].items():
        assert _close(got[key], want), f"{key}: got {got[key]!r}, want {want!r}\n{ruling.summary()}"
    state = ruling.state
    for choice in case["choices"]:
        assert choice in ref.legal_choices(state)
        state = ref.choose(state, choice)
    pos = state.position
    checks = {
        "score": list(pos.score),
        "shelves": [list(pos.shelves[0]), list(pos.shelves[1])],
        "owed": list(pos.owed),
        "next": state.next.to_dict(),
        "winner": state.winner,
        "break": pos.is_break,
        "n_balls": len(pos.balls),
    }
    for key, want in case["after_choices"].items():
        if key == "on_table":
            assert all(b in pos for b in want), pos.to_text()
        elif key == "on_table_not":
            assert not any(b in pos for b in want), pos.to_text()
        else:
            assert _close(checks[key], want), f"after choices {key}: got {checks[key]!r}, want {want!r}"
