"""Position: where the balls are and the state of the frame between shots.

A Position is a small frozen value. It serialises two ways, both round-trip
exactly (floats are written with ``repr``):

JSON (the public interchange format, docs/design.md §2)::

    {"variant": "free", "balls": {"0": [x, y], ...}, "shelves": [[...], [...]],
     "score": [s0, s1], "owed": [n0, n1], "to_move": 0, "in_hand": null,
     "break": false}

Text (one line, like FEN)::

    variant=free balls=0:0.8875,0.5;1:0.8875,2.6625 shelves=3,5|- score=2,0
    owed=0,0 to_move=0 in_hand=- break=0

``balls`` holds only the balls on the table. A ball in hand is the struck
ball of the player to move (the coloured ball ``0`` in the pyramid games, the
shooter's white in five-ball) and is absent from ``balls``.

``rail`` (JSON ``"rail": {"3": [x, y]}``, text ``rail=3:x,y``; written only
when not empty) holds the balls that jumped and came to rest on top of the
cushion or the rail, where they rest: off the bed, within ``RAIL_REACH`` of
the cushion nose lines, not over a pocket. Only the position a recorded shot
ends in holds one (seed 003, special cases): the referee places it against
the cushion before the next shot, and no shot is played with one there.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from piramida.env.errors import InvalidPositionError, UnknownVariantError
from piramida.env.inputs import brief, check_text, load_json, number
from piramida.env.table import Table

PYRAMID_VARIANTS: tuple[str, ...] = (
    "free",
    "combined",
    "moscow",
    "nevskaya",
    "dynamic",
    "classic71",
)
VARIANTS: tuple[str, ...] = PYRAMID_VARIANTS + ("five_ball",)
IN_HAND: tuple[str, ...] = ("house", "rear_house", "anywhere")

PYRAMID_IDS: tuple[str, ...] = tuple(str(i) for i in range(16))
FIVE_BALL_IDS: tuple[str, ...] = ("w1", "w2", "r1", "r2", "y")
COLOURED = "0"

# docs/game_rules.md §2: classic pyramid fixed rack, apex to base.
CLASSIC_RACK: tuple[tuple[str, ...], ...] = (
    ("4",),
    ("5", "6"),
    ("7", "15", "8"),
    ("9", "14", "13", "10"),
    ("2", "1", "12", "11", "3"),
)

_JSON_KEYS = ("variant", "balls", "shelves", "score", "owed", "to_move", "in_hand", "break", "rail")
_TEXT_KEYS = _JSON_KEYS
#: How far beyond a cushion's nose line the top of the cushion and the rail
#: reach, metres (the pictures draw them so: env/render/common.py).
RAIL_REACH = 0.14

#: Scores a position may hold. Fouls may push a point game's score below
#: zero (classic71 deducts up to 30 points a foul) and a frame may run to
#: 1000 shots (env/game.py), so the bound is loose; a ball game's score is
#: never negative.
MAX_SCORE = 100_000
POINT_VARIANTS: tuple[str, ...] = ("classic71", "five_ball")
#: Penalty balls owed: a player who fouls with an empty shelf owes one more
#: each time (offender_returns), at most one a shot of a 1000-shot frame.
MAX_OWED = 1000


def check_variant(variant: str) -> str:
    if variant not in VARIANTS:
        raise UnknownVariantError(f"unknown variant {brief(variant, 40)}; known: {', '.join(VARIANTS)}")
    return variant


def ball_ids(variant: str) -> tuple[str, ...]:
    """Every ball id of a variant."""
    check_variant(variant)
    return FIVE_BALL_IDS if variant == "five_ball" else PYRAMID_IDS


def object_ball_ids(variant: str) -> tuple[str, ...]:
    """The object balls: 1..15 in pyramid; r1, r2, y in five-ball (the
    whites are cue balls)."""
    return ("r1", "r2", "y") if check_variant(variant) == "five_ball" else PYRAMID_IDS[1:]


def cue_ball_of(variant: str, player: int) -> str:
    """The ball a player strikes when it is not a free choice: the coloured
    ball in pyramid, the player's own white in five-ball (docs/game_rules.md §5.7)."""
    if check_variant(variant) == "five_ball":
        return "w1" if player == 0 else "w2"
    return COLOURED


