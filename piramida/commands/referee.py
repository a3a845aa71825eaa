"""``piramida referee``: judge one shot from a position, the shot, its event
log and the position after it (docs/design.md §2; docs/game_rules.md)."""

from __future__ import annotations

import typer

from piramida.commands.common import (
    fail,
    friendly_errors,
    load_position,
    load_shot,
    print_json,
    read_arg,
)


def register(app: typer.Typer) -> None:
    @app.command("referee")
    @friendly_errors
    def referee(
        variant: str = typer.Option(..., "--variant", help="free, combined, moscow, nevskaya, dynamic, classic71, five_ball"),
        before: str = typer.Option(..., "--before", help="position before the shot: file, JSON or text form"),
        shot: str = typer.Option(..., "--shot", help="the shot: file, JSON or text form"),
        events: str = typer.Option(..., "--events", help="event log: file or inline JSON list"),
        after: str = typer.Option(..., "--after", help="position after the shot (the physics' final position)"),
        option: list[str] = typer.Option(None, "--option", help="variant option NAME=VALUE (repeatable)"),
        as_json: bool = typer.Option(False, "--json", help="print the ruling as JSON"),
    ) -> None:
        """Judge one shot: fouls, scored balls, re-spotting, score, who acts next."""
        from piramida.env.events import events_from_json
        from piramida.env.rules import get_referee
        from piramida.env.rules.options import parse_option_args

        ref = get_referee(variant, parse_option_args(option))
        pos_before = load_position(before, ref.table)
        pos_after = load_position(after, ref.table)
        if pos_before.variant != variant:
            fail(f"--before is a {pos_before.variant} position, not {variant}")
        the_shot = load_shot(shot)
        log = events_from_json(read_arg(events, "an event log"))
        state = ref.initial_state(pos_before)
        ref.check_shot(state, the_shot)
        ruling = ref.judge(pos_before, the_shot, log, pos_after, (), state)
        if as_json:
            print_json(ruling.to_dict())
        else:
            typer.echo(ruling.summary())
