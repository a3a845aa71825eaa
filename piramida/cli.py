"""The ``piramida`` command line (typer).

Each command lives in ``piramida/commands/<name>.py`` and registers itself
on the app; heavy imports happen inside the command so that ``--help`` is
fast. Bad input prints one line and exits 2; never a traceback.
"""

from __future__ import annotations

import typer

from piramida.commands import register_all

app = typer.Typer(
    name="piramida",
    help="Russian billiards: physics, referee, agents and shot suggestions.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
register_all(app)


def main() -> None:
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
