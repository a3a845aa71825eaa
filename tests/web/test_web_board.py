"""The analysis board through the API: frames kept in the games file (a
restart resumes them; frames started later never push one out), the move
tree with goto and variations, the win probability, the shots' losses and
their labels, a stored game as a read-only board, and bad ids and nodes
refused in one line."""

from __future__ import annotations

import json
import socket
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Client

ROOT = Path(__file__).resolve().parents[2]
MIDGAME = ROOT / "docs" / "examples" / "combined_midgame.json"
#: Pots ball 3 in the midgame position: legal, p0 scores, 4-2 (test_web_api.py).
POT = "ball=0 phi=70.08 v=1 a=0 b=0 theta=0"
#: Touches nothing: a foul, the opponent takes a ball.
MISS = "ball=0 phi=250 v=0.3"


def midgame() -> dict[str, Any]:
    return json.loads(MIDGAME.read_text(encoding="utf-8"))


def new_frame(client: Client, **settings: Any) -> dict[str, Any]:
    body = {"agent": "greedy", "seat": 0, "variant": "combined", "position": midgame()} | settings
    return client.post("/api/play/new", body)


def node(board: dict[str, Any], n: int) -> dict[str, Any]:
    return board["nodes"][n]


# ------------------------------------------------------------------ the store
def test_a_frame_survives_a_restart_on_the_same_games_file(tmp_path: Path, start_board_server: Any) -> None:
    games = tmp_path / "data" / "board.sqlite"  # the folder is made too
    first = start_board_server(games)
    try:
        c = Client(first.url)
        gid = new_frame(c)["state"]["id"]
        played = c.post(f"/api/play/{gid}/shot", {"shot": POT})
        before = c.get(f"/api/play/{gid}")
    finally:
        first.stop()
    assert games.is_file() and len(gid) == 16 and int(gid, 16) >= 0
    assert played["state"]["score"] == [4, 2]
    second = start_board_server(games)
    try:
        c = Client(second.url)
        after = c.get(f"/api/play/{gid}")
        # The same frame: state, position, cursor and tree.
        for key in ("position", "score", "actions", "node", "to_act", "next", "agent", "seat", "noise", "seed"):
            assert after[key] == before[key], key
        assert after["board"] == before["board"]
        # ... and it goes on: a variation from the start, the first line kept.
        c.post(f"/api/play/{gid}/goto", {"node": 0})
        again = c.post(f"/api/play/{gid}/shot", {"shot": MISS})
        assert node(again["board"], 0)["children"] == [1, again["step"]["node"]]
    finally:
        second.stop()
    with sqlite3.connect(games) as db:
        row = db.execute("SELECT variant, agent, seat, noise, seed, tree FROM boards WHERE id = ?", (gid,)).fetchone()
        mode = db.execute("PRAGMA journal_mode").fetchone()[0]
    assert row[:5] == ("combined", "greedy", 0, "none", 0) and mode == "wal"
    assert len(json.loads(row[5])["nodes"]) == 3


def test_frames_started_later_never_push_out_the_first(board_server: Any, board_client: Client) -> None:
    from piramida.web.api import MAX_SESSIONS

    first = new_frame(board_client)["state"]["id"]
    board_client.post(f"/api/play/{first}/shot", {"shot": POT})
    for _ in range(MAX_SESSIONS + 2):
        new_frame(board_client)
    sessions = board_server.app.state.sessions
    assert len(sessions) <= MAX_SESSIONS < len(sessions.store)
    got = board_client.get(f"/api/play/{first}")
    assert got["id"] == first and got["score"] == [4, 2] and got["actions"] == 1


