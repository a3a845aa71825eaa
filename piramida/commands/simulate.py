"""``piramida simulate``: play one shot with the physics and report it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from piramida.commands.common import (
    SEED_MAX,
    check_out_file,
    friendly_errors,
    load_position,
    load_shot,
    out_path,
    print_json,
)
from piramida.env.events import describe_event


def register(app: typer.Typer) -> None:
    @app.command("simulate")
    @friendly_errors
    def simulate(
        position: Annotated[
            str, typer.Option("--position", help="A position: a file, or inline JSON or text form.")
        ],
        shot: Annotated[
            str, typer.Option("--shot", help="A shot: a file, or inline JSON or text form.")
        ],
        noise: Annotated[
            str | None,
            typer.Option("--noise", help="Execution noise preset (none, pro, amateur, novice) or a TOML path."),
        ] = None,
        seed: Annotated[
            int | None, typer.Option("--seed", min=0, max=SEED_MAX, help="Seed of the noise.")
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
        motion: Annotated[
            bool, typer.Option("--motion/--no-motion", help="List motion-state changes too.")
        ] = False,
        png: Annotated[Path | None, typer.Option("--png", parser=out_path, help="Draw every ball's path here.")] = None,
        gif: Annotated[Path | None, typer.Option("--gif", parser=out_path, help="Write an animation here.")] = None,
    ) -> None:
        """Simulate one shot: the event log, the final position, pictures."""
        from piramida.env.physics import simulate as run

        pos = load_position(position)
        sh = load_shot(shot)
        for path, kind in ((png, "png"), (gif, "gif")):
            if path is not None:
                check_out_file(path, f"--{kind}", f".{kind}")
        result = run(pos, sh, noise=noise, seed=seed)
        if as_json:
            print_json(result.to_dict())
        else:
            if result.shot != sh:
                typer.echo(f"played: {result.shot.to_text()}")
            for e in result.events:
                if e.type == "motion" and not motion:
                    continue
                typer.echo(f"{e.t:8.4f}s  {describe_event(e)}")
            pots = ", ".join(f"{b} in {p}" for b, p in result.pocketed) or "none"
            typer.echo(f"pocketed: {pots}")
            if result.off_table:
                typer.echo(f"off the table: {', '.join(result.off_table)}")
            typer.echo(f"final: {result.final.to_text()}")
        if png is not None or gif is not None:
            from piramida.env.physics.draw_paths import animate_shot, draw_shot

            if png is not None:
                draw_shot(result, png)
                if not as_json:
                    typer.echo(f"wrote {png}")
            if gif is not None:
                animate_shot(result, gif)
                if not as_json:
                    typer.echo(f"wrote {gif}")
