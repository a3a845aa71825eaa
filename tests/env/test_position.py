"""Position: round trips (Hypothesis), the rack of docs/game_rules.md §2, the
five-ball start, and every class of invalid input."""

from __future__ import annotations

import itertools
import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from piramida.env.errors import InvalidPositionError, PiramidaError, UnknownVariantError
from piramida.env.position import (
    IN_HAND,
    POINT_VARIANTS,
    VARIANTS,
    Position,
    ball_ids,
    cue_ball_of,
    rack_spots,
    triangle_slots,
)
from piramida.env.table import Table

TABLE = Table.default()
R = TABLE.ball_radius
W, L = TABLE.width, TABLE.length

# docs/game_rules.md §2: classic pyramid fixed rack, apex to base (typed from the
# rules text, not imported from the code under test).
CLASSIC_ROWS = [row.split() for row in "4 / 5 6 / 7 15 8 / 9 14 13 10 / 2 1 12 11 3".split(" / ")]


# ------------------------------------------------------------- strategies
@st.composite
def positions(draw: st.DrawFn) -> Position:
    variant = draw(st.sampled_from(VARIANTS))
    ids = list(ball_ids(variant))
    to_move = draw(st.integers(0, 1))
    in_hand = draw(st.sampled_from((None, *IN_HAND)))
    if in_hand is not None:
        ids.remove(cue_ball_of(variant, to_move))
    ids = draw(st.permutations(ids))
    n_table = draw(st.integers(0, len(ids)))
    coord = st.tuples(st.floats(R, W - R), st.floats(R, L - R))
    balls: list[tuple[str, float, float]] = []
    for b in ids[:n_table]:
        x, y = draw(coord)
        # Keep only non-overlapping candidates; the rest go to shelves or away.
        if all(math.hypot(x - bx, y - by) >= 2 * R for _, bx, by in balls):
            balls.append((b, x, y))
    placed = {b for b, _, _ in balls}
    rest = [b for b in ids if b not in placed]
    cut1 = draw(st.integers(0, len(rest)))
    cut2 = draw(st.integers(cut1, len(rest)))
    shelves = (tuple(rest[:cut1]), tuple(rest[cut1:cut2]))
    lo = -200 if variant in POINT_VARIANTS else 0
    score = (draw(st.integers(lo, 200)), draw(st.integers(lo, 200)))
    owed = (draw(st.integers(0, 5)), draw(st.integers(0, 5)))
    return Position(
        variant,
        tuple(balls),
        shelves,
        score,
        owed,
        to_move,
        in_hand,
        draw(st.booleans()),
    )


@given(positions())
def test_text_round_trip(p: Position) -> None:
    text = p.to_text()
    assert "\n" not in text
    q = Position.from_text(text)
    assert q == p
    assert q.to_text() == text
    assert Position.parse(text) == p


@given(positions())
def test_json_round_trip(p: Position) -> None:
    s = p.to_json()
    q = Position.from_json(s)
    assert q == p
    assert q.to_dict() == p.to_dict()
    assert Position.parse(s) == p
    assert set(json.loads(s)) == {
        "variant",
        "balls",
        "shelves",
        "score",
        "owed",
        "to_move",
        "in_hand",
        "break",
    }


def test_json_form_is_the_designs() -> None:
    p = Position.from_balls(
        "free", {"0": (0.5, 0.5), "3": (0.9, 2.0)}, shelves=(("5",), ()), score=(1, 0)
    )
    assert json.loads(p.to_json()) == {
        "variant": "free",
        "balls": {"0": [0.5, 0.5], "3": [0.9, 2.0]},
        "shelves": [["5"], []],
        "score": [1, 0],
        "owed": [0, 0],
        "to_move": 0,
        "in_hand": None,
        "break": False,
    }


# -------------------------------------------------------------------- rack
def _touching_pairs(spots: list[tuple[float, float]]) -> list[tuple[int, int]]:
    pairs = []
    for i, j in itertools.combinations(range(len(spots)), 2):
        d = math.dist(spots[i], spots[j])
        assert d >= 2 * R - 1e-9, f"spots {i} and {j} overlap by {2 * R - d}"
        if abs(d - 2 * R) <= 1e-9:
            pairs.append((i, j))
    return pairs


def _rows(spots: list[tuple[float, float]]) -> list[list[tuple[float, float]]]:
    """Group spots into the triangle's rows (by y) from the apex."""
    slots = triangle_slots(TABLE)
    out: list[list[tuple[float, float]]] = [[] for _ in slots]
    for s in spots:
        k = min(range(5), key=lambda k: abs(slots[k][0][1] - s[1]))
        assert abs(slots[k][0][1] - s[1]) < 1e-12
        out[k].append(s)
    return [sorted(row) for row in out]


