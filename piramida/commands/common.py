"""Helpers shared by the CLI commands: input loading and one-line errors."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import typer

from piramida.env.errors import PiramidaError

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str) -> NoReturn:
    """Print one line to stderr and exit 2."""
    first = " ".join(str(message).split())
    typer.echo(f"error: {first}", err=True)
    raise typer.Exit(2)


def friendly_errors(func: F) -> F:
    """Turn bad-input exceptions into one line and exit code 2."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except typer.Exit:
            raise
        except (PiramidaError, ValueError, KeyError) as exc:
            fail(str(exc) or type(exc).__name__)
        except (OSError, json.JSONDecodeError) as exc:
            fail(str(exc))

    return wrapper  # type: ignore[return-value]


def read_arg(value: str) -> str:
    """A CLI argument that is a file path or inline text (JSON or text form)."""
    s = value.strip()
    if s.startswith("{") or s.startswith("[") or "=" in s:
        return s
    path = Path(value)
    if path.is_file():
        try:
            return path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            fail(f"{path}: not a text file")
    fail(f"{value!r} is neither a file nor inline JSON/text")


def load_position(value: str, table: Any = None) -> Any:
    from piramida.env.position import Position

    return Position.parse(read_arg(value), table)


def load_shot(value: str) -> Any:
    from piramida.env.shot import Shot

    return Shot.parse(read_arg(value))


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
