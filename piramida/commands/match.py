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
        budget: Annotated[
            str, typer.Option("--budget", help="planner: thinking time per decision (2s, 500ms, 2).")
        ] = "1s",
        sims: Annotated[
            int | None,
            typer.Option("--sims", help="planner: simulations per decision instead of a time budget."),
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
        progress: Annotated[
            bool, typer.Option("--progress/--no-progress", help="Progress bar on stderr.")
        ] = True,
    ) -> None:
        """Play GAMES duplicate games of VARIANT between two agents and summarise."""
        from piramida.commands.suggest import parse_budget
        from piramida.env.physics import load_noise
        from piramida.eval.match import check_match, run_match

        names = [a.strip() for a in agents.split(",")]
        check_match(variant, names, games)
        if max_shots < 1:
            fail(f"--max-shots must be at least 1, got {max_shots}")
        if noise != "none":
            load_noise(noise)
        if sims is not None and sims < 1:
            fail(f"--sims must be at least 1, got {sims}")
        # The planner thinks within the budget and plans for the match's noise.
        planner_kw = {"budget_s": None if sims else parse_budget(budget), "n_sims": sims, "noise": noise}
        kwargs = [planner_kw if n == "planner" else {} for n in names]
        result = run_match(
            variant,
            names,
            games,
            seed=seed,
            noise=noise,
            max_shots=max_shots,
            progress=progress,
            agent_kwargs=kwargs,
        )
        if as_json:
            print_json(result.to_dict())
        else:
            typer.echo(result.summary())
