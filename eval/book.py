"""Books of start positions: mid-frame positions a tournament's pairs
start from instead of the break (docs/evaluation.md, "Books of start
positions").

In free pyramid the break decides most frames between near-equal agents:
each wins the frame it breaks, the pair splits 1-1 and says nothing about
which is stronger. Chess testing starts its games from a book of balanced
openings for the same reason. A book here is a list of positions taken a
few shots into self-play frames; pair ``k`` of a tournament with a book
starts both its games from position ``k mod N`` (the seats swapped, the
noise streams shared, as from a rack), so each agent plays the side to
move once.

A book file is JSON Lines: a header ``{"piramida_book": 1, "variant",
"agent", "noise", "seed", "after_shots", "in_hand", "positions", ...}``,
then one line a position: ``{"position": POSITION_JSON, "frame": F,
"shot": K}`` (the position with its frame state - score, shelves, balls
owed, the player to move, a ball in hand - in env/position.py's JSON, and
where it came from: frame ``F`` of the self-play, before its shot ``K``).

``make_book`` plays frames of one agent against itself (frame ``f`` is
pair ``f`` of the match seeding, env/driver.py) and takes from each at most
one position, at a shot drawn from ``after_shots`` to ``2 * after_shots``
(or the first one after it that qualifies). A position qualifies when the
next decision is a stroke (no choice pending), the frame is not over and
not decided (one player leads by half the target or more, or needs an
eighth of it or less: one ball of eight), and no ball is in hand (unless
``in_hand``). A position keeps everything a frame starts from except the fouls charged so
far in a points game (a statistic of the frame, not a rule's input) and,
in classic 71, who broke the first rack (a tie re-racks with the other
player breaking): the player to move counts as the one who broke.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from piramida.env.errors import InvalidPositionError, PiramidaError
from piramida.env.inputs import brief, load_json
from piramida.env.position import VARIANTS, Position

BOOK_VERSION = 1
#: A book's positions at most, and its file's size at most.
MAX_POSITIONS = 100_000
MAX_BYTES = 64 * 2**20
#: Shots past the drawn one a frame is searched for a position that qualifies.
SEARCH_SHOTS = 12
#: Frames played per position wanted before giving up.
FRAMES_PER_POSITION = 20
#: Coordinates are written to the micrometre (a position that rounding would
#: make overlap is written as it is).
DIGITS = 6
_TAG = 0xB00C


class BookError(PiramidaError):
    """A book that cannot be read or made."""


@dataclass(frozen=True)
class Book:
    """A book read from a file: its variant, positions and digest (of
    the positions alone, so that a header's notes do not change it)."""

    path: str
    variant: str
    positions: tuple[Position, ...]
    digest: str
    header: dict[str, Any]

    def start(self, pair: int) -> Position:
        """The start position of pair ``pair``: position ``pair mod N``."""
        return self.positions[pair % len(self.positions)]


def digest_of(positions: Sequence[Position]) -> str:
    """The identity of a list of positions (hex, 16 digits)."""
    h = hashlib.sha256()
    for p in positions:
        h.update(json.dumps(p.to_dict(), sort_keys=True, separators=(",", ":")).encode())
        h.update(b"\n")
    return h.hexdigest()[:16]


def decided(position: Position, target: int) -> bool:
    """Whether a frame at ``position`` is as good as decided: one player
    leads by half the target or more, or needs an eighth of it or less
    (one ball of eight; 8 of classic 71's points; balls owed counted as
    scored)."""
    s = [position.score[i] + position.owed[i] for i in (0, 1)]
    return 2 * abs(s[0] - s[1]) >= target or max(s) >= target - max(1.0, target / 8)


def qualifies(state: Any, target: int, in_hand: bool) -> bool:
    """Whether a frame's state may start a book's pairs (module docstring)."""
    p = state.position
    return (
        not state.over
        and state.next.kind == "shot"
        and state.pending is None
        and not p.is_break
        and (in_hand or p.in_hand is None)
        and not decided(p, target)
    )


def compact(position: Position) -> dict[str, Any]:
    """The position's JSON with its coordinates rounded to ``DIGITS``
    (unless that would make two balls overlap)."""
    d = position.to_dict()
    for key in ("balls", "rail"):
        if key in d:
            d[key] = {b: [round(x, DIGITS), round(y, DIGITS)] for b, (x, y) in d[key].items()}
    try:
        Position.from_dict(d, position.table)
    except InvalidPositionError:
        return position.to_dict()
    return d


def make_book(
    variant: str,
    positions: int,
    *,
    agent: str = "greedy",
    after_shots: int = 4,
    seed: int = 0,
    noise: str = "pro",
    in_hand: bool = False,
    on_position: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """``positions`` book lines (``{"position", "frame", "shot"}``) from
    frames of ``agent`` against itself; ``on_position(found, frames)``
    after each position found."""
    import numpy as np

    from piramida.agents.specs import parse_spec
    from piramida.env.driver import FrameDriver
    from piramida.env.rules import get_referee

    if variant not in VARIANTS:
        raise BookError(f"unknown variant {brief(variant, 30)}; known: {', '.join(VARIANTS)}")
    if not 1 <= positions <= MAX_POSITIONS:
        raise BookError(f"positions must be from 1 to {MAX_POSITIONS}, got {positions}")
    if not 1 <= after_shots <= 200:
        raise BookError(f"after_shots must be from 1 to 200, got {after_shots}")
    spec = parse_spec(agent)
    players = [spec.build(spec.defaults({"noise": noise})) for _ in (0, 1)]
    target = int(get_referee(variant).target())
    driver = FrameDriver(variant, noise)
    out: list[dict[str, Any]] = []
    frames = positions * FRAMES_PER_POSITION
    for f in range(frames):
        if len(out) >= positions:
            break
        rng = np.random.default_rng([seed, f, _TAG])
        at = after_shots + int(rng.integers(after_shots + 1))
        game = driver.reset(seed, f)

        def stop(view: Any, at: int = at, game: Any = game) -> bool:
            return game.shots >= at and (qualifies(game.state, target, in_hand) or game.shots >= at + SEARCH_SHOTS)

        driver.play(players, until=stop, max_shots=at + SEARCH_SHOTS)
        if game.shots >= at and qualifies(game.state, target, in_hand):
            out.append({"position": compact(game.state.position), "frame": f, "shot": game.shots + 1})
            if on_position is not None:
                on_position(len(out), f + 1)
    if len(out) < positions:
        raise BookError(f"only {len(out)} of {positions} positions qualified in {frames} frames of {agent} "
                        f"in {variant}; try fewer --after-shots or --in-hand")
    return out


def book_header(variant: str, lines: Sequence[dict[str, Any]], **notes: Any) -> dict[str, Any]:
    """A book's first line."""
    return {"piramida_book": BOOK_VERSION, "variant": variant, "positions": len(lines)} | notes


def write_book(path: str | Path, header: dict[str, Any], lines: Sequence[dict[str, Any]]) -> None:
    """Write a book file (a temporary name, then a rename)."""
    import os

    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        fh.write(json.dumps(header, separators=(",", ":")) + "\n")
        for line in lines:
            fh.write(json.dumps(line, separators=(",", ":")) + "\n")
    os.replace(tmp, p)


def load_book(path: str | Path, variant: str | None = None) -> Book:
    """A book file, every line checked; with ``variant``, a book of another
    variant is refused. Every failure is one ``BookError`` line naming the
    file (and the line)."""
    p = Path(path)
    if not p.is_file():
        raise BookError(f"{p}: no such book file" if not p.exists() else f"{p}: not a file")
    try:
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise BookError(f"{p}: {size} bytes, a book has at most {MAX_BYTES}")
        raw = p.read_bytes()
    except OSError as exc:
        raise BookError(f"{p}: cannot read it ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BookError(f"{p}: not a piramida book (not UTF-8 text)") from None
    rows = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not rows:
        raise BookError(f"{p}: the file is empty, not a piramida book")
    n0, first = rows[0]
    try:
        header = load_json(first, f"{p} line {n0}", BookError)
    except BookError:
        header = None
    if not isinstance(header, dict) or header.get("piramida_book") != BOOK_VERSION:
        raise BookError(f"{p}: not a piramida book (its first line is not a header with \"piramida_book\": {BOOK_VERSION})")
    book_variant = header.get("variant")
    if book_variant not in VARIANTS:
        raise BookError(f"{p}: the header names no known variant (got {brief(book_variant, 30)})")
    if variant is not None and book_variant != variant:
        raise BookError(f"{p}: a book of {book_variant} positions, not {variant}")
    if len(rows) - 1 > MAX_POSITIONS:
        raise BookError(f"{p}: {len(rows) - 1} positions, a book holds at most {MAX_POSITIONS}")
    positions = []
    for n, line in rows[1:]:
        where = f"{p} line {n}"
        row = load_json(line, where, BookError)
        if not isinstance(row, dict) or "position" not in row:
            raise BookError(f"{where}: a book line is an object with a \"position\"")
        try:
            pos = Position.from_dict(row["position"])
        except InvalidPositionError as exc:
            raise BookError(f"{where}: {exc}") from None
        if pos.variant != book_variant:
            raise BookError(f"{where}: a {pos.variant} position in a book of {book_variant}")
        if pos.is_break:
            raise BookError(f"{where}: a break position; a book's positions are mid-frame")
        positions.append(pos)
    if not positions:
        raise BookError(f"{p}: the book holds no positions")
    return Book(str(p), str(book_variant), tuple(positions), digest_of(positions), dict(header))


__all__ = [
    "BOOK_VERSION",
    "Book",
    "BookError",
    "book_header",
    "decided",
    "digest_of",
    "load_book",
    "make_book",
    "qualifies",
    "write_book",
]
