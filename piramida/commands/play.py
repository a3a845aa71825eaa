"""``piramida play``: two agents play a frame with the physics and the
referee, one line per shot and ruling."""

from __future__ import annotations

from pathlib import Path

import typer

from piramida.commands.common import (
    MAX_SHOTS,
    SEED_MAX,
    check_out_dir,
    check_out_file,
    friendly_errors,
    out_path,
)


def register(app: typer.Typer) -> None:
    @app.command("play")
    @friendly_errors
    def play(
        variant: str = typer.Option("free", "--variant", help="the variant to play"),
        agents: str = typer.Option(
            "random,random", "--agents", help="two agent specs, comma separated: NAME or NAME:key=value:..."
        ),
        seed: int = typer.Option(0, "--seed", min=0, max=SEED_MAX, help="seed of the rack, the agents and the noise"),
        noise: str = typer.Option(
            "pro", "--noise", help="execution noise preset (configs/noise): pro (the default of every command that "
            "plays games), none (perfect execution), amateur, ..."
        ),
        max_shots: int = typer.Option(200, "--max-shots", min=1, max=MAX_SHOTS, help="stop after this many shots"),
        option: list[str] = typer.Option(None, "--option", help="variant option NAME=VALUE (repeatable)"),
        save: Path | None = typer.Option(
            None, "--save", parser=out_path, help="write the game (full history) as JSON here"
        ),
        png_dir: Path | None = typer.Option(
            None, "--png-dir", parser=out_path, help="write a PNG of the position after each shot"
        ),
    ) -> None:
        """Play a frame between two agents, one line per shot and ruling."""
        from piramida.agents.specs import parse_specs
        from piramida.env.driver import FrameDriver, Step
        from piramida.env.rules.options import parse_option_args

        specs = parse_specs(agents, count=2)
        # Outputs are checked before the frame is played, not after.
        if png_dir is not None:
            check_out_dir(png_dir, "--png-dir")
        if save is not None:
            check_out_file(save, "--save")

        # The frame driver (env/driver.py): the rack, the noise streams and
        # the agents' seeds all come from --seed (pair 0 of a match with it).
        driver = FrameDriver(variant, noise, parse_option_args(option))
        game = driver.reset(seed)
        # Every agent plays for the frame's noise (its pot-probability model).
        players = [s.build(s.defaults({"noise": noise})) for s in specs]

        def show(step: Step) -> None:
            if step.refused is not None:
                what = "shot" if step.is_shot else "choice"
                typer.echo(f"       p{step.seat} refused ({step.reason}); plays a {what} in its place")
            if not step.is_shot:
                typer.echo(f"       p{step.seat} chooses {step.action}")
                return
            line = step.ruling.summary() if step.ruling is not None else "lag shot"
            typer.echo(f"{step.shots:4d}  p{step.seat} {_brief(step.action)}  ->  {line}")
            if png_dir is not None:
                from piramida.env.render import draw_position

                draw_position(
                    game.position, path=png_dir / f"shot_{step.shots:04d}.png", title=f"shot {step.shots}"
                )

        driver.play(players, max_shots=max_shots, on_step=show)
        shots = game.shots
        result = f"winner p{game.winner}" if game.winner is not None else ("draw" if game.over else "stopped")
        typer.echo(f"{result}; score {game.score[0]}-{game.score[1]} after {shots} shots")
        if save is not None:
            game.save(save)


def _brief(shot) -> str:  # type: ignore[no-untyped-def]
    """The shot in short: ball, direction, speed, placement and call."""
    out = f"ball={shot.ball} phi={shot.phi:.1f} v={shot.v:.2f}"
    if shot.place is not None:
        out += f" place={shot.place[0]:.3f},{shot.place[1]:.3f}"
    if shot.call is not None:
        out += f" call={shot.call[0]}:{shot.call[1]}"
    return out
