"""``piramida referee`` from a position (``--before``): the lag with
``--option lag=true``, fouls reported with ``--foul``, the debt in ``owed``;
the forms from a recorded frame (``--game``) are the golden decision cases
(tests/golden/decisions)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from piramida.cli import app

ROOT = Path(__file__).resolve().parents[1]
DECISIONS = ROOT / "tests" / "golden" / "decisions"
EX = ROOT / "docs" / "examples"
runner = CliRunner()
LAG_EVENTS = '[{"t": 0, "type": "cue", "balls": ["0"]}, {"t": 2, "type": "cushion", "balls": ["0"], "cushion": "rear"}]'


def _json(*args: str) -> dict:
    res = runner.invoke(app, ["referee", *args, "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_lag_option_starts_the_frame_with_the_lag() -> None:
    lag = [
        "--variant",
        "combined",
        "--before",
        str(EX / "combined_start.json"),
        "--option",
        "lag=true",
        "--shot",
        "ball=0 phi=90 v=2.5 place=0.5,0.4",
        "--events",
        LAG_EVENTS,
        "--after",
        "variant=combined balls=0:0.5,0.45",
    ]
    got = _json(*lag)
    assert got["next"] == {"player": 1, "kind": "lag", "choices": [], "in_hand": None}
    assert (
        got["phase"] == "lag"
        and got["legal"]
        and got["penalty"].startswith("lag: p0 rests 0.450 m")
    )
    # Without the option the same stroke is the break, judged as a shot.
    res = runner.invoke(app, ["referee", *lag[:4], *lag[6:]])
    assert res.exit_code == 2 and "vanished" in res.stderr


def test_foul_on_a_shot_from_a_position_rules_as_from_a_recorded_frame() -> None:
    case = json.loads(
        (DECISIONS / "reported_feet_off_floor_pocketed_ball_respotted.json").read_text()
    )
    d = case["decision"]
    got = _json(
        "--variant",
        "combined",
        "--before",
        json.dumps(case["game"]["initial"]),
        "--shot",
        json.dumps(d["shot"]),
        "--events",
        json.dumps(d["events"]),
        "--after",
        json.dumps(d["after"]),
        "--foul",
        "feet_off_floor",
    )
    assert got["fouls"] == ["feet_off_floor"] and got["phase"] == "choice"
    assert all(got[k] == v for k, v in case["expected"].items())


def test_owed_shows_the_moscow_debt() -> None:
    case = json.loads((DECISIONS / "moscow_foul_with_empty_shelf_owes_a_ball.json").read_text())
    d = case["decision"]
    args = [
        "--variant",
        "moscow",
        "--before",
        json.dumps(case["game"]["initial"]),
        "--shot",
        json.dumps(d["shot"]),
        "--events",
        json.dumps(d["events"]),
        "--after",
        json.dumps(d["after"]),
        "--foul",
        "touched_ball",
    ]
    assert _json(*args)["owed"] == [1, 0]
    text = runner.invoke(app, ["referee", *args])
    assert (
        text.exit_code == 0
        and "owes a ball" in text.stdout
        and text.stdout.startswith("FOUL touched_ball")
    )


def test_a_choice_prints_one_line() -> None:
    res = runner.invoke(
        app, ["referee", "--game", str(EX / "free_foul_game.json"), "--choice", "take_ball:3"]
    )
    assert res.exit_code == 0
    assert res.stdout.strip() == (
        "legal | p1 scored 3 | p1 chooses take_ball:3 | score 3-6 | next p1 choice [shoot make_offender_shoot]"
    )
