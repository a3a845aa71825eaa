"""``piramida selfplay`` and ``piramida train-value``: the learned value
that guides the planner (training/selfplay.py, training/value_train.py,
docs/training.md, "The learned value").

    piramida selfplay --agents planner:sims=300,planner:sims=300 --variant free --frames 400 --out data/free-g1
    piramida train-value --data data/free-g1 --variant free --out models/free_value.pt
    piramida match --agents planner:sims=300:value=models/free_value.pt,planner:sims=300 ...
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
    @app.command("selfplay")
    @friendly_errors
    def selfplay(
        agents: Annotated[str, typer.Option("--agents", help="Two agent specs, comma-separated (the same twice: self-play).")],
        out: Annotated[Path, typer.Option("--out", parser=out_path, help="Folder for the shards (a rerun resumes).")],
        variant: Annotated[str, typer.Option("--variant", help="The variant.")] = "free",
        frames: Annotated[int, typer.Option("--frames", min=1, max=1_000_000, help="Frames to play.")] = 100,
        noise: Annotated[str, typer.Option("--noise", help="Execution noise preset.")] = "pro",
        seed: Annotated[int, typer.Option("--seed", min=0, max=SEED_MAX, help="Racks and noise streams.")] = 0,
        max_shots: Annotated[int, typer.Option("--max-shots", min=1, max=1000, help="Shots after which a frame is a draw.")] = 300,
        workers: Annotated[int, typer.Option("--workers", min=1, max=256, help="Parallel shards; 1 runs without Ray.")] = 1,
        address: Annotated[str | None, typer.Option("--address", help="An existing Ray cluster (HOST:PORT).")] = None,
        progress: Annotated[bool, typer.Option("--progress/--no-progress", help="A progress bar on stderr.")] = True,
    ) -> None:
        """Play frames and record every shot decision with the frame's outcome."""
        from tqdm import tqdm

        from piramida.training.selfplay import SelfPlayConfig, run_selfplay

        specs = tuple(a.strip() for a in agents.split(","))
        if len(specs) != 2:
            raise typer.BadParameter(f"expected two agents separated by a comma, got {len(specs)}", param_hint="--agents")
        if out.exists() and not out.is_dir():
            raise typer.BadParameter(f"{out} is a file, not a folder", param_hint="--out")
        cfg = SelfPlayConfig((specs[0], specs[1]), variant, frames, noise, seed, max_shots)
        from piramida.training.selfplay import shard_name

        there = [(first, last) for first, last in cfg.shards() if (out / shard_name(first, last)).is_file()]
        positions = [0]
        bar = tqdm(total=frames, initial=sum(last - first + 1 for first, last in there), desc=f"selfplay {variant}",
                   unit="frame", disable=not progress, file=sys.stderr)

        def on_shard(n_frames: int, n_positions: int) -> None:
            positions[0] += n_positions
            bar.update(n_frames)
            bar.set_postfix(positions=positions[0])

        started = time.perf_counter()
        with bar:
            new = run_selfplay(cfg, out, workers=workers, address=address,
                               command=shlex.join(["piramida", *sys.argv[1:]]), on_shard=on_shard)
        took = time.perf_counter() - started
        typer.echo(f"{len(new)} new shards ({positions[0]} positions in {took:.0f} s, "
                   f"{positions[0] / max(took, 1e-9):.1f} positions/s) in {out}; {len(there)} were there already")

    @app.command("train-value")
    @friendly_errors
    def train_value(
        data: Annotated[list[Path], typer.Option("--data", help="A self-play folder (repeat for more).")],
        out: Annotated[Path, typer.Option("--out", parser=out_path, help="The value file to write (.pt).")],
        variant: Annotated[str, typer.Option("--variant", help="The variant the data is of.")] = "free",
        epochs: Annotated[int, typer.Option("--epochs", min=1, max=10_000, help="Passes over the data.")] = 30,
        mix: Annotated[float, typer.Option("--mix", min=0.0, max=1.0, help="Weight of the search's value in the target.")] = 0.5,
        hidden: Annotated[int, typer.Option("--hidden", min=4, max=1024, help="Width of the network.")] = 64,
        seed: Annotated[int, typer.Option("--seed", min=0, max=SEED_MAX, help="Initial weights and batches.")] = 0,
        progress: Annotated[bool, typer.Option("--progress/--no-progress", help="A line per epoch on stderr.")] = True,
        as_json: Annotated[bool, typer.Option("--json", help="Print the training report as JSON.")] = False,
    ) -> None:
        """Train the value network on self-play shards."""
        import torch

        from piramida.env.rules import get_referee
        from piramida.training.value_train import ValueTrainConfig
        from piramida.training.value_train import train_value as run

        check_out_file(out, "--out", suffix=".pt", make_parents=True)
        get_referee(variant)  # an unknown variant is one line
        check_in_dirs(data, "--data")
        torch.set_num_threads(1)  # deterministic, and the batches are small

        def show(epoch: int, row: dict[str, float]) -> None:
            if progress:
                ho, mr = row.get("holdout_brier"), row.get("holdout_margin_rmse")
                typer.echo(f"epoch {epoch}/{epochs}  loss {row['train_loss']:.4f}"
                           + ("" if ho is None else f"  held-out Brier {ho:.4f}")
                           + ("" if mr is None else f"  margin RMSE {mr:.2f}"), err=True)

        cfg = ValueTrainConfig(variant, epochs=epochs, mix=mix, hidden=hidden, seed=seed)
        report = run(cfg, data, out, on_epoch=show)
        if as_json:
            print_json(report)
        else:
            typer.echo(f"wrote {out}: {report['positions']} positions of {report['frames']} frames; held-out Brier "
                       f"{report['holdout_brier']:.4f} (base rate {report['holdout_base_rate_brier']:.4f})"
                       + (f"; margin RMSE {report['holdout_margin_rmse']:.2f} (the mean's "
                          f"{report['holdout_margin_base_rmse']:.2f})" if "holdout_margin_rmse" in report else ""))
