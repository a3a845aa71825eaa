from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    @app.command("show")
    def show() -> None:
        """Draw a position (placeholder until render lands)."""
        raise typer.Exit(2)