def test_full_rack_geometry() -> None:
    spots = rack_spots(TABLE, 15)
    assert len(spots) == 15
    # Apex centre on the rear spot.
    assert math.dist(spots[0], TABLE.rear_spot) < 1e-12
    # 15 balls touching in a triangle of side 5: 3 * (5 * 4 / 2) = 30 contacts.
    pairs = _touching_pairs(spots)
    assert len(pairs) == 30
    for i in range(15):
        assert sum(i in p for p in pairs) >= 2
    # All in the rear half, whole balls.
    assert all(y - R > L / 2 for _, y in spots)
    # Base parallel to the rear cushion and toward it; rows of 1..5.
    rows = _rows(spots)
    assert [len(r) for r in rows] == [1, 2, 3, 4, 5]
    assert max(y for _, y in spots) == rows[4][0][1]
    assert len({y for _, y in rows[4]}) == 1
    assert rows[4][0][1] + R < L
    # Symmetric about the long axis.
    _assert_symmetric(spots)


def _assert_symmetric(spots: list[tuple[float, float]]) -> None:
    mirrored = sorted((round(W - x, 9), round(y, 9)) for x, y in spots)
    assert mirrored == sorted((round(x, 9), round(y, 9)) for x, y in spots)


def test_classic_order() -> None:
    p = Position.start("classic71")
    rows = _rows([p.xy(b) for b in p.ids])
    by_xy = {p.xy(b): b for b in p.ids}
    # Left to right as the player at the house end sees it: x increasing.
    got = [[by_xy[s] for s in row] for row in rows]
    assert got == CLASSIC_ROWS
    assert p.xy("4") == pytest.approx(TABLE.rear_spot, abs=1e-12)


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v != "five_ball"])
def test_pyramid_start(variant: str) -> None:
    p = Position.start(variant, seed=3)
    assert sorted(p.ids, key=int) == [str(i) for i in range(1, 16)]
    assert p.in_hand == "house" and p.is_break and p.to_move == 0
    assert p.missing() == ()
    assert sorted(p.ball_map.values()) == sorted(rack_spots(TABLE, 15))
    assert Position.start(variant, seed=3) == p


def test_shuffled_racks_depend_on_the_seed() -> None:
    racks = {Position.start("free", seed=s).to_text() for s in range(5)}
    assert len(racks) == 5
    assert len({Position.start("classic71", seed=s).to_text() for s in range(3)}) == 1


def test_five_ball_start() -> None:
    # docs/game_rules.md §5.7: r1 front spot, y centre spot, r2 rear spot, w1 in hand.
    p = Position.start("five_ball")
    assert p.ball_map == {"r1": TABLE.front_spot, "y": TABLE.centre_spot, "r2": TABLE.rear_spot}
    assert p.in_hand == "house" and p.to_move == 0 and cue_ball_of("five_ball", 0) == "w1"


@pytest.mark.parametrize(
    ("n", "row_counts"),
    [(14, [0, 2, 3, 4, 5]), (10, [1, 2, 3, 4, 0]), (7, [0, 2, 3, 2, 0])],
)
def test_incomplete_pyramid(n: int, row_counts: list[int]) -> None:
    """Item 8 note as rack_spots interprets it: fill from the apex; the last
    row from the middle outward; the apex ball moves into that row when the
    remainder would not be symmetric."""
    spots = rack_spots(TABLE, n)
    assert len(spots) == n == len(set(spots))
    slots = {s for row in triangle_slots(TABLE) for s in row}
    assert set(spots) <= slots
    _assert_symmetric(spots)
    pairs = _touching_pairs(spots)
    for i in range(n):
        assert any(i in p for p in pairs), f"ball {i} touches no neighbour"
    assert [len(r) for r in _rows(spots)] == row_counts
    assert all(y > L / 2 for _, y in spots)
    # The rack is a legal position.
    Position.from_balls("free", {str(i + 1): s for i, s in enumerate(spots)})


@pytest.mark.parametrize("n", range(16))
def test_every_rack_size_is_symmetric_and_touching(n: int) -> None:
    spots = rack_spots(TABLE, n)
    assert len(spots) == n
    _assert_symmetric(spots)
    _touching_pairs(spots)


def test_rack_size_out_of_range() -> None:
    with pytest.raises(ValueError, match="0..15"):
        rack_spots(TABLE, 16)


# --------------------------------------------------------------- invalid
def _bad(match: str, **kw: object) -> str:
    args: dict[str, object] = {"variant": "free", "balls": (("1", 0.5, 1.0),)}
    args.update(kw)
    with pytest.raises(InvalidPositionError, match=match) as info:
        Position(**args)  # type: ignore[arg-type]
    return str(info.value)


