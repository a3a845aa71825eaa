"""``piramida study``: which strategy wins in which variant (eval/study.py).

    piramida study --config configs/tournaments/study.toml --db out/study.sqlite [--workers 2] \\
        [--html study.html] [--markdown study.md] [--json] [--no-play]
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from piramida.commands.common import check_out_file, fail, friendly_errors, print_json
from piramida.commands.tournament import ADDRESS_HELP, WORKERS_HELP, command_line, live_progress


def register(app: typer.Typer) -> None:
    @app.command("study")
    @friendly_errors
    def study(
        config: Annotated[Path, typer.Option("--config", help="A study TOML: its tournament and its contrasts "
                                             "(configs/tournaments/study.toml).")] = Path("configs/tournaments/study.toml"),
        db: Annotated[Path, typer.Option("--db", help="SQLite results file (created; a rerun resumes).")] = Path("study.sqlite"),
        workers: Annotated[int | None, typer.Option("--workers", min=1, max=256, help=WORKERS_HELP)] = None,
        address: Annotated[str | None, typer.Option("--address", help=ADDRESS_HELP)] = None,
        play: Annotated[bool, typer.Option("--play/--no-play", help="Play the games not yet stored first "
                                           "(--no-play: only read the file).")] = True,
        html_out: Annotated[Path | None, typer.Option("--html", help="Write the study as HTML, charts embedded.")] = None,
        markdown_out: Annotated[Path | None, typer.Option("--markdown", help="Write the tables as Markdown.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the study as JSON.")] = False,
        bootstrap: Annotated[int, typer.Option("--bootstrap", min=0, max=10_000, help="Bootstrap resamples for the ratings.")] = 200,
        progress: Annotated[bool, typer.Option("--progress/--no-progress", help="Live standings on stderr.")] = True,
    ) -> None:
        """Play the study's tournament in every variant (it resumes like any
        tournament), then answer per variant: the ranking with intervals and
        the significant differences, the breaker's edge and the pairs split
        1-1 by the break, what search adds over greedy and learning over
        search, frame length, fouls, safeties and pot rate; and what differs
        across variants."""
        from piramida.eval.study import (
            analyse_study,
            load_study,
            study_html,
            study_markdown,
            study_text,
        )
        from piramida.eval.tournament import run_tournament

        spec = load_study(config)
        if html_out is not None:
            check_out_file(html_out, "--html", suffix=".html")
        if markdown_out is not None:
            check_out_file(markdown_out, "--markdown", suffix=".md")
        played = None
        if play:
            check_out_file(db, "--db")
            update, live = live_progress("study", progress)
            if live is not None:
                with live:
                    _, prog = run_tournament(spec.tournament, db, workers=workers, address=address,
                                             command=command_line(), on_game=update)
            else:
                _, prog = run_tournament(spec.tournament, db, workers=workers, address=address, command=command_line())
            played = f"{prog.done} games played now, {prog.done_before} already in {db}"
        elif not db.is_file():
            fail(f"{db}: no such results file")
        res = analyse_study(db, spec, bootstrap)
        written = []
        if html_out is not None:
            html_out.write_text(study_html(res), encoding="utf-8")
            written.append(html_out)
        if markdown_out is not None:
            markdown_out.write_text(study_markdown(res), encoding="utf-8")
            written.append(markdown_out)
        if as_json:
            print_json(res)
            return
        if played:
            typer.echo(played)
        typer.echo(study_text(res))
        for path in written:
            typer.echo(f"wrote {path}")
