"""Tournaments: the schedule, resume after a real SIGKILL with every game
exactly once, replay of a stored game, the CLI, and a real two-node Ray
cluster on loopback."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from ray_cluster import two_node_cluster
from typer.testing import CliRunner

from piramida.cli import app
from piramida.eval.store import Store
from piramida.eval.tournament import TournamentConfig, TournamentError, replay, run_tournament

runner = CliRunner()


def test_schedule_and_config_checks() -> None:
    cfg = TournamentConfig(("random", "greedy", "planner:sims=50"), ("free", "combined"), 3)
    keys = cfg.schedule()
    assert len(keys) == 3 * 2 * 3 * 2  # pairings x variants x pairs x seats
    assert len({(k.variant, k.a, k.b, k.pair, k.swap) for k in keys}) == len(keys)
    assert len(TournamentConfig(("random", "greedy", "planner"), ("free",), 1, format="gauntlet").pairings()) == 2
    for bad, match in [
        ((("random",), ("free",), 1), "at least two agents"),
        ((("random", "random"), ("free",), 1), "listed twice"),
        ((("random", "nobody"), ("free",), 1), "unknown agent"),
        ((("random", "greedy"), ("snooker",), 1), "unknown variant"),
        ((("random", "greedy"), ("free",), 0), "pairs must be"),
    ]:
        with pytest.raises(Exception, match=match):
            TournamentConfig(*bad)  # type: ignore[arg-type]
    with pytest.raises(TournamentError, match="format"):
        TournamentConfig(("random", "greedy"), ("free",), 1, format="swiss")


def test_resume_plays_only_what_is_missing_and_replay_rebuilds_a_game(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    cfg = TournamentConfig(("greedy", "random"), ("free",), 2, "pro", 5)
    tid, first = run_tournament(cfg, db, limit=3)
    assert first.done == 3
    tid2, second = run_tournament(cfg, db)
    assert tid2 == tid and second.done == 1
    with Store(db) as s:
        games = s.games(tid)
    assert len(games) == 4
    g = games[0]
    frame = replay("free", "pro", 5, g["pair"], json.loads(g["saved"])["actions"]).game
    ids = {v: k for k, v in Store(db).agents(tid).items()}
    seats = (g["seat0"], g["seat1"])
    assert frame.over and seats[frame.winner] == g["winner"]
    assert sorted(frame.score) == sorted((g["score0"], g["score1"]))
    assert g["agent_a"] == ids["greedy"]


def test_a_model_file_changed_under_its_name_is_another_tournament(tmp_path: Path) -> None:
    # The games stored for a policy file were played by its old weights: a
    # rerun after the file is retrained must play them again, not resume them.
    import torch

    from piramida.agents.policy import save_policy
    from piramida.agents.policy_net import build_net, net_config

    path = tmp_path / "p.pt"
    meta = {"code_version": "test", "variant": "free", "noise": "pro", "search": "greedy",
            "net": net_config({"hidden": 8}), "config": ""}

    def write(seed: int) -> None:
        torch.manual_seed(seed)
        save_policy(path, build_net({"hidden": 8}).state_dict(), meta)

    write(1)
    db = tmp_path / "m.sqlite"
    agents = ("random", f"policy:path={path}")
    cfg = TournamentConfig(agents, ("free",), 1, "pro", 5)
    tid, first = run_tournament(cfg, db)
    assert first.done == 2 and cfg.to_dict()["models"] == {str(path): cfg.models()[str(path)]}
    assert run_tournament(cfg, db)[1].done == 0  # the same file resumes: nothing left
    write(2)
    again = TournamentConfig(agents, ("free",), 1, "pro", 5)
    assert again.models()[str(path)] != cfg.models()[str(path)]
    tid2, second = run_tournament(again, db)
    assert tid2 != tid and second.done == 2
    assert "models" not in TournamentConfig(("greedy", "random"), ("free",), 1).to_dict()


def test_sigkill_then_resume_stores_every_game_exactly_once(tmp_path: Path) -> None:
    # A greedy-vs-random game takes about a tenth of a second, so the run
    # is long (50 games) and polled often enough that the kill lands while
    # most games are still to play, however fast the machine.
    pairs = 25
    total = 2 * pairs
    db = tmp_path / "k.sqlite"
    args = [sys.executable, "-m", "piramida", "tournament", "--agents", "greedy,random", "--variants", "free",
            "--pairs", str(pairs), "--seed", "3", "--db", str(db), "--no-progress"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    deadline = time.time() + 240
    stored = 0
    while time.time() < deadline and proc.poll() is None:
        time.sleep(0.02)
        if db.exists():
            con = sqlite3.connect(db, timeout=5)
            try:
                stored = con.execute("SELECT count(*) FROM games").fetchone()[0]
            except sqlite3.OperationalError:
                continue
            finally:
                con.close()
            if stored >= 2:
                break
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert 2 <= stored < total, stored
    out = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    rows = sqlite3.connect(db).execute("SELECT variant, agent_a, agent_b, pair, swap FROM games").fetchall()
    assert len(rows) == total and len(set(rows)) == total
    assert {(r[3], r[4]) for r in rows} == {(k, s) for k in range(pairs) for s in (0, 1)}


def test_cli_report_json_and_html(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    res = runner.invoke(app, ["tournament", "--agents", "greedy,random", "--pairs", "1", "--db", str(db),
                              "--no-progress", "--json"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["report", str(db), "--json", "--bootstrap", "20", "--html", str(tmp_path / "r.html")])
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    r = rep["variants"]["free"]["ratings"]
    assert set(r) == {"greedy", "random"} and r["greedy"]["elo"] == 0.0 and len(r["random"]["ci95"]) == 2
    page = (tmp_path / "r.html").read_text()
    assert "data:image/png;base64," in page and "greedy" in page
    figs = tmp_path / "figs"
    figs.mkdir()
    res = runner.invoke(app, ["report", str(db), "--bootstrap", "20", "--figures", str(figs),
                              "--markdown", str(tmp_path / "r.md")])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in figs.iterdir()) == ["ratings.png", "score_free.png"]
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in figs.iterdir())
    md = (tmp_path / "r.md").read_text()
    p = rep["variants"]["free"]["pairs"]["greedy vs random"]
    assert f"| greedy vs random | {p['pairs']} | {p['pentanomial']} | {p['score']:.3f} |" in md
    assert "| `random` |" in md
    not_a_folder = runner.invoke(app, ["report", str(db), "--figures", str(tmp_path / "r.md")])
    assert not_a_folder.exit_code == 2 and not_a_folder.stderr.count("\n") == 1
    res = runner.invoke(app, ["replay", str(db), "1", "--save", str(tmp_path / "g.json")])
    assert res.exit_code == 0 and "score" in res.stdout.splitlines()[-2]
    from piramida.env.game import Game

    saved = Game.load(tmp_path / "g.json")  # what the web page's Load reads
    assert saved.over and f"score {saved.score[0]}-{saved.score[1]}" in res.stdout
    bad = runner.invoke(app, ["replay", str(db), "99"])
    assert bad.exit_code == 2 and bad.stderr.count("\n") == 1


def test_a_tournament_on_a_real_two_node_ray_cluster(tmp_path: Path) -> None:
    port = 6391
    # Ray's unix sockets live under its temp dir and their paths may not
    # exceed 107 bytes, which pytest's tmp_path does: a short dir in /tmp,
    # removed afterwards.
    ray_tmp = tempfile.mkdtemp(prefix="pr-ray-", dir="/tmp")
    try:
        with two_node_cluster(port, ray_tmp) as env:
            db = tmp_path / "ray.sqlite"
            out = subprocess.run(
                [sys.executable, "-m", "piramida", "tournament", "--agents", "greedy,random", "--pairs", "3",
                 "--db", str(db), "--no-progress", "--address", f"127.0.0.1:{port}"],
                capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path,
            )
            assert out.returncode == 0, out.stderr[-2000:]
            nodes = sqlite3.connect(db).execute("SELECT count(*), count(DISTINCT node) FROM games").fetchone()
            assert nodes == (6, 2), nodes
    finally:
        shutil.rmtree(ray_tmp, ignore_errors=True)


def test_shipped_tournament_configs_load(tmp_path: Path) -> None:
    from piramida.configs import CONFIG_DIR
    from piramida.eval.tournament import load_config

    files = sorted((CONFIG_DIR / "tournaments").glob("*.toml"))
    assert files
    for f in files:
        cfg = load_config(f)
        assert len(cfg.schedule()) > 0
    bad = tmp_path / "bad.toml"
    bad.write_text('[tournament]\nagents = ["greedy", "random"]\nvariants = ["free"]\npairs = 1\ncolour = "red"\n')
    with pytest.raises(TournamentError, match="unknown key"):
        load_config(bad)


def test_cli_sprt_json_records_what_the_decision_rests_on_and_resumes(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    args = ["sprt", "greedy", "random", "--variant", "free", "--elo1", "400", "--batch", "1", "--max-pairs", "2",
            "--seed", "3", "--db", str(db), "--json", "--no-progress"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["agents"] == ["greedy", "random"] and out["variant"] == "free"
    assert sum(out["pentanomial"]) == out["pairs"] >= 1
    assert out["result"] in ("H0", "H1", "none") and out["elo1"] == 400.0
    assert out["command"].startswith("piramida") and out["version"]
    assert out["score_ci95"][0] <= out["score"] <= out["score_ci95"][1]
    with Store(db) as store:
        played = len(store.games(1))
    again = json.loads(runner.invoke(app, args).stdout)
    with Store(db) as store:
        assert len(store.games(1)) == played  # decided or capped: nothing more is played
    assert again["pentanomial"] == out["pentanomial"]


def test_cli_sprt_rerun_with_a_larger_cap_continues_the_same_sequence(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    base = ["sprt", "greedy", "random", "--variant", "free", "--elo0", "0", "--elo1", "1", "--batch", "1",
            "--seed", "3", "--db", str(db), "--json", "--no-progress"]
    first = json.loads(runner.invoke(app, [*base, "--max-pairs", "1"]).stdout)
    assert first["pairs"] == 1 and first["result"] == "none"
    with Store(db) as store:
        (before,) = [(g["pair"], g["swap"], g["winner"], g["shots"], g["created"]) for g in store.games(1) if g["swap"] == 0]
    res = runner.invoke(app, [*base, "--max-pairs", "2"])
    assert res.exit_code == 0, res.output
    second = json.loads(res.stdout)
    with Store(db) as store:
        assert len(store.tournaments()) == 1  # the same sequence, grown, not a second one
        games = store.games(1)
    assert second["pairs"] == 2 and len(games) == 4
    assert [(g["pair"], g["swap"], g["winner"], g["shots"], g["created"]) for g in games if g["pair"] == 0 and g["swap"] == 0] == [before]
    # A fresh run straight to two pairs plays the same racks to the same results.
    fresh = json.loads(runner.invoke(app, [*base, "--max-pairs", "2", "--db", str(tmp_path / "f.sqlite")]).stdout)
    assert fresh["pentanomial"] == second["pentanomial"]


def test_cli_sprt_text_shows_pentanomial_elo_nelo_los_and_the_llr_with_its_bounds(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    res = runner.invoke(app, ["sprt", "greedy", "random", "--elo1", "400", "--batch", "1", "--max-pairs", "2",
                              "--seed", "3", "--db", str(db)])
    assert res.exit_code == 0, res.output
    out = res.stdout.splitlines()
    assert out[0].startswith("greedy vs random (free, noise pro): ") and "after" in out[0]
    assert out[1].startswith("  pentanomial [0, 0.5, 1, 1.5, 2]: [")
    assert all(k in out[2] for k in ("score ", "Elo ", "nElo ", "LOS ")) and "%" in out[2]
    assert out[3].startswith("  LLR ") and "(-2.94, +2.94) [0, 400]" in out[3]
    progress = [ln for ln in res.stderr.splitlines() if ln.startswith("pairs ")]
    assert progress and all("LLR" in ln and "Elo" in ln and "LOS" in ln for ln in progress)