def test_overlapping_balls() -> None:
    msg = _bad("overlap", balls=(("1", 0.5, 1.0), ("2", 0.5, 1.05)))
    assert "1 and 2" in msg and "position: variant=free" in msg
    # Touching exactly is fine (the rack touches).
    Position("free", (("1", 0.5, 1.0), ("2", 0.5, 1.0 + 2 * R)))


@pytest.mark.parametrize("xy", [(0.01, 1.0), (-0.5, 1.0), (0.9, L + 0.2), (0.9, L - R / 2)])
def test_off_the_playing_surface(xy: tuple[float, float]) -> None:
    msg = _bad("off the playing surface", balls=(("3", *xy),))
    assert "ball 3" in msg


@pytest.mark.parametrize(
    ("variant", "ball"), [("free", "16"), ("free", "w1"), ("five_ball", "5"), ("moscow", "")]
)
def test_unknown_ids(variant: str, ball: str) -> None:
    msg = _bad("unknown ball id", variant=variant, balls=((ball, 0.5, 1.0),))
    assert repr(ball) in msg


def test_unknown_id_on_a_shelf() -> None:
    _bad("unknown ball id '99' on shelf 1", shelves=((), ("99",)))


def test_duplicate_ids() -> None:
    _bad("duplicate ball id '1'", balls=(("1", 0.5, 1.0), ("1", 1.0, 2.0)))
    _bad("both on the table and on a shelf", shelves=(("1",), ()))
    _bad("on two shelves", balls=(), shelves=(("4",), ("4",)))
    with pytest.raises(InvalidPositionError, match="duplicate ball id '2'"):
        Position.from_text("variant=free balls=2:0.5,1.0;2:1.0,2.0")


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite(bad: float) -> None:
    _bad("non-finite", balls=(("1", bad, 1.0),))
    _bad("non-finite", balls=(("1", 0.5, bad),))


def test_non_finite_in_json_and_text() -> None:
    # Python's json accepts NaN and Infinity; the position must not.
    with pytest.raises(InvalidPositionError, match="finite"):
        Position.from_json('{"variant": "free", "balls": {"1": [NaN, 1.0]}}')
    with pytest.raises(InvalidPositionError, match="finite"):
        Position.from_text("variant=free balls=1:0.5,inf")


def test_unknown_json_keys() -> None:
    with pytest.raises(InvalidPositionError, match="unknown key.*colour"):
        Position.from_json('{"variant": "free", "colour": "red"}')
    with pytest.raises(InvalidPositionError, match="unknown key.*turn"):
        Position.from_text("variant=free turn=1")


def test_unknown_variant() -> None:
    with pytest.raises(InvalidPositionError, match="unknown variant 'snooker'"):
        Position("snooker", ())
    with pytest.raises(UnknownVariantError, match="unknown variant 'snooker'"):
        Position.start("snooker")
    with pytest.raises(InvalidPositionError, match="unknown variant"):
        Position.from_json('{"variant": "snooker"}')
    assert issubclass(UnknownVariantError, PiramidaError) and issubclass(PiramidaError, ValueError)


def test_bad_in_hand() -> None:
    _bad("in_hand must be null or one of", in_hand="kitchen")
    msg = _bad("in hand but also on the table", balls=(("0", 0.5, 0.5),), in_hand="house")
    assert "ball 0" in msg
    # Five-ball: the cue ball in hand is the mover's own white.
    _bad(
        "ball w2 is in hand",
        variant="five_ball",
        balls=(("w2", 0.5, 0.5),),
        to_move=1,
        in_hand="house",
    )
    Position("five_ball", (("w1", 0.5, 0.5),), to_move=1, in_hand="house")


