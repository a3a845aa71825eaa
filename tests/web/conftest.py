"""One web server for the web tests: the application on a free loopback
port in a background thread (piramida/web/server.py), and a small JSON
client; a second one serving a tiny tournament's results file (random
against greedy, one pair: two games) for the stored games. ``bench/`` is
made importable for the browser helpers."""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


class Client:
    """JSON over HTTP to the test server: ``(status, answer)``."""

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")

    def request(self, path: str, body: Any = None, raw: bytes | None = None, timeout: float = 120) -> tuple[int, Any]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.url + path, data=data, method="POST" if data is not None else "GET")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def get(self, path: str) -> Any:
        status, answer = self.request(path)
        assert status == 200, answer
        return answer

    def post(self, path: str, body: Any = None) -> Any:
        status, answer = self.request(path, {} if body is None else body)
        assert status == 200, answer
        return answer

    def bad(self, path: str, body: Any = None, raw: bytes | None = None, status: int = 400) -> str:
        """A refused request: the status and the one line it answers."""
        got, answer = self.request(path, body, raw)
        assert got == status, (got, answer)
        assert set(answer) == {"error"}, answer
        line = answer["error"]
        assert isinstance(line, str) and line and "\n" not in line, line
        return line


@pytest.fixture(scope="session")
def server() -> Iterator[Any]:
    from piramida.web.server import BackgroundServer

    with BackgroundServer() as s:
        yield s


@pytest.fixture(scope="session")
def client(server: Any) -> Client:
    return Client(server.url)


@pytest.fixture(scope="session")
def results_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results file with two stored games (a second or two to play)."""
    from piramida.eval.tournament import TournamentConfig, run_tournament

    db = tmp_path_factory.mktemp("results") / "results.sqlite"
    run_tournament(TournamentConfig(("random", "greedy"), ("free",), 1, "pro", 3), db)
    return db


@pytest.fixture(scope="session")
def stored_server(results_db: Path) -> Iterator[Any]:
    """The application serving ``results_db`` (``piramida serve --db``)."""
    from piramida.web.server import BackgroundServer

    with BackgroundServer(dbs=[results_db]) as s:
        yield s


@pytest.fixture(scope="session")
def stored_client(stored_server: Any) -> Client:
    return Client(stored_server.url)
