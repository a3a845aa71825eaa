"""``piramida calibrate leave`` and ``piramida calibrate breaks``: the two
offline measurements behind shipped configs.

    piramida calibrate leave --noise pro [--positions 300] [--samples 16] [--write] [--out FILE]
    piramida calibrate breaks --variant free [--samples 12] [--workers 2] [--write] [--out FILE]

``leave`` fits a noise preset's pot-probability model to greedy's potting
(training/calibrate_leave.py); ``--write`` stores it in
``configs/agents/pot_model.toml``. ``breaks`` searches a variant's opening
strokes (training/break_study.py); ``--write`` stores the best in
``configs/agents/break_book.toml``. Without ``--write`` neither touches a
config: they print the result, and ``--out FILE`` keeps the measurements
as JSON.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Annotated

import typer

from piramida.commands.common import check_out_file, friendly_errors, out_path


def register(app: typer.Typer) -> None:
    cal = typer.Typer(
        help="Offline measurements behind shipped configs: the pot-probability model, the break book.",
        no_args_is_help=True,
    )
    app.add_typer(cal, name="calibrate")

    @cal.command("leave")
    @friendly_errors
    def leave(
        noise: Annotated[str, typer.Option("--noise", help="The noise preset whose model is fitted.")] = "pro",
        positions: Annotated[int, typer.Option("--positions", min=1, max=100_000, help="Seeded positions played.")] = 300,
        samples: Annotated[int, typer.Option("--samples", min=1, max=10_000, help="Samples of greedy's shot a position.")] = 16,
        visits: Annotated[int, typer.Option("--visits", min=0, max=10_000, help="Samples a position whose visit is played on.")] = 4,
        start: Annotated[int, typer.Option("--start", min=0, max=2**31 - 1, help="Seed of the first position.")] = 1000,
        write: Annotated[bool, typer.Option("--write", help="Store the fit in configs/agents/pot_model.toml.")] = False,
        out: Annotated[Path | None, typer.Option("--out", parser=out_path, help="Write the fit and measurements here as JSON.")] = None,
    ) -> None:
        """Fit a noise preset's pot-probability model (d50, k, line_sigma, q)
        to greedy's potting under that noise."""
        from piramida.agents.shots.probability import PotModel
        from piramida.env.physics import load_noise
        from piramida.training.calibrate_leave import measure, report, write_model

        if out is not None:
            check_out_file(out, "--out", make_parents=True)
        preset = load_noise(noise)
        assert preset is not None
        played = PotModel.of(preset)
        n_samples = 1 if preset.name == "none" and not any(preset.sigmas) else samples
        n_visits = min(visits, n_samples)
        rows = measure(positions, n_samples, noise, n_visits, start)
        rep = report(rows, played)
        meta = {"positions": len(rows), "samples": n_samples, "visits": n_visits, "seed_start": start}
        rep.update({"noise": preset.name, "sigmas": list(preset.sigmas), **meta})
        for r in rep["bands"]:
            typer.echo(
                f"difficulty {r['difficulty'][0]:>5}-{r['difficulty'][1]:<5} n={r['positions']:>3}  "
                f"measured {r['measured']:.3f}  model played {r['model_played']:.3f}  fitted {r['fitted']:.3f}"
            )
        typer.echo(
            f"{preset.name}: D50 {rep['d50']:.0f}, exponent {rep['k']:.2f}, mse {rep['mse']:.4f} "
            f"(model played {rep['mse_of_the_model_played']:.4f}); line sigma {rep['line_sigma']:.4f} deg "
            f"over {rep['line_pots']} pots (mse {rep['line_mse']:.4f}); q "
            + ", ".join(
                f"{v} {row['q']:.3f} ({row['later_shots']} shots)" if math.isfinite(row["q"]) else f"{v} -"
                for v, row in rep["q"].items()
            )
        )
        if write:
            typer.echo(f"model -> {write_model(preset.name, preset, rep, meta)}")
        if out is not None:
            out.write_text(json.dumps({**rep, "data": rows}, indent=1) + "\n", encoding="utf-8")
            typer.echo(f"measurements -> {out}")

    @cal.command("breaks")
    @friendly_errors
    def breaks(
        variant: Annotated[str, typer.Option("--variant", help="The variant whose break is studied.")] = "free",
        samples: Annotated[int, typer.Option("--samples", min=1, max=10_000, help="Samples a grid stroke.")] = 12,
        refine: Annotated[int, typer.Option("--refine", min=1, max=1000, help="Grid strokes whose neighbourhood is searched.")] = 12,
        rounds: Annotated[int, typer.Option("--rounds", min=0, max=20, help="Rounds of local search.")] = 3,
        final: Annotated[int, typer.Option("--final", min=1, max=1000, help="Strokes played --final-samples times.")] = 16,
        final_samples: Annotated[int, typer.Option("--final-samples", min=1, max=100_000, help="Samples of each final stroke.")] = 256,
        workers: Annotated[int, typer.Option("--workers", min=1, max=256, help="Worker processes.")] = 2,
        keep: Annotated[int, typer.Option("--keep", min=1, max=100, help="Strokes written to the book.")] = 4,
        write: Annotated[bool, typer.Option("--write", help="Store the best --keep strokes in configs/agents/break_book.toml.")] = False,
        out: Annotated[Path | None, typer.Option("--out", parser=out_path, help="Write the full ranking here as JSON.")] = None,
        from_: Annotated[Path | None, typer.Option("--from", help="A saved --out file: use its ranking instead of playing.")] = None,
    ) -> None:
        """Search a variant's opening strokes under pro noise, ranked by the
        planner's own value of each sample's ruling."""
        from piramida.agents.break_book import BOOK_PATH, write_entries
        from piramida.env.position import VARIANTS
        from piramida.training.break_study import pick, study

        if out is not None:
            check_out_file(out, "--out", make_parents=True)
        if from_ is not None:
            res = json.loads(from_.read_text(encoding="utf-8"))
            variant = res["variant"]
        else:
            if variant not in VARIANTS:
                raise typer.BadParameter(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}", param_hint="--variant")
            res = study(variant, samples, refine, rounds, final, final_samples, workers)
        for r in res["final"][:8]:
            typer.echo(
                f"value {r['value']:.3f}  pot {r['p_pot']:.3f}  legal {r['p_legal']:.3f}  {r['target']:7s} "
                f"spot x {r['place'][0]:.3f}  phi {r['phi']:.3f}  v {r['v']}  b {r['b']:+.1f}"
            )
        typer.echo(f"{res['grid_strokes']} grid strokes, {res['wall_s']} s")
        if out is not None:
            out.write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")
        if write:
            rows = pick(res["final"], keep)
            write_entries(variant, rows, BOOK_PATH)
            typer.echo(f"wrote {len(rows)} strokes for {variant} to {BOOK_PATH}")