def test_bad_turn_and_owed() -> None:
    _bad("to_move must be 0 or 1", to_move=2)
    _bad(r"owed penalty balls must be in \[0, 1000\]", owed=(0, -1))
    _bad(r"owed penalty balls must be in \[0, 1000\]", owed=(1001, 0))
    _bad(r"scores in free must be in \[0, 100000\]", score=(-5, 0))
    _bad(r"scores in classic71 must be in \[-100000, 100000\]", variant="classic71", score=(10**300, 0))
    Position("classic71", (), score=(-5, 0))  # fouls deduct points in the classic pyramid
    with pytest.raises(InvalidPositionError, match="'to_move' must be 0 or 1"):
        Position.from_json('{"variant": "free", "to_move": true}')
    with pytest.raises(InvalidPositionError, match="'score' must be two integers"):
        Position.from_json('{"variant": "free", "score": [1.5, 0]}')
    with pytest.raises(InvalidPositionError, match="'break' must be true or false"):
        Position.from_json('{"variant": "free", "break": 1}')


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("variant=free balls=1:0.5", "malformed"),
        ("variant=free balls=1:a,b", "malformed"),
        ("variant=free score=1", "malformed"),
        ("variant=free break=yes", "malformed"),
        ("variant=free shelves=1,2", "malformed"),
        ("balls=1:0.5,1.0", "needs variant"),
        ("variant=free hello", "expected key=value"),
        ("variant=free variant=moscow", "given twice"),
    ],
)
def test_malformed_text(text: str, match: str) -> None:
    with pytest.raises(InvalidPositionError, match=match):
        Position.from_text(text)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("{", "not valid JSON"),
        ("[1, 2]", "must be an object"),
        ('{"balls": {}}', "needs a 'variant'"),
        ('{"variant": "free", "balls": [1, 2]}', "'balls' must be an object"),
        ('{"variant": "free", "balls": {"1": [0.5]}}', "coordinates must be"),
        ('{"variant": "free", "shelves": [[1], []]}', "'shelves' must be two lists"),
    ],
)
def test_malformed_json(text: str, match: str) -> None:
    with pytest.raises(InvalidPositionError, match=match):
        Position.from_json(text)


def test_missing_balls() -> None:
    p = Position("free", (("1", 0.5, 1.0),), shelves=(("2",), ("3",)), in_hand="house")
    assert set(p.missing()) == {str(i) for i in range(4, 16)}


def test_an_unprintable_field_stays_escaped_in_the_one_line_error() -> None:
    # Found by tests/test_bad_input_property.py: in_hand "\r" broke the line.
    import pytest

    from piramida.env.errors import InvalidPositionError
    from piramida.env.position import Position

    with pytest.raises(InvalidPositionError) as err:
        Position("free", (("1", 0.5, 0.5),), in_hand="\r")
    assert "\r" not in str(err.value) and len(str(err.value).splitlines()) == 1


def test_replace_checks_every_field_that_changes() -> None:
    # replace() re-checks only what changes (a position was checked when
    # made); every bad change is still refused, and a change back to the
    # same values gives an equal position.
    p = Position.from_dict(
        {"variant": "combined", "balls": {"0": [0.9, 0.5], "3": [0.9, 2.0]}, "shelves": [["1"], []], "score": [1, 0]}
    )
    assert p.replace(**{k: getattr(p, k) for k in Position.STATE_FIELDS}) == p
    for bad in (
        {"to_move": 2},
        {"in_hand": "house"},  # the cue ball is on the table
        {"in_hand": "nowhere"},
        {"shelves": (("3",), ())},  # on the table too
        {"shelves": (("1",), ("1",))},
        {"owed": (0, -1)},
        {"score": (0, -3)},
    ):
        with pytest.raises(InvalidPositionError):
            p.replace(**bad)
    assert p.replace(to_move=1, score=(1, 0)).to_move == 1


def test_a_position_to_play_from_has_no_ball_inside_a_pocket() -> None:
    # (0, 0), the corner point, is past the corner pocket's mouth line: a
    # shot may leave a ball resting there (the ball drops at the capture
    # line), so the constructor takes it, but no one plays from it.
    inside = Position.parse("variant=free balls=0:0,0;5:0.8875,2.0")
    with pytest.raises(InvalidPositionError, match="ball 0 at .* is inside pocket fl") as exc:
        inside.check_playable()
    assert "\n" not in str(exc.value)
    with pytest.raises(InvalidPositionError, match="inside pocket mr"):
        Position.parse("variant=free balls=1:1.79,1.775").check_playable()
    # Hanging in the jaws, the centre short of the mouth line: playable.
    hanging = Position.parse("variant=free balls=1:0.026,0.026")
    assert hanging.check_playable() is hanging
    for variant in ("free", "classic71", "five_ball"):
        start = Position.start(variant, seed=0)
        assert start.check_playable() is start


def test_a_five_ball_position_keeps_all_its_object_balls_on_the_table() -> None:
    with pytest.raises(InvalidPositionError, match="r2, y must be on the table"):
        Position.parse("variant=five_ball balls=w1:0.5,0.5;r1:0.8875,0.8875").check_playable()
    full = "w1:0.5,0.5;r1:0.8875,0.8875;r2:0.8875,2.6625;y:0.8875,1.775"
    with pytest.raises(InvalidPositionError, match="no shelves"):
        Position.parse(f"variant=five_ball balls={full} shelves=w2|-").check_playable()
    # The other white waits in its owner's hand: not on the table.
    Position.parse(f"variant=five_ball balls={full}").check_playable()
    # A lag table and a shot's outcome (a red just pocketed) are positions too.
    Position("five_ball", (), in_hand="house")
    Position.parse("variant=five_ball balls=w1:0.5,0.5;r2:0.8875,2.6625;y:0.8875,1.775")
