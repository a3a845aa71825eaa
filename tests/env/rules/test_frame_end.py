"""Option ranges and how a frame ends (docs/rules.md, "Option ranges" and
"How a frame ends"): every number option is checked against the range its
TOML declares; a frame ends at the target, when nothing is left to hit, or
at the shot bound; a draw is over with no winner. The rulings here are
reasoned by hand from those rules."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from random_outcomes import random_outcome
from typer.testing import CliRunner

from piramida.agents.random_agent import RandomAgent
from piramida.cli import app
from piramida.env import game as game_module
from piramida.env.errors import IllegalShotError
from piramida.env.events import Event
from piramida.env.game import MAX_SHOTS_PER_FRAME, Game
from piramida.env.position import VARIANTS, Position
from piramida.env.rules import get_referee
from piramida.env.rules import options as O
from piramida.env.shot import Shot
from piramida.env.table import Table
from piramida.env.view import GameView

T = Table.default()
CX = T.width / 2
DOCS = Path(__file__).resolve().parents[3] / "docs" / "rules.md"
runner = CliRunner()


def game_type(variant: str) -> O.GameType:
    return get_referee(variant).game_type


# ------------------------------------------------------------------ option ranges
def docs_ranges() -> dict[str, dict[str, tuple[float, float]]]:
    """The "Option ranges" table of docs/rules.md: variant -> option -> range."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Option ranges", 1)[1].split("\n## ", 1)[0]
    rows = [ln for ln in section.splitlines() if ln.startswith("|")]
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    assert header[0] == "option"
    out: dict[str, dict[str, tuple[float, float]]] = {v: {} for v in header[1:]}
    for row in rows[2:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        name = re.match(r"`(\w+)`", cells[0])
        assert name, row
        for variant, cell in zip(header[1:], cells[1:], strict=True):
            if cell == "-":
                continue
            m = re.fullmatch(r"(-?[\d.]+) to (-?[\d.]+)", cell)
            assert m, f"bad range {cell!r} in docs/rules.md row {row!r}"
            out[variant][name.group(1)] = (float(m.group(1)), float(m.group(2)))
    return out


def test_docs_ranges_are_the_toml_limits() -> None:
    documented = docs_ranges()
    assert set(documented) == set(VARIANTS)
    for variant in VARIANTS:
        declared = O.read_limits(game_type(variant))
        assert documented[variant] == {k: (float(lo), float(hi)) for k, (lo, hi) in declared.items()}, variant


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_number_option_has_a_range_holding_its_default(variant: str) -> None:
    gt = game_type(variant)
    limits = O.read_limits(gt)
    numeric = {o.name for o in gt.options if o.kind in (int, float)}
    assert set(limits) == numeric
    opts = get_referee(variant).options
    for name, (lo, hi) in limits.items():
        assert lo <= opts[name] <= hi, (variant, name)
        assert get_referee(variant, {name: lo}).options[name] == lo
        assert get_referee(variant, {name: hi}).options[name] == hi


BAD = [
    ("free", "target", 17, "must be from 1 to 8, got 17"),
    ("free", "target", 0, "must be from 1 to 8, got 0"),
    ("free", "target", "inf", "must be a finite number from 1 to 8, got inf"),
    ("free", "target", "nan", "must be a finite number from 1 to 8, got nan"),
    ("free", "target", float("inf"), "finite number"),
    ("free", "target", "1e400", "finite number"),
    ("free", "target", "8.5", "must be an integer from 1 to 8"),
    ("free", "respot_gap", "nan", "respot_gap must be a finite number from 0 to 0.01"),
    ("combined", "respot_gap", 0.5, "respot_gap must be from 0 to 0.01, got 0.5"),
    ("combined", "respot_gap", -0.001, "from 0 to 0.01"),
    ("moscow", "shot_clock_s", "nan", "shot_clock_s must be a finite number from 0 to 3600"),
    ("nevskaya", "shot_clock_s", 1e9, "from 0 to 3600"),
    ("dynamic", "shot_clock_extensions", 11, "from 0 to 10"),
    ("classic71", "target", "-inf", "finite number from 1 to 140"),
    ("classic71", "foul_points", "nan", "finite"),
    ("five_ball", "target", 0, "from 1 to 120"),
    ("five_ball", "foul_points", "yes", "must be a number from 0 to 23"),
    ("free", "points_target", 121, "from 1 to 120"),
]


@pytest.mark.parametrize(("variant", "name", "value", "message"), BAD)
def test_bad_number_values_are_one_line_errors(variant: str, name: str, value: Any, message: str) -> None:
    with pytest.raises(O.InvalidOptionError) as err:
        get_referee(variant, {name: value})
    text = str(err.value)
    assert message in text and name in text and "\n" not in text


def test_a_bad_option_on_the_command_line_is_one_line() -> None:
    for opt, want in (("target=17", "must be from 1 to 8, got 17"), ("respot_gap=nan", "finite")):
        res = runner.invoke(app, ["play", "--variant", "free", "--option", opt])
        assert res.exit_code == 2, res.output
        lines = [ln for ln in res.output.splitlines() if ln.strip()]
        assert len(lines) == 1 and want in lines[0] and "Traceback" not in res.output


def test_a_broken_limits_table_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    real = O.read_variant_config("free")

    def with_limits(limits: Any) -> None:
        monkeypatch.setattr(O, "read_variant_config", lambda v: {**real, "limits": limits})

    gt = game_type("free")
    cases = [
        ({k: v for k, v in real["limits"].items() if k != "target"}, "missing ['target']"),
        ({**real["limits"], "lag": [0, 1]}, "not numeric options ['lag']"),
        ({**real["limits"], "target": [8, 1]}, "lo <= hi"),
        ({**real["limits"], "target": [1, 8.5]}, "(integers)"),
        ({**real["limits"], "respot_gap": [0, float("nan")]}, "finite"),
        ({**real["limits"], "respot_gap": "small"}, "[lo, hi]"),
    ]
    for limits, want in cases:
        with_limits(limits)
        with pytest.raises(O.InvalidOptionError, match=re.escape(want)):
            O.read_limits(gt)
    monkeypatch.setattr(O, "read_variant_config", lambda v: {k: x for k, x in real.items() if k != "limits"})
    with pytest.raises(O.InvalidOptionError, match="missing \\[limits\\]"):
        O.read_limits(gt)


def test_a_default_out_of_its_range_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    real = O.read_variant_config("free")
    monkeypatch.setattr(
        O, "read_variant_config", lambda v: {**real, "options": {**real["options"], "target": 9}}
    )
    with pytest.raises(O.InvalidOptionError, match="configs/variants/free.toml: option target must be from 1 to 8"):
        O.load_options(game_type("free"))


# ------------------------------------------------------------------ helpers
def ev(cue: str, *items: tuple[str, Any]) -> list[Event]:
    """An event log: the cue event, then ("hit", ball), ("cushion", name),
    ("pocket", (ball, pocket)) in order."""
    out = [Event(0.0, "cue", (cue,))]
    for k, (kind, arg) in enumerate(items, 1):
        t = 0.1 * k
        if kind == "hit":
            out.append(Event(t, "ball_ball", (cue, arg)))
        elif kind == "cushion":
            ball, name = arg
            out.append(Event(t, "cushion", (ball,), cushion=name))
        else:
            ball, pocket = arg
            out.append(Event(t, "pocket", (ball,), pocket=pocket))
    return out


def after(pos: Position, gone: tuple[str, ...] = (), moves: dict[str, tuple[float, float]] | None = None) -> Position:
    balls = {b: xy for b, xy in pos.ball_map.items() if b not in gone}
    balls.update(moves or {})
    return pos.replace(balls=tuple((b, x, y) for b, (x, y) in balls.items()), in_hand=None, is_break=False)


# ------------------------------------------------------------------ nothing left to hit
def test_free_points_game_ends_when_one_ball_is_left_higher_score_wins() -> None:
    # Free pyramid, scoring = points (target 71 of 120): 14 balls shelved,
    # 55-50. Player 0 pots 14 off ball 0 into rl: 69-50, and ball 15 is left
    # alone - nothing to contact (item 5.1), nothing put back: the frame is
    # over, the higher score (69) wins although nobody reached 71.
    shelves = (("1", "2", "3", "4", "5", "6", "7", "13"), ("8", "9", "10", "11", "12"))
    pos = Position.from_balls(
        "free", {"0": (CX, 1.0), "14": (CX, 2.0), "15": (0.3, 3.0)}, shelves=shelves, score=(41, 50)
    )
    g = Game.new("free", position=pos, options={"scoring": "points"})
    r = g.play_recorded(
        Shot("0", 90, 3.0), ev("0", ("hit", "14"), ("pocket", ("14", "rl")), ("pocket", ("0", "rr"))),
        after(pos, ("14", "0")),
    )
    assert r is not None and r.legal and r.score == (55, 50)
    assert g.over and g.winner == 0 and r.winner == 0 and r.next.kind == "none"
    assert "only ball 15 is left" in (r.penalty or "") and "WINNER p0" in r.summary()


def test_free_two_balls_potting_one_leaves_a_draw_at_equal_scores() -> None:
    # Free pyramid, target 8, a position given by hand at 6-7 with balls 3
    # and 7 left: 7 potted off 3 makes 7-7 with only ball 3 left - equal
    # scores, a draw (over, no winner).
    pos = Position.from_balls(
        "free",
        {"3": (CX, 1.0), "7": (CX, 2.0)},
        shelves=(("1", "2", "4", "5", "6", "0"), ("8", "9", "10", "11", "12", "13", "14")),
        score=(6, 7),
    )
    g = Game.new("free", position=pos)
    r = g.play_recorded(Shot("3", 90, 3.0), ev("3", ("hit", "7"), ("pocket", ("7", "rl"))), after(pos, ("7",)))
    assert r is not None and r.legal and r.score == (7, 7)
    assert g.over and g.winner is None and r.winner is None
    assert r.to_dict()["next"]["kind"] == "none" and r.to_dict()["winner"] is None
    assert r.summary().endswith("frame over | DRAW")
    with pytest.raises(IllegalShotError, match="the frame is over"):
        g.play_recorded(Shot("3", 90, 3.0), ev("3"), after(g.position))


def test_free_penalty_ball_taken_from_two_ends_the_frame() -> None:
    # Free pyramid, two balls left (5 and 9), 6-6. Player 0 misses everything
    # (no contact, item 5.3): player 1 takes a ball from the table (seed 004
    # item 6) - 9 - and 5 is left alone: over, player 1 wins 7-6.
    pos = Position.from_balls(
        "free",
        {"5": (CX, 1.0), "9": (0.3, 2.5)},
        shelves=(("1", "2", "3", "4", "6", "7"), ("8", "10", "11", "12", "13", "14")),
        score=(6, 6),
    )
    g = Game.new("free", position=pos)
    r = g.play_recorded(Shot("5", 0, 0.5), ev("5", ("cushion", ("5", "right_front"))), after(pos))
    assert r is not None and not r.legal and not g.over
    g.choose("take_ball:9")
    assert g.over and g.winner == 1 and g.score == (6, 7)


def test_one_cue_ball_pyramid_last_object_ball_potted_at_equal_scores_is_a_draw() -> None:
    # Combined pyramid, a position given by hand: only ball 5 and the cue
    # ball, 3-4. Potting 5 makes 4-4 with no object ball left: a draw.
    pos = Position.from_balls(
        "combined", {"0": (CX, 1.0), "5": (CX, 2.0)}, shelves=(("1", "2", "3"), ("4", "6", "7", "8")),
        score=(3, 4),
    )
    g = Game.new("combined", position=pos)
    r = g.play_recorded(Shot("0", 90, 2.0), ev("0", ("hit", "5"), ("pocket", ("5", "rl"))), after(pos, ("5",)))
    assert r is not None and r.legal and g.over and g.winner is None and r.score == (4, 4)


def test_positions_given_by_hand_are_settled_before_the_first_shot() -> None:
    ref = get_referee("combined")
    # Only the cue ball: nothing to contact - over at once, a draw at 0-0.
    st = ref.initial_state(Position.from_balls("combined", {"0": (CX, 1.0)}))
    assert st.over and st.winner is None
    why = ref.why_no_shot(st)
    assert why is not None and why.startswith("no legal shot exists: only the cue ball 0") and "a draw at 0-0" in why
    with pytest.raises(IllegalShotError, match="frame is over"):
        ref.check_shot(st, Shot("0", 90, 2.0))
    # A score already at the target: over with that winner.
    won = Position.from_balls(
        "combined", {"0": (CX, 1.0), "9": (CX, 2.0)},
        shelves=(("1", "2", "3", "4", "5", "6", "7", "8"), ()), score=(8, 0),
    )
    st = ref.initial_state(won)
    assert st.over and st.winner == 0 and ref.why_no_shot(st) == "the frame is over: player 0 won 8-0"
    # Free pyramid with one ball and the coloured ball in hand: two balls,
    # play on; the ball in hand is the one struck (item 11).
    free = get_referee("free")
    p = Position.from_balls("free", {"5": (CX, 2.0)}, in_hand="house")
    st = free.initial_state(p)
    assert not st.over and free.allowed_cue_balls(st.position) == ("0",)
    assert free.why_no_shot(st) is None
    with pytest.raises(IllegalShotError, match="may not be struck"):
        free.check_shot(st, Shot("5", 90, 2.0, place=(CX, 0.5)))
    free.check_shot(st, Shot("0", 90, 2.0, place=(CX, 0.5)))
    # Classic: a cleared table given by hand goes to the higher score.
    classic = get_referee("classic71")
    st = classic.initial_state(Position.from_balls("classic71", {"0": (CX, 1.0)}, score=(40, 60)))
    assert st.over and st.winner == 1
    # Five balls never runs out, but with nothing to call there is no shot.
    five = get_referee("five_ball")
    st = five.initial_state(Position.from_balls("five_ball", {"w1": (CX, 1.0)}))
    assert not st.over
    assert five.why_no_shot(st) == (
        "no legal shot exists: no ball the player may strike has another ball to call (item 5.1)"
    )


def test_in_hand_in_the_house_with_every_object_ball_there_goes_beyond_the_rear_line() -> None:
    # Item 21.2: every object ball in the house, so the ball in hand is
    # played from beyond the rear line (the position said "house").
    ref = get_referee("combined")
    st = ref.initial_state(Position.from_balls("combined", {"3": (0.8, 0.5), "4": (0.3, 0.4)}, in_hand="house"))
    assert st.position.in_hand == "rear_house" and st.next.in_hand == "rear_house"
    with pytest.raises(IllegalShotError, match="not beyond the rear line"):
        ref.check_shot(st, Shot("0", 270, 2.0, place=(CX, 0.6)))
    ref.check_shot(st, Shot("0", 270, 2.0, place=(CX, 3.0)))


# ------------------------------------------------------------------ the shot bound
LEGAL_MISS = ("hit", "1"), ("cushion", ("1", "rear")), ("cushion", ("1", "left_rear"))


def _combined() -> tuple[Game, Position]:
    pos = Position.from_balls("combined", {"0": (CX, 1.0), "1": (0.5, 2.0), "2": (1.2, 2.2)})
    return Game.new("combined", position=pos), pos


def test_the_shot_bound_ends_the_frame_as_a_draw() -> None:
    assert MAX_SHOTS_PER_FRAME == 1000
    g, pos = _combined()
    assert g.max_shots == MAX_SHOTS_PER_FRAME
    # Legal shots that score nothing (item 20: the object ball at two
    # cushions), traded for ever: the 1000th shot ends the frame, a draw.
    for k in range(MAX_SHOTS_PER_FRAME):
        assert not g.over, k
        r = g.play_recorded(Shot("0", 90, 3.0), ev("0", *LEGAL_MISS), after(g.position))
    assert r is not None and r.legal
    assert g.over and g.winner is None and g.shots == MAX_SHOTS_PER_FRAME
    assert r.next.kind == "none" and "no winner after 1000 shots" in (r.penalty or "")
    assert r.summary().endswith("DRAW")
    with pytest.raises(IllegalShotError, match="frame is over"):
        g.play_recorded(Shot("0", 90, 3.0), ev("0", *LEGAL_MISS), after(g.position))
    with pytest.raises(IllegalShotError, match="frame is over"):
        g.check_shot(Shot("0", 90, 3.0))


def test_a_lower_bound_is_kept_through_save_and_load() -> None:
    pos = Position.from_balls("combined", {"0": (CX, 1.0), "1": (0.5, 2.0), "2": (1.2, 2.2)})
    g = Game.new("combined", position=pos, max_shots=3)
    for _ in range(3):
        g.play_recorded(Shot("0", 90, 3.0), ev("0", *LEGAL_MISS), after(g.position))
    assert g.over and g.winner is None
    back = Game.from_dict(g.to_dict())
    assert back.over and back.winner is None and back.max_shots == 3
    assert "max_shots" not in _combined()[0].to_dict()
    for bad in (0, MAX_SHOTS_PER_FRAME + 1):
        with pytest.raises(Exception, match="max_shots must be from 1 to 1000"):
            Game.new("combined", position=pos, max_shots=bad)


def test_a_lag_lost_by_both_for_ever_ends_at_the_bound() -> None:
    # Both players lose every lag (the ball never reaches the rear cushion,
    # item 7.2): the lag is repeated (item 7.3) until the shot bound.
    def lost(p: Position, shot: Shot) -> tuple[list[Event], Position]:
        assert shot.place is not None
        return [Event(0, "cue", (shot.ball,))], p.replace(balls=((shot.ball, *shot.place),), in_hand=None)

    g = Game.new("combined", seed=0, lag=True, simulate=lost, max_shots=40)
    for k in range(40):
        assert g.next.kind == "lag", k
        x = 0.4 if g.to_move == 0 else 1.4
        g.play(Shot("0", 90, 1.0, place=(x, 0.3)))
    assert g.over and g.winner is None and g.shots == 40


@pytest.mark.parametrize("variant", ["free", "combined", "classic71", "five_ball"])
def test_random_play_always_ends(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # An unreachable-ish target (free: 120 points - every ball; five balls:
    # 120) and random play: the frame ends anyway, by the target, nothing
    # left to hit, or the bound (lowered here to keep the test quick).
    monkeypatch.setattr(game_module, "MAX_SHOTS_PER_FRAME", 300)
    options = {
        "free": {"scoring": "points", "points_target": 120},
        "combined": {"target": 8},
        "classic71": {"target": 140},
        "five_ball": {"target": 120},
    }[variant]
    ended = {"winner": 0, "draw": 0}
    for seed in range(3):
        rng = random.Random(seed)
        g = Game.new(variant, seed=seed, options=options, simulate=lambda p, s, rng=rng: random_outcome(p, s, rng))
        agent = RandomAgent(seed)
        for _ in range(4 * 300):
            if g.over:
                break
            st = g.state
            cue = g.referee.allowed_cue_balls(st.position) if st.next.kind == "shot" else ()
            view = GameView(variant, st.position, int(st.next.player or 0), st.next.kind, st.next.choices,
                            st.next.in_hand, tuple(cue))
            a = agent.act(view)
            if isinstance(a, str):
                g.choose(a)
            else:
                g.play(a)
        assert g.over and g.shots <= 300
        ended["draw" if g.winner is None else "winner"] += 1
    assert sum(ended.values()) == 3
