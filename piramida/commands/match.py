"""``piramida match``: two agents play duplicate games (docs/design.md §7).

    piramida match --variant free --agents greedy,random --games 200 --seed 1 --noise pro

Games 2k and 2k+1 share the rack and the noise streams with the seats
swapped (eval/match.py). A progress bar goes to stderr; the summary (or,
with ``--json``, one JSON object) to stdout.
"""

from __future__ import annotations

from typing import Annotated

import typer

from piramida.commands.common import (
    MAX_GAMES,
    MAX_SHOTS,
    MAX_SIMS,
    SEED_MAX,
    fail,
    friendly_errors,
    print_json,
)


def register(app: typer.Typer) -> None:
    @app.command("match")
    @friendly_errors
    def match(
        variant: Annotated[
            str, typer.Option("--variant", help="Variant, e.g. free, combined.")
        ] = "free",
        agents: Annotated[
            str,
            typer.Option(
                "--agents",
                help="Two agent specs, comma-separated: NAME or NAME:key=value:..., e.g. planner:sims=500,greedy.",
            ),
        ] = "greedy,random",
        games: Annotated[
            int, typer.Option("--games", min=2, max=MAX_GAMES, help="Number of games, even (duplicate pairs of two).")
        ] = 2,
        seed: Annotated[
            int, typer.Option("--seed", min=0, max=SEED_MAX, help="Match seed: racks and noise streams.")
        ] = 0,
        noise: Annotated[
            str,
            typer.Option(
                "--noise",
                help="Execution noise preset (configs/noise): pro (the default of every command that plays games), "
                "none (perfect execution), amateur, ...",
            ),
        ] = "pro",
        max_shots: Annotated[
            int, typer.Option("--max-shots", min=1, max=MAX_SHOTS, help="Shots after which a frame is a draw.")
        ] = 300,
        budget: Annotated[
            str, typer.Option("--budget", help="planner: thinking time per decision (2s, 500ms, 2).")
        ] = "1s",
        sims: Annotated[
            int | None,
            typer.Option(
                "--sims", min=1, max=MAX_SIMS, help="planner: simulations per decision instead of a time budget."
            ),
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
        progress: Annotated[
            bool, typer.Option("--progress/--no-progress", help="Progress bar on stderr.")
        ] = True,
    ) -> None:
        """Play GAMES duplicate games of VARIANT between two agents and summarise."""
        from piramida.agents.specs import parse_spec, parse_specs
        from piramida.commands.suggest import parse_budget
        from piramida.env.physics import load_noise
        from piramida.eval.match import check_match, run_match

        names = [s.text for s in parse_specs(agents, count=2)]
        check_match(variant, names, games)
        if games % 2:
            fail(f"--games must be even: games are played in duplicate pairs (two games a rack), got {games}")
        if noise != "none":
            load_noise(noise)
        # Every agent plays for the match's noise (its pot-probability model);
        # the planner thinks within the budget. The budget is checked even
        # when --sims replaces it: a typo is still a typo.
        budget_s = parse_budget(budget)
        offered = {"budget_s": None if sims else budget_s, "n_sims": sims, "noise": noise}
        kwargs = [parse_spec(n).defaults(offered) for n in names]
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
            import shlex
            import sys

            print_json(result.to_dict(frames=True) | {"command": shlex.join(["piramida", *sys.argv[1:]])})
        else:
            typer.echo(result.summary())
