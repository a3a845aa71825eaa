"""``piramida tournament``, ``sprt``, ``report``, ``replay`` and ``book``:
the evaluation harness on the command line (eval/tournament.py,
eval/pairs.py, eval/report.py, eval/pooled.py, eval/book.py).

    piramida tournament --agents random,greedy,planner:sims=200 --variants free,combined \\
        --pairs 10 --noise pro --seed 1 --db results.sqlite [--workers 2] [--address HOST:PORT] \\
        [--book 'books/{variant}.jsonl']
    piramida sprt planner:budget=1s greedy --variant free --elo0 0 --elo1 20 --db sprt.sqlite [--book books/free.jsonl]
    piramida report results.sqlite [--html report.html] [--json]
    piramida report a.sqlite b.sqlite [--anchor greedy] [--json]
    piramida replay results.sqlite GAME_ID [--png-dir DIR]
    piramida book --variant free --positions 200 --out books/free.jsonl [--agent greedy] [--after-shots 4]
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from piramida.commands.common import (
    SEED_MAX,
    check_out_dir,
    check_out_file,
    fail,
    friendly_errors,
    out_path,
    print_json,
)

NOISE_HELP = ("Execution noise preset (configs/noise): pro (the default of every command that plays games), "
              "none (perfect execution), amateur, ...")


WORKERS_HELP = ("Parallel games: 1 (the default) plays in this process; N starts a private local Ray instance of "
                "N CPUs (never another Ray running on the machine); with --address, at most N of the cluster's CPUs "
                "(default: all).")
ADDRESS_HELP = ("A running Ray cluster's head, HOST:PORT: the games run there. One that cannot be reached is one "
                "line and exit 2, before anything is written.")
BOOK_HELP = ("A book of start positions (piramida book; books/): pair k starts both its games from the book's position "
             "k mod N instead of the break. {variant} in the path is the variant played.")


def command_line() -> str:
    return shlex.join(["piramida", *sys.argv[1:]])


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _signed(x: float | None, spec: str = "+.1f") -> str:
    return "-" if x is None or x != x else format(x, spec)


def _elo(st: dict[str, Any]) -> str:
    """Elo with its interval, from the score (an end at 0 or 1 is -inf or
    +inf Elo, which JSON does not hold)."""
    from piramida.eval.pairs import elo_of

    lo, hi = st["score_ci95"]
    return f"{_signed(elo_of(st['score']))} [{_signed(elo_of(lo))}, {_signed(elo_of(hi))}]"


def sprt_text(r: dict[str, Any]) -> str:
    """The result of a sequential test as text: the verdict, the
    pentanomial, the score, Elo, nElo and LOS, the LLR with its bounds."""
    verdict = {"H1": f"H1 accepted (Elo >= {r['elo1']:g})", "H0": f"H0 accepted (Elo <= {r['elo0']:g})",
               "none": "no decision yet"}[r["result"]]
    lo, hi = r["score_ci95"]
    return "\n".join([
        f"{r['agents'][0]} vs {r['agents'][1]} ({r['variant']}, noise {r['noise']}): {verdict} "
        f"after {r['pairs']} pairs ({2 * r['pairs']} games)",
        f"  pentanomial [0, 0.5, 1, 1.5, 2]: {r['pentanomial']}",
        f"  score {r['score']:.3f} [{lo:.3f}, {hi:.3f}]  Elo {_elo(r)}  nElo {_signed(r['nelo'])}  LOS {_pct(r['los'])}",
        f"  LLR {r['llr']:+.2f} ({r['bounds'][0]:+.2f}, {r['bounds'][1]:+.2f}) "
        f"[{r['elo0']:g}, {r['elo1']:g}], alpha {r['alpha']:g}, beta {r['beta']:g}",
    ])


def live_progress(total_label: str, show: bool) -> Any:
    """A callback that keeps a live standings table on stderr, and the
    Live context that owns it (None when not shown)."""
    if not show:
        return None, None
    from rich.console import Console
    from rich.live import Live
    from rich.table import Table

    console = Console(stderr=True)
    live = Live(console=console, refresh_per_second=4, transient=False)

    def update(prog: Any) -> None:
        table = Table(title=f"{total_label}: {prog.done_before + prog.done}/{prog.total} games, "
                      f"{prog.rate * 60:.1f} games/min, ETA "
                      f"{'-' if prog.eta_s is None else f'{prog.eta_s / 60:.1f} min'}")
        table.add_column("agent")
        table.add_column("games", justify="right")
        table.add_column("points", justify="right")
        table.add_column("score", justify="right")
        for name, pts in sorted(prog.points.items(), key=lambda kv: -kv[1] / max(1, prog.games[kv[0]])):
            n = prog.games[name]
            table.add_row(name, str(n), f"{pts:g}", f"{pts / n:.3f}")
        live.update(table)

    return update, live


def register(app: typer.Typer) -> None:
    @app.command("tournament")
    @friendly_errors
    def tournament(
        agents: Annotated[
            str | None, typer.Option("--agents", help="Agent specs, comma-separated (NAME or NAME:key=value:...).")
        ] = None,
        variants: Annotated[str, typer.Option("--variants", help="Variants, comma-separated.")] = "free",
        pairs: Annotated[int, typer.Option("--pairs", min=1, max=100_000, help="Duplicate pairs per pairing and variant.")] = 2,
        noise: Annotated[str, typer.Option("--noise", help=NOISE_HELP)] = "pro",
        seed: Annotated[int, typer.Option("--seed", min=0, max=SEED_MAX, help="Racks and noise streams.")] = 0,
        fmt: Annotated[str, typer.Option("--format", help="roundrobin or gauntlet (the first agent against the rest).")] = "roundrobin",
        max_shots: Annotated[int, typer.Option("--max-shots", min=1, max=1000, help="Shots after which a frame is a draw.")] = 300,
        db: Annotated[Path, typer.Option("--db", help="SQLite results file (created; a rerun resumes).")] = Path("results.sqlite"),
        config: Annotated[Path | None, typer.Option("--config", help="A tournament TOML (configs/tournaments/) instead of the options.")] = None,
        workers: Annotated[int | None, typer.Option("--workers", min=1, max=256, help=WORKERS_HELP)] = None,
        address: Annotated[str | None, typer.Option("--address", help=ADDRESS_HELP)] = None,
        progress: Annotated[bool, typer.Option("--progress/--no-progress", help="Live standings on stderr.")] = True,
        as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON at the end.")] = False,
        book: Annotated[str | None, typer.Option("--book", help=BOOK_HELP)] = None,
    ) -> None:
        """Play a tournament into a SQLite file; a rerun resumes it."""
        from dataclasses import replace

        from piramida.eval.report import analyse, summary
        from piramida.eval.tournament import TournamentConfig, load_config, run_tournament

        check_out_file(db, "--db")
        if config is not None:
            if agents is not None:
                fail("give --config or --agents, not both")
            cfg = load_config(config)
            if book is not None:
                cfg = replace(cfg, book=book)
        else:
            if agents is None:
                fail("--agents is required (or --config FILE)")
            cfg = TournamentConfig(
                tuple(a.strip() for a in agents.split(",")),
                tuple(v.strip() for v in variants.split(",")),
                pairs, noise, seed, fmt, max_shots, book=book or "",
            )
        update, live = live_progress(f"tournament {', '.join(cfg.variants)}", progress)
        if live is not None:
            with live:
                tid, prog = run_tournament(cfg, db, workers=workers, address=address, command=command_line(), on_game=update)
        else:
            tid, prog = run_tournament(cfg, db, workers=workers, address=address, command=command_line())
        rep = analyse(str(db), tid)
        if as_json:
            print_json(rep)
        else:
            typer.echo(f"{prog.done} games played now, {prog.done_before} already in {db}")
            typer.echo(summary(rep))

    @app.command("sprt")
    @friendly_errors
    def sprt(
        agent_a: Annotated[str, typer.Argument(help="The agent under test (a spec).")],
        agent_b: Annotated[str, typer.Argument(help="The reference agent (a spec).")],
        variant: Annotated[str, typer.Option("--variant", help="The variant.")] = "free",
        elo0: Annotated[float, typer.Option("--elo0", help="H0: the Elo difference is elo0.")] = 0.0,
        elo1: Annotated[float, typer.Option("--elo1", help="H1: the Elo difference is elo1.")] = 20.0,
        alpha: Annotated[float, typer.Option("--alpha", min=1e-6, max=0.5, help="False-positive rate.")] = 0.05,
        beta: Annotated[float, typer.Option("--beta", min=1e-6, max=0.5, help="False-negative rate.")] = 0.05,
        max_pairs: Annotated[int, typer.Option("--max-pairs", min=1, max=100_000, help="Stop undecided after this many pairs.")] = 1000,
        batch: Annotated[int, typer.Option("--batch", min=1, max=1000, help="Pairs played between looks.")] = 10,
        noise: Annotated[str, typer.Option("--noise", help=NOISE_HELP)] = "pro",
        seed: Annotated[int, typer.Option("--seed", min=0, max=SEED_MAX, help="Racks and noise streams.")] = 0,
        db: Annotated[Path, typer.Option("--db", help="SQLite results file (a rerun resumes).")] = Path("sprt.sqlite"),
        workers: Annotated[int | None, typer.Option("--workers", min=1, max=256, help=WORKERS_HELP)] = None,
        address: Annotated[str | None, typer.Option("--address", help=ADDRESS_HELP)] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
        progress: Annotated[bool, typer.Option("--progress/--no-progress", help="Progress on stderr.")] = True,
        book: Annotated[str | None, typer.Option("--book", help=BOOK_HELP)] = None,
    ) -> None:
        """A sequential test (fishtest's GSPRT on pentanomial pair counts):
        play pairs of A against B until H0 or H1 is accepted or the cap."""
        from contextlib import ExitStack

        from piramida.eval.cluster import check_reachable, ray_workers
        from piramida.eval.pairs import sprt_result
        from piramida.eval.report import pairing_stats
        from piramida.eval.store import Store, open_read
        from piramida.eval.tournament import TournamentConfig, run_tournament
        from piramida.eval.version import code_version

        if not elo1 > elo0:
            fail(f"--elo1 must be above --elo0, got {elo0} and {elo1}")
        check_out_file(db, "--db")
        cfg = TournamentConfig((agent_a, agent_b), (variant,), max_pairs, noise, seed, "gauntlet", book=book or "")
        if address is not None:
            check_reachable(address)
        result: dict[str, Any] = {}
        with ExitStack() as stack:
            if address is not None or (workers or 1) > 1:
                stack.enter_context(ray_workers(workers, address))  # one Ray for every batch
            with Store(db) as store:
                if store.tournament_id(cfg.to_dict()) is None:
                    store.resize(cfg.to_dict())  # a rerun with another cap continues the sequence
                tid = store.tournament(cfg.to_dict(), command_line(), code_version())
                # What ``piramida report`` needs for the verdict.
                store.set_sequential(tid, {"elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta})
            while True:
                tid, _ = run_tournament(cfg, db, workers=workers, address=address, command=command_line(),
                                        limit=2 * batch)
                with open_read(db) as store:
                    ids = {v: k for k, v in store.agents(tid).items()}
                    games = [g for g in store.games(tid) if g["pair"] < max_pairs]
                st = pairing_stats(games, ids[agent_a], ids[agent_b])
                result = sprt_result(tuple(st["pentanomial"]), elo0, elo1, alpha, beta)
                if progress:
                    typer.echo(
                        f"pairs {result['pairs']}: LLR {result['llr']:+.2f} in [{result['bounds'][0]:.2f}, "
                        f"{result['bounds'][1]:.2f}], pentanomial {st['pentanomial']}, Elo {_elo(st)}, "
                        f"LOS {_pct(st['los'])}",
                        err=True,
                    )
                if result["result"] != "none" or len(games) >= 2 * max_pairs:
                    break
        # What the decision rests on, and what made it, for the results file.
        result |= {
            "agents": [agent_a, agent_b],
            "variant": variant,
            "elo0": elo0,
            "elo1": elo1,
            "alpha": alpha,
            "beta": beta,
            "pentanomial": list(st["pentanomial"]),
            "score": st["score"],
            "score_ci95": st["score_ci95"],
            "elo": st["elo"],
            "elo_ci95": st["elo_ci95"],
            "nelo": st["nelo"],
            "los": st["los"],
            "seed": seed,
            "noise": noise,
            "book": cfg.to_dict().get("book"),
            "version": code_version(),
            "command": command_line(),
        }
        if as_json:
            print_json(result)
        else:
            typer.echo(sprt_text(result))

    @app.command("report")
    @friendly_errors
    def report(
        dbs: Annotated[list[Path], typer.Argument(metavar="FILE",
                                                  help="A SQLite results file; several: one rating list pooled over them.")],
        tournament_id: Annotated[int | None, typer.Option("--tournament", min=1, help="Tournament id (default: the latest).")] = None,
        html_out: Annotated[Path | None, typer.Option("--html", help="Write an HTML report here.")] = None,
        figures_dir: Annotated[
            Path | None, typer.Option("--figures", help="Write the pictures here as PNG (ratings.png, score_VARIANT.png).")
        ] = None,
        markdown_out: Annotated[Path | None, typer.Option("--markdown", help="Write the tables as Markdown here.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
        bootstrap: Annotated[int, typer.Option("--bootstrap", min=0, max=10_000, help="Bootstrap resamples for the intervals.")] = 200,
        pool: Annotated[bool, typer.Option("--pool", help="One rating list from the pairs of every tournament "
                                           "(the default with several files).")] = False,
        anchor: Annotated[str | None, typer.Option("--anchor", help="The agent at Elo 0 in a pooled list "
                                                   "(default greedy, else random, else the agent of the most pairs).")] = None,
    ) -> None:
        """Ratings, pair statistics, play statistics per variant; with
        several files (or --pool), one rating list from all their pairs."""
        from piramida.eval.report import analyse, figures, summary, to_html, to_markdown

        for path in dbs:
            if not path.is_file():
                fail(f"{path}: no such results file")
        if pool or len(dbs) > 1:
            from piramida.eval.pooled import pooled, pooled_text

            for name, given in (("--tournament", tournament_id), ("--html", html_out), ("--figures", figures_dir),
                                ("--markdown", markdown_out)):
                if given is not None:
                    fail(f"{name} reads one tournament; a pooled report takes --json, --anchor and --bootstrap")
            rep = pooled(dbs, anchor, bootstrap)
            if as_json:
                print_json(rep)
            else:
                typer.echo(pooled_text(rep))
            return
        if anchor is not None:
            fail("--anchor is for a pooled report (several files, or --pool)")
        db = dbs[0]
        if html_out is not None:
            check_out_file(html_out, "--html", suffix=".html")
        if markdown_out is not None:
            check_out_file(markdown_out, "--markdown", suffix=".md")
        if figures_dir is not None:
            check_out_dir(figures_dir, "--figures")
        rep = analyse(str(db), tournament_id, bootstrap)
        written: list[Path] = []
        if html_out is not None:
            html_out.write_text(to_html(rep), encoding="utf-8")
            written.append(html_out)
        if markdown_out is not None:
            markdown_out.write_text(to_markdown(rep), encoding="utf-8")
            written.append(markdown_out)
        if figures_dir is not None:
            written += figures(rep, figures_dir)
        if as_json:
            print_json(rep)
        else:
            typer.echo(summary(rep))
            for path in written:
                typer.echo(f"wrote {path}")

    @app.command("replay")
    @friendly_errors
    def replay_cmd(
        db: Annotated[Path, typer.Argument(help="A SQLite results file.")],
        game_id: Annotated[int, typer.Argument(min=1, help="The game's id (piramida report --json lists them).")],
        png_dir: Annotated[Path | None, typer.Option("--png-dir", help="Write a picture after each shot here.")] = None,
        save: Annotated[
            Path | None, typer.Option("--save", help="Write the game as `piramida play --save` does (the web page loads it).")
        ] = None,
    ) -> None:
        """Show a stored game shot by shot."""
        from piramida.eval.tournament import stored_game

        stored = stored_game(db, game_id)
        if png_dir is not None:
            check_out_dir(png_dir, "--png-dir")
        if save is not None:
            check_out_file(save, "--save", suffix=".json")
        g, seats = stored.row, stored.seats
        typer.echo(f"game {game_id}: {g['variant']}, pair {g['pair']}, seat 0 {seats[0]}, seat 1 {seats[1]}")
        shots = [0]

        def show(step: Any) -> None:
            who = seats[step.seat]
            if not step.is_shot:
                typer.echo(f"       p{step.seat} ({who}) chooses {step.action}")
                return
            shots[0] += 1
            line = step.ruling.summary() if step.ruling is not None else "lag shot"
            typer.echo(f"{shots[0]:4d}  p{step.seat} ({who})  ->  {line}")
            if png_dir is not None and step.ruling is not None:
                from piramida.env.render import draw_position

                draw_position(step.ruling.position, path=png_dir / f"shot_{shots[0]:04d}.png",
                              title=f"game {game_id}, shot {shots[0]}")

        game = stored.rebuild(show).game
        result = f"winner p{game.winner} ({seats[game.winner]})" if game.winner is not None else "no winner"
        typer.echo(f"{result}; score {game.score[0]}-{game.score[1]} after {shots[0]} shots")
        if save is not None:
            game.save(save)
            typer.echo(f"wrote {save}")

    @app.command("book")
    @friendly_errors
    def book_cmd(
        variant: Annotated[str, typer.Option("--variant", help="The variant.")] = "free",
        positions: Annotated[int, typer.Option("--positions", min=1, max=100_000, help="Positions in the book.")] = 200,
        out: Annotated[Path, typer.Option("--out", parser=out_path, help="The book file to write (.jsonl).")] = Path("book.jsonl"),
        agent: Annotated[str, typer.Option("--agent", help="The agent whose self-play frames give the positions.")] = "greedy",
        after_shots: Annotated[int, typer.Option("--after-shots", min=1, max=200,
                                                 help="A position is taken K to 2K shots into a frame.")] = 4,
        seed: Annotated[int, typer.Option("--seed", min=0, max=SEED_MAX, help="Racks, noise streams, the shots drawn.")] = 0,
        noise: Annotated[str, typer.Option("--noise", help=NOISE_HELP)] = "pro",
        in_hand: Annotated[bool, typer.Option("--in-hand", help="Keep positions with a ball in hand.")] = False,
        progress: Annotated[bool, typer.Option("--progress/--no-progress", help="Progress on stderr.")] = True,
    ) -> None:
        """Make a book of mid-frame start positions from self-play frames
        (for tournament and sprt --book)."""
        from piramida.agents.specs import parse_spec
        from piramida.env.inputs import brief
        from piramida.env.physics import load_noise
        from piramida.env.position import VARIANTS
        from piramida.eval.book import BookError, book_header, make_book, write_book
        from piramida.eval.version import code_version

        check_out_file(out, "--out", suffix=".jsonl")
        parse_spec(agent)
        load_noise(None if noise == "none" else noise)
        if variant not in VARIANTS:
            raise BookError(f"unknown variant {brief(variant, 30)}; known: {', '.join(VARIANTS)}")

        def say(found: int, frames: int) -> None:
            if progress and (found % 20 == 0 or found == positions):
                typer.echo(f"{found}/{positions} positions from {frames} frames", err=True)

        lines = make_book(variant, positions, agent=agent, after_shots=after_shots, seed=seed, noise=noise,
                          in_hand=in_hand, on_position=say)
        header = book_header(variant, lines, agent=agent, noise=noise, seed=seed, after_shots=after_shots,
                             in_hand=in_hand, version=code_version(), command=command_line())
        write_book(out, header, lines)
        frames = lines[-1]["frame"] + 1
        typer.echo(f"wrote {out}: {len(lines)} {variant} positions from {frames} frames of {agent}, "
                   f"{after_shots} to {2 * after_shots} shots in ({out.stat().st_size // 1024} KiB)")
