"""Generated garbage into every input parser.

The contract for each parser: it either raises a ``PiramidaError`` whose
message is one non-empty line, or it accepts the input and the result is
valid (a position or shot round-trips through both of its forms, a shot's
numbers are finite and inside env/shot.py's limits, an event log
round-trips, a noise preset's sigmas are finite and inside MAX_SIGMA, a
referee's numeric options are finite). Nothing else may escape: no
KeyError, TypeError, OverflowError, RecursionError.

The command line gets the same treatment for a few commands: exit status
2 with one ``error:`` line on stderr and nothing on stdout, or exit 0.

Positions to play from (``Position.check_playable``, what every command
taking a position applies) hold no ball inside a pocket and, in five balls,
all of r1, r2 and y; a shot names only ball ids, and a call or a declared
frozen ball only a ball on the table (``Shot.check_on``); noise keeps any
valid shot valid.

Inputs: numbers at the edges (0, -0.0, 5e-324, 1e308, 10**400, NaN, inf),
wrong types, deep nesting, duplicate JSON keys (raw text), lone surrogates
(what non-UTF-8 command-line bytes become), NUL, and valid forms with one
field replaced by garbage.
"""

from __future__ import annotations

import itertools
import json
import math
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from piramida.cli import app
from piramida.env.errors import PiramidaError
from piramida.env.events import events_from_json, events_to_json
from piramida.env.game import Game
from piramida.env.physics.noise import KEYS as NOISE_KEYS
from piramida.env.physics.noise import MAX_SIGMA, load_noise, presets
from piramida.env.position import VARIANTS, Position, object_ball_ids
from piramida.env.rules import get_referee
from piramida.env.rules.options import parse_option_args
from piramida.env.shot import (
    BALL_IDS,
    MAX_PHI,
    MAX_PLACE,
    MAX_SPEED,
    MAX_THETA,
    MIN_SPEED,
    MISCUE_LIMIT,
    Shot,
)
from piramida.env.table import Table

FEW = settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
CLI = settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

REPO = Path(__file__).resolve().parent.parent
MIDGAME = REPO / "docs" / "examples" / "combined_midgame.json"
SURROGATE = os.fsdecode(b"\xff")

# ------------------------------------------------------------ strategies
EDGE_FLOATS = [
    0.0, -0.0, 5e-324, -5e-324, 1e-300, 0.01, 0.5, 0.6, 1.0, 12.0, 12.000001, 60.0, 100.0,
    3600.0, 3600.0000001, 1e308, -1e308, 1.7976931348623157e308,
    math.nan, math.inf, -math.inf,
]  # fmt: skip
EDGE_INTS = [0, 1, -1, 2, 15, 16, 1000, 10**18, 10**19, 2**63, 10**400, -(10**400)]
numbers = st.one_of(st.sampled_from(EDGE_FLOATS + EDGE_INTS), st.floats(), st.integers())
chars = st.one_of(
    st.characters(),
    st.sampled_from([SURROGATE, "\x00", "=", ";", ":", ",", "|", " ", "\n", "{", "[", '"', "\ufeff", "-"]),
)
texts = st.text(alphabet=chars, max_size=30)
# Number-like words for the text forms.
words = st.one_of(
    texts,
    st.sampled_from(["nan", "inf", "-inf", "1e400", "1e308", "5e-324", "-0.0", "0x10", "1_0", "", "-", str(10**400)]),
    numbers.map(repr),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, texts)
values = st.recursive(
    scalars,
    lambda c: st.lists(c, max_size=4) | st.dictionaries(texts, c, max_size=4),
    max_leaves=12,
)


def _raw_json(v: Any) -> str:
    """JSON text of ``v`` as Python writes it: NaN, Infinity and 400-digit
    integers included."""
    return json.dumps(v, allow_nan=True)


@st.composite
def dup_key_json(draw: st.DrawFn, keys: list[str]) -> str:
    """A JSON object written by hand, so that a key may appear twice."""
    pairs = draw(st.lists(st.tuples(st.sampled_from(keys) | texts, values), min_size=1, max_size=6))
    if draw(st.booleans()):
        pairs.append(pairs[0])
    return "{" + ", ".join(f"{json.dumps(k)}: {_raw_json(v)}" for k, v in pairs) + "}"


