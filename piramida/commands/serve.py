"""``piramida serve``: the web page (piramida/web, docs/ui.md).

    piramida serve [--host 127.0.0.1] [--port 8000] [--db results.sqlite ...]

One page, served with its JSON API by uvicorn on the loopback interface
unless ``--host`` says otherwise: set up a position, ask for the best shot,
watch it, play a frame against any agent, open a game stored by a
tournament (from the results files named with ``--db``, and only those).
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
    ) -> None:
        """Serve the web page: position editor, suggestions, animation, play,
        and the games stored by tournaments (--db)."""
        import socket

        from piramida.eval.tournament import open_results
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
        typer.echo(f"piramida: the page is at {url_for(host, port)} (Ctrl-C stops)")
        run(host, port, dbs=dbs)
