"""``piramida bench physics``: shots per second against pooltool;
``piramida bench candidates``: how long the shot toolbox takes to list a
decision's candidates.

Thin fronts to ``bench/physics_vs_pooltool.py`` (docs/performance.md) and
``bench/candidates.py`` (docs/agents.md).
``bench/`` is not part of the installed package, and neither is this
command: it is registered only where the package runs from a source
checkout that has ``bench/`` (``pip install -e .``, the Makefile's venv). A
package installed from a wheel (``pip install .``) has no ``bench`` command
(``piramida bench`` is then an unknown command). Pooltool itself runs in
``bench/.venv-pooltool`` (``make bench-deps``), and is reported as null with
a note when that venv is missing.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from piramida.commands.common import check_out_file, friendly_errors, out_path


def _repo_root() -> Path | None:
    """The source checkout holding ``bench/`` (piramida/commands -> root)."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / "bench" / "physics_vs_pooltool.py").is_file() else None


def register(app: typer.Typer) -> None:
    root = _repo_root()
    if root is None:
        return  # installed from a wheel: no bench/, so no bench command
    bench_app = typer.Typer(
        help="Benchmarks: piramida's physics against pooltool; the candidate shots of a decision.",
        no_args_is_help=True,
    )
    app.add_typer(bench_app, name="bench")

    @bench_app.command("physics")
    @friendly_errors
    def physics(
        json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
        quick: bool = typer.Option(False, "--quick", help="Fewer inputs: a smoke run."),
        seed: int = typer.Option(2026, "--seed", min=0, max=2**63 - 1, help="Seed of the benchmark inputs."),
        out: Path | None = typer.Option(
            None, "--out", parser=out_path, help="Also write the JSON report here (folders are created)."
        ),
    ) -> None:
        """Shots/s of piramida (single core, batch) and pooltool on seeded
        breaks, mid-game and two-ball shots; cold and warm start."""
        if out is not None:
            # Checked now, not after minutes of benchmarking.
            check_out_file(out, "--out", make_parents=True)
        if str(root) not in sys.path:
            sys.path.insert(0, str(root))
        from bench.physics_vs_pooltool import main

        argv = ["--seed", str(seed)]
        if json_out:
            argv.append("--json")
        if quick:
            argv.append("--quick")
        if out is not None:
            argv += ["--out", str(out)]
        rc = main(argv)
        if rc:
            raise typer.Exit(rc)

    @bench_app.command("candidates")
    @friendly_errors
    def candidates(
        json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
        limit: int | None = typer.Option(None, "--limit", min=1, max=200, help="Only the first N positions of the set."),
        noise: str = typer.Option("pro", "--noise", help="The skill the candidates are found for."),
        search: str = typer.Option(
            "planner", "--search",
            help="Whose search: planner (the default), wide (the planner's before session 22, the shipped policies'), lean (the policies' fast one) or greedy.",
        ),
        compare_python: int = typer.Option(
            0, "--compare-python", min=0, max=20, metavar="ROUNDS",
            help="Time the compiled aiming strokes against every stroke in Python, side by side in one process.",
        ),
        positions: str = typer.Option(
            "reference", "--positions",
            help="Which 200 positions: reference (the default) or played (from greedy's frames).",
        ),
    ) -> None:
        """Mean and 95th-percentile time of agents.shots.candidates (every
        candidate shot of a decision, with its features) over the 200
        reference positions, on one core, and the mean number of candidates."""
        from piramida.agents.policy_obs import SEARCHES

        if search not in SEARCHES:
            raise typer.BadParameter(f"unknown search {search!r}; known: {', '.join(SEARCHES)}", param_hint="--search")
        if str(root) not in sys.path:
            sys.path.insert(0, str(root))
        from bench.candidates import main
        from bench.positions import SETS

        if positions not in SETS:
            raise typer.BadParameter(
                f"unknown positions {positions!r}; known: {', '.join(SETS)}", param_hint="--positions"
            )

        argv = ["--noise", noise, "--search", search, "--positions", positions]
        if json_out:
            argv.append("--json")
        if limit is not None:
            argv += ["--limit", str(limit)]
        if compare_python:
            argv += ["--compare-python", str(compare_python)]
        rc = main(argv)
        if rc:
            raise typer.Exit(rc)
