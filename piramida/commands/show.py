"""``piramida show POSITION``: draw a position as a picture or as text."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from piramida.commands.common import (
    InputError,
    check_out_file,
    friendly_errors,
    load_position,
    out_path,
)
from piramida.env.inputs import check_text

#: Characters of a picture's title: longer would not fit over the table.
MAX_TITLE = 200


def check_title(title: str | None) -> None:
    if title is None:
        return
    check_text(title, "--title", InputError)
    if len(title) > MAX_TITLE:
        raise InputError(f"--title is {len(title)} characters long; at most {MAX_TITLE} fit over the table")


def _literal(title: str | None) -> str | None:
    """The title drawn as typed: matplotlib reads text between two '$' as
    TeX math and fails on '$x^$'; an escaped dollar is a plain one."""
    return None if title is None else title.replace("$", r"\$")


def register(app: typer.Typer) -> None:
    @app.command("show")
    @friendly_errors
    def show(
        position: Annotated[
            str, typer.Argument(help="A position: a file, or inline JSON or text form.")
        ],
        png: Annotated[
            Path | None, typer.Option("--png", parser=out_path, help="Write a PNG picture here.")
        ] = None,
        svg: Annotated[
            Path | None, typer.Option("--svg", parser=out_path, help="Write an SVG picture here.")
        ] = None,
        title: Annotated[
            str | None, typer.Option("--title", help="A title over the picture.")
        ] = None,
    ) -> None:
        """Draw a position: a PNG or SVG picture, or a text picture on stdout."""
        pos = load_position(position)
        from piramida.env.render import draw_position, render_ansi

        targets = [(p, k) for p, k in ((png, "png"), (svg, "svg")) if p is not None]
        # Every output is checked before the first is written.
        check_title(title)
        for path, kind in targets:
            check_out_file(path, f"--{kind}", f".{kind}")
        if not targets:
            typer.echo(render_ansi(pos))
            return
        for path, kind in targets:
            draw_position(pos, path=path, fmt=kind, title=_literal(title))
            typer.echo(f"wrote {path}")
