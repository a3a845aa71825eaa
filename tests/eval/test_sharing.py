"""Tournaments with variant-specific agents ({variant} in a spec, the
``only`` table), and runs on one file sharing its games through claims."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from piramida.cli import app
from piramida.eval.report import analyse, expected_games
from piramida.eval.store import Store, claim_lapsed, config_key
from piramida.eval.tournament import TournamentConfig, TournamentError, load_config, run_tournament

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
POLICY = "policy:path=models/{variant}_policy.pt"
#: Shipped for free and combined only (the imitation policies).
BC = "policy:path=models/{variant}_bc.pt"


def test_a_variant_without_the_model_is_one_line_before_any_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "v.sqlite"
    monkeypatch.chdir(ROOT)
    res = runner.invoke(app, ["tournament", "--agents", f"greedy,{BC}", "--variants", "free,moscow",
                              "--pairs", "1", "--db", str(db), "--no-progress"])
    assert res.exit_code == 2
    out = res.output.strip()
    assert len(out.splitlines()) == 1, out
    assert "cannot play in moscow" in out and "models/moscow_bc.pt" in out
    assert not db.exists()  # nothing written, no game played
    with pytest.raises(TournamentError, match="cannot play: policy:path: no file"):
        TournamentConfig(("greedy", "policy:path=models/x.pt"), ("free",), 1)  # a plain missing file
    # Outside a tournament the placeholder is refused in one line.
    from piramida.agents.specs import parse_spec

    with pytest.raises(Exception, match=r"\{variant\} is replaced"):
        parse_spec(POLICY)


def test_only_restricts_the_schedule_and_keeps_old_identities(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    plain = TournamentConfig(("random", "greedy"), ("free", "moscow"), 3)
    assert "only" not in plain.to_dict()  # the identity of every earlier tournament is kept
    assert config_key(plain.to_dict()) == config_key(
        {"agents": ["random", "greedy"], "variants": ["free", "moscow"], "pairs": 3, "noise": "pro", "seed": 0,
         "format": "roundrobin", "max_shots": 300})
    cfg = TournamentConfig(("random", "greedy", POLICY), ("free", "combined", "moscow"), 2,
                           only=((POLICY, ("free", "combined")),))
    keys = cfg.schedule()
    # free and combined: 3 pairings; moscow: 1; 2 pairs, 2 seats.
    assert len(keys) == (3 + 3 + 1) * 2 * 2
    assert not any(k.variant == "moscow" and 2 in (k.a, k.b) for k in keys)
    assert expected_games(cfg.to_dict()) == len(keys)
    gauntlet = TournamentConfig((POLICY, "random", "greedy"), ("free", "moscow"), 1, format="gauntlet",
                                only=((POLICY, ("free",)),))
    assert len(gauntlet.schedule()) == expected_games(gauntlet.to_dict()) == 2 * 2
    with pytest.raises(TournamentError, match="not one of the agents"):
        TournamentConfig(("random", "greedy"), ("free",), 1, only=(("planner", ("free",)),))
    with pytest.raises(TournamentError, match="must play some of the variants"):
        TournamentConfig(("random", "greedy"), ("free",), 1, only=(("greedy", ("moscow",)),))


def test_a_variant_specific_agent_plays_its_own_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    toml = tmp_path / "t.toml"
    toml.write_text(f'[tournament]\nagents = ["random", "greedy", "{POLICY}"]\nvariants = ["free", "moscow"]\n'
                    f'pairs = 1\nseed = 2\n[tournament.only]\n"{POLICY}" = ["free"]\n')
    cfg = load_config(toml)
    tid, prog = run_tournament(cfg, tmp_path / "p.sqlite")
    assert prog.done == 8
    rep = analyse(str(tmp_path / "p.sqlite"), tid, bootstrap=0)
    assert rep["complete"] and rep["expected_games"] == 8
    assert set(rep["variants"]["moscow"]["agents"]) == {"random", "greedy"}
    assert POLICY in rep["variants"]["free"]["ratings"]


def _game(s: Store, tid: int, ids: dict[str, int], pair: int) -> dict:
    return {"variant": "free", "agent_a": ids["a"], "agent_b": ids["b"], "pair": pair, "swap": 0,
            "seat0": ids["a"], "seat1": ids["b"], "rack_seed": 0, "noise_seed": 0, "winner": None, "breaker": None,
            "score0": 0, "score1": 0, "shots": 1, "stats": {}, "duration_s": 0.0}


def test_claims(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    with Store(db) as s1, Store(db) as s2:
        tid = s1.tournament({"x": 1}, "", "v")
        ids = {n: s1.agent(tid, n, "v") for n in ("a", "b")}
        g = ("free", ids["a"], ids["b"], 0, 0)
        host = socket.gethostname()
        me, other = f"{host}/{os.getpid()}/one", f"{host}/{os.getpid()}/two"
        assert s1.claim(tid, g, me) == "mine"
        assert s1.claim(tid, g, me) == "mine"  # held already
        assert s2.claim(tid, g, other) == "busy"
        s1.add_game(tid, _game(s1, tid, ids, 0))  # storing the game drops its claim
        assert s2.claim(tid, g, other) == "done" and s2.claims(tid) == []
        # A lapsed lease is taken over.
        g1 = ("free", ids["a"], ids["b"], 1, 0)
        assert s1.claim(tid, g1, me, lease_s=-1.0) == "mine"
        assert s2.claim(tid, g1, other) == "mine"
        # A run whose process is gone frees its games at once.
        dead = subprocess.Popen([sys.executable, "-c", "pass"])
        dead.wait()
        gone = f"{host}/{dead.pid}/x"
        assert claim_lapsed(gone, time.time() + 1000)
        assert not claim_lapsed(f"{host}/{os.getpid()}/x", time.time() + 1000)
        assert not claim_lapsed(f"elsewhere/{dead.pid}/x", time.time() + 1000)  # another host: the lease
        g2 = ("free", ids["a"], ids["b"], 2, 0)
        assert s1.claim(tid, g2, gone) == "mine"
        assert s2.claim(tid, g2, other) == "mine"
        s2.release(other)
        assert [c["owner"] for c in s2.claims(tid)] == [me] or s2.claims(tid) == []


def test_a_run_waits_for_a_game_another_run_holds_and_takes_it_when_the_claim_lapses(tmp_path: Path) -> None:
    db = tmp_path / "w.sqlite"
    cfg = TournamentConfig(("greedy", "random"), ("free",), 2, seed=4)
    with Store(db) as s:
        tid = s.tournament(cfg.to_dict(), "", "v")
        ids = [s.agent(tid, a, "v") for a in cfg.agents]
        s.claim(tid, ("free", ids[0], ids[1], 1, 1), f"{socket.gethostname()}/{os.getpid()}/other", lease_s=2.0)
    start = time.perf_counter()
    _, prog = run_tournament(cfg, db)
    assert prog.done == 4 and time.perf_counter() - start > 1.0
    with Store(db) as s:
        assert len(s.games(tid)) == 4 and s.claims(tid) == []


def test_two_runs_on_one_file_share_the_games(tmp_path: Path) -> None:
    pairs = 30
    db = tmp_path / "s.sqlite"
    args = [sys.executable, "-m", "piramida", "tournament", "--agents", "greedy,random", "--variants", "free",
            "--pairs", str(pairs), "--seed", "6", "--db", str(db), "--no-progress"]
    procs = [subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
             for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    played = [int(out.split(" games played now")[0].split()[-1]) for out, _ in outs]
    with Store(db) as s:
        games = s.games()
        assert s.claims(games[0]["tournament_id"]) == []
    keys = [(g["variant"], g["agent_a"], g["agent_b"], g["pair"], g["swap"]) for g in games]
    assert len(keys) == len(set(keys)) == 2 * pairs
    # Every game played once in all, by both runs.
    assert sum(played) == 2 * pairs and min(played) > 0, played


def test_on_ray_too_a_game_another_run_holds_is_waited_for_and_taken_when_that_run_dies(tmp_path: Path) -> None:
    import threading

    db = tmp_path / "r.sqlite"
    cfg = TournamentConfig(("greedy", "random"), ("free",), 3, seed=4)
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    with Store(db) as s:
        tid = s.tournament(cfg.to_dict(), "", "v")
        ids = [s.agent(tid, a, "v") for a in cfg.agents]
        assert s.claim(tid, ("free", ids[0], ids[1], 0, 0), f"{socket.gethostname()}/{holder.pid}/other",
                       lease_s=600.0) == "mine"

    def kill_when_the_rest_is_stored() -> None:
        with Store(db) as s:
            while len(s.games(tid)) < 5 and holder.poll() is None:
                time.sleep(0.2)
        holder.kill()
        holder.wait()

    killer = threading.Thread(target=kill_when_the_rest_is_stored)
    killer.start()
    try:
        _, prog = run_tournament(cfg, db, workers=2)
    finally:
        holder.kill()
        killer.join()
    assert prog.done == 6
    with Store(db) as s:
        games = s.games(tid)
        assert len(games) == 6 and s.claims(tid) == []
    assert len({(g["pair"], g["swap"]) for g in games}) == 6
    assert (games[-1]["pair"], games[-1]["swap"]) == (0, 0)  # the held game, once its run was gone


def test_a_limited_run_has_nothing_left_to_give_once_its_limit_is_claimed(tmp_path: Path) -> None:
    # The Ray loop stops on `queued`: games still in the queue past the run's
    # limit are not work for this run (they would keep it waiting forever).
    from piramida.eval.tournament import Claims, GameKey

    db = tmp_path / "l.sqlite"
    with Store(db) as s:
        tid = s.tournament({"x": 2}, "", "v")
        ids = [s.agent(tid, n, "v") for n in ("a", "b")]
        todo = [GameKey("free", 0, 1, p, 0) for p in range(3)]
        with Claims(s, tid, ids, todo, limit=1) as claims:
            assert claims.queued
            assert claims.next() is not None
            assert not claims.queued and not claims.waiting and claims.next() is None
