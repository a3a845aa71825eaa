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
        noise: str = typer.Option("none", "--noise", help="execution noise preset (configs/noise)"),
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
        from piramida.env.game import Game
        from piramida.env.rules.options import parse_option_args
        from piramida.env.view import GameView

        specs = parse_specs(agents, count=2)
        # Outputs are checked before the frame is played, not after.
        if png_dir is not None:
            check_out_dir(png_dir, "--png-dir")
        if save is not None:
            check_out_file(save, "--save")

        from piramida.env.physics import load_noise, simulate

        nz = None if noise == "none" else load_noise(noise)
        strokes = [0]

        def noisy(position, shot):  # type: ignore[no-untyped-def]
            # One noise stream per stroke, keyed by (seed, stroke).
            strokes[0] += 1
            res = simulate(position, shot, noise=nz, seed=None if nz is None else seed * 100003 + strokes[0])
            return res.events, res.final

        players = [s.build({"seed": seed * 2 + i}) for i, s in enumerate(specs)]
        game = Game.new(variant, seed=seed, options=parse_option_args(option), simulate=noisy)
        shots = 0
        while not game.over and shots < max_shots:
            nxt = game.next
            player = int(nxt.player) if nxt.player is not None else 0
            view = GameView.of(game)
            action = players[player].act(view)
            if isinstance(action, str):
                game.choose(action)
                typer.echo(f"       p{player} chooses {action}")
                continue
            shots += 1
            ruling = game.play(action)
            line = ruling.summary() if ruling is not None else "lag shot"
            typer.echo(f"{shots:4d}  p{player} {_brief(action)}  ->  {line}")
            if png_dir is not None:
                from piramida.env.render import draw_position

                draw_position(game.position, path=png_dir / f"shot_{shots:04d}.png", title=f"shot {shots}")
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
