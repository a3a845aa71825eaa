"""Books of start positions (eval/book.py, ``piramida book``, ``--book``):
a book's positions are mid-frame and keep the frame state they were taken
with; a tournament's pair k starts both its games from position k mod N;
the book is part of the stored configuration (resume, report); every bad
book is one line; the shipped books load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from piramida.cli import app
from piramida.env.driver import FrameDriver
from piramida.env.position import VARIANTS, Position
from piramida.env.rules import get_referee
from piramida.eval.book import BookError, book_header, decided, load_book, make_book, write_book
from piramida.eval.report import analyse, summary
from piramida.eval.store import Store
from piramida.eval.tournament import TournamentConfig, run_tournament, stored_game

runner = CliRunner()
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Five combined-pyramid positions from greedy's self-play."""
    lines = make_book("combined", 5, seed=3, after_shots=3)
    path = tmp_path_factory.mktemp("book") / "combined.jsonl"
    write_book(path, book_header("combined", lines, agent="greedy", seed=3), lines)
    return path


def test_a_books_positions_are_the_frames_own_states(book: Path) -> None:
    """Each position is a stroke decision past the break, no ball in hand,
    not decided; the frame it was taken from, played again to that shot,
    has the same balls (to the micrometre) and the same frame state, and a
    frame started from it offers the same decision."""
    from piramida.agents.specs import parse_spec

    b = load_book(book, "combined")
    rows = [json.loads(line) for line in book.read_text().splitlines()[1:]]
    assert len(b.positions) == 5 and len({p.to_text() for p in b.positions}) == 5
    referee = get_referee("combined")
    greedy = [parse_spec("greedy").build(), parse_spec("greedy").build()]
    for pos, row in zip(b.positions, rows, strict=True):
        assert not pos.is_break and pos.in_hand is None and not decided(pos, referee.target())
        assert 3 <= row["shot"] - 1 <= 6 + 12
        driver = FrameDriver("combined", "pro")
        game = driver.reset(3, row["frame"])
        driver.play(greedy, max_shots=row["shot"] - 1)
        there = game.state
        assert there.position.ball_map.keys() == pos.ball_map.keys()
        assert all(abs(a - b) <= 5e-7 for k, xy in pos.ball_map.items() for a, b in zip(xy, there.position.ball_map[k],
                                                                                         strict=True))
        for f in ("shelves", "score", "owed", "to_move", "in_hand"):
            assert getattr(pos, f) == getattr(there.position, f), f
        started = FrameDriver("combined", "pro").reset(0, 0, pos).state
        assert started.next == there.next and started.pending is None and there.pending is None


