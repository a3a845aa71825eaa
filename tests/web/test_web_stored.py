"""Games stored by a tournament, opened by the page (``piramida serve --db``):
listed, rebuilt exactly as ``piramida replay --save`` writes them, loaded
into Play; bad ids, files gone or broken, and files not served refused with
one line (the command line's, where it has one)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from piramida.cli import app

runner = CliRunner()


def cli_error(*args: str) -> str:
    res = runner.invoke(app, list(args))
    assert res.exit_code == 2 and res.stdout == "", (res.stdout, res.stderr)
    assert res.stderr.count("\n") == 1, res.stderr
    return res.stderr.strip().removeprefix("error: ")


def test_the_stored_games_are_listed(stored_client: Any, results_db: Path) -> None:
    client = stored_client
    name = str(results_db)
    listed = client.get("/api/games")
    assert listed["dbs"] == [name] and listed["total"] == 2
    first, second = listed["games"]
    assert first["db"] == name and first["id"] == 1 and first["variant"] == "free" and first["pair"] == 0
    # A duplicate pair: the same pairing, the seats exchanged.
    assert first["agents"] == second["agents"] == ["random", "greedy"]
    assert first["seats"] == ["random", "greedy"] and second["seats"] == ["greedy", "random"]
    for g in (first, second):
        assert g["result"] in ("p0 wins", "p1 wins", "draw") and g["shots"] > 0
        if g["winner"] is not None:
            assert g["seats"][int(g["result"][1])] == g["winner"]
    assert client.get(f"/api/games?db={name}&variant=free") == listed
    assert client.get("/api/games?variant=combined")["games"] == []


def test_a_stored_game_is_what_replay_saves_and_loads_into_play(
    stored_client: Any, results_db: Path, tmp_path: Path
) -> None:
    client = stored_client
    res = runner.invoke(app, ["replay", str(results_db), "2", "--save", str(tmp_path / "g.json")])
    assert res.exit_code == 0, res.output
    saved = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    assert client.get("/api/games/2") == saved
    assert client.get(f"/api/games/2?db={results_db}") == saved
    # Loaded as the page's Load loads a file: the frame as it ended, and its
    # actions with the rulings that `piramida replay` prints.
    loaded = client.post("/api/play/load", {"game": saved, "agent": "greedy"})
    st, history = loaded["state"], loaded["history"]
    assert st["over"] and st["actions"] == len(saved["history"]) == len(history)
    printed = [line.split("  ->  ", 1)[1] for line in res.stdout.splitlines() if "  ->  " in line]
    assert [h["summary"] for h in history if h["kind"] != "choice"] == printed
    assert st["last_ruling"] == printed[-1]
    assert all(h["who"] == ("you" if h["seat"] == 0 else "agent") for h in history)


def test_bad_ids_and_files_are_one_line(stored_client: Any, results_db: Path, tmp_path: Path) -> None:
    from piramida.web.server import BackgroundServer

    client = stored_client
    # The command line's lines, as 404 and 400.
    assert client.bad("/api/games/99", status=404) == cli_error("replay", str(results_db), "99")
    assert "whole number" in client.bad("/api/games/abc")
    assert "must be in [1," in client.bad("/api/games/0")
    assert "whole number" in client.bad("/api/games/" + "9" * 30)
    assert "unknown variant 'snooker'" in client.bad("/api/games?variant=snooker")
    assert "unknown key" in client.bad("/api/games/1?colour=red")
    # Only the files named on the command line: never a path from the page.
    for path in ("/api/games?db=/etc/passwd", "/api/games/1?db=../results.sqlite"):
        assert "is not served here" in client.bad(path, status=404)
    # A served file gone, or not a results file: the command line's line.
    gone, broken = tmp_path / "gone.sqlite", tmp_path / "broken.sqlite"
    broken.write_text("not a database\n")
    server = BackgroundServer(dbs=[results_db, gone, broken]).start(warm=False)
    try:
        other = type(client)(server.url)
        assert "'db' is missing" in other.bad("/api/games/1")
        assert other.bad(f"/api/games?db={gone}", status=404) == cli_error("replay", str(gone), "1")
        assert other.bad(f"/api/games/1?db={broken}") == cli_error("replay", str(broken), "1")
        listed = other.get(f"/api/games?db={results_db}")
        assert listed["dbs"] == [str(results_db), str(gone), str(broken)] and listed["total"] == 2
    finally:
        server.stop()


def test_a_server_without_results_files(client: Any) -> None:
    assert client.get("/api/games") == {"dbs": [], "total": 0, "games": []}
    assert "no results files are served" in client.bad("/api/games/1", status=404)


def test_serve_refuses_a_results_file_it_cannot_read(tmp_path: Path) -> None:
    line = cli_error("serve", "--db", str(tmp_path / "nope.sqlite"))
    assert line == f"{tmp_path / 'nope.sqlite'}: no such results file"
    # Not a results file, however short: refused, and left as it was (SQLite
    # would take a one-byte file for an empty database to write tables into).
    for text in ("hello\n", "x", ""):
        (tmp_path / "bad.sqlite").write_text(text)
        assert "not a piramida results file" in cli_error("serve", "--db", str(tmp_path / "bad.sqlite"))
        assert (tmp_path / "bad.sqlite").read_text() == text
        assert "not a piramida results file" in cli_error("replay", str(tmp_path / "bad.sqlite"), "1")
        assert (tmp_path / "bad.sqlite").read_text() == text
