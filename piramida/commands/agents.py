"""``piramida agents``: the agent specs every command that plays accepts."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    @app.command("agents")
    def agents() -> None:
        """List the agents, their spec keys and the shipped model files."""
        from pathlib import Path

        from piramida.agents.specs import KEYS

        for name, keys in KEYS.items():
            typer.echo(name if keys else f"{name} (no keys)")
            for k, key in keys.items():
                typer.echo(f"  {k:<8} {key.doc}")
        models = sorted(Path("models").glob("*.pt")) if Path("models").is_dir() else []
        if models:
            typer.echo("shipped models: " + ", ".join(str(p) for p in models))
        typer.echo("a spec is NAME or NAME:key=value:key=value, e.g. planner:budget=1s:noise=amateur")
        typer.echo("in a tournament, sprt or study {variant} in a spec is the variant played, "
                   "e.g. policy:path=models/{variant}_policy.pt")
