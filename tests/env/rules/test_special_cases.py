"""Seed 003's special cases (docs/rules.md "Special cases"): the events
``on_rail``, ``returned`` and ``hanging_drop``, a position holding a ball on
the rail, and the golden cases run through ``Game.play_recorded`` and
``piramida referee --json`` as well as the referee itself."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from piramida.cli import app
from piramida.env.errors import IllegalShotError, InvalidEventsError, InvalidPositionError
from piramida.env.events import (
    SPECIAL_TYPES,
    Event,
    describe_event,
    events_from_json,
    events_from_list,
    events_to_json,
)
from piramida.env.game import Game
from piramida.env.position import RAIL_REACH, Position
from piramida.env.rules import get_referee
from piramida.env.rules.pyramid import lag_result, place_on_cushion
from piramida.env.shot import Shot
from piramida.env.table import Table

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "rulings"
SPECIAL = sorted(GOLDEN.glob("special_*.json"))
runner = CliRunner()


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, int | float) and isinstance(b, int | float) and math.isclose(a, b, abs_tol=1e-9)
    return a == b


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_every_special_case_has_golden_cases() -> None:
    names = {p.stem for p in SPECIAL}
    assert len(names) >= 8
    for kind in ("on_rail", "returned", "hanging_drop"):
        seed3 = [n for n in names if n.startswith("special_moscow") and kind in json.dumps(_load(GOLDEN / f"{n}.json")["events"])]
        other = [n for n in names if not n.startswith("special_moscow") and kind in json.dumps(_load(GOLDEN / f"{n}.json")["events"])]
        assert seed3 and other, kind
    for p in SPECIAL:
        assert "seed 00" in _load(p)["source"]


@pytest.mark.parametrize("path", SPECIAL, ids=[p.stem for p in SPECIAL])
def test_special_case_through_game(path: Path) -> None:
    case = _load(path)
    before = Position.from_dict(case["before"])
    game = Game(case["variant"], None, case["options"], False, before)
    ruling = game.play_recorded(
        Shot.from_dict(case["shot"]), events_from_list(case["events"]), Position.from_dict(case["after"])
    )
    assert ruling is not None
    got = ruling.to_dict()
    for key, want in case["expected"].items():
        assert _close(got[key], want), f"{key}: got {got[key]!r}, want {want!r}\n{ruling.summary()}"
    for choice in case["choices"]:
        game.choose(choice)
    pos = game.position
    for b in case["after_choices"].get("on_table", []):
        assert b in pos
    assert not pos.rail
    if "next" in case["after_choices"]:
        assert _close(game.next.to_dict(), case["after_choices"]["next"])
    if "score" in case["after_choices"]:
        assert list(pos.score) == case["after_choices"]["score"]
    # The recorded frame saves and loads back to the same state.
    again = Game.from_dict(json.loads(game.to_json()))
    assert again.position == pos and again.next == game.next


@pytest.mark.parametrize("path", SPECIAL, ids=[p.stem for p in SPECIAL])
def test_special_case_through_the_referee_command(path: Path) -> None:
    case = _load(path)
    args = ["referee", "--variant", case["variant"], "--before", json.dumps(case["before"]),
            "--shot", json.dumps(case["shot"]), "--events", json.dumps(case["events"]),
            "--after", json.dumps(case["after"]), "--json"]
    for k, val in case["options"].items():
        args += ["--option", f"{k}={json.dumps(val) if isinstance(val, bool) else val}"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    got = json.loads(res.stdout)
    for key, want in case["expected"].items():
        assert _close(got[key], want), f"{key}: got {got[key]!r}, want {want!r}"


# ------------------------------------------------------------------ events
def test_special_events_round_trip_and_describe() -> None:
    log = [
        Event(0.0, "cue", ("0",)),
        Event(0.3, "hanging_drop", ("7",), pocket="rl"),
        Event(0.5, "returned", ("0",)),
        Event(0.9, "on_rail", ("3",), cushion="right_rear"),
        Event(1.0, "on_rail", ("4",)),
    ]
    text = events_to_json(log)
    assert events_from_json(text) == log
    assert json.loads(text)[1:4] == [
        {"t": 0.3, "type": "hanging_drop", "balls": ["7"], "pocket": "rl"},
        {"t": 0.5, "type": "returned", "balls": ["0"]},
        {"t": 0.9, "type": "on_rail", "balls": ["3"], "cushion": "right_rear"},
    ]
    assert set(SPECIAL_TYPES) <= {e.type for e in log}
    assert describe_event(log[3]) == "ball 3 comes to rest on the rail by cushion right_rear"
    assert "falls from the jaws into pocket rl" in describe_event(log[1])


@pytest.mark.parametrize(
    ("d", "match"),
    [
        ({"t": 0, "type": "on_rail", "balls": ["3"], "cushion": "top"}, "on_rail cushion must be one of"),
        ({"t": 0, "type": "on_rail", "balls": ["3"], "pocket": "rl"}, "on_rail event cannot have pocket"),
        ({"t": 0, "type": "returned", "balls": ["0", "1"]}, "returned event needs 1 ball"),
        ({"t": 0, "type": "returned", "balls": ["0"], "cushion": "rear"}, "returned event cannot have cushion"),
        ({"t": 0, "type": "hanging_drop", "balls": ["7"], "pocket": "zz"}, "hanging_drop pocket must be one of"),
    ],
)
def test_bad_special_events_are_refused(d: dict, match: str) -> None:
    with pytest.raises(InvalidEventsError, match=match):
        Event.from_dict(d)


# ------------------------------------------------------------ a ball on the rail
RAILED = "variant=moscow balls=0:0.8875,1.0;1:0.5,2.0 shelves=-|- score=0,0 owed=0,0 to_move=0 in_hand=- break=0"


def test_rail_round_trips_in_text_and_json() -> None:
    p = Position.from_text(RAILED + " rail=3:1.835,2.3")
    assert p.rail == (("3", 1.835, 2.3),) and p.rail_map == {"3": (1.835, 2.3)}
    assert "3" not in p and "3" not in p.missing()
    assert Position.from_text(p.to_text()) == p == Position.from_json(p.to_json())
    assert p.to_dict()["rail"] == {"3": [1.835, 2.3]}
    # Written only when a ball is there: every other position reads as before.
    plain = Position.from_text(RAILED)
    assert "rail" not in plain.to_dict() and "rail" not in plain.to_text()


@pytest.mark.parametrize(
    ("rail", "match"),
    [
        ("3:1.7,2.3", "not on the rail"),
        (f"3:{1.775 + RAIL_REACH + 0.01},2.3", "not on the rail"),
        ("1:1.835,2.3", "both on the rail and on the table"),
        ("3:-0.03,1.775", "over pocket ml"),
        ("3:1.835,2.3;4:1.84,2.31", "overlap on the rail"),
        ("3:nan,2.3", "rail ball .3. x must be finite"),
        ("0:1.835,2.3", "in hand but also on the table"),
    ],
)
def test_bad_rail_balls_are_refused(rail: str, match: str) -> None:
    text = RAILED + f" rail={rail}"
    if rail.startswith("0:"):
        text = text.replace("balls=0:0.8875,1.0;", "balls=").replace("in_hand=-", "in_hand=house")
    with pytest.raises(InvalidPositionError, match=match):
        Position.from_text(text)


def test_no_shot_is_played_with_a_ball_on_the_rail() -> None:
    p = Position.from_text(RAILED + " rail=3:1.835,2.3")
    ref = get_referee("moscow")
    with pytest.raises(IllegalShotError, match="ball 3 rests on the rail"):
        ref.check_shot(ref.initial_state(p), Shot.from_text("ball=0 phi=90 v=3"))


def test_placed_against_the_cushion_clear_of_other_balls() -> None:
    t = Table.default()
    r = t.ball_radius
    assert place_on_cushion(t, (1.835, 2.3), {}) == pytest.approx((t.width - r, 2.3))
    assert place_on_cushion(t, (0.7, -0.05), {}) == pytest.approx((0.7, r))
    # A ball frozen to the cushion at that point: the nearest free point along it.
    x, y = place_on_cushion(t, (1.835, 2.3), {"5": (t.width - r, 2.3)})
    assert x == pytest.approx(t.width - r) and abs(y - 2.3) == pytest.approx(2 * r, abs=1.5e-3)
    # The cushion the event names wins over the nearest one.
    assert place_on_cushion(t, (1.6, 3.62), {})[1] == pytest.approx(t.length - r)
    assert place_on_cushion(t, (1.6, 3.62), {}, "right_rear")[0] == pytest.approx(t.width - r)


def _judge(variant: str, events: list[dict], after: str, before: str = RAILED) -> Any:
    ref = get_referee(variant)
    b = Position.from_text(before)
    return ref.judge(b, Shot.from_text("ball=0 phi=90 v=3"), events_from_list(events), Position.from_text(after))


CUE = {"t": 0.0, "type": "cue", "balls": ["0"]}
HIT = {"t": 0.1, "type": "ball_ball", "balls": ["0", "1"]}


@pytest.mark.parametrize(
    ("events", "after", "match"),
    [
        ([CUE, HIT, {"t": 0.2, "type": "on_rail", "balls": ["1"]}],
         "variant=moscow balls=0:0.8875,1.5", "does not hold it on the rail"),
        ([CUE, HIT], "variant=moscow balls=0:0.8875,1.5 rail=1:1.835,2.3", "no on_rail event"),
        ([CUE, HIT, {"t": 0.2, "type": "hanging_drop", "balls": ["1"]}],
         "variant=moscow balls=0:0.8875,1.5", "before the struck ball's first contact"),
        ([CUE, {"t": 0.05, "type": "hanging_drop", "balls": ["1"]}],
         "variant=moscow balls=0:0.8875,1.5", "not standing in the jaws"),
        ([CUE, {"t": 0.2, "type": "returned", "balls": ["0"]}],
         "variant=moscow balls=1:0.5,2.0", "vanished"),
    ],
)
def test_logs_that_do_not_fit_are_refused(events: list[dict], after: str, match: str) -> None:
    with pytest.raises(InvalidEventsError, match=match):
        _judge("moscow", events, after)


def test_the_referee_command_refuses_a_bad_special_log_in_one_line() -> None:
    res = runner.invoke(app, [
        "referee", "--variant", "moscow", "--before", RAILED, "--shot", "ball=0 phi=90 v=3",
        "--events", json.dumps([CUE, HIT]), "--after", "variant=moscow balls=0:0.8875,1.5 rail=1:1.835,2.3",
    ])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert len(res.stderr.strip().splitlines()) == 1 and "no on_rail event" in res.stderr


def test_an_object_ball_returned_is_jumped_even_in_moscow() -> None:
    # Seed 003 names only the cue ball; item 24.2 rules any other ball.
    ruling = _judge("moscow", [CUE, HIT, {"t": 0.3, "type": "returned", "balls": ["1"]}],
                    "variant=moscow balls=0:0.8875,1.5;1:0.5,2.5")
    assert "jumped_ball" in ruling.fouls and ruling.special == () and "1" in ruling.respotted


def test_a_lag_ball_on_the_rail_or_returned_loses_the_lag() -> None:
    t = Table.default()
    for kind in ("on_rail", "returned"):
        log = events_from_list([CUE, {"t": 0.5, "type": "cushion", "balls": ["0"], "cushion": "rear"},
                                {"t": 0.9, "type": kind, "balls": ["0"]}])
        assert lag_result(t, 0, log, {"0": (0.5, 0.3)}, "0") is None


# ------------------------------------------------------------ pictures
def test_pictures_draw_a_ball_on_the_rail(tmp_path: Path) -> None:
    from piramida.env.render import draw_position, render_ansi, render_rgb

    plain = Position.from_text(RAILED)
    railed = Position.from_text(RAILED + " rail=3:1.835,2.3")
    text = render_ansi(railed)
    assert "on the rail: 3" in text and text.splitlines()[-1] not in render_ansi(plain)
    assert (render_rgb(railed) != render_rgb(plain)).any()
    draw_position(railed, path=tmp_path / "rail.svg", fmt="svg")
    assert (tmp_path / "rail.svg").stat().st_size > 0
    res = runner.invoke(app, ["show", railed.to_text()])
    assert res.exit_code == 0 and "on the rail: 3" in res.stdout
