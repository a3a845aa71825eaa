"""``piramida train`` and ``piramida export``: RLlib self-play over shot
selection (training/run.py, docs/training.md).

    piramida train --config configs/training/smoke.toml [--out DIR] [--iterations N]
    piramida train --resume DIR [--iterations N] [--address HOST:PORT]
    piramida export RUN_DIR --out models/free_policy.pt
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer

from piramida.commands.common import check_out_file, friendly_errors, out_path


def _fmt(x: Any, spec: str = ".2f") -> str:
    return "-" if x is None else format(x, spec)


def progress_line(row: dict[str, Any], total: int, started: float, first: int) -> str:
    """One line of the live display: the iteration, env steps per second,
    win rates against greedy (evaluation: frames with their Wilson interval,
    then the mean pair score with its pair-level interval) and the pool, the
    frozen copies and the time left."""
    it = int(row["iteration"])
    done = it - first + 1
    per_it = (time.perf_counter() - started) / max(done, 1)
    eta = per_it * (total - it)
    ev = row.get("win_vs_greedy_eval")
    greedy = "-" if ev is None else f"{ev:.2f} [{row['eval_ci_low']:.2f}, {row['eval_ci_high']:.2f}] of {row['eval_frames']}"
    if row.get("eval_pair_score") is not None:
        greedy += (f" (pairs {row['eval_pair_score']:.2f} [{row['eval_pair_ci_low']:.2f}, "
                   f"{row['eval_pair_ci_high']:.2f}] of {row['eval_pairs']})")
    snap = f", snapshot {row['snapshot']}" if row.get("snapshot") else ""
    return (f"iter {it}/{total}  {_fmt(row.get('env_steps_per_s'), '.1f')} env steps/s  "
            f"win vs greedy {greedy}  vs pool {_fmt(row.get('win_vs_pool'))}  "
            f"frozen {row.get('frozen', 0)}{snap}  ETA {eta / 60:.1f} min")


def register(app: typer.Typer) -> None:
    @app.command("train")
    @friendly_errors
    def train(
        config: Annotated[Path | None, typer.Option("--config", help="A training TOML (configs/training/).")] = None,
        out: Annotated[Path | None, typer.Option("--out", parser=out_path, help="Run folder (default runs/<config name>).")] = None,
        resume: Annotated[Path | None, typer.Option("--resume", help="Go on with the run in this folder from its latest checkpoint.")] = None,
        iterations: Annotated[int | None, typer.Option("--iterations", min=1, max=1_000_000, help="Iterations in all (default: the config's).")] = None,
        address: Annotated[str | None, typer.Option("--address", help="An existing Ray cluster (HOST:PORT).")] = None,
        progress: Annotated[bool, typer.Option("--progress/--no-progress", help="A line per iteration on stderr.")] = True,
    ) -> None:
        """Train a shot-selection policy by PPO self-play with a league."""
        from piramida.training.config import load_config
        from piramida.training.run import TrainError
        from piramida.training.run import train as run_train

        if (config is None) == (resume is None):
            raise TrainError("give --config for a new run or --resume DIR to go on with one")
        started = time.perf_counter()
        first: list[int] = []

        def show(row: dict[str, Any], total: int) -> None:
            if not first:
                first.append(int(row["iteration"]))
            if progress:
                typer.echo(progress_line(row, total, started, first[0]), err=True)

        if resume is not None:
            rows = run_train(resume, resume=True, iterations=iterations, address=address, on_iteration=show)
            folder = resume
        else:
            assert config is not None
            cfg = load_config(config)
            folder = out if out is not None else Path("runs") / config.stem
            rows = run_train(folder, cfg, iterations=iterations, address=address, on_iteration=show)
        last = rows[-1] if rows else None
        from piramida.training.curves import plot_curves

        png = plot_curves(folder, Path(folder) / "curves.png") if rows else None
        typer.echo(f"run {folder}: {len(rows)} iterations this time"
                   + (f", checkpoint {last['checkpoint']}" if last and last.get("checkpoint") else "")
                   + (f", learning curves {png}" if png else ""))

    @app.command("curves")
    @friendly_errors
    def curves(
        run_dir: Annotated[Path, typer.Argument(help="A training run folder.")],
        out: Annotated[Path | None, typer.Option("--out", parser=out_path, help="The PNG to write (default RUN_DIR/curves.png).")] = None,
    ) -> None:
        """Draw a run's learning curves (pair score and win rate against
        greedy in the evaluations, win rate against the league) from its
        metrics.csv; a running run can be drawn too."""
        from piramida.training.curves import plot_curves

        target = out if out is not None else run_dir / "curves.png"
        check_out_file(target, "--out", ".png", make_parents=True)
        typer.echo(f"wrote {plot_curves(run_dir, target)}")

    @app.command("export")
    @friendly_errors
    def export(
        run_dir: Annotated[Path, typer.Argument(help="A training run folder.")],
        out: Annotated[Path, typer.Option("--out", parser=out_path, help="The policy file to write (.pt).")] = Path("models/policy.pt"),
    ) -> None:
        """Write the run's latest main module as a policy file for the
        ``policy:path=FILE`` agent (plays without Ray)."""
        from piramida.training.run import export as run_export

        check_out_file(out, "--out", ".pt", make_parents=True)
        data = run_export(run_dir, out)
        typer.echo(f"wrote {out}: {data['variant']} policy, layout {data['layout_version']}, "
                   f"code {data['code_version']}")
