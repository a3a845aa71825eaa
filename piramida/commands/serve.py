"""``piramida serve``: the web page (piramida/web, docs/ui.md).

    piramida serve [--host 127.0.0.1] [--port 8000] [--db results.sqlite ...] [--games board.sqlite]

One page, served with its JSON API by uvicorn on the loopback interface
unless ``--host`` says otherwise: set up a position, ask for the best shot,
watch it, play a frame against any agent, open a game stored by a
tournament (from the results files named with ``--db``, and only those).
Every frame played or opened is kept in the games file (``--games``; by
default ``$XDG_DATA_HOME/piramida/board.sqlite`` or
``~/.local/share/piramida/board.sqlite``), so it outlives a restart.
It works offline.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from piramida.commands.common import InputError, fail, friendly_errors
from piramida.env.inputs import brief, check_text


def register(app: typer.Typer) -> None:
    @app.command("serve")
    @friendly_errors
    def serve(
        host: Annotated[
            str, typer.Option("--host", help="Interface to listen on (the loopback one by default).")
        ] = "127.0.0.1",
        port: Annotated[int, typer.Option("--port", min=1, max=65535, help="TCP port.")] = 8000,
        db: Annotated[
            list[Path] | None,
            typer.Option(
                "--db",
                metavar="FILE",
                help="A tournament's results file whose games the Play tab may open (repeat for more; "
                "the page reads no other file).",
            ),
        ] = None,
        games: Annotated[
            Path | None,
            typer.Option(
                "--games",
                metavar="FILE",
                help="The SQLite file that keeps every frame played or opened on the page, created with its "
                "folder when missing (default: $XDG_DATA_HOME/piramida/board.sqlite, else "
                "~/.local/share/piramida/board.sqlite).",
            ),
        ] = None,
    ) -> None:
        """Serve the web page: position editor, suggestions, animation, play,
        and the games stored by tournaments (--db).

        Protected (docs/ui.md, "Serving safely"): requests from other sites'
        pages (403), bodies that are not JSON (415) or too large (413), more
        than 30 expensive requests a minute per address (429), agents naming
        any file but the shipped models. Not protected: no authentication, no
        TLS. It listens on 127.0.0.1 by default; to expose it, put a reverse
        proxy in front that adds both and passes the Host header on."""
        import socket

        from piramida.eval.tournament import open_results
        from piramida.web.board_store import BoardStore, default_path
        from piramida.web.server import run, url_for

        dbs = list(db or [])
        for path in dbs:
            open_results(path).close()  # there, and a results file: else one line now
        check_text(host, f"--host {brief(host)}", InputError)
        if not host.strip():
            fail("--host is empty: give an address such as 127.0.0.1")
        try:
            # Refuse a busy port or an unknown host in one line, before
            # uvicorn starts (it would log a traceback-like message).
            family = socket.AF_INET6 if ":" in host else socket.AF_INET
            with socket.socket(family, socket.SOCK_STREAM) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                probe.bind((host, port))
        except (OSError, TypeError, ValueError, UnicodeError) as exc:
            fail(f"cannot listen on {brief(host)}:{port}: {getattr(exc, 'strerror', None) or exc}")
        board_file = games if games is not None else default_path()
        BoardStore(board_file).close()  # there (or made), and a games file: else one line now
        typer.echo(f"piramida: the page is at {url_for(host, port)} (Ctrl-C stops)")
        typer.echo(f"piramida: frames are kept in {board_file}")
        run(host, port, dbs=dbs, games=board_file)
