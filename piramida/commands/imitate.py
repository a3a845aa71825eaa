"""``piramida imitate`` and ``piramida train-imitation``: behaviour cloning
of the planner's choice among the policy's options (training/imitation.py,
docs/training.md "Imitation of the planner").

    piramida imitate --variant free --frames 400 --sims 300 --out data/imitation/free
    piramida train-imitation --data data/imitation/free --out models/free_bc.pt
    piramida match --agents policy:path=models/free_bc.pt,greedy ...
"""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from piramida.commands.common import (
    SEED_MAX,
    check_in_dirs,
    check_out_file,
    friendly_errors,
    out_path,
    print_json,
)


def register(app: typer.Typer) -> None:
    @app.command("imitate")
    @friendly_errors
    def imitate(
        out: Annotated[Path, typer.Option("--out", parser=out_path, help="Folder for the shards (a rerun resumes).")],
        variant: Annotated[str, typer.Option("--variant", help="The variant.")] = "free",
        frames: Annotated[int, typer.Option("--frames", min=1, max=1_000_000, help="Frames to play.")] = 100,
        sims: Annotated[int, typer.Option("--sims", min=1, max=1_000_000, help="The planner's simulations a decision, playing and labelling.")] = 300,
        noise: Annotated[str, typer.Option("--noise", help="Execution noise preset.")] = "pro",
        seed: Annotated[int, typer.Option("--seed", min=0, max=SEED_MAX, help="Racks and noise streams.")] = 0,
        max_shots: Annotated[int, typer.Option("--max-shots", min=1, max=1000, help="Shots after which a frame is a draw.")] = 300,
        progress: Annotated[bool, typer.Option("--progress/--no-progress", help="A progress bar on stderr.")] = True,
    ) -> None:
        """Play the planner against greedy and label every decision with the planner's choice among the policy's options."""
        from tqdm import tqdm

        from piramida.env.physics import load_noise
        from piramida.training.imitation import ImitationConfig, run_imitation
        from piramida.training.selfplay import shard_name

        if out.exists() and not out.is_dir():
            raise typer.BadParameter(f"{out} is a file, not a folder", param_hint="--out")
        if noise != "none":
            load_noise(noise)  # an unknown preset is one line before any work
        cfg = ImitationConfig(variant, frames, sims, noise, seed, max_shots)
        there = [s for s in cfg.shards() if (out / shard_name(*s)).is_file()]
        decisions = [0]
        bar = tqdm(total=frames, initial=sum(last - first + 1 for first, last in there), desc=f"imitate {variant}",
                   unit="frame", disable=not progress, file=sys.stderr)

        def on_decision() -> None:
            decisions[0] += 1
            bar.set_postfix(decisions=decisions[0], refresh=False)

        def on_shard(n_frames: int, _decisions: int) -> None:
            bar.update(n_frames)

        started = time.perf_counter()
        with bar:
            new = run_imitation(cfg, out, command=shlex.join(["piramida", *sys.argv[1:]]),
                                on_shard=on_shard, on_decision=on_decision)
        took = time.perf_counter() - started
        typer.echo(f"{len(new)} new shards ({decisions[0]} decisions in {took:.0f} s, "
                   f"{decisions[0] / max(took, 1e-9):.2f} decisions/s) in {out}; {len(there)} were there already")

    @app.command("train-imitation")
    @friendly_errors
    def train_imitation(
        data: Annotated[list[Path], typer.Option("--data", help="An imitation data folder (repeat for more).")],
        out: Annotated[Path, typer.Option("--out", parser=out_path, help="The policy file to write (.pt).")],
        epochs: Annotated[int, typer.Option("--epochs", min=1, max=10_000, help="Passes over the data.")] = 40,
        hidden: Annotated[int, typer.Option("--hidden", min=4, max=1024, help="Width of the network.")] = 64,
        soft: Annotated[float, typer.Option("--soft", min=0.0, max=100.0, help="Weight of the planner's sample values as a soft target.")] = 0.0,
        choices: Annotated[bool, typer.Option("--choices/--no-choices", help="Train on the choice decisions too.")] = True,
        seed: Annotated[int, typer.Option("--seed", min=0, max=SEED_MAX, help="Initial weights and batches.")] = 0,
        progress: Annotated[bool, typer.Option("--progress/--no-progress", help="A line per epoch on stderr.")] = True,
        as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    ) -> None:
        """Fit the policy network to the planner's labels; writes a file that policy:path= plays."""
        import torch

        from piramida.training.imitation import FitConfig, fit

        check_out_file(out, "--out", suffix=".pt", make_parents=True)
        check_in_dirs(data, "--data")
        torch.set_num_threads(1)  # deterministic, and the batches are small

        def show(epoch: int, row: dict[str, float]) -> None:
            if progress:
                ho = row.get("holdout_agreement")
                typer.echo(f"epoch {epoch}/{epochs}  loss {row['train_loss']:.4f}"
                           + ("" if ho is None else f"  held-out loss {row['holdout_loss']:.4f} agreement {ho:.3f}"), err=True)

        report = fit(FitConfig(epochs=epochs, hidden=hidden, soft=soft, choices=choices, seed=seed), data, out, on_epoch=show)
        if as_json:
            print_json(report)
        else:
            ho = report["holdout"]
            text = "no held-out frames" if not ho else (
                f"held-out agreement {ho['agreement']:.3f} (shots {ho['shot_agreement']}, option 0 would agree "
                f"{ho['shot_option0']}), loss {ho['loss']:.4f}")
            typer.echo(f"wrote {out}: {report['decisions']} decisions of {report['frames']} frames; {text}")
