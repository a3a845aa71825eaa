"""Ray as users expect it: a cluster that cannot be reached is one line
and exit 2 within seconds, leaving nothing behind; ``--workers N`` starts a
private instance even with another Ray running; a worker killed in the
middle of a tournament costs nothing but time (its game is played again,
every game is stored exactly once)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from piramida.configs import CONFIG_DIR
from piramida.eval.cluster import ClusterError, check_reachable, split_address
from piramida.eval.tournament import Progress, TournamentConfig, run_tournament

CLOSED = "127.0.0.1:1"  # port 1 on loopback: nothing listens there


def _quiet_env(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, RAY_USAGE_STATS_ENABLED="0", PYTHONWARNINGS="ignore")


def test_addresses_are_checked() -> None:
    assert split_address("10.0.0.5:6379") == ("10.0.0.5", 6379)
    assert split_address("[::1]:6379") == ("::1", 6379)
    for bad in ("10.0.0.5", ":6379", "host:port", "host:0", "host:70000", ""):
        with pytest.raises(ClusterError, match="HOST:PORT"):
            split_address(bad)
    with pytest.raises(ClusterError, match=f"cannot reach the Ray cluster at {CLOSED}"):
        check_reachable(CLOSED)


@pytest.mark.parametrize(
    "args",
    [
        ["tournament", "--agents", "greedy,random", "--pairs", "1", "--db", "{db}", "--no-progress"],
        ["sprt", "greedy", "random", "--max-pairs", "1", "--db", "{db}", "--no-progress"],
        ["tournament", "--agents", "greedy,random", "--pairs", "1", "--db", "{db}", "--workers", "2"],
        ["train", "--config", str(CONFIG_DIR / "training" / "smoke.toml"), "--out", "{db}"],
    ],
    ids=["tournament", "sprt", "tournament-with-workers", "train"],
)
def test_an_unreachable_cluster_is_one_line_and_exit_2_leaving_nothing_behind(tmp_path: Path, args: list[str]) -> None:
    db = tmp_path / "r.sqlite"
    argv = [sys.executable, "-m", "piramida", *[a.replace("{db}", str(db)) for a in args], "--address", CLOSED]
    start = time.monotonic()
    out = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path, env=_quiet_env(tmp_path), timeout=60)
    took = time.monotonic() - start
    assert out.returncode == 2, out.stderr[-2000:]
    assert out.stderr.count("\n") == 1 and f"cannot reach the Ray cluster at {CLOSED}" in out.stderr
    assert took < 30, took
    assert list(tmp_path.iterdir()) == []  # no results file or run folder, no tournament row


def test_a_killed_worker_has_its_game_played_again_and_every_game_is_stored_once(tmp_path: Path) -> None:
    import ray

    db = tmp_path / "k.sqlite"
    cfg = TournamentConfig(("greedy", "random"), ("free",), 8, "pro", 3)
    killed: list[int] = []

    def descendants_named(mark: bytes) -> list[int]:
        """Processes below this one (Ray's raylet and its workers) whose
        command line holds ``mark``: only this test's own Ray."""
        parent: dict[int, int] = {}
        cmd: dict[int, bytes] = {}
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    stat = Path(f"/proc/{name}/stat").read_text()
                    parent[int(name)] = int(stat.rsplit(")", 1)[1].split()[1])
                    cmd[int(name)] = Path(f"/proc/{name}/cmdline").read_bytes()
                except (OSError, ValueError, IndexError):
                    continue
        me = os.getpid()

        def below(pid: int) -> bool:
            while pid in parent and pid > 1:
                pid = parent[pid]
                if pid == me:
                    return True
            return False

        return [p for p, c in cmd.items() if mark in c and below(p)]

    def kill_one(prog: Progress) -> None:
        if not killed:
            workers = descendants_named(b"ray::_Worker")
            assert workers, "no Ray worker process found"
            os.kill(workers[0], signal.SIGKILL)
            killed.append(workers[0])

    try:
        tid, prog = run_tournament(cfg, db, workers=2, on_game=kill_one)
    finally:
        if ray.is_initialized():
            ray.shutdown()
    assert killed and prog.workers_lost >= 1
    rows = sqlite3.connect(db).execute("SELECT pair, swap FROM games WHERE tournament_id = ?", (tid,)).fetchall()
    assert sorted(rows) == [(k, s) for k in range(8) for s in (0, 1)]  # every game, exactly once
    assert prog.done + prog.done_before == prog.total == 16


def test_workers_start_a_private_ray_even_with_another_running(tmp_path: Path) -> None:
    import ray

    # Another Ray instance on the machine, found through RAY_ADDRESS, where
    # Ray's own default would send `ray.init(num_cpus=2)` (and refuse it).
    ray.init(address="local", num_cpus=1, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        other_node = ray.get_runtime_context().get_node_id()
        env = _quiet_env(tmp_path) | {"RAY_ADDRESS": ray.get_runtime_context().gcs_address}
        db = tmp_path / "w.sqlite"
        out = subprocess.run(
            [sys.executable, "-m", "piramida", "tournament", "--agents", "greedy,random", "--pairs", "2",
             "--db", str(db), "--workers", "2", "--no-progress"],
            capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300,
        )
        assert out.returncode == 0, out.stderr[-2000:]
        nodes = {r[0] for r in sqlite3.connect(db).execute("SELECT node FROM games")}
        assert len(nodes) == 1 and other_node not in nodes
    finally:
        ray.shutdown()
