"""``piramida show POSITION``: draw a position as a picture or as text."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from piramida.commands.common import fail, friendly_errors, load_position


def _check_out(path: Path, kind: str) -> None:
    if path.suffix.lower() != f".{kind}":
        fail(f"--{kind} wants a file name ending in .{kind}, got {str(path)!r}")
    if not path.parent.is_dir():
        fail(f"cannot write {path}: folder {str(path.parent)!r} does not exist")


def register(app: typer.Typer) -> None:
    @app.command("show")
    @friendly_errors
    def show(
        position: Annotated[
            str, typer.Argument(help="A position: a file, or inline JSON or text form.")
        ],
        png: Annotated[Path | None, typer.Option("--png", help="Write a PNG picture here.")] = None,
        svg: Annotated[
            Path | None, typer.Option("--svg", help="Write an SVG picture here.")
        ] = None,
        title: Annotated[
            str | None, typer.Option("--title", help="A title over the picture.")
        ] = None,
    ) -> None:
        """Draw a position: a PNG or SVG picture, or a text picture on stdout."""
        pos = load_position(position)
        from piramida.env.render import draw_position, render_ansi

        targets = [(p, k) for p, k in ((png, "png"), (svg, "svg")) if p is not None]
        if not targets:
            typer.echo(render_ansi(pos))
            return
        for path, kind in targets:
            _check_out(path, kind)
            draw_position(pos, path=path, fmt=kind, title=title)
            typer.echo(f"wrote {path}")