# ------------------------------------------------------------------ the tree
def test_goto_steps_back_and_forth_and_a_new_move_starts_a_variation(board_client: Client) -> None:
    start = new_frame(board_client)
    gid, root = start["state"]["id"], start["state"]
    assert start["board"]["cursor"] == 0 and start["board"]["line"] == [0]
    pot = board_client.post(f"/api/play/{gid}/shot", {"shot": POT})
    assert pot["step"]["node"] == 1 and pot["board"]["line"] == [0, 1] and pot["state"]["node"] == 1
    potted = pot["state"]
    # Back to the start: the start's position, the move still there.
    back = board_client.post(f"/api/play/{gid}/goto", {"node": 0})
    assert back["state"]["position"] == root["position"] and back["state"]["score"] == [3, 2]
    assert back["board"]["line"] == [0, 1] and not back["state"]["leaf"]
    # On again: the position the pot left.
    on = board_client.post(f"/api/play/{gid}/goto", {"node": 1})
    assert on["state"]["position"] == potted["position"] and on["state"]["score"] == [4, 2]
    # A shot from the start again is a variation; the first line is kept.
    board_client.post(f"/api/play/{gid}/goto", {"node": 0})
    miss = board_client.post(f"/api/play/{gid}/shot", {"shot": MISS})
    k = miss["step"]["node"]
    assert miss["step"]["foul"] and miss["state"]["score"] == [3, 2]
    tree = miss["board"]
    assert node(tree, 0)["children"] == [1, k] and node(tree, k)["parent"] == 0
    assert tree["line"][:2] == [0, k] and node(tree, 1)["summary"] == pot["step"]["summary"]
    # The line through the cursor follows the move last visited.
    assert board_client.post(f"/api/play/{gid}/goto", {"node": 1})["board"]["line"] == [0, 1]
    assert board_client.post(f"/api/play/{gid}/goto", {"node": 0})["board"]["line"][:2] == [0, 1]
    # Undo goes back on the cursor's path and keeps the line.
    board_client.post(f"/api/play/{gid}/goto", {"node": 1})
    undone = board_client.post(f"/api/play/{gid}/undo")
    assert undone["state"]["node"] == 0 and len(undone["board"]["nodes"]) == len(tree["nodes"])
    # The saved game is the cursor's line.
    board_client.post(f"/api/play/{gid}/goto", {"node": k})
    saved = board_client.get(f"/api/play/{gid}/save")
    assert len(saved["history"]) == 1 and saved["history"][0]["shot"]["phi"] == 250


def test_an_agent_move_and_a_loaded_game_are_nodes(board_client: Client) -> None:
    st = board_client.post("/api/play/new", {"agent": "greedy", "seat": 1, "variant": "free", "seed": 5})["state"]
    gid = st["id"]
    assert st["to_act"] == "agent"
    step = board_client.post(f"/api/play/{gid}/agent")
    n = node(step["board"], step["step"]["node"])
    assert n["who"] == "agent" and n["seat"] == 0 and n["kind"] in ("shot", "lag")
    saved = board_client.get(f"/api/play/{gid}/save")
    loaded = board_client.post("/api/play/load", {"game": saved, "agent": "greedy", "seat": 1})
    tree = loaded["board"]
    assert loaded["state"]["id"] != gid and tree["line"] == [0, 1] and tree["cursor"] == 1
    assert node(tree, 1)["summary"] == n["summary"] and loaded["history"][0]["node"] == 1


# ------------------------------------------------------------------ win probability and analysis
def test_the_win_probability_lies_in_0_1_and_moves_with_the_frame(board_client: Client) -> None:
    start = new_frame(board_client)
    gid = start["state"]["id"]
    assert start["board"]["win"] == {"model": "models/combined_value.pt", "why": None}
    pot = board_client.post(f"/api/play/{gid}/shot", {"shot": POT})
    board_client.post(f"/api/play/{gid}/goto", {"node": 0})
    miss = board_client.post(f"/api/play/{gid}/shot", {"shot": MISS})
    wp = [n["wp"] for n in miss["board"]["nodes"]]
    assert all(isinstance(p, float) and 0.0 <= p <= 1.0 for p in wp), wp
    root, potted, fouled = wp[0], wp[1], wp[miss["step"]["node"]]
    assert potted != root and fouled != root
    # A foul that hands the opponent a ball is worse for p0 than a pot.
    assert fouled < potted
    assert miss["state"]["wp"] == fouled and pot["state"]["wp"] == potted


