"""``piramida iterate``: expert iteration with a gated ladder of generations
(training/iterate.py, docs/training.md "Expert iteration").

    piramida iterate --variant free --generations 5 --out runs/iterate/free
    piramida iterate --variant free --generations 8 --out runs/iterate/free   # resumes, adds three
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer

from piramida.commands.common import SEED_MAX, friendly_errors, out_path, print_json


def register(app: typer.Typer) -> None:
    @app.command("iterate")
    @friendly_errors
    def iterate(
        out: Annotated[Path, typer.Option("--out", parser=out_path, help="The run folder (a rerun of the same command resumes).")],
        variant: Annotated[str, typer.Option("--variant", help="The variant.")] = "free",
        generations: Annotated[int, typer.Option("--generations", min=1, max=1000, help="Generations to train after the plain planner.")] = 3,
        frames: Annotated[int, typer.Option("--frames", min=1, max=1_000_000, help="Self-play frames a generation.")] = 200,
        sims: Annotated[int, typer.Option("--sims", min=1, max=1_000_000, help="Simulated strokes a decision, playing and gating.")] = 200,
        noise: Annotated[str, typer.Option("--noise", help="Execution noise preset.")] = "pro",
        seed: Annotated[int, typer.Option("--seed", min=0, max=SEED_MAX, help="Racks, noise streams and initial weights.")] = 0,
        max_shots: Annotated[int, typer.Option("--max-shots", min=1, max=1000, help="Shots after which a frame is a draw.")] = 300,
        search: Annotated[str, typer.Option("--search", help="The planner's candidate search: planner, wide or lean.")] = "planner",
        top: Annotated[int, typer.Option("--top", min=1, max=32, help="Candidates the policy prior lets through.")] = 4,
        window: Annotated[int, typer.Option("--window", min=1, max=1000, help="Generations of self-play a generation trains on.")] = 4,
        value_epochs: Annotated[int, typer.Option("--value-epochs", min=1, max=10_000, help="Value network passes over the data.")] = 40,
        policy_epochs: Annotated[int, typer.Option("--policy-epochs", min=1, max=10_000, help="Policy network passes over the data.")] = 40,
        hidden: Annotated[int, typer.Option("--hidden", min=4, max=1024, help="Width of both networks.")] = 64,
        mix: Annotated[float, typer.Option("--mix", min=0.0, max=1.0, help="Weight of the search's value in the value target.")] = 0.5,
        elo0: Annotated[float, typer.Option("--elo0", help="Gate: H0, the Elo difference is elo0.")] = 0.0,
        elo1: Annotated[float, typer.Option("--elo1", help="Gate: H1, the Elo difference is elo1.")] = 30.0,
        alpha: Annotated[float, typer.Option("--alpha", min=1e-6, max=0.49, help="Gate: false-positive rate.")] = 0.05,
        beta: Annotated[float, typer.Option("--beta", min=1e-6, max=0.49, help="Gate: false-negative rate.")] = 0.05,
        max_pairs: Annotated[int, typer.Option("--max-pairs", min=1, max=100_000, help="Gate: pairs before it stops undecided.")] = 200,
        batch: Annotated[int, typer.Option("--batch", min=1, max=100_000, help="Gate: pairs between looks at the test.")] = 20,
        target: Annotated[str, typer.Option("--target", help="Policy target: values (a softmax over the candidates' sample values) or visits.")] = "values",
        anchor_pairs: Annotated[int, typer.Option("--anchor-pairs", min=0, max=100_000, help="Pairs of every generation against the plain planner and greedy (0: none).")] = 100,
        explore: Annotated[bool, typer.Option("--explore/--no-explore", help="Self-play draws the prior's shortlist from it (Gumbel-top-k) instead of its favourites.")] = True,
        workers: Annotated[int, typer.Option("--workers", min=1, max=256, help="Parallel shards and games; 1 runs without Ray.")] = 1,
        address: Annotated[str | None, typer.Option("--address", help="An existing Ray cluster (HOST:PORT).")] = None,
        progress: Annotated[bool, typer.Option("--progress/--no-progress", help="A line per step on stderr.")] = True,
        as_json: Annotated[bool, typer.Option("--json", help="Print the ladder as JSON.")] = False,
    ) -> None:
        """Self-play, train and gate generations of the guided planner; resumable at any point."""
        import torch

        from piramida.training.iterate import IterateConfig, run_iterate

        if out.exists() and not out.is_dir():
            raise typer.BadParameter(f"{out} is a file, not a folder", param_hint="--out")
        torch.set_num_threads(1)  # deterministic fits, and the batches are small
        cfg = IterateConfig(
            variant, frames, sims, noise, seed, max_shots, search, top, window, value_epochs, policy_epochs, hidden,
            mix, elo0, elo1, alpha, beta, max_pairs, batch, target, explore, anchor_pairs,
        )

        def log(text: str) -> None:
            if progress:
                typer.echo(text, err=True)

        ladder = run_iterate(cfg, out, generations, workers=workers, address=address,
                             command=shlex.join(["piramida", *sys.argv[1:]]), log=log)
        if as_json:
            print_json(ladder)
            return
        for r in ladder["generations"]:
            gate = r.get("gate")
            elo = r.get("elo_vs_first")
            text = "the plain planner" if r["generation"] == 0 else (
                "not gated yet" if gate is None else
                f"gate vs gen {gate['against']}: score {gate['score']:.3f} over {gate['pairs']} pairs, "
                f"{gate['result']} -> {'kept' if r['accepted'] else 'rejected'}")
            typer.echo(f"gen {r['generation']}: {text}" + ("" if elo is None else f"; Elo over gen 0 {elo:+.0f}"))
        typer.echo(f"champion: generation {ladder['champion']}; {out / 'ladder.json'}, {out / 'ladder.png'}")
