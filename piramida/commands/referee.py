from __future__ import annotations

import typer

from piramida.commands.common import fail


def register(app: typer.Typer) -> None:
    @app.command("referee", hidden=True)
    def referee() -> None:
        """Not built yet."""
        fail("piramida referee is not built yet")