deep = st.sampled_from([15, 16, 17, 100, 5000]).flatmap(
    lambda n: st.sampled_from(["[" * n + "]" * n, '{"a":' * n + "1" + "}" * n, "[" * n])
)


def json_texts(keys: list[str], valid: list[dict[str, Any]]) -> st.SearchStrategy[str]:
    """Garbage JSON for an object with ``keys``; ``valid`` objects get one
    key replaced by a generated value."""
    mutated = st.tuples(st.sampled_from(valid), st.sampled_from(keys) | texts, values).map(
        lambda t: _raw_json({**t[0], t[1]: t[2]})
    )
    return st.one_of(
        mutated,
        dup_key_json(keys),
        st.dictionaries(st.sampled_from(keys) | texts, values, max_size=8).map(_raw_json),
        values.map(_raw_json),
        deep,
        texts,
    )


def text_forms(valid: list[str]) -> st.SearchStrategy[str]:
    """A valid text form with one key=value replaced, added or repeated."""

    @st.composite
    def mutate(draw: st.DrawFn) -> str:
        toks = draw(st.sampled_from(valid)).split()
        i = draw(st.integers(0, len(toks)))
        key = toks[i].split("=", 1)[0] if i < len(toks) else draw(texts)
        value = draw(words)
        # The value mangled in one of the usual ways: a part of a compound
        # value replaced, or the whole value.
        if i < len(toks) and draw(st.booleans()):
            old = toks[i].split("=", 1)[1]
            parts = old.replace(":", ",").replace(";", ",").split(",")
            j = draw(st.integers(0, len(parts) - 1))
            value = old.replace(parts[j], value, 1) if parts[j] else value
        new = f"{key}={value}"
        if i < len(toks) and draw(st.booleans()):
            toks[i] = new
        else:
            toks.insert(i, new)
        return " ".join(toks)

    return st.one_of(mutate(), texts, words)


VALID_POSITIONS = [
    Position.start("free", seed=0),
    Position.start("five_ball"),
    Position.start("classic71"),
    Position.parse(MIDGAME.read_text(encoding="utf-8")),
    Position.parse("variant=free balls=0:0.5,1.0;3:1.0,3.0 shelves=1,2|4 score=2,1 owed=0,1 to_move=1"),
]
VALID_SHOTS = [
    Shot.parse("ball=0 phi=70.08 v=1 a=0 b=0 theta=0"),
    Shot.parse("ball=0 phi=70.08 v=1 a=0 b=0 theta=0 call=3:rr declare_frozen=8"),
    Shot.parse("ball=w1 phi=-90 v=2.5 a=0.3 b=-0.2 theta=10 place=0.5,0.6 call=r1:rl declare_frozen=y"),
]
POS_KEYS = ["variant", "balls", "shelves", "score", "owed", "to_move", "in_hand", "break"]
SHOT_KEYS = ["ball", "phi", "v", "a", "b", "theta", "place", "call", "declare_frozen"]
EVENT_KEYS = ["t", "type", "balls", "cushion", "pocket", "to", "from"]
VALID_EVENTS = [
    {"t": 0.0, "type": "cue", "balls": ["0"]},
    {"t": 0.5, "type": "ball_ball", "balls": ["0", "3"]},
    {"t": 0.9, "type": "cushion", "balls": ["3"], "cushion": "rear"},
    {"t": 1.2, "type": "pocket", "balls": ["3"], "pocket": "rl"},
    {"t": 0.2, "type": "motion", "balls": ["0"], "from": "sliding", "to": "rolling"},
]


