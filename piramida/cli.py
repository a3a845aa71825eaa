"""The ``piramida`` command line (typer).

Each command lives in ``piramida/commands/<name>.py`` and registers itself
on the app; heavy imports happen inside the command so that ``--help`` is
fast.

Every way a command can fail ends here, in ``OneLineErrors.main``, as one
line on stderr: ``error: ...`` and exit status 2 for bad input (usage
errors too, with a hint to ``--help``), ``error: internal error ...`` and
exit status 1 for a bug (set ``PIRAMIDA_DEBUG=1`` to see its traceback).
Never a traceback, never a boxed usage block, never a warning before the
error.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperGroup

from piramida.commands import register_all
from piramida.env.errors import PiramidaError
from piramida.env.inputs import one_line


def _say(message: str) -> None:
    typer.echo(f"error: {one_line(message)}", err=True)


def _not_utf8(args: Sequence[str]) -> int | None:
    """The 1-based position of the first argument that is not valid UTF-8
    (the OS hands such bytes to Python as lone surrogates)."""
    for i, a in enumerate(args, 1):
        try:
            a.encode("utf-8")
        except UnicodeEncodeError:
            return i
    return None


class OneLineErrors(TyperGroup):
    """The app's group: runs a command and turns every failure into one line."""

    def _command_path(self, argv: list[str]) -> str:
        """'piramida CMD [SUB]' as far as argv names known commands."""
        parts = ["piramida"]
        group: Any = self
        for a in argv:
            sub = getattr(group, "commands", {}).get(a)
            if sub is None:
                break
            parts.append(a)
            group = sub
        return " ".join(parts)

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        code = self._run(argv, prog_name, complete_var, **extra)
        if standalone_mode:
            sys.exit(code)
        return code

    def _run(self, argv: list[str], prog_name: str | None, complete_var: str | None, **extra: Any) -> int:
        bad = _not_utf8(argv)
        if bad is not None:
            _say(f"argument {bad} is not valid UTF-8 text")
            return 2
        try:
            with warnings.catch_warnings():
                # numpy's overflow and invalid-value warnings would print
                # before the one line that explains the input.
                warnings.simplefilter("ignore", RuntimeWarning)
                # matplotlib draws a box for a character its font lacks (a
                # title in an exotic script) and says so on stderr.
                warnings.filterwarnings("ignore", "Glyph .* missing from", UserWarning)
                rv = super().main(
                    argv, prog_name, complete_var, standalone_mode=False, **extra
                )
        except typer.TyperException as exc:
            # typer's own (vendored click) usage errors: read by duck typing,
            # their classes are not public.
            ctx = getattr(exc, "ctx", None)
            if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:
                text = ctx.get_help()  # rich prints its help itself and returns ""
                if text:
                    typer.echo(text)
                return 0
            code = int(getattr(exc, "exit_code", 2))
            message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
            if code == 2:
                # The parser's own errors (an option that wants a value, a
                # flag given one) come without a context: name the command
                # from argv instead.
                where = ctx.command_path if ctx is not None else self._command_path(argv)
                message = f"{message} (see '{where} --help')"
            _say(message)
            return code
        except typer.Abort:
            _say("aborted")
            return 1
        except PiramidaError as exc:
            _say(str(exc) or type(exc).__name__)
            return 2
        except RecursionError:
            _say("the input is nested too deeply")
            return 2
        except Exception as exc:  # a bug: one line for the user, the trace on request
            if os.environ.get("PIRAMIDA_DEBUG"):
                raise
            _say(f"internal error ({type(exc).__name__}: {exc}); PIRAMIDA_DEBUG=1 shows the traceback")
            return 1
        return rv if isinstance(rv, int) else 0


app = typer.Typer(
    name="piramida",
    help="Russian billiards: physics, referee, agents and shot suggestions.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=OneLineErrors,
)
register_all(app)


def _one_line_summaries(app: typer.Typer) -> None:
    """The command list shows each command's first paragraph as one line:
    a docstring's own line breaks would otherwise split it mid-sentence."""
    for info in app.registered_commands:
        if info.short_help is None and info.callback is not None:
            doc = (info.help or info.callback.__doc__ or "").strip()
            first = doc.split("\n\n", 1)[0]
            info.short_help = " ".join(first.split()) or None
    for group in app.registered_groups:
        if group.typer_instance is not None:
            _one_line_summaries(group.typer_instance)


_one_line_summaries(app)


def main() -> None:
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
