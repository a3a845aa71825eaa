"""``piramida match``: two agents play duplicate games (DESIGN.md §7).

    piramida match --variant free --agents greedy,random --games 200 --seed 1 --noise pro

Games 2k and 2k+1 share the rack and the noise streams with the seats
swapped (eval/match.py). A progress bar goes to stderr; the summary (or,
with ``--json``, one JSON object) to stdout.
"""

from __future__ import annotations

from typing import Annotated

import typer

from piramida.commands.common import fail, friendly_errors, print_json


def register(app: typer.Typer) -> None:
    @app.command("match")
    @friendly_errors
    def match(
        variant: Annotated[
            str, typer.Option("--variant", help="Variant, e.g. free, combined.")
        ] = "free",
        agents: Annotated[
            str, typer.Option("--agents", help="Two agent names, comma-separated: A,B.")
        ] = "greedy,random",
        games: Annotated[int, typer.Option("--games", help="Number of games (pairs of two).")] = 2,
        seed: Annotated[
            int, typer.Option("--seed", help="Match seed: racks and noise streams.")
        ] = 0,
        noise: Annotated[
            str,
            typer.Option("--noise", help="Execution noise preset (configs/noise): none, pro, ..."),
        ] = "none",
        max_shots: Annotated[
            int, typer.Option("--max-shots", help="Shots after which a frame is a draw.")
        ] = 300,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
        progress: Annotated[
            bool, typer.Option("--progress/--no-progress", help="Progress bar on stderr.")
        ] = True,
    ) -> None:
        """Play GAMES duplicate games of VARIANT between two agents and summarise."""
        from piramida.env.physics import load_noise
        from piramida.eval.match import check_match, run_match

        names = [a.strip() for a in agents.split(",")]
        check_match(variant, names, games)
        if max_shots < 1:
            fail(f"--max-shots must be at least 1, got {max_shots}")
        if noise != "none":
            load_noise(noise)
        result = run_match(
            variant, names, games, seed=seed, noise=noise, max_shots=max_shots, progress=progress
        )
        if as_json:
            print_json(result.to_dict())
        else:
            typer.echo(result.summary())
