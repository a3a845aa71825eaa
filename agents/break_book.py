"""The break book: opening strokes found offline, offered to the planner.

Every frame of the pyramid games starts from the same position - the full
rack on its spots, the coloured ball in hand in the house (docs/game_rules.md §4.2) -
so the break can be searched far more widely than a 1 s decision allows.
``piramida calibrate breaks --variant V --write`` plays a grid of a few
thousand strokes under ``pro`` noise, judges each sample with the variant's
referee and scores it with the planner's own value, and writes the best
few here (``configs/agents/break_book.toml``).

The book only proposes: the planner adds its strokes to its own break
candidates and the decision-time samples still choose. Its strokes are
offered only where the position is the one they were found in - a break
with the full rack on the standard spots of the table at hand - and never
after a re-rack of an incomplete pyramid.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from piramida.configs import CONFIG_DIR
from piramida.env.errors import PiramidaError
from piramida.env.position import Position, rack_spots
from piramida.env.shot import Shot

BOOK_PATH = CONFIG_DIR / "agents" / "break_book.toml"


class BreakBookError(PiramidaError):
    """The break book is missing a field, or one is not a number."""


@dataclass(frozen=True)
class BookStroke:
    """One stroke of the book and what the study measured for it."""

    place: tuple[float, float]
    phi: float
    v: float
    b: float = 0.0
    target: str = ""
    value: float = math.nan
    p_pot: float = math.nan
    p_legal: float = math.nan
    samples: int = 0

    def shot(self, ball: str) -> Shot:
        return Shot(ball=ball, phi=self.phi, v=self.v, b=self.b, place=self.place)


def _number(entry: dict[str, Any], key: str, where: str) -> float:
    v = entry.get(key)
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(float(v)):
        raise BreakBookError(f"{where}: '{key}' must be a finite number, got {v!r}")
    return float(v)


def parse_book(data: dict[str, Any], source: str = "break book") -> dict[str, tuple[BookStroke, ...]]:
    out: dict[str, tuple[BookStroke, ...]] = {}
    for variant, entries in data.items():
        if not isinstance(entries, list):
            raise BreakBookError(f"{source}: '{variant}' must be a list of strokes ([[{variant}]] tables)")
        strokes = []
        for i, e in enumerate(entries):
            where = f"{source}: {variant} stroke {i + 1}"
            if not isinstance(e, dict):
                raise BreakBookError(f"{where} must be a table")
            place = e.get("place")
            if not isinstance(place, list) or len(place) != 2:
                raise BreakBookError(f"{where}: 'place' must be [x, y], got {place!r}")
            xy = tuple(_number({"place": p}, "place", where) for p in place)
            strokes.append(
                BookStroke(
                    place=(xy[0], xy[1]),
                    phi=_number(e, "phi", where),
                    v=_number(e, "v", where),
                    b=_number(e, "b", where) if "b" in e else 0.0,
                    target=str(e.get("target", "")),
                    value=float(e.get("value", math.nan)),
                    p_pot=float(e.get("p_pot", math.nan)),
                    p_legal=float(e.get("p_legal", math.nan)),
                    samples=int(e.get("samples", 0)),
                )
            )
        out[str(variant)] = tuple(strokes)
    return out


@lru_cache(maxsize=4)
def load_book(path: Path = BOOK_PATH) -> dict[str, tuple[BookStroke, ...]]:
    """The book's strokes by variant; an empty book where there is no file."""
    if not path.exists():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise BreakBookError(f"{path}: not a valid TOML file ({e})") from e
    return parse_book(data, str(path))


def is_standard_rack(pos: Position) -> bool:
    """A break with the full rack on the table's standard spots (the ball
    numbers do not matter) and the cue ball in hand in the house."""
    if not pos.is_break or pos.in_hand != "house" or pos.variant == "five_ball":
        return False
    spots = rack_spots(pos.table, 15)
    if len(pos.balls) != len(spots):
        return False
    have = np.array(sorted((round(x, 6), round(y, 6)) for _, x, y in pos.balls))
    want = np.array(sorted((round(x, 6), round(y, 6)) for x, y in spots))
    return bool(np.allclose(have, want, atol=1e-6))


def book_shots(pos: Position, ball: str, path: Path = BOOK_PATH) -> list[Shot]:
    """The book's strokes for this break, struck with ``ball``; none where
    the position is not the standard rack or the book has no entry."""
    if not is_standard_rack(pos):
        return []
    shots = []
    for s in load_book(path).get(pos.variant, ()):
        if pos.table.in_house(*s.place):
            shots.append(s.shot(ball))
    return shots


def _toml_value(v: Any) -> str:
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(round(v, 6))
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {v!r} to the break book")


HEADER = """\
# The break book (agents/break_book.py): the best breaks of a full rack found
# by piramida calibrate breaks --variant V --write under pro noise. The
# planner adds these strokes to its break candidates; its samples choose.
# value: the planner's mean value of the stroke; p_pot: share of samples on
# which the breaker scored (with the ball a свояк earns in the one-cue-ball
# pyramids); p_legal: share ruled legal; samples: how many.
"""


def write_entries(variant: str, rows: list[dict[str, Any]], path: Path = BOOK_PATH) -> None:
    """Replace ``variant``'s strokes in the book with ``rows`` (study rows)."""
    book: dict[str, list[dict[str, Any]]] = {}
    if path.exists():
        book = {k: [vars(s) for s in v] for k, v in load_book(path).items()}
    book[variant] = [
        {
            "target": r.get("target", ""),
            "place": [float(r["place"][0]), float(r["place"][1])],
            "phi": float(r["phi"]),
            "v": float(r["v"]),
            "b": float(r.get("b", 0.0)),
            "value": float(r.get("value", math.nan)),
            "p_pot": float(r.get("p_pot", math.nan)),
            "p_legal": float(r.get("p_legal", math.nan)),
            "samples": int(r.get("samples", 0)),
        }
        for r in rows
    ]
    lines = [HEADER]
    for v in sorted(book):
        for e in book[v]:
            lines.append(f"[[{v}]]")
            for k in ("target", "place", "phi", "v", "b", "value", "p_pot", "p_legal", "samples"):
                val = e[k]
                if isinstance(val, tuple):
                    val = list(val)
                lines.append(f"{k} = {_toml_value(val)}")
            lines.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")
    load_book.cache_clear()


__all__ = [
    "BOOK_PATH",
    "BookStroke",
    "BreakBookError",
    "book_shots",
    "is_standard_rack",
    "load_book",
    "parse_book",
    "write_entries",
]
