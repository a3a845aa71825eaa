"""``piramida demo --out DIR``: what ``make run`` shows.

For now: a picture of the start position of every variant. Later issues add
simulated shots, a refereed frame and agents playing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from piramida.commands.common import fail, friendly_errors


def _prepare(out: Path) -> None:
    if out.exists() and not out.is_dir():
        fail(f"--out {str(out)!r} exists and is not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot create output folder {str(out)!r}: {exc.strerror or exc}")


def register(app: typer.Typer) -> None:
    @app.command("demo")
    @friendly_errors
    def demo(
        out: Annotated[
            Path, typer.Option("--out", help="Folder for the pictures (created).")
        ] = Path("out"),
        seed: Annotated[int, typer.Option("--seed", help="Seed for the shuffled racks.")] = 0,
    ) -> None:
        """Draw the start position of every variant into OUT."""
        from piramida.env.position import VARIANTS, Position
        from piramida.env.render import draw_position

        _prepare(out)
        for variant in VARIANTS:
            path = out / f"start_{variant}.png"
            try:
                draw_position(
                    Position.start(variant, seed=seed), path=path, title=f"{variant}: start"
                )
            except OSError as exc:
                fail(f"cannot write {path}: {exc.strerror or exc}")
            typer.echo(f"{variant:<10} start position -> {path}")
        typer.echo(f"{len(VARIANTS)} pictures in {out}/")