def _fmt(x: float) -> str:
    return repr(float(x))


def _coord(x: float) -> str:
    """A coordinate for a message: millimetres, or short when absurd."""
    return f"{x:.4f}" if abs(x) < 1e6 else f"{x:.4g}"


@dataclass(frozen=True)
class Position:
    """Balls on the table plus the frame state between shots."""

    variant: str
    balls: tuple[tuple[str, float, float], ...]
    shelves: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    score: tuple[int, int] = (0, 0)
    owed: tuple[int, int] = (0, 0)
    to_move: int = 0
    in_hand: str | None = None
    is_break: bool = False
    #: Balls resting on the cushion rail, off the bed (seed 003, special cases).
    rail: tuple[tuple[str, float, float], ...] = ()
    table: Table = field(default_factory=Table.default, compare=False, hash=False, repr=False)

    # ------------------------------------------------------------ construction
    def __post_init__(self) -> None:
        try:
            balls = tuple(sorted(((str(b), float(x), float(y)) for b, x, y in self.balls), key=_id_key))
            shelves = (tuple(self.shelves[0]), tuple(self.shelves[1]))
            score = (int(self.score[0]), int(self.score[1]))
            owed = (int(self.owed[0]), int(self.owed[1]))
            rail = tuple(sorted(((str(b), float(x), float(y)) for b, x, y in self.rail), key=_id_key))
        except (TypeError, ValueError, OverflowError, IndexError) as exc:
            raise InvalidPositionError(f"position fields are malformed: {exc}") from None
        object.__setattr__(self, "balls", balls)
        object.__setattr__(self, "rail", rail)
        object.__setattr__(self, "shelves", shelves)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "owed", owed)
        self._validate()

    #: The frame state: fields whose change leaves the balls' own checks
    #: (ids, surface, overlaps) as they were.
    STATE_FIELDS = frozenset({"shelves", "score", "owed", "to_move", "in_hand", "is_break"})

    def moved(self, balls: tuple[tuple[str, float, float], ...]) -> Position:
        """This position with ``balls`` (a subset of its own, in its order,
        moved) and nothing else changed, without validating again.

        For the physics' final position only: the event loop never overlaps
        balls or leaves one off the surface (tests/env/physics property
        tests), and validating a position costs as much as simulating a
        short shot. Everything else builds positions through the checked
        constructor."""
        out = object.__new__(Position)
        out.__dict__.update(self.__dict__)
        out.__dict__["balls"] = balls
        return out

    @classmethod
    def from_balls(cls, variant: str, balls: Mapping[str, tuple[float, float]], **kw: Any) -> Position:
        return cls(variant, tuple((b, xy[0], xy[1]) for b, xy in balls.items()), **kw)

    def _fail(self, msg: str) -> None:
        try:
            text = self._text_unchecked()
        except Exception:  # pragma: no cover - text of a badly broken position
            text = repr(self.balls)
        # A field given by the user (an in_hand of "\r", say) must not break
        # the one-line error: unprintable characters are shown escaped.
        text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
        raise InvalidPositionError(f"{msg} (position: {text})")

    def _validate(self) -> None:
        try:
            check_variant(self.variant)
        except UnknownVariantError as exc:
            raise InvalidPositionError(str(exc)) from None
        known = set(ball_ids(self.variant))
        seen = self._validate_balls(known)
        self._validate_state(known, seen)
        self._validate_overlaps()

    def _validate_balls(self, known: set[str]) -> set[str]:
        seen: set[str] = set()
        t = self.table
        for b, x, y in self.balls:
            if b not in known:
                self._fail(f"unknown ball id {b!r} for variant {self.variant}")
            if b in seen:
                self._fail(f"duplicate ball id {b!r}")
            seen.add(b)
            if not (math.isfinite(x) and math.isfinite(y)):
                self._fail(f"ball {b} has a non-finite coordinate ({x}, {y})")
            if not t.on_surface(x, y):
                self._fail(f"ball {b} at ({_coord(x)}, {_coord(y)}) is off the playing surface")
        if self.rail:
            self._validate_rail(known, seen)
        return seen

    def _validate_rail(self, known: set[str], seen: set[str]) -> None:
        """Balls on the rail: known ids, not also on the bed, each off the
        bed and within ``RAIL_REACH`` of the nose lines, not over a pocket,
        none overlapping another on the rail."""
        t = self.table
        r = t.ball_radius
        for b, x, y in self.rail:
            if b not in known:
                self._fail(f"unknown ball id {b!r} on the rail for variant {self.variant}")
            if b in seen:
                self._fail(f"ball {b} is both on the rail and on the table, or twice on the rail")
            seen.add(b)
            if not (math.isfinite(x) and math.isfinite(y)):
                self._fail(f"ball {b} on the rail has a non-finite coordinate ({x}, {y})")
            on_bed = 0.0 <= x <= t.width and 0.0 <= y <= t.length
            reach = -RAIL_REACH <= x <= t.width + RAIL_REACH and -RAIL_REACH <= y <= t.length + RAIL_REACH
            if on_bed or not reach:
                self._fail(
                    f"ball {b} at ({_coord(x)}, {_coord(y)}) is not on the rail: its centre must lie beyond "
                    f"a cushion's nose line by at most {RAIL_REACH} m"
                )
            for name, p in t.pockets.items():
                cx, cy = p.mouth_centre
                if math.hypot(x - cx, y - cy) < p.mouth / 2 + r:
                    self._fail(f"ball {b} at ({_coord(x)}, {_coord(y)}) is over pocket {name}, not on the rail")
        for i, (bi, xi, yi) in enumerate(self.rail):
            for bj, xj, yj in self.rail[i + 1 :]:
                if math.hypot(xi - xj, yi - yj) < 2 * r - 1e-9:
                    self._fail(f"balls {bi} and {bj} overlap on the rail")

    def _validate_state(self, known: set[str], seen: set[str]) -> None:
        for i, shelf in enumerate(self.shelves):
            for b in shelf:
                if b not in known:
                    self._fail(f"unknown ball id {b!r} on shelf {i}")
                if b in seen:
                    self._fail(f"ball {b} is both on the table and on a shelf, or on two shelves")
                seen.add(b)
        if self.to_move not in (0, 1):
            self._fail(f"to_move must be 0 or 1, got {self.to_move!r}")
        if self.in_hand is not None and self.in_hand not in IN_HAND:
            self._fail(f"in_hand must be null or one of {IN_HAND}, got {self.in_hand!r}")
        if self.in_hand is not None:
            cue = cue_ball_of(self.variant, self.to_move)
            if cue in seen:
                self._fail(f"ball {cue} is in hand but also on the table or a shelf")
        if any(not 0 <= n <= MAX_OWED for n in self.owed):
            self._fail(f"owed penalty balls must be in [0, {MAX_OWED}], got {list(self.owed)}")
        lo = -MAX_SCORE if self.variant in POINT_VARIANTS else 0
        if any(not lo <= n <= MAX_SCORE for n in self.score):
            self._fail(f"scores in {self.variant} must be in [{lo}, {MAX_SCORE}], got {list(self.score)}")

    def _validate_overlaps(self) -> None:
        # Touching within float error is allowed (the rack touches).
        r = self.table.ball_radius
        n = len(self.balls)
        tol = 1e-9
        d = 2 * r - tol
        for i in range(n):
            bi, xi, yi = self.balls[i]
            for j in range(i + 1, n):
                bj, xj, yj = self.balls[j]
                # The box test only skips pairs hypot would clear anyway.
                if abs(xi - xj) < d and abs(yi - yj) < d and math.hypot(xi - xj, yi - yj) < d:
                    self._fail(
                        f"balls {bi} and {bj} overlap (centres "
                        f"{math.hypot(xi - xj, yi - yj) * 1000:.2f} mm apart, diameter {2 * r * 1000:.0f} mm)"
                    )

    def check_playable(self) -> Position:
        """This position, if a player can play from it as it is given from
        outside (the command line, the web API); else ``InvalidPositionError``.

        Beyond the constructor's checks (which every position passes, the
        physics' final ones included):

        - no ball's centre is past a pocket's mouth line: such a ball is
          inside the pocket (docs/game_rules.md §1); one hanging in the jaws
          has its centre short of the line. The simulation lets a ball drop
          only at the capture line, so a shot may leave one resting a few
          millimetres past the mouth: that position is a shot's outcome (an
          ``after``), read without this check;
        - five balls: r1, r2 and y are on the table and the shelves are empty
          (no ball stays off the table, docs/game_rules.md §5.7; a white is
          on the table or waits in its owner's hand)."""
        t = self.table
        for b, x, y in self.balls:
            for name, p in t.pockets.items():
                u, v = p.local(x, y)
                if u > 1e-9 and abs(v) <= p.mouth / 2:
                    self._fail(f"ball {b} at ({_coord(x)}, {_coord(y)}) is inside pocket {name} (past its mouth line)")
        if self.variant == "five_ball":
            missing = [b for b in object_ball_ids("five_ball") if b not in self]
            if missing:
                self._fail(
                    f"five balls: {', '.join(missing)} must be on the table "
                    "(no ball stays off the table, docs/game_rules.md §5.7)"
                )
            if self.shelves != ((), ()):
                self._fail("five balls has no shelves: pocketed balls come back to the table")
        return self

    # ------------------------------------------------------------------ access
    @property
    def ball_map(self) -> dict[str, tuple[float, float]]:
        return {b: (x, y) for b, x, y in self.balls}

    @property
    def rail_map(self) -> dict[str, tuple[float, float]]:
        """The balls resting on the rail (``rail``), by id."""
        return {b: (x, y) for b, x, y in self.rail}

    def __contains__(self, ball: object) -> bool:
        # A plain loop: asked of every ball of every sample a planner judges.
        for b, _, _ in self.balls:
            if b == ball:
                return True
        return False

    def xy(self, ball: str) -> tuple[float, float]:
        for b, x, y in self.balls:
            if b == ball:
                return (x, y)
        raise KeyError(ball)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple([b for b, _, _ in self.balls])

    def missing(self) -> tuple[str, ...]:
        """Balls of the variant neither on the table nor on a shelf nor in
        hand (pocketed or jumped, waiting to be re-spotted)."""
        present = set(self.ids) | set(self.shelves[0]) | set(self.shelves[1]) | {b for b, _, _ in self.rail}
        if self.in_hand is not None:
            present.add(cue_ball_of(self.variant, self.to_move))
        return tuple(b for b in ball_ids(self.variant) if b not in present)

    def with_balls(self, balls: Mapping[str, tuple[float, float]]) -> Position:
        return replace(self, balls=tuple((b, xy[0], xy[1]) for b, xy in balls.items()))

    def replace(self, **kw: Any) -> Position:
        """This position with ``kw`` changed, checked. When only the frame
        state changes (not the balls, table or variant), the balls' own
        checks are not repeated: the referee moves to the next player this
        way several times a shot. New balls get every check the constructor
        makes, without the dataclass machinery around them (the referee
        builds the position after each shot this way, and an aiming search
        judges dozens of shots a decision)."""
        new_balls = "balls" in kw
        if not kw.keys() - {"balls"} <= self.STATE_FIELDS:
            return replace(self, **kw)
        out = object.__new__(Position)
        out.__dict__.update(self.__dict__)
        out.__dict__.update(kw)
        try:
            if new_balls:
                out.__dict__["balls"] = tuple(
                    sorted(((str(b), float(x), float(y)) for b, x, y in out.balls), key=_id_key)
                )
            if "shelves" in kw:
                out.__dict__["shelves"] = (tuple(out.shelves[0]), tuple(out.shelves[1]))
            if "score" in kw:
                out.__dict__["score"] = (int(out.score[0]), int(out.score[1]))
            if "owed" in kw:
                out.__dict__["owed"] = (int(out.owed[0]), int(out.owed[1]))
        except (TypeError, ValueError, OverflowError, IndexError) as exc:
            raise InvalidPositionError(f"position fields are malformed: {exc}") from None
        if new_balls:
            known = set(ball_ids(out.variant))
            out._validate_state(known, out._validate_balls(known))
            out._validate_overlaps()
            return out
        # This position was checked when it was made: only a field that
        # changes can make the new one wrong (the referee passes the whole
        # frame state, most of it unchanged, several times a shot).
        old, now = self.__dict__, out.__dict__
        if any(now[k] != old[k] for k in kw):
            out._validate_state(set(ball_ids(out.variant)), {b for b, _, _ in out.balls})
        return out

    # -------------------------------------------------------------------- JSON
    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "balls": {b: [x, y] for b, x, y in self.balls},
            "shelves": [list(self.shelves[0]), list(self.shelves[1])],
            "score": list(self.score),
            "owed": list(self.owed),
            "to_move": self.to_move,
            "in_hand": self.in_hand,
            "break": self.is_break,
        } | ({"rail": {b: [x, y] for b, x, y in self.rail}} if self.rail else {})

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, d: Any, table: Table | None = None) -> Position:
        if not isinstance(d, dict):
            raise InvalidPositionError(f"position JSON must be an object, got {type(d).__name__}")
        unknown = sorted(set(d) - set(_JSON_KEYS))
        if unknown:
            raise InvalidPositionError(
                f"unknown key(s) in position JSON: {', '.join(brief(k, 30) for k in unknown)} "
                f"(known: {', '.join(_JSON_KEYS)})"
            )
        if "variant" not in d:
            raise InvalidPositionError("position JSON needs a 'variant'")
        variant = d["variant"]
        if not isinstance(variant, str):
            raise InvalidPositionError(f"variant must be a string, got {brief(variant)}")
        balls = _coordinates(d.get("balls", {}), "balls", "ball")
        shelves = d.get("shelves", [[], []])
        if (
            not isinstance(shelves, list | tuple)
            or len(shelves) != 2
            or not all(isinstance(s, list | tuple) and all(isinstance(b, str) for b in s) for s in shelves)
        ):
            raise InvalidPositionError(f"'shelves' must be two lists of ball ids (strings), got {brief(shelves)}")
        score = _pair(d.get("score", [0, 0]), "score")
        owed = _pair(d.get("owed", [0, 0]), "owed")
        to_move = d.get("to_move", 0)
        if isinstance(to_move, bool) or not isinstance(to_move, int) or to_move not in (0, 1):
            raise InvalidPositionError(f"'to_move' must be 0 or 1, got {brief(to_move)}")
        in_hand = d.get("in_hand")
        if in_hand is not None and not isinstance(in_hand, str):
            raise InvalidPositionError(f"'in_hand' must be null or one of {', '.join(IN_HAND)}, got {brief(in_hand)}")
        brk = d.get("break", False)
        if not isinstance(brk, bool):
            raise InvalidPositionError(f"'break' must be true or false, got {brief(brk)}")
        rail = _coordinates(d.get("rail", {}), "rail", "rail ball")
        kw: dict[str, Any] = {}
        if table is not None:
            kw["table"] = table
        return cls(
            variant,
            tuple(balls),
            (tuple(shelves[0]), tuple(shelves[1])),
            score,
            owed,
            int(to_move),
            in_hand,
            brk,
            tuple(rail),
            **kw,
        )

    @classmethod
    def from_json(cls, text: str, table: Table | None = None) -> Position:
        return cls.from_dict(load_json(text, "position", InvalidPositionError), table)

    # -------------------------------------------------------------------- text
    def _text_unchecked(self) -> str:
        balls = ";".join(f"{b}:{_fmt(x)},{_fmt(y)}" for b, x, y in self.balls) or "-"
        shelves = "|".join(",".join(s) or "-" for s in self.shelves)
        return (
            f"variant={self.variant} balls={balls} shelves={shelves} "
            f"score={self.score[0]},{self.score[1]} owed={self.owed[0]},{self.owed[1]} "
            f"to_move={self.to_move} in_hand={self.in_hand or '-'} break={int(self.is_break)}"
        ) + (" rail=" + ";".join(f"{b}:{_fmt(x)},{_fmt(y)}" for b, x, y in self.rail) if self.rail else "")

    def to_text(self) -> str:
        return self._text_unchecked()

    def __str__(self) -> str:
        return self.to_text()

    @classmethod
    def from_text(cls, text: str, table: Table | None = None) -> Position:
        text = check_text(text, "position text", InvalidPositionError)
        fields: dict[str, str] = {}
        for tok in text.split():
            if "=" not in tok:
                raise InvalidPositionError(f"position text: expected key=value, got {brief(tok)}")
            k, v = tok.split("=", 1)
            if k in fields:
                raise InvalidPositionError(f"position text: key {brief(k, 30)} given twice")
            fields[k] = v
        unknown = sorted(set(fields) - set(_TEXT_KEYS))
        if unknown:
            raise InvalidPositionError(
                f"position text: unknown key(s) {', '.join(brief(k, 30) for k in unknown)} "
                f"(known: {', '.join(_TEXT_KEYS)})"
            )
        if "variant" not in fields:
            raise InvalidPositionError("position text needs variant=NAME")
        d: dict[str, Any] = {"variant": fields["variant"]}
        try:
            for key in ("balls", "rail"):
                if fields.get(key, "-") == "-":
                    continue
                balls: dict[str, list[float]] = {}
                for item in fields[key].split(";"):
                    b, xy = item.split(":")
                    x, y = xy.split(",")
                    if b in balls:
                        raise InvalidPositionError(f"duplicate ball id {brief(b, 20)}")
                    balls[b] = [float(x), float(y)]
                d[key] = balls
            if "shelves" in fields:
                parts = fields["shelves"].split("|")
                if len(parts) != 2:
                    raise ValueError("shelves needs two parts separated by |")
                d["shelves"] = [[] if p == "-" else p.split(",") for p in parts]
            for key in ("score", "owed"):
                if key in fields:
                    a, b = fields[key].split(",")
                    d[key] = [int(a), int(b)]
            if "to_move" in fields:
                d["to_move"] = int(fields["to_move"])
            if "in_hand" in fields:
                d["in_hand"] = None if fields["in_hand"] == "-" else fields["in_hand"]
            if "break" in fields:
                if fields["break"] not in ("0", "1"):
                    raise ValueError("break must be 0 or 1")
                d["break"] = fields["break"] == "1"
        except InvalidPositionError:
            raise
        except ValueError as exc:
            raise InvalidPositionError(f"position text is malformed ({brief(str(exc), 80)}): {brief(text, 120)}") from None
        return cls.from_dict(d, table)

    @classmethod
    def parse(cls, text: str, table: Table | None = None) -> Position:
        """JSON if it starts with '{' (or '[', refused), else the text form."""
        s = check_text(text, "position", InvalidPositionError).strip()
        if s.startswith(("{", "[")):  # a JSON list is refused as JSON, not as text
            return cls.from_json(s, table)
        return cls.from_text(s, table)

    # -------------------------------------------------------------------- start
    @classmethod
    def start(cls, variant: str, seed: int | None = 0, table: Table | None = None) -> Position:
        """The start position of a frame (docs/game_rules.md §2, §5.7).

        Pyramid games: the rack of item 8, coloured ball in hand in the house,
        the break to come. Classic pyramid uses the fixed numbered order; the
        others a seeded shuffle. Five-ball: r1 on the front spot, y on the
        centre spot, r2 on the rear spot, w1 in hand in the house (docs/game_rules.md
        §5.7 interpretation: the start spots).
        """
        check_variant(variant)
        t = table or Table.default()
        if variant == "five_ball":
            balls = {"r1": t.front_spot, "y": t.centre_spot, "r2": t.rear_spot}
            return cls.from_balls(variant, balls, in_hand="house", is_break=True, table=t)
        if variant == "classic71":
            order = [b for row in CLASSIC_RACK for b in row]
        else:
            order = [str(i) for i in range(1, 16)]
            random.Random(seed).shuffle(order)
        spots = rack_spots(t, 15)
        balls = dict(zip(order, spots, strict=True))
        return cls.from_balls(variant, balls, in_hand="house", is_break=True, table=t)



