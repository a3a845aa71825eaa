"""Unit tests of the shared pyramid rules, the options, and the referee and
play commands (docs/game_rules.md §4, §6)."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from pathlib import Path

import pytest
from random_outcomes import random_outcome
from typer.testing import CliRunner

from piramida.cli import app
from piramida.env import physics
from piramida.env.events import Event
from piramida.env.position import rack_spots
from piramida.env.rules import get_referee
from piramida.env.rules import pyramid as P
from piramida.env.rules.five_ball import carom_points, load_scoring
from piramida.env.rules.options import InvalidOptionError
from piramida.env.table import Table

T = Table.default()
R = T.ball_radius
CX, Y0 = T.rear_spot
GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "rulings"
runner = CliRunner()

# docs/game_rules.md names these options with these defaults (§4.1, §4.6, §4.7, §4.9, §5).
RULES_DEFAULTS = {
    "free": {"target": 8, "penalty": "take_from_table", "scoring": "balls", "points_target": 71},
    "combined": {"target": 8, "svoyak_pick": "opponent"},
    "moscow": {"target": 8, "svoyak_pick": "opponent"},
    "nevskaya": {"target": 8, "svoyak_pick": "opponent"},
    "dynamic": {"target": 8, "svoyak_pick": "shooter", "foul_in_hand": "anywhere"},
    "classic71": {"target": 71, "ace_value": 11, "last_ball_bonus": 10, "foul_points": 5,
                  "foul_points_to_opponent": False, "tie": "replay"},
    "five_ball": {"target": 60, "foul_points": 0},
}
COMMON = {"lag": False, "object_ball_jump_is_foul": True, "respot_gap": 0.001, "respot_touching": False,
          "shot_clock_s": 0.0}


@pytest.mark.parametrize("variant", sorted(RULES_DEFAULTS))
def test_every_rules_option_has_its_default(variant: str) -> None:
    opts = get_referee(variant).options
    for k, v in {**COMMON, **RULES_DEFAULTS[variant]}.items():
        assert opts[k] == v, (variant, k)


def test_unknown_option_and_bad_values_are_clear_errors() -> None:
    with pytest.raises(InvalidOptionError, match="unknown option 'pennalty'"):
        get_referee("free", {"pennalty": "x"})
    with pytest.raises(InvalidOptionError, match="must be one of"):
        get_referee("free", {"penalty": "nothing"})
    with pytest.raises(InvalidOptionError, match="true or false"):
        get_referee("combined", {"respot_touching": "maybe"})
    with pytest.raises(InvalidOptionError, match="integer"):
        get_referee("classic71", {"foul_points": 2.5})
    assert get_referee("classic71", {"foul_points": "7"}).options["foul_points"] == 7


def test_respot_never_overlaps_and_stays_on_the_long_axis() -> None:
    rng = random.Random(3)
    for _ in range(200):
        on = {}
        for i in range(rng.randrange(0, 8)):
            x, y = CX + rng.uniform(-0.1, 0.1), rng.uniform(2.3, T.length - R)
            if all(math.hypot(x - a, y - b) >= 2 * R for a, b in on.values()):
                on[f"b{i}"] = (x, y)
        n = rng.randrange(1, 7)
        placed = P.respot(T, on, [str(k) for k in range(1, n + 1)])
        assert len(placed) == n
        everything = list(on.values()) + list(placed.values())
        for k, (x, y) in placed.items():
            assert x == CX and R <= y <= T.length - R
            for other in everything:
                if other != (x, y):
                    assert math.hypot(other[0] - x, other[1] - y) >= 2 * R + 0.001 - 1e-9, k


@pytest.mark.parametrize("n", range(1, 16))
def test_rack_puts_every_ball_on_a_spot(n: int) -> None:
    ids = [str(i) for i in range(1, n + 1)]
    spots = P.rack(T, ids, "combined")
    assert sorted(spots) == sorted(ids)
    assert sorted(spots.values()) == sorted(rack_spots(T, n))


def test_carom_lookup_uses_the_largest_listed_part() -> None:
    table = {"red": [(Counter(["white"]), 5), (Counter(["yellow"]), 9), (Counter(["white", "yellow"]), 11)]}
    assert carom_points(table, "red", Counter(["white", "yellow", "red"])) == 11  # red not listed
    assert carom_points(table, "red", Counter(["red"])) == 0
    scoring = load_scoring()
    assert sum(len(rows) for rows in scoring.values()) == 22  # seed 000: 7 + 5 + 5 + 5 lines


def test_legal_completion_reports_the_condition() -> None:
    start = {"0": (CX, 1.0), "3": (0.3, 1.2)}
    ev = [Event(0, "cue", ("0",)), Event(0.1, "ball_ball", ("0", "3")), Event(0.2, "cushion", ("3",), cushion="left_rear")]
    facts = P.ShotFacts("0", start, "3", 1, (), (), {}, {}, tuple(ev))
    assert P.legal_completion(facts, T) == (True, "3a")  # note 4: the crossing is inferred


def test_lag_rules() -> None:
    ok = [Event(0, "cue", ("0",)), Event(1, "cushion", ("0",), cushion="rear")]
    assert P.lag_result(T, 0, ok, {"0": (0.5, 0.4)}, "0") == 0.4
    assert P.lag_result(T, 0, ok, {"0": (1.3, 0.4)}, "0") is None  # crossed the long axis
    twice = ok + [Event(2, "cushion", ("0",), cushion="rear")]
    assert P.lag_result(T, 0, twice, {"0": (0.5, 0.4)}, "0") is None
    side = ok + [Event(2, "cushion", ("0",), cushion="left_front")]
    assert P.lag_result(T, 0, side, {"0": (0.5, 0.4)}, "0") is None
    assert P.lag_result(T, 0, ok, {"0": (0.5, 1.4)}, "0", back_to_house=True) is None


# ------------------------------------------------------------------ the CLI
def _case(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def _args(case: dict, **over: str) -> list[str]:
    d = {"--variant": case["variant"], "--before": json.dumps(case["before"]),
         "--shot": json.dumps(case["shot"]), "--events": json.dumps(case["events"]),
         "--after": json.dumps(case["after"])}
    d.update(over)
    out = ["referee"]
    for k, v in d.items():
        out += [k, v]
    return out


def _bad(args: list[str]) -> str:
    res = runner.invoke(app, args)
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output and res.stdout == ""
    err = res.stderr.strip()
    assert len(err.splitlines()) == 1
    return err


def test_referee_command_json_matches_the_golden_case(tmp_path: Path) -> None:
    case = _case("item20_cond1_pocket")
    before = tmp_path / "before.json"
    before.write_text(json.dumps(case["before"]))
    res = runner.invoke(app, _args(case, **{"--before": str(before)}) + ["--json"])
    assert res.exit_code == 0, res.output
    got = json.loads(res.stdout)
    assert got["scored"] == {"0": ["1"], "1": []} and got["next"]["player"] == 0
    assert set(got) == {"legal", "fouls", "scored", "respotted", "penalty", "score", "next", "winner", "owed", "phase", "special"}
    assert got["owed"] == [0, 0] and got["phase"] == "shot"
    text = runner.invoke(app, _args(case))
    assert text.exit_code == 0 and text.stdout.startswith("legal")


def test_referee_command_options() -> None:
    case = _case("jump_not_foul_option")
    res = runner.invoke(app, _args(case) + ["--json", "--option", "object_ball_jump_is_foul=false"])
    assert json.loads(res.stdout)["legal"] is True
    res = runner.invoke(app, _args(case) + ["--json"])
    assert json.loads(res.stdout)["fouls"] == ["jumped_ball"]
    assert "unknown option" in _bad(_args(case) + ["--option", "nope=1"])


def test_referee_command_malformed_input() -> None:
    case = _case("item20_cond1_pocket")
    assert "event" in _bad(_args(case, **{"--events": '[{"t": 0, "type": "bogus", "balls": ["0"]}]'}))
    assert "cue" in _bad(_args(case, **{"--events": "[]"}))
    assert "JSON" in _bad(_args(case, **{"--events": "[{"}))
    assert "overlap" in _bad(_args(case, **{"--before": "variant=combined balls=0:0.5,1.0;1:0.5,1.01"}))
    assert _bad(_args(case, **{"--after": '{"variant": "combined", "balls": {"0": [0.5]}}'}))
    assert "vanished" in _bad(_args(case, **{"--after": json.dumps({**case["after"], "balls": {}})}))
    assert "unknown variant" in _bad(_args(case, **{"--variant": "snooker"}))
    assert _bad(_args(case, **{"--shot": "ball=0 phi=90"}))


def test_play_command_with_a_stand_in_physics(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    rng = random.Random(1)

    class Result:
        def __init__(self, ev, final):  # type: ignore[no-untyped-def]
            self.events, self.final = ev, final

    monkeypatch.setattr(physics, "simulate", lambda p, s, **kw: Result(*random_outcome(p, s, rng)),
                        raising=False)
    save = tmp_path / "g.json"
    res = runner.invoke(app, ["play", "--variant", "combined", "--seed", "3", "--max-shots", "12",
                              "--save", str(save)])
    assert res.exit_code == 0, res.output
    lines = [ln for ln in res.stdout.splitlines() if ln.strip()[:1].isdigit()]
    assert len(lines) == 12 and "->" in lines[0]
    assert json.loads(save.read_text())["variant"] == "combined"


def test_rules_never_import_the_physics() -> None:
    import ast

    rules_dir = Path(__file__).resolve().parents[3] / "env" / "rules"
    for path in rules_dir.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            assert not any("physics" in n for n in names), path.name


def test_pending_choices_owe_the_balls_they_will_give() -> None:
    from piramida.env.rules.ruling import Pending

    # After a foul the non-offender (the chooser) takes a ball (docs/game_rules.md §5.1);
    # after a свояк the shooter (recorded as the offender) gets one (§5.2).
    assert Pending(("take", "after"), chooser=1, offender=0).balls_owed() == (0, 1)
    assert Pending(("take_or_hand",), chooser=0, offender=1).balls_owed() == (1, 0)
    assert Pending(("svoyak",), chooser=1, offender=0).balls_owed() == (1, 0)
    assert Pending(("after_break",), chooser=1, offender=0).balls_owed() == (0, 0)
