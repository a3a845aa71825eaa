"""``piramida demo --out DIR``: what ``make run`` shows.

A picture of the start position of every variant; then a short frame of
free pyramid, greedy against random at the ``pro`` noise level, with a
picture after each of the first shots (the balls' tracks drawn), and the
summary of a few duplicate games (eval/match.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from piramida.commands.common import (
    MAX_GAMES,
    SEED_MAX,
    InputError,
    fail,
    friendly_errors,
    out_path,
)
from piramida.env.inputs import brief, check_text


def _prepare(out: Path) -> None:
    check_text(str(out), f"--out {brief(str(out))}", InputError)
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
            Path, typer.Option("--out", parser=out_path, help="Folder for the pictures (created).")
        ] = Path("out"),
        seed: Annotated[
            int, typer.Option("--seed", min=0, max=SEED_MAX, help="Seed for the shuffled racks.")
        ] = 0,
        games: Annotated[
            int,
            typer.Option("--games", min=0, max=MAX_GAMES, help="Duplicate games of the closing match (0: none)."),
        ] = 4,
    ) -> None:
        """Draw the start position of every variant into OUT, play a short
        greedy-vs-random frame with pictures, and summarise a small match."""
        from piramida.env.position import VARIANTS, Position
        from piramida.env.render import draw_position

        if games % 2:
            fail(f"--games must be even: games are played in duplicate pairs (two games a rack), got {games}")
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
        _frame(out, seed)
        if games > 0:
            from piramida.eval.match import run_match

            typer.echo("")
            result = run_match("free", ["greedy", "random"], games, seed=seed, noise="pro")
            typer.echo(result.summary())
        from piramida.commands.suggest import demo_suggestions

        demo_suggestions(out, seed)


#: Pictures of the demo frame: after each of its first shots.
FRAME_PICTURES = 6
FRAME_MAX_SHOTS = 60


def _frame(out: Path, seed: int) -> None:
    """Greedy (player 0) against random (player 1), free pyramid, pro noise."""
    import numpy as np

    from piramida.agents import make_agent
    from piramida.agents.base import GameView
    from piramida.env.game import Game
    from piramida.env.physics import load_noise, simulate
    from piramida.env.render import Overlay, draw_position

    noise = load_noise("pro")
    assert noise is not None
    rng = np.random.default_rng([seed, 0xDE40])
    last: dict = {}

    def noisy(position, shot):
        res = simulate(position, noise.perturb(shot, rng))
        last["result"] = res
        return res.events, res.final

    game = Game.new("free", seed=seed, simulate=noisy)
    agents = [make_agent("greedy", seed=seed), make_agent("random", seed=seed)]
    names = ("greedy", "random")
    typer.echo(f"\nfree pyramid, greedy (p0) vs random (p1), noise pro, seed {seed}:")
    shots = 0
    while not game.over and shots < FRAME_MAX_SHOTS:
        view = GameView.of(game)
        action = agents[view.player].act(view)
        if isinstance(action, str):
            game.choose(action)
            typer.echo(f"  p{view.player} ({names[view.player]}) chooses {action}")
            continue
        ruling = game.play(action)
        shots += 1
        assert ruling is not None
        typer.echo(f"  {shots:>2}. p{view.player} ({names[view.player]}) {ruling.summary()}")
        if shots <= FRAME_PICTURES:
            res = last["result"]
            overlays = [
                Overlay.path(
                    list(zip(xs, ys, strict=True)),
                    colour="#ffd84a" if b == action.ball else "#9ad0ff",
                )
                for b, (_, xs, ys) in res.trajectories.items()
                if len(xs) > 1 and float(np.ptp(xs) + np.ptp(ys)) > 1e-3
            ]
            path = out / f"frame_shot{shots:02d}.png"
            title = f"shot {shots}: p{view.player} {names[view.player]} - {ruling.summary()}"
            try:
                draw_position(ruling.position, overlays, path=path, title=title[:90])
            except OSError as exc:
                fail(f"cannot write {path}: {exc.strerror or exc}")
            typer.echo(f"      picture -> {path}")
    result = (
        f"winner p{game.winner} ({names[game.winner]})"
        if game.winner is not None
        else "no winner yet"
    )
    typer.echo(f"  frame over after {shots} shots: {result}, score {game.score[0]}-{game.score[1]}")
