"""A real two-node Ray cluster on loopback, started and stopped by the test
that needs it.

``ray stop --force`` stops every Ray process of the user: a tournament or a
training run on the same machine died of it while the cluster tests ran
(docs/training.md). ``two_node_cluster`` stops only its own cluster's
processes instead: those whose command line names its port on loopback or
its temp dir (the GCS server, both raylets, their agents and workers).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def ray_cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    ray = str(Path(sys.executable).with_name("ray"))
    return subprocess.run([ray, *args], capture_output=True, text=True, env=env, timeout=180)


def cluster_pids(port: int, temp_dir: str) -> set[int]:
    """Processes whose command line names ``127.0.0.1:port``, the GCS port
    ``port`` or ``temp_dir``."""
    marks = re.compile(rf"(127\.0\.0\.1:{port}|gcs_server_port={port}|port={port})(?!\d)|{re.escape(temp_dir)}")
    out: set[int] = set()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            cmd = Path(f"/proc/{name}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marks.search(cmd):
            out.add(int(name))
    return out


def stop_cluster(port: int, temp_dir: str, wait_s: float = 15.0) -> set[int]:
    """SIGTERM the cluster's processes, SIGKILL what is left after
    ``wait_s``; returns the processes still found afterwards (none)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        pids = cluster_pids(port, temp_dir)
        for pid in pids:
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        deadline = time.monotonic() + wait_s
        while pids and time.monotonic() < deadline:
            time.sleep(0.2)
            pids = cluster_pids(port, temp_dir)
        if not pids:
            break
    return cluster_pids(port, temp_dir)


@contextmanager
def two_node_cluster(port: int, temp_dir: str) -> Iterator[dict[str, str]]:
    """A head and a worker node (one CPU each) on 127.0.0.1:``port`` with
    Ray's files under ``temp_dir`` (a short path: Ray's unix sockets may
    not exceed 107 bytes); yields the environment to run clients in."""
    env = dict(os.environ, RAY_AUTH_MODE="disabled", RAY_USAGE_STATS_ENABLED="0")
    try:
        head = ray_cli("start", "--head", f"--port={port}", "--node-ip-address=127.0.0.1", "--num-cpus=1",
                       "--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={temp_dir}", env=env)
        assert head.returncode == 0, head.stderr[-2000:]
        worker = ray_cli("start", f"--address=127.0.0.1:{port}", "--node-ip-address=127.0.0.1", "--num-cpus=1",
                         env=env)
        assert worker.returncode == 0, worker.stderr[-2000:]
        yield env
    finally:
        left = stop_cluster(port, temp_dir)
        assert not left, f"processes of the test cluster still running: {sorted(left)}"
