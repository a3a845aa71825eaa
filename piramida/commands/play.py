from __future__ import annotations

import typer

from piramida.commands.common import fail


def register(app: typer.Typer) -> None:
    @app.command("play", hidden=True)
    def play() -> None:
        """Not built yet."""
        fail("piramida play is not built yet")