@st.composite
def near_valid_positions(draw: st.DrawFn) -> dict[str, Any]:
    """A valid position with one number moved, often still valid: a ball
    to the cushion, into a pocket's jaws or past its mouth line, onto another
    ball; some balls taken off; a score or a count at its bound."""
    d = json.loads(draw(st.sampled_from(VALID_POSITIONS)).to_json())
    what = draw(st.sampled_from(["ball", "ball", "drop", "score", "owed", "to_move"]))
    if what == "ball" and d["balls"]:
        b = draw(st.sampled_from(sorted(d["balls"])))
        if draw(st.booleans()):
            i = draw(st.integers(0, 1))
            d["balls"][b][i] = draw(st.floats(-0.1, 3.7) | st.sampled_from([0.0, -0.0, 5e-324, 0.034, 1.741, 3.516]))
        else:  # on a pocket's axis, around its mouth line: hanging in the jaws or inside
            p = TABLE.pockets[draw(st.sampled_from(sorted(TABLE.pockets)))]
            u = draw(st.floats(-0.04, 0.04) | st.sampled_from([0.0, 1e-9, 2e-9, -1e-9, 0.034]))
            d["balls"][b] = [p.mouth_centre[0] + u * p.axis[0], p.mouth_centre[1] + u * p.axis[1]]
    elif what == "drop":  # some balls taken off (five balls keeps all of r1, r2, y on the table)
        d["balls"] = {b: xy for b, xy in d["balls"].items() if draw(st.booleans())}
    elif what in ("score", "owed"):
        d[what][draw(st.integers(0, 1))] = draw(st.integers(-2, 3) | st.sampled_from([999, 1000, 1001, 100000, 100001]))
    else:
        d["to_move"] = draw(st.sampled_from([0, 1, 2, -1, 0.0, 1.0, True]))
    return d


@st.composite
def near_valid_shots(draw: st.DrawFn) -> dict[str, Any]:
    """A valid shot with one number at or near its limit."""
    d = draw(st.sampled_from(VALID_SHOTS)).to_dict()
    key = draw(st.sampled_from(["phi", "v", "a", "b", "theta"]))
    edges = [0.0, -0.0, 5e-324, MIN_SPEED, MAX_SPEED, MAX_THETA, MISCUE_LIMIT, -MISCUE_LIMIT, MAX_PHI, -MAX_PHI]
    d[key] = draw(st.sampled_from(edges) | st.floats(-MAX_PHI * 1.01, MAX_PHI * 1.01))
    if draw(st.booleans()):
        d["a"], d["b"] = 0.0, 0.0
    return d


TABLE = Table.default()


def refused(exc: BaseException) -> None:
    """The refusal half of the contract: a PiramidaError, one line."""
    assert isinstance(exc, PiramidaError), f"{type(exc).__name__}: {exc}"
    msg = str(exc)
    assert msg.strip(), f"{type(exc).__name__} with an empty message"
    assert len(msg.splitlines()) == 1 and "\r" not in msg, repr(msg)


def check_position(p: Position) -> None:
    for _, x, y in p.balls:
        assert math.isfinite(x) and math.isfinite(y)
        assert p.table.on_surface(x, y)
    assert p.to_move in (0, 1) and type(p.to_move) is int
    assert Position.from_json(p.to_json()) == p
    assert Position.from_text(p.to_text()) == p
    assert Position.parse(p.to_text()) == p


def check_playable(p: Position) -> None:
    """What ``Position.check_playable`` guarantees of a position it passes."""
    check_position(p)
    for _, x, y in p.balls:
        for pk in p.table.pockets.values():
            u, v = pk.local(x, y)
            assert u <= 1e-9 or abs(v) > pk.mouth / 2, (x, y, pk.name)
    if p.variant == "five_ball":
        assert set(object_ball_ids("five_ball")) <= set(p.ids) and p.shelves == ((), ())


def check_shot(s: Shot) -> None:
    assert s.ball in BALL_IDS
    assert s.call is None or s.call[0] in BALL_IDS
    assert s.declare_frozen is None or s.declare_frozen in BALL_IDS
    for v in (s.phi, s.v, s.a, s.b, s.theta):
        assert isinstance(v, float) and math.isfinite(v)
    assert abs(s.phi) <= MAX_PHI
    assert MIN_SPEED <= s.v <= MAX_SPEED
    assert math.hypot(s.a, s.b) <= MISCUE_LIMIT + 1e-12
    assert 0 <= s.theta <= MAX_THETA
    if s.place is not None:
        assert all(math.isfinite(c) and abs(c) <= MAX_PLACE for c in s.place)
    assert Shot.from_text(s.to_text()) == s
    assert Shot.from_json(s.to_json()) == s


def _ok(fn: Any, *args: Any) -> bool:
    try:
        fn(*args)
    except PiramidaError:
        return False
    return True


def _try(fn: Any, *args: Any) -> Any:
    try:
        out = fn(*args)
    except Exception as exc:  # noqa: BLE001 - the contract is checked on it
        refused(exc)
        event(f"refused: {type(exc).__name__}")
        return None
    event("accepted")
    return out


