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
        #: The headers of the last refused request's answer.
        self.last_headers: dict[str, str] = {}

    def request(
        self,
        path: str,
        body: Any = None,
        raw: bytes | None = None,
        timeout: float = 120,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any]:
        """``headers`` are sent as well (and replace the JSON Content-Type)."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.url + path, data=data, method="POST" if data is not None else "GET")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            self.last_headers = dict(e.headers)
            return e.code, json.loads(e.read())

    def get(self, path: str) -> Any:
        status, answer = self.request(path)
        assert status == 200, answer
        return answer

    def post(self, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
        status, answer = self.request(path, {} if body is None else body, headers=headers)
        assert status == 200, answer
        return answer

    def bad(
        self,
        path: str,
        body: Any = None,
        raw: bytes | None = None,
        status: int = 400,
        headers: dict[str, str] | None = None,
    ) -> str:
        """A refused request: the status and the one line it answers."""
        got, answer = self.request(path, body, raw, headers=headers)
        assert got == status, (got, answer)
        assert set(answer) == {"error"}, answer
        line = answer["error"]
        assert isinstance(line, str) and line and "\n" not in line, line
        return line


#: The rate of expensive requests the shared test server allows: the load
#: test's rounds of concurrent suggestions and the browser tests stay far
#: below it (tests/web/test_web_security.py tests the limit itself).
TEST_RATE_PER_MINUTE = 100_000
TEST_BURST = 1_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium for a test module (bench/web.py start_browser);
    the module is skipped where the browser is not installed."""
    from bench.web import browser_missing, start_browser

    missing = browser_missing()
    if missing is not None:
        pytest.skip(f"browser tests need a browser: {missing}")
    driver = start_browser()
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="session")
def server() -> Iterator[Any]:
    from piramida.web.guard import RateLimit
    from piramida.web.server import BackgroundServer

    s = BackgroundServer()
    s.app.state.guard.limit(RateLimit(TEST_RATE_PER_MINUTE, TEST_BURST))
    with s:
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


# ------------------------------------------------------------------ the analysis board
# Servers that keep their boards in a games file (``piramida serve --games``),
# for tests/web/test_web_board*.py, with the shared server's rate limit.
@pytest.fixture(scope="session")
def start_board_server() -> Any:
    """``start(games, port=0)``: a started server keeping its boards in
    ``games`` (the caller stops it): a restart is a second one on the same file."""
    from piramida.web.guard import RateLimit
    from piramida.web.server import BackgroundServer

    def start(games: Path, port: int = 0) -> Any:
        s = BackgroundServer(port=port, games=games)
        s.app.state.guard.limit(RateLimit(TEST_RATE_PER_MINUTE, TEST_BURST))
        return s.start()

    return start


@pytest.fixture(scope="module")
def games_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A games file of its own for each test module (created by the server)."""
    return tmp_path_factory.mktemp("games") / "board.sqlite"


@pytest.fixture(scope="module")
def board_server(games_file: Path, start_board_server: Any) -> Iterator[Any]:
    """The application keeping its boards in ``games_file``."""
    s = start_board_server(games_file)
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="module")
def board_client(board_server: Any) -> Client:
    return Client(board_server.url)