def test_pair_k_starts_from_position_k_mod_n_in_both_seats_and_replays(book: Path, tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    cfg = TournamentConfig(("greedy", "random"), ("combined",), 7, "pro", 2, book=str(book))
    tid, prog = run_tournament(cfg, db)
    assert prog.done == 14
    positions = load_book(book).positions
    with Store(db) as s:
        games = s.games(tid)
        stored = s.tournaments()[0]["config"]
    assert stored["book"]["file"] == str(book) and stored["book"]["positions"] == {"combined": 5}
    for g in games:
        start = json.loads(g["saved"])["start"]
        assert Position.from_dict(start) == positions[g["pair"] % 5]
        # Both agents move first once a pair: the player to move of the position.
        assert g["breaker"] is None and sum(g["stats"]["opened"]) == 1
    firsts = {(g["pair"], g["swap"]): g["stats"]["opened"] for g in games}
    assert all(firsts[(k, 0)] == firsts[(k, 1)][::-1] for k in range(7))
    game = stored_game(db, games[3]["id"])
    rebuilt = game.rebuild().game
    assert rebuilt.initial == positions[games[3]["pair"] % 5]
    g = games[3]  # pair 1, seats swapped; a row's scores are the pairing's agents'
    by_agent = {g["agent_a"]: g["score0"], g["agent_b"]: g["score1"]}
    assert g["swap"] == 1 and tuple(rebuilt.score) == (by_agent[g["seat0"]], by_agent[g["seat1"]])
    rep = analyse(str(db), bootstrap=5)
    assert "start positions: book" in summary(rep) and "first mover's edge" in summary(rep)
    assert rep["variants"]["combined"]["ratings"]["random"]["games"] == 14
    # The same configuration resumes (nothing left); the book changed is another tournament.
    assert run_tournament(cfg, db)[1].done == 0
    other = tmp_path / "other.jsonl"
    lines = [json.loads(line) for line in book.read_text().splitlines()]
    write_book(other, lines[0], lines[:0:-1])
    cfg2 = TournamentConfig(("greedy", "random"), ("combined",), 7, "pro", 2, book=str(other))
    assert cfg2.to_dict()["book"]["digest"] != cfg.to_dict()["book"]["digest"]
    assert TournamentConfig(("greedy", "random"), ("combined",), 7, "pro", 2).to_dict().keys() == {
        "agents", "variants", "pairs", "noise", "seed", "format", "max_shots"}


def test_the_cli_makes_a_book_and_plays_tournament_and_sprt_from_it(tmp_path: Path) -> None:
    out = tmp_path / "free.jsonl"
    res = runner.invoke(app, ["book", "--variant", "free", "--positions", "3", "--out", str(out), "--seed", "4",
                              "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "wrote" in res.stdout and load_book(out, "free").header["agent"] == "greedy"
    path = str(tmp_path / "{variant}.jsonl")
    res = runner.invoke(app, ["tournament", "--agents", "greedy,random", "--pairs", "2", "--book", path,
                              "--db", str(tmp_path / "t.sqlite"), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "start positions: book" in res.stdout
    res = runner.invoke(app, ["sprt", "greedy", "random", "--elo1", "400", "--max-pairs", "2", "--batch", "2",
                              "--book", str(out), "--db", str(tmp_path / "s.sqlite"), "--no-progress", "--json"])
    assert res.exit_code == 0, res.output
    got = json.loads(res.stdout)
    assert got["pairs"] == 2 and got["book"]["positions"] == {"free": 3}
    with Store(tmp_path / "s.sqlite") as s:
        assert all("start" in json.loads(g["saved"]) for g in s.games())


def _bad(tmp: Path, name: str, text: str) -> Path:
    p = tmp / name
    p.write_text(text)
    return p


def test_every_bad_book_is_one_line(book: Path, tmp_path: Path) -> None:
    header = book.read_text().splitlines()[0]
    pos = book.read_text().splitlines()[1]
    brk = json.dumps({"position": Position.start("combined").to_dict()})
    cases = {
        str(tmp_path / "missing.jsonl"): "no such book file",
        str(_bad(tmp_path, "empty.jsonl", "")): "empty",
        str(_bad(tmp_path, "other.jsonl", '{"a": 1}\n' + pos)): "not a piramida book",
        str(_bad(tmp_path, "text.jsonl", "hello\n")): "not a piramida book",
        str(_bad(tmp_path, "none.jsonl", header + "\n")): "holds no positions",
        str(_bad(tmp_path, "cut.jsonl", header + "\n" + pos[:40] + "\n")): "line 2",
        str(_bad(tmp_path, "ball.jsonl", header + "\n" + pos.replace('"0":', '"77":', 1) + "\n")): "line 2",
        str(_bad(tmp_path, "break.jsonl", header + "\n" + brk + "\n")): "break position",
        str(_bad(tmp_path, "free.jsonl", header.replace("combined", "free") + "\n" + pos + "\n")): "combined position",
        str(book): "a book of combined positions, not free",
        str(tmp_path): "not a file",
    }
    for path, match in cases.items():
        with pytest.raises(BookError, match=match):
            load_book(path, "free" if path == str(book) else None)
        res = runner.invoke(app, ["tournament", "--agents", "greedy,random", "--variants",
                                  "free" if path == str(book) else "combined", "--book", path,
                                  "--db", str(tmp_path / "x.sqlite"), "--no-progress"])
        assert res.exit_code == 2 and res.stderr.count("\n") == 1 and match.split()[0] in res.stderr, (path, res.output)
    assert not (tmp_path / "x.sqlite").exists()  # refused before the results file is made
    res = runner.invoke(app, ["tournament", "--agents", "greedy,random", "--variants", "free,combined", "--book",
                              str(book), "--db", str(tmp_path / "x.sqlite")])
    assert res.exit_code == 2 and "{variant}" in res.stderr
    for args, match in ((["--variant", "snooker"], "unknown variant"), (["--agent", "wizard"], "unknown agent"),
                        (["--positions", "0"], "positions"), (["--after-shots", "0"], "after-shots")):
        res = runner.invoke(app, ["book", *args, "--out", str(tmp_path / "b.jsonl")])
        assert res.exit_code == 2 and res.stderr.count("\n") == 1 and match in res.stderr, res.output
    res = runner.invoke(app, ["book", "--out", str(tmp_path / "b.txt")])
    assert res.exit_code == 2 and ".jsonl" in res.stderr


def test_the_shipped_books_cover_every_variant() -> None:
    for v in VARIANTS:
        path = REPO / "books" / f"{v}.jsonl"
        assert path.stat().st_size < 100 * 1024, path
        b = load_book(path, v)
        assert len(b.positions) >= 100 and len({p.to_text() for p in b.positions}) == len(b.positions)
        target = get_referee(v).target()
        assert all(not p.is_break and p.in_hand is None and not decided(p, target) for p in b.positions)
        # Both seats are to move in some positions.
        assert {p.to_move for p in b.positions} == {0, 1}
