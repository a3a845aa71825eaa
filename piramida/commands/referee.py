"""``piramida referee``: judge one decision of a frame - a shot, a lag shot,
fouls reported from outside, or a choice - from a position (the frame's
first decision) or a recorded frame (a saved game: its next decision), and
print the ruling (docs/rules.md, "From the command line"; docs/game_rules.md).
The decision goes through ``Game.judge_action``, the path of live play."""

from __future__ import annotations

from typing import Any

import typer

from piramida.commands.common import (
    fail,
    friendly_errors,
    load_position,
    load_shot,
    print_json,
    read_arg,
)


def _no_physics(position: Any, shot: Any) -> Any:
    from piramida.env.errors import PiramidaError

    raise PiramidaError("the referee judges recorded shots and simulates nothing")


def register(app: typer.Typer) -> None:
    from piramida.env.rules.ruling import REPORTED_FOULS

    @app.command("referee")
    @friendly_errors
    def referee(
        variant: str = typer.Option(
            None,
            "--variant",
            help="free, combined, moscow, nevskaya, dynamic, classic71, five_ball (required with --before)",
        ),
        before: str = typer.Option(
            None,
            "--before",
            help="the position the frame starts from (file, JSON or text form): its first decision is judged",
        ),
        game: str = typer.Option(
            None,
            "--game",
            help="a recorded frame, a saved game (file or JSON): its next decision is judged",
        ),
        shot: str = typer.Option(
            None, "--shot", help="the shot (a lag shot during the lag): file, JSON or text form"
        ),
        events: str = typer.Option(
            None, "--events", help="the shot's event log: file or inline JSON list"
        ),
        after: str = typer.Option(
            None, "--after", help="position after the shot (the physics' final position)"
        ),
        choice: str = typer.Option(
            None, "--choice", help="a choice instead of a shot: take_ball:<id>, shoot, break, ..."
        ),
        foul: list[str] = typer.Option(
            None,
            "--foul",
            help="a foul the physics cannot see, reported on the shot (repeatable): "
            + ", ".join(REPORTED_FOULS)
            + "; with --game and no shot, on the frame's last shot",
        ),
        option: list[str] = typer.Option(
            None, "--option", help="variant option NAME=VALUE (repeatable; with --before)"
        ),
        as_json: bool = typer.Option(False, "--json", help="print the ruling as JSON"),
    ) -> None:
        """Judge one decision: a shot's fouls, scored balls, re-spotting and
        score, a lag shot, reported fouls or a choice; who acts next."""
        from piramida.env.events import events_from_json
        from piramida.env.game import Game
        from piramida.env.inputs import load_json
        from piramida.env.rules.options import parse_option_args

        fouls = list(foul or [])
        for k in fouls:
            if k not in REPORTED_FOULS:
                fail(
                    f"--foul {k!r} is not a foul reported from outside (one of {', '.join(REPORTED_FOULS)})"
                )
        parts = {"--shot": shot, "--events": events, "--after": after}
        given = [k for k, v in parts.items() if v is not None]
        if given and len(given) < 3:
            fail(
                f"a shot needs --shot, --events and --after: {', '.join(k for k in parts if k not in given)} missing"
            )
        if (before is None) == (game is None):
            fail(
                "give the frame: --before POSITION (its first decision) or --game SAVED_GAME (its next one)"
            )
        if given and choice is not None:
            fail("one decision at a time: a shot (--shot, --events, --after) or --choice")
        if choice is not None and fouls:
            fail("--foul is reported on a shot, not on --choice")
        if not given and choice is None and not fouls:
            fail("nothing to judge: give a shot (--shot, --events, --after), --choice or --foul")

        if game is not None:
            if option:
                fail(
                    "--option goes with --before: a recorded frame keeps the options it was played with"
                )
            g = Game.from_dict(
                load_json(read_arg(game, "a saved game"), "saved game"), simulate=_no_physics
            )
            if variant is not None and variant != g.variant:
                fail(f"--game is a {g.variant} frame, not {variant}")
        else:
            if variant is None:
                fail("--before needs --variant")
            opts = parse_option_args(option)
            # Checks the variant and its options before the position is read.
            from piramida.env.rules import get_referee

            table = get_referee(variant, opts).table
            pos_before = load_position(before, table)
            if pos_before.variant != variant:
                fail(f"--before is a {pos_before.variant} position, not {variant}")
            g = Game.new(
                variant,
                seed=None,
                options=opts,
                position=pos_before,
                simulate=_no_physics,
                table=table,
            )

        if given:
            table = g.referee.table
            pos_after = load_position(after, table, playable=False)
            the_shot = load_shot(shot)
            log = events_from_json(read_arg(events, "an event log"))
            ruling = g.judge_action(the_shot, log, pos_after, reported=fouls)
        elif choice is not None:
            ruling = g.judge_action(choice)
        else:
            if before is not None:
                fail(
                    "--foul alone is reported on the last shot of --game; with --before give the shot too"
                )
            for k in fouls:
                ruling = g.report_foul(k)
        if as_json:
            print_json(ruling.to_dict())
        else:
            typer.echo(ruling.summary())
