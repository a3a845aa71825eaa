from __future__ import annotations

import typer

from piramida.commands.common import fail


def register(app: typer.Typer) -> None:
    @app.command("demo", hidden=True)
    def demo() -> None:
        """Not built yet."""
        fail("piramida demo is not built yet")
