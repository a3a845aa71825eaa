"""Run the web application on uvicorn: in the foreground (``piramida
serve``), or in a background thread (tests, bench/web.py)."""

from __future__ import annotations

import socket
import threading
import time
import urllib.request
from collections.abc import Iterable
from pathlib import Path
from typing import Any

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def url_for(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def _config(app: Any, host: str, port: int, log_level: str) -> Any:
    import uvicorn

    return uvicorn.Config(app, host=host, port=port, log_level=log_level, access_log=False, lifespan="on")


def run(
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    log_level: str = "warning",
    dbs: Iterable[str | Path] = (),
    games: str | Path | None = None,
) -> None:
    """Serve until interrupted; ``dbs``: the results files the page may
    read; ``games``: the file that keeps the boards (None: memory)."""
    import uvicorn

    from piramida.web.app import create_app

    uvicorn.Server(_config(create_app(dbs=dbs, games=games), host, port, log_level)).run()


class BackgroundServer:
    """The application on a free loopback port, in a daemon thread;
    ``games``: the file that keeps its boards (None: memory)."""

    def __init__(
        self,
        host: str = DEFAULT_HOST,
        port: int = 0,
        workers: int | None = None,
        dbs: Iterable[str | Path] = (),
        games: str | Path | None = None,
    ) -> None:
        import uvicorn

        from piramida.web.app import create_app

        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, port))
        self.host, self.port = self.sock.getsockname()[:2]
        self.url = url_for(self.host, self.port)
        self.app = create_app(workers, dbs=dbs, games=games)
        self.server = uvicorn.Server(_config(self.app, self.host, self.port, "warning"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def start(self, timeout: float = 120.0, warm: bool = True) -> BackgroundServer:
        """Start and wait until the API answers (and, with ``warm``, the
        physics is loaded)."""
        self.thread.start()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "api/health", timeout=5) as r:
                    import json

                    if not warm or json.loads(r.read())["warm"]:
                        return self
            except OSError:
                pass
            time.sleep(0.1)
        raise TimeoutError(f"the web server at {self.url} did not start in {timeout:g} s")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()

    def __enter__(self) -> BackgroundServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
