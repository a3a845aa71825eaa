"""``piramida bench``: the benchmarks of ``bench/``, by name.

``piramida bench`` lists them; ``piramida bench NAME [ARGS...]`` runs
``python -m bench.NAME [ARGS...]`` in this process (its options are the
module's: ``piramida bench planner match --help``). ``physics`` and
``candidates`` have their options spelled out here. Every run writes
``bench/results/NAME.json`` (bench/record.py).

``bench/`` belongs to the source checkout, not to the installed package:
where the package runs from a checkout that has it (``pip install -e .``,
the Makefile's venv) the benchmarks are commands; an installed package
answers ``piramida bench`` with one line saying that benchmarks need the
checkout. Pooltool runs in ``bench/.venv-pooltool`` (``make bench-deps``),
and is reported as null with a note when that venv is missing.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

from piramida.commands.common import check_out_file, friendly_errors, out_path
from piramida.env.errors import PiramidaError

#: The benchmarks (modules ``bench.NAME``) and what each measures.
BENCHMARKS: dict[str, str] = {
    "physics": "Shots per second of piramida's physics against pooltool (make bench).",
    "crosscheck": "Physics outcomes against pooltool on matched parameters.",
    "throw": "Throw against cut angle: the model against published measurements.",
    "batch_scaling": "simulate_batch from one numba thread to all of them.",
    "candidates": "Time of the candidate search a decision; --digest: the candidates' digests.",
    "env_steps": "Raw Gymnasium environment steps per second, one core.",
    "shot_env": "Shot-selection environment steps per CPU second.",
    "planner": "The planner against greedy: decisions, matches, budget use, fingerprints.",
    "value": "The value network: calibration on held-out frames and cost a decision.",
    "tournament_scaling": "Tournament games per second with 1 and 2 workers.",
    "web": "The web page's latency in headless Chromium.",
}

NO_CHECKOUT = (
    "benchmarks need a source checkout: they live in bench/ of the repository "
    "(run them from a clone installed with pip install -e .)"
)


def _repo_root() -> Path | None:
    """The source checkout holding ``bench/`` (piramida/commands -> root)."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / "bench" / "record.py").is_file() else None


def _main(root: Path, name: str) -> Callable[[list[str]], Any]:
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    return importlib.import_module(f"bench.{name}").main  # type: ignore[no-any-return]


def _run(root: Path, name: str, argv: list[str]) -> None:
    try:
        rc = _main(root, name)(argv)
    except SystemExit as exc:  # argparse's --help and usage errors
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
        if code:
            raise typer.Exit(code) from None
        return
    if rc:
        raise typer.Exit(int(rc))


def register(app: typer.Typer) -> None:
    root = _repo_root()
    if root is None:

        @app.command(
            "bench",
            help="Benchmarks (a source checkout only).",
            add_help_option=False,
            context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
        )
        def bench_missing(ctx: typer.Context) -> None:
            raise PiramidaError(NO_CHECKOUT)

        return

    bench_app = typer.Typer(
        help="Benchmarks (bench/): each writes bench/results/NAME.json. 'piramida bench NAME --help' for its options.",
        no_args_is_help=True,
    )
    app.add_typer(bench_app, name="bench")

    @bench_app.command("physics", help=BENCHMARKS["physics"])
    @friendly_errors
    def physics(
        json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
        quick: bool = typer.Option(False, "--quick", help="Fewer inputs: a smoke run."),
        seed: int = typer.Option(2026, "--seed", min=0, max=2**63 - 1, help="Seed of the benchmark inputs."),
        pooltool_cold: bool = typer.Option(
            False, "--pooltool-cold", help="Also time pooltool's compile from an empty numba cache."
        ),
        out: Path | None = typer.Option(
            None, "--out", parser=out_path,
            help="Write the result file here instead of bench/results/physics.json (folders are created).",
        ),
    ) -> None:
        """Shots/s of piramida (single core, batch) and pooltool on seeded
        breaks, mid-game and two-ball shots; cold and warm start."""
        if out is not None:
            # Checked now, not after minutes of benchmarking.
            check_out_file(out, "--out", make_parents=True)
        argv = ["--seed", str(seed)]
        if json_out:
            argv.append("--json")
        if quick:
            argv.append("--quick")
        if pooltool_cold:
            argv.append("--pooltool-cold")
        if out is not None:
            argv += ["--out", str(out)]
        _run(root, "physics", argv)

    @bench_app.command("candidates", help=BENCHMARKS["candidates"])
    @friendly_errors
    def candidates(
        json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
        limit: int | None = typer.Option(None, "--limit", min=1, max=200, help="Only the first N positions of the set."),
        noise: str = typer.Option("pro", "--noise", help="The skill the candidates are found for."),
        search: str = typer.Option(
            "planner", "--search",
            help="Whose search: planner (the default), wide (the shipped policies'), lean (the policies' fast one) or greedy.",
        ),
        digest: bool = typer.Option(
            False, "--digest",
            help="Print the SHA-256 digest of every candidate (shot and features) instead of timing.",
        ),
        compare_python: int = typer.Option(
            0, "--compare-python", min=0, max=20, metavar="ROUNDS",
            help="Time the compiled aiming strokes against every stroke in Python, side by side in one process.",
        ),
        positions: str = typer.Option(
            "reference", "--positions",
            help="Which 200 positions: reference (the default) or played (from greedy's frames).",
        ),
        out: Path | None = typer.Option(
            None, "--out", parser=out_path,
            help="Write the result file here instead of bench/results/candidates.json.",
        ),
    ) -> None:
        """Mean and 95th-percentile time of agents.shots.candidates (every
        candidate shot of a decision, with its features) over the 200
        reference positions, on one core, and the mean number of candidates."""
        from piramida.agents.policy_obs import SEARCHES
        from piramida.env.position_sets import SETS

        if search not in SEARCHES:
            raise typer.BadParameter(f"unknown search {search!r}; known: {', '.join(SEARCHES)}", param_hint="--search")
        if positions not in SETS:
            raise typer.BadParameter(
                f"unknown positions {positions!r}; known: {', '.join(SETS)}", param_hint="--positions"
            )
        argv = ["--noise", noise, "--search", search, "--positions", positions]
        if json_out:
            argv.append("--json")
        if limit is not None:
            argv += ["--limit", str(limit)]
        if digest:
            argv.append("--digest")
        if compare_python:
            argv += ["--compare-python", str(compare_python)]
        if out is not None:
            check_out_file(out, "--out", make_parents=True)
            argv += ["--out", str(out)]
        _run(root, "candidates", argv)

    def passthrough(name: str) -> None:
        @bench_app.command(
            name,
            help=f"{BENCHMARKS[name]} (python -m bench.{name})",
            add_help_option=False,
            context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
        )
        @friendly_errors
        def run(ctx: typer.Context) -> None:
            _run(root, name, list(ctx.args))

    for name in BENCHMARKS:
        if name not in ("physics", "candidates"):
            passthrough(name)
