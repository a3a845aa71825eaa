"""The break book (agents/break_book.py): strokes found offline by
training/break_study.py, offered to the planner on a full rack only, and read
with clear errors from a damaged file."""

from __future__ import annotations

from pathlib import Path

import pytest

from piramida.agents.break_book import (
    BOOK_PATH,
    BreakBookError,
    book_shots,
    is_standard_rack,
    load_book,
    parse_book,
    write_entries,
)
from piramida.env.errors import PiramidaError
from piramida.env.physics import load_noise, simulate
from piramida.env.position import Position
from piramida.env.rules import get_referee

ROW = {"target": "row3R", "place": [1.3, 0.8], "phi": 100.5, "v": 1.7, "b": 0.3, "value": 0.6, "p_pot": 0.9,
       "p_legal": 0.9, "samples": 64}


def test_a_full_rack_is_recognised_whatever_the_numbers() -> None:
    for seed in (1, 2):
        assert is_standard_rack(Position.start("free", seed=seed))
    assert is_standard_rack(Position.start("classic71"))
    start = Position.start("free", seed=1)
    moved = start.replace(balls=((start.balls[0][0], 0.5, 2.0),) + tuple(start.balls[1:]))
    assert not is_standard_rack(moved)
    assert not is_standard_rack(start.replace(is_break=False))
    assert not is_standard_rack(Position.start("five_ball"))
    # A re-rack of an incomplete pyramid is another position.
    assert not is_standard_rack(start.replace(balls=tuple(start.balls[1:])))


def test_written_strokes_read_back_and_are_offered_on_a_full_rack(tmp_path: Path) -> None:
    path = tmp_path / "book.toml"
    write_entries("free", [ROW], path)
    write_entries("combined", [{**ROW, "phi": 80.0}], path)
    book = load_book(path)
    assert [s.phi for s in book["free"]] == [100.5] and [s.phi for s in book["combined"]] == [80.0]
    assert book["free"][0].place == (1.3, 0.8) and book["free"][0].samples == 64
    shots = book_shots(Position.start("free", seed=3), "0", path)
    assert len(shots) == 1 and shots[0].place == (1.3, 0.8) and shots[0].b == 0.3
    mid = Position.start("free", seed=3).replace(is_break=False, in_hand=None)
    assert book_shots(mid, "0", path) == []
    assert book_shots(Position.start("moscow"), "0", path) == []  # no entry


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"free": [{"place": [1.0, 0.5], "v": 2.0}]}, "'phi' must be a finite number"),
        ({"free": [{"place": [1.0, 0.5], "phi": float("nan"), "v": 2.0}]}, "'phi' must be a finite number"),
        ({"free": [{"place": [1.0], "phi": 90.0, "v": 2.0}]}, "'place' must be"),
        ({"free": {"phi": 90.0}}, "must be a list of strokes"),
    ],
)
def test_damaged_entries_are_clear_errors(data: dict, message: str) -> None:
    with pytest.raises(BreakBookError, match=message):
        parse_book(data, "book.toml")


def test_a_corrupt_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "book.toml"
    path.write_text("[[free]\nphi = ", encoding="utf-8")
    with pytest.raises(PiramidaError, match="not a valid TOML"):
        load_book(path)
    assert load_book(tmp_path / "none.toml") == {}


def test_the_free_book_stroke_is_a_legal_scoring_break_under_pro_noise() -> None:
    # What the study found, pinned against the physics and the referee: off
    # the left-hand ball of the rack's third row, the base's right-hand
    # corner ball into the rear-right corner (now and then the coloured ball
    # in off the rack, a свояк), legal and scoring in free pyramid
    # (docs/game_rules.md §4.2 (1), §5.1; docs/agents.md, the break book).
    strokes = load_book(BOOK_PATH).get("free", ())
    assert strokes, "the break book has no free-pyramid entry"
    pos = Position.start("free", seed=5)
    ref = get_referee("free", None, pos.table)
    state = ref.initial_state(pos)
    noise = load_noise("pro")
    shot = strokes[0].shot("0")
    n, scored = 32, 0
    for k in range(n):
        r = simulate(pos, shot, noise=noise, seed=100 + k)
        ru = ref.judge(pos, r.shot, r.events, r.final, (), state)
        scored += int(ru.legal and bool(ru.scored.get(0)))
    assert scored / n >= 0.6, scored