def test_a_variant_without_a_value_network_has_no_bar_and_says_why(
    board_client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from piramida.web import analysis

    # Every variant ships a value network: a models folder with free's and
    # combined's only stands in for a variant without one.
    for v in ("free", "combined"):
        (tmp_path / f"{v}_value.pt").symlink_to(analysis.MODELS / f"{v}_value.pt")
    monkeypatch.setattr(analysis, "MODELS", tmp_path)
    analysis.value_model.cache_clear()
    try:
        res = board_client.post("/api/play/new", {"agent": "greedy", "variant": "moscow", "seed": 2})
    finally:
        monkeypatch.undo()
        analysis.value_model.cache_clear()
    win = res["board"]["win"]
    assert win["model"] is None and "no value network for moscow" in win["why"]
    assert "combined" in win["why"] and "free" in win["why"]
    assert res["board"]["nodes"][0]["wp"] is None
    # With the shipped models, Moscow has its bar.
    res = board_client.post("/api/play/new", {"agent": "greedy", "variant": "moscow", "seed": 2})
    assert res["board"]["win"]["model"] == "models/moscow_value.pt"
    assert 0 <= res["board"]["nodes"][0]["wp"] <= 1


def test_the_loss_labels_of_a_pot_and_of_a_foul(board_client: Client) -> None:
    from piramida.web.analysis import LABELS, THRESHOLDS, label

    gid = new_frame(board_client)["state"]["id"]
    board_client.post(f"/api/play/{gid}/shot", {"shot": POT})
    board_client.post(f"/api/play/{gid}/goto", {"node": 0})
    k = board_client.post(f"/api/play/{gid}/shot", {"shot": MISS})["step"]["node"]
    got = board_client.post(f"/api/play/{gid}/analyse", {"node": 1})
    assert got["analysed"] == [1]
    good = node(got["board"], 1)["analysis"]
    # The cursor's line (through the foul) at once: what is left of it, nothing pending after.
    rest = board_client.post(f"/api/play/{gid}/analyse", {})
    assert rest["pending"] == 0 and rest["analysed"] == [k]
    bad = node(rest["board"], k)["analysis"]
    for a in (good, bad):
        assert a["unit"] == "win" and a["samples"] > 1 and 0.0 <= a["loss"] <= 1.0
        assert a["loss"] == pytest.approx(max(0.0, a["best_value"] - a["played_value"]), abs=2e-4)
        assert a["label"] == label(a["loss"], "win")
    # The foul loses more than the pot; past the blunder threshold.
    assert bad["loss"] > good["loss"] and bad["loss"] >= THRESHOLDS["win"][-1] and bad["label"] == LABELS[-1]
    assert good["label"] != LABELS[-1]
    # Kept: asked again, the same answer (not sampled again).
    assert node(board_client.post(f"/api/play/{gid}/analyse", {"node": 1})["board"], 1)["analysis"] == good
    assert rest["board"]["thresholds"] == {u: list(t) for u, t in THRESHOLDS.items()}
    assert "a shot" in board_client.bad(f"/api/play/{gid}/analyse", {"node": 0})


def test_labels_follow_the_thresholds() -> None:
    from piramida.web.analysis import THRESHOLDS, label

    lo, mid, hi = THRESHOLDS["win"]
    assert [label(x, "win") for x in (0.0, lo / 2, lo, mid, hi, 1.0)] == [
        None, None, "inaccuracy", "mistake", "blunder", "blunder"]
    assert label(THRESHOLDS["pots"][1], "pots") == "mistake" and label(None, "win") is None


def test_a_stored_game_is_a_read_only_board(stored_client: Client, results_db: Path) -> None:
    from piramida.eval.tournament import stored_game

    stored = stored_game(results_db, 2)
    game = stored.rebuild().game
    res = stored_client.post("/api/games/2/board", None)
    st, tree = res["state"], res["board"]
    gid = st["id"]
    assert st["readonly"] and st["to_act"] in ("nobody", "none") and not st["can_undo"]
    assert tree["readonly"] and tree["names"] == list(stored.seats)
    assert len(tree["line"]) == 1 + len(game.history) and tree["cursor"] == tree["line"][-1]
    summaries = [node(tree, k)["summary"] for k in tree["line"][1:]]
    assert [s for s, r in zip(summaries, game.rulings, strict=True) if r is not None] == [
        r.summary() for r in game.rulings if r is not None]
    assert "stored game" in stored_client.bad(f"/api/play/{gid}/shot", {"shot": POT})
    assert "stored game" in stored_client.bad(f"/api/play/{gid}/agent", {})
    assert "nothing of yours" in stored_client.bad(f"/api/play/{gid}/undo", {})
    first_shot = next(k for k in tree["line"] if node(tree, k)["kind"] == "shot")
    back = stored_client.post(f"/api/play/{gid}/goto", {"node": first_shot})
    assert back["state"]["actions"] == tree["line"].index(first_shot)
    a = node(stored_client.post(f"/api/play/{gid}/analyse", {"node": first_shot})["board"], first_shot)["analysis"]
    assert a["unit"] == "win" and a["label"] in (None, "inaccuracy", "mistake", "blunder")
    assert stored_client.bad("/api/games/x/board", {}).startswith("a game id is a whole number")
    assert "no game 99" in stored_client.bad("/api/games/99/board", {}, status=404)


# ------------------------------------------------------------------ refusals
def test_an_unknown_id_is_404_and_a_bad_node_400_in_one_line(board_client: Client) -> None:
    line = board_client.bad("/api/play/0123456789abcdef", status=404)
    assert line == "no game '0123456789abcdef' on this server (start a new one)"
    assert "no game" in board_client.bad("/api/play/0123456789abcdef/goto", {"node": 0}, status=404)
    gid = new_frame(board_client)["state"]["id"]
    bad = {
        "no node 5 in this frame: its nodes are 0 to 0": {"node": 5},
        "'node' must be an integer": {"node": "1"},
        "'node' is missing": {},
        "unknown": {"node": 0, "line": 1},
    }
    for expected, body in bad.items():
        assert expected in board_client.bad(f"/api/play/{gid}/goto", body), body
    assert "'node' must be" in board_client.bad(f"/api/play/{gid}/goto", {"node": -1})
    assert "no node 9" in board_client.bad(f"/api/play/{gid}/analyse", {"node": 9})


def test_a_games_file_that_is_not_one_is_refused_in_one_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from piramida.cli import app
    from piramida.web.board_store import BoardStore, BoardStoreError

    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database, not at all" * 100)
    with pytest.raises(BoardStoreError, match="not a piramida games file"):
        BoardStore(junk)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    for path in (junk, tmp_path):
        res = CliRunner().invoke(app, ["serve", "--port", str(port), "--games", str(path)])
        assert res.exit_code == 2 and res.stdout == "", res.stdout
        assert res.stderr.startswith("error: ") and len(res.stderr.strip().splitlines()) == 1, res.stderr


def test_the_default_games_file_is_under_the_data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from piramida.web.board_store import default_path

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "piramida" / "board.sqlite"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / ".local" / "share" / "piramida" / "board.sqlite"


# ------------------------------------------------------------------ hints
def test_a_hint_suggests_for_the_frame_at_its_cursor_as_suggest_does(board_client: Client) -> None:
    gid = new_frame(board_client)["state"]["id"]  # player 1 (seat 0) to shoot
    ask = {"sims": 60, "noise": "pro", "top": 2, "seed": 3}
    hint = board_client.post(f"/api/play/{gid}/hint", ask)
    same = board_client.post("/api/suggest", ask | {"position": midgame()})
    assert [s["shot"] for s in hint["shots"]] == [s["shot"] for s in same["shots"]]
    assert hint["position"] == same["position"] and len(hint["draw"]) == 2
    assert "hint request" in board_client.bad(f"/api/play/{gid}/hint", {"position": midgame()})
    # The agent's turn (the player is player 2): one line.
    theirs = new_frame(board_client, seat=1)["state"]
    assert theirs["to_act"] == "agent"
    assert "hint is for your shot" in board_client.bad(f"/api/play/{theirs['id']}/hint", ask)