# ------------------------------------------------------------- positions
@FEW
@given(
    st.one_of(
        json_texts(POS_KEYS, [p.to_dict() for p in VALID_POSITIONS]),
        text_forms([p.to_text() for p in VALID_POSITIONS]),
        near_valid_positions().map(_raw_json),
        near_valid_positions().map(lambda d: Position.from_dict(d).to_text() if _ok(Position.from_dict, d) else "-"),
    )
)
def test_position_parse(text: str) -> None:
    p = _try(Position.parse, text)
    if p is not None:
        check_position(p)
        if _try(p.check_playable) is not None:
            check_playable(p)


@FEW
@given(
    st.one_of(
        near_valid_positions().map(_raw_json),
        near_valid_positions().map(lambda d: Position.from_dict(d).to_text() if _ok(Position.from_dict, d) else "-"),
    )
)
def test_position_to_play_from(text: str) -> None:
    # What the commands read (piramida/commands/common.py load_position).
    p = _try(lambda t: Position.parse(t).check_playable(), text)
    if p is not None:
        check_playable(p)


@FEW
@given(
    st.one_of(
        st.tuples(st.sampled_from([p.to_dict() for p in VALID_POSITIONS]), st.sampled_from(POS_KEYS), values).map(
            lambda t: {**t[0], t[1]: t[2]}
        ),
        st.dictionaries(st.sampled_from(POS_KEYS) | texts, values, max_size=8),
        values,
        near_valid_positions(),
    )
)
def test_position_from_dict(d: Any) -> None:
    p = _try(Position.from_dict, d)
    if p is not None:
        check_position(p)


# ------------------------------------------------------------------ shots
@FEW
@given(
    st.one_of(
        json_texts(SHOT_KEYS, [s.to_dict() for s in VALID_SHOTS]),
        text_forms([s.to_text() for s in VALID_SHOTS]),
        near_valid_shots().map(_raw_json),
    )
)
def test_shot_parse(text: str) -> None:
    s = _try(Shot.parse, text)
    if s is not None:
        check_shot(s)


@FEW
@given(
    st.one_of(
        st.tuples(st.sampled_from([s.to_dict() for s in VALID_SHOTS]), st.sampled_from(SHOT_KEYS), values).map(
            lambda t: {**t[0], t[1]: t[2]}
        ),
        st.dictionaries(st.sampled_from(SHOT_KEYS) | texts, values, max_size=8),
        values,
        near_valid_shots(),
    )
)
def test_shot_from_dict(d: Any) -> None:
    s = _try(Shot.from_dict, d)
    if s is not None:
        check_shot(s)


@FEW
@given(
    st.sampled_from(VALID_POSITIONS),
    st.sampled_from(sorted(BALL_IDS)),
    st.sampled_from(sorted(BALL_IDS) + [None]),
    st.sampled_from(sorted(BALL_IDS) + [None]),
    st.sampled_from(["text", "json"]),
)
def test_shot_against_a_position(pos: Position, ball: str, called: str | None, frozen: str | None, form: str) -> None:
    # A call or a frozen-ball declaration names a ball on the table, in the
    # text and the JSON form alike.
    shot = Shot(ball, 70.0, 1.0, call=(called, "rr") if called else None, declare_frozen=frozen)
    s = _try(Shot.parse, shot.to_text() if form == "text" else shot.to_json())
    assert s == shot
    _try(shot.check_on, pos)  # refused in one line, if at all
    want = (called is None or called in pos) and (frozen is None or (frozen in pos and frozen != ball))
    assert _ok(shot.check_on, pos) == want


@FEW
@given(near_valid_shots(), st.sampled_from(presets()), st.integers(0, 2**32 - 1))
def test_noise_keeps_a_shot_valid(d: dict[str, Any], preset: str, seed: int) -> None:
    # A stroke at any limit, perturbed by any preset, is still a shot: the
    # direction wraps by whole turns, the rest is clipped; a direction left
    # inside the limit is the intended one plus the drawn noise, unchanged.
    import numpy as np

    shot = _try(Shot.from_dict, d)
    if shot is None:
        return
    noise = load_noise(preset)
    assert noise is not None
    got = noise.perturb(shot, np.random.default_rng(seed))
    check_shot(got)
    raw = shot.phi + float(np.random.default_rng(seed).standard_normal(5)[0] * noise.phi)
    if abs(raw) <= MAX_PHI:
        assert got.phi == raw
    else:
        event("wrapped")
        turns = (raw - got.phi) / 360.0
        assert round(turns) != 0 and math.isclose(turns, round(turns), abs_tol=1e-9)


