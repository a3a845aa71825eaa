"""``piramida demo --out DIR``: what ``make run`` shows.

A picture of the start position of every variant; then a short frame of
free pyramid, greedy against random at the ``pro`` noise level, with a
picture after each of the first shots (the balls' tracks drawn), the
summary of a few duplicate games (eval/match.py), the planner's
suggestions, and last the one line that says how to start the web page.
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
from piramida.env.shot import Shot


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
        tournament_pairs: Annotated[
            int,
            typer.Option(
                "--tournament-pairs", min=0, max=1000, help="Pairs per pairing of the closing tournament (0: none)."
            ),
        ] = 1,
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
        if tournament_pairs > 0:
            _tournament(out, seed, tournament_pairs)
        typer.echo(f"\nthe web page (docs/ui.md): {serve_command()}, then open http://127.0.0.1:8000/")


#: The closing tournament: small enough for a minute on two cores.
DEMO_AGENTS = ("random", "greedy", "planner:sims=30")
DEMO_VARIANTS = ("free", "combined")


def _tournament(out: Path, seed: int, pairs: int) -> None:
    """A small tournament into OUT/results.sqlite and its report as
    OUT/report.html (a rerun resumes it: the games are stored)."""
    from piramida.eval.report import analyse, summary, to_html
    from piramida.eval.tournament import TournamentConfig, run_tournament

    cfg = TournamentConfig(DEMO_AGENTS, DEMO_VARIANTS, pairs, "pro", seed)
    db = out / "results.sqlite"
    typer.echo(f"\ntournament: {', '.join(DEMO_AGENTS)} in {', '.join(DEMO_VARIANTS)}, {pairs} pair(s) a pairing -> {db}")
    tid, _ = run_tournament(cfg, db, command=f"piramida demo --out {out} --seed {seed}")
    rep = analyse(str(db), tid, bootstrap=50)
    (out / "report.html").write_text(to_html(rep), encoding="utf-8")
    typer.echo(summary(rep))
    typer.echo(f"report -> {out / 'report.html'}")


def serve_command() -> str:
    """The command that starts the web page: this environment's ``piramida``
    (``.venv/bin/piramida serve`` under ``make run``)."""
    import os
    import sys

    exe = Path(sys.executable).parent / "piramida"
    if not exe.is_file():
        return "piramida serve"
    try:
        rel = os.path.relpath(exe)
    except ValueError:  # another drive
        rel = str(exe)
    return f"{rel if not rel.startswith('..') else exe} serve"


#: Pictures of the demo frame: after each of its first shots.
FRAME_PICTURES = 6
FRAME_MAX_SHOTS = 60


def _frame(out: Path, seed: int) -> None:
    """Greedy (player 0) against random (player 1), free pyramid, pro noise:
    the frame driver's frame of ``seed`` (the first game of the match that
    follows, cut at ``FRAME_MAX_SHOTS``)."""
    import numpy as np

    from piramida.agents import make_agent
    from piramida.env.driver import FrameDriver, Step
    from piramida.env.render import Overlay, draw_position

    driver = FrameDriver("free", "pro")
    game = driver.reset(seed)
    agents = [make_agent("greedy"), make_agent("random")]
    names = ("greedy", "random")
    typer.echo(f"\nfree pyramid, greedy (p0) vs random (p1), noise pro, seed {seed}:")

    def show(step: Step) -> None:
        p = step.seat
        if step.refused is not None:
            typer.echo(f"  p{p} ({names[p]}) refused ({step.reason}); plays another action in its place")
        if not step.is_shot:
            typer.echo(f"  p{p} ({names[p]}) chooses {step.action}")
            return
        assert step.ruling is not None and isinstance(step.action, Shot)
        shots = step.shots
        typer.echo(f"  {shots:>2}. p{p} ({names[p]}) {step.ruling.summary()}")
        if shots > FRAME_PICTURES:
            return
        overlays = [
            Overlay.path(
                list(zip(xs, ys, strict=True)),
                colour="#ffd84a" if b == step.action.ball else "#9ad0ff",
            )
            for b, (_, xs, ys) in step.result.trajectories.items()
            if len(xs) > 1 and float(np.ptp(xs) + np.ptp(ys)) > 1e-3
        ]
        path = out / f"frame_shot{shots:02d}.png"
        title = f"shot {shots}: p{p} {names[p]} - {step.ruling.summary()}"
        try:
            draw_position(step.ruling.position, overlays, path=path, title=title[:90])
        except OSError as exc:
            fail(f"cannot write {path}: {exc.strerror or exc}")
        typer.echo(f"      picture -> {path}")

    driver.play(agents, max_shots=FRAME_MAX_SHOTS, on_step=show)
    result = (
        f"winner p{game.winner} ({names[game.winner]})"
        if game.winner is not None
        else "no winner yet"
    )
    typer.echo(f"  frame over after {game.shots} shots: {result}, score {game.score[0]}-{game.score[1]}")
