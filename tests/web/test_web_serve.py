"""``piramida serve``: starts the page on the loopback interface, says where
it is in one line, stops on a signal; a busy port is one line and exit 2."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request

from typer.testing import CliRunner

from piramida.cli import app


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_starts_the_page_and_stops_on_a_signal() -> None:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "piramida", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert line.strip() == f"piramida: the page is at http://127.0.0.1:{port}/ (Ctrl-C stops)"
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=5) as r:
                    assert json.loads(r.read())["ok"] is True
                    break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
            assert b"<canvas id=\"table\"" in r.read()
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode in (0, 130, -signal.SIGINT), err  # 130: the interrupt re-raised, as a shell expects
    assert "Traceback" not in err


def test_a_busy_port_is_one_line() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        res = CliRunner().invoke(app, ["serve", "--port", str(port)])
    assert res.exit_code == 2 and res.stdout == ""
    assert res.stderr.startswith(f"error: cannot listen on '127.0.0.1':{port}: ")
    assert len(res.stderr.strip().splitlines()) == 1