# ------------------------------------------------------------- event logs
@st.composite
def event_logs(draw: st.DrawFn) -> str:
    events = draw(st.lists(st.sampled_from(VALID_EVENTS), max_size=4))
    if events and draw(st.booleans()):
        i = draw(st.integers(0, len(events) - 1))
        events[i] = {**events[i], draw(st.sampled_from(EVENT_KEYS) | texts): draw(values)}
    return _raw_json(events)


@FEW
@given(
    st.one_of(
        event_logs(),
        dup_key_json(EVENT_KEYS).map(lambda o: f"[{o}]"),
        st.lists(st.dictionaries(st.sampled_from(EVENT_KEYS), values, max_size=7), max_size=3).map(_raw_json),
        values.map(_raw_json),
        deep,
        texts,
    )
)
def test_events_from_json(text: str) -> None:
    log = _try(events_from_json, text)
    if log is not None:
        for e in log:
            assert math.isfinite(e.t) and e.t >= 0
        assert events_from_json(events_to_json(log)) == log


# ----------------------------------------------------------- saved games
@st.composite
def saved_games(draw: st.DrawFn) -> Any:
    variant = draw(st.sampled_from(VARIANTS))
    d: dict[str, Any] = {
        "piramida_game": 1,
        "variant": variant,
        "seed": 0,
        "options": {},
        "lag": False,
        "initial": Position.start(variant, seed=0).to_dict(),
        "history": [],
    }
    key = draw(st.sampled_from([*d, "extra"]))
    if draw(st.booleans()):
        d[key] = draw(values)
    else:
        d.pop(key, None)
    return d


@FEW
@given(st.one_of(saved_games(), st.dictionaries(texts, values, max_size=5), values))
def test_game_from_dict(d: Any) -> None:
    g = _try(Game.from_dict, d)
    if g is not None:
        assert g.variant in VARIANTS
        Game.from_dict(json.loads(g.to_json()))


# ----------------------------------------------------------- noise files
_files = itertools.count()
toml_values = st.one_of(
    st.sampled_from(["nan", "inf", "-inf", "+nan", "1e308", "5e-324", "-0.0", "0", "true", '"0.1"', "[0.1]",
                     "{x = 1}", str(10**400), "0.01", "180.0", "180.1", "0.6", "0.61", "12", "60", "1_000", ""]),
    numbers.filter(lambda x: not isinstance(x, float) or math.isfinite(x)).map(repr),
)  # fmt: skip


