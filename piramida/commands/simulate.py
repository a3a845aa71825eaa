from __future__ import annotations

import typer

from piramida.commands.common import fail


def register(app: typer.Typer) -> None:
    @app.command("simulate", hidden=True)
    def simulate() -> None:
        """Not built yet."""
        fail("piramida simulate is not built yet")
