"""Shot: one stroke of the cue (docs/game_rules.md §3, docs/design.md §2).

Text form (round-trips exactly; floats use ``repr``)::

    ball=0 phi=90 v=2.5 a=0 b=0 theta=0 call=5:rl

optionally with ``place=X,Y`` (cue ball in hand) and ``declare_frozen=ID``
(item 20 note 2). ``phi`` is the cue direction in degrees counterclockwise
from the +x axis (phi = 90 points at the rear cushion); ``theta`` the cue
elevation in degrees; ``v`` the cue speed in m/s; ``a`` (side, + right) and
``b`` (height, + top) the tip offset from the ball centre in ball radii.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from piramida.env.errors import IllegalShotError, InvalidShotError
from piramida.env.inputs import brief, check_text, load_json, number
from piramida.env.position import FIVE_BALL_IDS, PYRAMID_IDS, Position
from piramida.env.table import POCKETS

# Limits a demanding user would expect from a real cue.
MAX_SPEED = 12.0  # m/s: a hard break is ~9 m/s.
MIN_SPEED = 0.01  # m/s: slower moves the ball less than a millimetre; noise never goes below it.
MAX_PHI = 3600.0  # |phi| in degrees: ten turns; beyond that a float loses the aim's precision.
MAX_PLACE = 100.0  # |x|, |y| of a placement in metres: off any table, but still arithmetic.
MISCUE_LIMIT = 0.6  # tip offset sqrt(a^2 + b^2) in ball radii beyond which the tip slips.
MAX_THETA = 60.0  # degrees: steeper is a masse the physics does not model.

_KEYS = ("ball", "phi", "v", "a", "b", "theta", "place", "call", "declare_frozen")


def _num(x: float) -> str:
    x = float(x)
    return str(int(x)) if x.is_integer() and abs(x) < 1e15 else repr(x)


def _exact(x: float, _digits: int) -> str:
    return _num(x)


def _rounded(x: float, digits: int) -> str:
    r = round(float(x), digits)
    return f"{r + 0.0:.{digits}f}".rstrip("0").rstrip(".")


#: The ball ids a shot may name: those of every variant (env/position.py).
#: Which of them are on the table is the position's business
#: (``Shot.check_on``, the referee).
BALL_IDS: frozenset[str] = frozenset(PYRAMID_IDS + FIVE_BALL_IDS)
_IDS_TEXT = "0-15, w1, w2, r1, r2, y"


def _check_id(what: str, value: Any) -> None:
    if type(value) is not str or value not in BALL_IDS:
        raise InvalidShotError(f"{what} must be a ball id ({_IDS_TEXT}), got {brief(value, 30)}")


@dataclass(frozen=True)
class Shot:
    """A cue stroke: struck ball, direction, elevation, speed, tip offset,
    placement when the ball is in hand, call, and frozen-ball declaration."""

    ball: str
    phi: float
    v: float
    a: float = 0.0
    b: float = 0.0
    theta: float = 0.0
    place: tuple[float, float] | None = None
    call: tuple[str, str] | None = None
    declare_frozen: str | None = None

    def __post_init__(self) -> None:
        d = self.__dict__
        for name in ("phi", "v", "a", "b", "theta"):
            val = d[name]
            # A plain finite float is what ``number`` would return.
            if type(val) is not float or not math.isfinite(val):
                d[name] = number(val, f"shot {name}", error=InvalidShotError)
        _check_id("shot ball", self.ball)
        if not abs(self.phi) <= MAX_PHI:
            raise InvalidShotError(
                f"shot direction phi must be in [-{MAX_PHI:g}, {MAX_PHI:g}] degrees, got {self.phi:.10g}"
            )
        if not MIN_SPEED <= self.v <= MAX_SPEED:
            raise InvalidShotError(f"shot speed v must be in [{MIN_SPEED}, {MAX_SPEED}] m/s, got {self.v:.10g}")
        if math.hypot(self.a, self.b) > MISCUE_LIMIT + 1e-12:
            raise InvalidShotError(
                f"tip offset (a={self.a}, b={self.b}) is outside the miscue limit "
                f"{MISCUE_LIMIT} ball radii"
            )
        if not 0 <= self.theta <= MAX_THETA:
            raise InvalidShotError(f"cue elevation theta must be in [0, {MAX_THETA}] degrees, got {self.theta}")
        if self.place is not None:
            if not isinstance(self.place, tuple | list) or len(self.place) != 2:
                raise InvalidShotError(f"place must be (x, y), got {brief(self.place)}")
            px, py = (
                number(c, f"place {n}", -MAX_PLACE, MAX_PLACE, InvalidShotError)
                for c, n in zip(self.place, "xy", strict=True)
            )
            object.__setattr__(self, "place", (px, py))
        if self.call is not None:
            if (
                not isinstance(self.call, tuple | list)
                or len(self.call) != 2
                or not all(isinstance(c, str) for c in self.call)
            ):
                raise InvalidShotError(f"call must be (ball, pocket), got {brief(self.call)}")
            _check_id("called ball", self.call[0])
            if self.call[1] not in POCKETS:
                raise InvalidShotError(f"called pocket {brief(self.call[1], 20)} is not one of {', '.join(POCKETS)}")
            object.__setattr__(self, "call", (self.call[0], self.call[1]))
        if self.declare_frozen is not None:
            _check_id("declare_frozen", self.declare_frozen)

    def check_on(self, position: Position) -> None:
        """Raise ``IllegalShotError`` when the shot names a ball ``position``
        does not hold: a called ball or a ball declared frozen (item 20
        note 2) must be on the table, and the declared ball is not the
        struck one. The struck ball itself (on the table or in hand) is
        checked where it is placed (the physics, the referee)."""
        if self.call is not None and self.call[0] not in position:
            raise IllegalShotError(
                f"called ball {self.call[0]} is not on the table (position: {position.to_text()})"
            )
        if self.declare_frozen is not None and (
            self.declare_frozen == self.ball or self.declare_frozen not in position
        ):
            raise IllegalShotError(
                f"declared frozen ball {self.declare_frozen} is not an object ball on the table "
                f"(position: {position.to_text()})"
            )

    def aimed(self, phi: float, v: float | None = None) -> Shot:
        """This stroke with direction ``phi`` (and speed ``v``), both checked
        as the constructor checks them; the other fields were checked when
        this shot was made. An aiming search makes dozens of such strokes
        a decision, and the full check of every field was a few percent of
        it."""
        if type(phi) is not float or not math.isfinite(phi):  # a plain finite float passes as it is
            phi = number(phi, "shot phi", error=InvalidShotError)
        if not abs(phi) <= MAX_PHI:
            raise InvalidShotError(f"shot direction phi must be in [-{MAX_PHI:g}, {MAX_PHI:g}] degrees, got {phi:.10g}")
        out = object.__new__(Shot)
        out.__dict__.update(self.__dict__)
        out.__dict__["phi"] = phi
        if v is not None:
            if type(v) is not float or not math.isfinite(v):
                v = number(v, "shot v", error=InvalidShotError)
            if not MIN_SPEED <= v <= MAX_SPEED:
                raise InvalidShotError(f"shot speed v must be in [{MIN_SPEED}, {MAX_SPEED}] m/s, got {v:.10g}")
            out.__dict__["v"] = v
        return out

    # -------------------------------------------------------------------- text
    def to_text(self, rounded: bool = False) -> str:
        """The text form, exact (it parses back to this shot); ``rounded``
        for reading: phi, v, a, b and theta to 2 decimals, a ball in hand's
        place to 3."""
        num = _rounded if rounded else _exact
        parts = [
            f"ball={self.ball}",
            f"phi={num(self.phi, 2)}",
            f"v={num(self.v, 2)}",
            f"a={num(self.a, 2)}",
            f"b={num(self.b, 2)}",
            f"theta={num(self.theta, 2)}",
        ]
        if self.place is not None:
            parts.append(f"place={num(self.place[0], 3)},{num(self.place[1], 3)}")
        if self.call is not None:
            parts.append(f"call={self.call[0]}:{self.call[1]}")
        if self.declare_frozen is not None:
            parts.append(f"declare_frozen={self.declare_frozen}")
        return " ".join(parts)

    def __str__(self) -> str:
        return self.to_text()

    @classmethod
    def from_text(cls, text: str) -> Shot:
        text = check_text(text, "shot text", InvalidShotError)
        fields: dict[str, str] = {}
        for tok in text.split():
            if "=" not in tok:
                raise InvalidShotError(f"shot text: expected key=value, got {brief(tok, 40)} in {brief(text)}")
            k, v = tok.split("=", 1)
            if k not in _KEYS:
                raise InvalidShotError(f"shot text: unknown key {brief(k, 30)} (known: {', '.join(_KEYS)})")
            if k in fields:
                raise InvalidShotError(f"shot text: key {brief(k, 30)} given twice")
            fields[k] = v
        for need in ("ball", "phi", "v"):
            if need not in fields:
                raise InvalidShotError(f"shot text needs {need}=...: {brief(text)}")
        kw: dict[str, Any] = {"ball": fields["ball"]}
        try:
            for k in ("phi", "v", "a", "b", "theta"):
                if k in fields:
                    kw[k] = float(fields[k])
            if "place" in fields:
                x, y = fields["place"].split(",")
                kw["place"] = (float(x), float(y))
            if "call" in fields:
                cb, cp = fields["call"].split(":")
                kw["call"] = (cb, cp)
        except ValueError:
            raise InvalidShotError(f"shot text is malformed: {brief(text)}") from None
        if "declare_frozen" in fields:
            kw["declare_frozen"] = fields["declare_frozen"]
        return cls(**kw)

    # -------------------------------------------------------------------- JSON
    def to_dict(self) -> dict[str, Any]:
        return {
            "ball": self.ball,
            "phi": self.phi,
            "v": self.v,
            "a": self.a,
            "b": self.b,
            "theta": self.theta,
            "place": list(self.place) if self.place is not None else None,
            "call": list(self.call) if self.call is not None else None,
            "declare_frozen": self.declare_frozen,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, d: Any) -> Shot:
        if not isinstance(d, dict):
            raise InvalidShotError(f"shot JSON must be an object, got {type(d).__name__}")
        unknown = sorted(set(d) - set(_KEYS))
        if unknown:
            raise InvalidShotError(
                f"unknown key(s) in shot JSON: {', '.join(brief(k, 30) for k in unknown)} (known: {', '.join(_KEYS)})"
            )
        for need in ("ball", "phi", "v"):
            if need not in d:
                raise InvalidShotError(f"shot JSON needs {need!r}")
        kw = dict(d)
        if kw.get("place") is not None:
            if not isinstance(kw["place"], list | tuple) or len(kw["place"]) != 2:
                raise InvalidShotError(f"place must be [x, y], got {brief(kw['place'])}")
            kw["place"] = tuple(kw["place"])
        if kw.get("call") is not None:
            if not isinstance(kw["call"], list | tuple) or len(kw["call"]) != 2:
                raise InvalidShotError(f"call must be [ball, pocket], got {brief(kw['call'])}")
            kw["call"] = tuple(kw["call"])
        return cls(**kw)

    @classmethod
    def from_json(cls, text: str) -> Shot:
        return cls.from_dict(load_json(text, "shot", InvalidShotError))

    @classmethod
    def parse(cls, text: str) -> Shot:
        s = check_text(text, "shot", InvalidShotError).strip()
        return cls.from_json(s) if s.startswith(("{", "[")) else cls.from_text(s)

    # ---------------------------------------------------------------- geometry
    @property
    def direction(self) -> tuple[float, float]:
        """Unit vector of the cue direction in the table plane."""
        p = math.radians(self.phi)
        return (math.cos(p), math.sin(p))