def _coordinates(value: Any, key: str, what: str) -> list[tuple[str, float, float]]:
    """The JSON object ``key`` of ball id -> [x, y] as (id, x, y) triples."""
    if not isinstance(value, dict):
        raise InvalidPositionError(f"'{key}' must be an object of id -> [x, y]")
    out: list[tuple[str, float, float]] = []
    for b, xy in value.items():
        if not isinstance(xy, list | tuple) or len(xy) != 2:
            raise InvalidPositionError(f"{what} {brief(b, 20)}: coordinates must be [x, y] numbers, got {brief(xy)}")
        x = number(xy[0], f"{what} {brief(b, 20)} x", error=InvalidPositionError)
        y = number(xy[1], f"{what} {brief(b, 20)} y", error=InvalidPositionError)
        out.append((b, x, y))
    return out

def _pair(v: Any, name: str) -> tuple[int, int]:
    if (
        not isinstance(v, list | tuple)
        or len(v) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in v)
    ):
        raise InvalidPositionError(f"'{name}' must be two integers, got {brief(v)}")
    return (v[0], v[1])


def _id_key(item: tuple[str, float, float]) -> tuple[int, int, str]:
    b = item[0]
    return (0, int(b), "") if b.isdigit() else (1, 0, b)


def triangle_slots(table: Table) -> list[list[tuple[float, float]]]:
    """The 15 slots of the full triangle, row by row from the apex: apex on the
    rear spot, base parallel to and toward the rear cushion, touching balls."""
    r = table.ball_radius
    x0, y0 = table.rear_spot
    rows = []
    for k in range(5):
        y = y0 + k * math.sqrt(3) * r
        rows.append([(x0 + (j - k / 2) * 2 * r, y) for j in range(k + 1)])
    return rows


def rack_spots(table: Table, n: int) -> list[tuple[float, float]]:
    """Spots for racking ``n`` balls (docs/game_rules.md §2, item 8 note).

    Full rows are filled from the apex; the remaining balls go into the next
    row from the middle outward, symmetric about the long axis. When the
    remainder cannot be symmetric in that row (its parity differs from the
    row's), the apex ball is moved into that row too (docs/game_rules.md §2: "if
    symmetry needs it, move the apex ball into the base row"); the other balls
    keep their triangle slots, so the apex spot is then empty.
    """
    if not 0 <= n <= 15:
        raise ValueError(f"a pyramid rack holds 0..15 balls, got {n}")
    rows = triangle_slots(table)
    full = 0
    while full < 5 and (full + 1) * (full + 2) // 2 <= n:
        full += 1
    rem = n - full * (full + 1) // 2
    spots = [s for row in rows[:full] for s in row]
    if rem == 0:
        return spots
    row = rows[full]
    if (len(row) - rem) % 2 == 1:
        spots = spots[1:]  # move the apex ball into the base row
        rem += 1
    skip = (len(row) - rem) // 2
    return spots + row[skip : skip + rem]