@st.composite
def noise_tomls(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        # Every key once, each value likely fine: often a valid preset.
        keys = draw(st.permutations(NOISE_KEYS))
        value = st.floats(0, 0.6).map(repr) | toml_values
        header = "[noise]"
    else:
        keys = draw(st.lists(st.sampled_from([*NOISE_KEYS, "spin", "phi "]), max_size=7))
        value = toml_values
        header = draw(st.sampled_from(["[noise]", "", "[extra]", "[noise.x]", "noise = 1", "[[noise]]"]))
    lines = [header] + [f"{k} = {draw(value)}" for k in keys]
    if draw(st.integers(0, 3)) == 0:
        lines.insert(draw(st.integers(0, len(lines))), draw(texts))
    return "\n".join(lines) + "\n"


@FEW
@given(noise_tomls())
def test_load_noise(tmp_path_factory: pytest.TempPathFactory, body: str) -> None:
    d = tmp_path_factory.getbasetemp() / "noise_property"
    d.mkdir(exist_ok=True)
    # A new name each time: presets are cached by path.
    path = d / f"n{next(_files)}.toml"
    path.write_bytes(body.encode("utf-8", "surrogatepass"))
    n = _try(load_noise, str(path))
    if n is not None:
        for k in NOISE_KEYS:
            v = getattr(n, k)
            assert isinstance(v, float) and math.isfinite(v) and 0 <= v <= MAX_SIGMA[k], (k, v)


# ---------------------------------------------------------- rule options
OPTION_NAMES = sorted(
    {o.name for v in VARIANTS for o in get_referee(v).game_type.options}  # type: ignore[attr-defined]
)
option_values = st.one_of(
    scalars,
    words,
    st.sampled_from(["true", "false", "yes", " 1 ", "1.0", "0", "0.005", "8", "take_from_table", "points"]),
)


@FEW
@given(
    st.sampled_from(VARIANTS) | texts,
    st.dictionaries(st.sampled_from(OPTION_NAMES) | texts, option_values, max_size=3),
)
def test_get_referee(variant: str, options: dict[str, Any]) -> None:
    ref = _try(get_referee, variant, options)
    if ref is not None:
        for k, v in ref.options.items():
            if isinstance(v, float):
                assert math.isfinite(v), (k, v)
            assert v is not None, k


@FEW
@given(
    st.sampled_from(VARIANTS),
    st.lists(
        st.one_of(
            st.tuples(st.sampled_from(OPTION_NAMES) | texts, option_values.map(str)).map(lambda t: f"{t[0]}={t[1]}"),
            texts,
        ),
        max_size=3,
    ),
)
def test_parse_option_args(variant: str, args: list[str]) -> None:
    parsed = _try(parse_option_args, args)
    if parsed is not None:
        _try(get_referee, variant, parsed)


# ---------------------------------------------------------- command line
runner = CliRunner()


def cli(args: list[str]) -> int:
    result = runner.invoke(app, args)
    err = result.stderr
    assert "Traceback" not in result.output, result.output[-2000:]
    event(f"exit {result.exit_code}")
    if result.exit_code == 0:
        return 0
    assert result.exit_code == 2, f"exit {result.exit_code} for {args!r}: {err[-500:]!r}"
    assert result.stdout == "", result.stdout[-500:]
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err[-1000:]
    return 2


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PIRAMIDA_DEBUG", raising=False)


@CLI
@given(st.one_of(text_forms([p.to_text() for p in VALID_POSITIONS]), json_texts(POS_KEYS, [VALID_POSITIONS[3].to_dict()])))
def test_cli_show(position: str) -> None:
    cli(["show", position])


@CLI
@given(text_forms([VALID_SHOTS[0].to_text()]))
def test_cli_simulate(shot: str) -> None:
    cli(["simulate", "--position", str(MIDGAME), "--shot", shot])


@CLI
@given(st.sampled_from(OPTION_NAMES) | texts, option_values.map(str))
def test_cli_referee_option(name: str, value: str) -> None:
    ex = REPO / "docs" / "examples"
    cli([
        "referee", "--variant", "combined", "--before", str(ex / "combined_midgame.json"),
        "--shot", VALID_SHOTS[0].to_text(), "--events", str(ex / "combined_events.json"),
        "--after", str(ex / "combined_after.json"), "--option", f"{name}={value}",
    ])  # fmt: skip


@CLI
@given(
    st.sampled_from(["--seed", "--max-shots", "--variant", "--agents", "--noise", "--option"]),
    words,
)
def test_cli_play_one_shot(option: str, value: str) -> None:
    if option == "--max-shots":
        # A valid count would play that many shots: pair it with a bad
        # variant, refused only after the count is read.
        cli(["play", "--variant", "nosuch", option, value])
    else:
        # The last --max-shots wins: at most one shot is played.
        cli(["play", option, value, "--max-shots", "1"])


@CLI
@given(words, words, words)
def test_cli_suggest_arguments(budget: str, top: str, sims: str) -> None:
    # A position without balls: whatever the numbers, no planning starts.
    cli(["suggest", "--position", "variant=free balls=- in_hand=house",
         "--budget", budget, "--top", top, "--sims", sims])  # fmt: skip


@settings(max_examples=15, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(texts | st.sampled_from(["$x^$", "$", "\\frac{", "$\\alpha$", "%s %d {}", "\t\n", "x" * 201]))
def test_cli_show_title(title: str) -> None:
    # Drawn as typed, or refused (NUL, too long, not UTF-8); nothing else.
    cli(["show", VALID_POSITIONS[0].to_text(), "--svg", "title.svg", "--title", title])
