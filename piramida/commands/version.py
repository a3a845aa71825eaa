from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    @app.command("version")
    def version() -> None:
        """Print the piramida version."""
        import piramida

        typer.echo(piramida.__version__)
