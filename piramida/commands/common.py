"""Helpers shared by the CLI commands: input loading and one-line errors."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import typer

from piramida.env.errors import PiramidaError
from piramida.env.inputs import InvalidInputError as InputError
from piramida.env.inputs import brief, check_text

F = TypeVar("F", bound=Callable[..., Any])

#: Seeds go to numpy's SeedSequence and Python's random: any non-negative
#: integer works there, but a seed is a 64-bit number everywhere we record it.
SEED_MAX = 2**63 - 1
#: Shots in one frame or simulations in one decision: more is a typo.
MAX_SHOTS = 100_000
MAX_SIMS = 10_000_000
MAX_GAMES = 1_000_000


def fail(message: str) -> NoReturn:
    """Print one line to stderr and exit 2."""
    first = " ".join(str(message).split())
    typer.echo(f"error: {first}", err=True)
    raise typer.Exit(2)


def friendly_errors(func: F) -> F:
    """Bad input from outside the package's own checks (a file that cannot
    be written, a library's ValueError) as one line and exit code 2; the
    app (piramida/cli.py) turns everything else into one line."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except typer.Exit:
            raise
        except PiramidaError:
            raise
        except ValueError as exc:
            fail(str(exc) or type(exc).__name__)
        except OSError as exc:
            where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
            fail(f"{where}{exc.strerror or exc}")

    return wrapper  # type: ignore[return-value]


def out_path(value: Any) -> Path:
    """typer ``parser`` of an output path option: an empty string would
    silently become the current folder."""
    if isinstance(value, Path):
        return value
    if not str(value).strip():
        raise typer.BadParameter("an empty name is not a file or folder")
    return Path(value)


def _name(path: Path, option: str) -> str:
    """The path as text, refused when it holds a NUL or non-UTF-8 bytes."""
    return check_text(str(path), f"{option} {brief(str(path))}", InputError)


def check_out_file(path: Path, option: str, suffix: str | None = None, make_parents: bool = True) -> None:
    """Refuse an output file that cannot be written, before any work is
    done: a wrong suffix, an existing folder or a file where a folder
    should be. Missing folders on the way are made (``make_parents``), as
    for output folders."""
    name = _name(path, option)
    if suffix is not None and path.suffix.lower() != suffix:
        fail(f"{option} wants a file name ending in {suffix}, got {brief(name)}")
    try:
        if path.is_dir():
            fail(f"{option} {brief(name)} is a folder, not a file")
        parent = path.parent
        while make_parents and not parent.exists() and parent != parent.parent:
            parent = parent.parent
        if not parent.is_dir():
            what = "is not a folder" if parent.exists() else "does not exist"
            fail(f"cannot write {brief(name)}: {brief(str(parent))} {what}")
        if make_parents:
            path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"{option} {brief(name)}: {exc.strerror or exc}")


def check_out_dir(path: Path, option: str) -> None:
    """Make a missing output folder (and its parents); refuse a file."""
    name = _name(path, option)
    try:
        if path.exists() and not path.is_dir():
            fail(f"{option} {brief(name)} is a file, not a folder")
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"{option} {brief(name)}: {exc.strerror or exc}")


def check_in_dirs(paths: Iterable[Path], option: str) -> None:
    """Refuse input folders (``--data``) that are not folders."""
    for d in paths:
        if not d.is_dir():
            raise typer.BadParameter(f"{d} is not a folder", param_hint=option)


#: A file given as input is read whole; larger is not a position, shot,
#: event log or saved game.
MAX_FILE_BYTES = 4_000_000


def _existing_file(value: str) -> Path | None:
    try:
        path = Path(value)
        return path if path.is_file() else None
    except (OSError, ValueError):  # a name too long for the OS, a NUL byte
        return None


def read_arg(value: str, what: str = "the input") -> str:
    """A CLI argument that is a file path or inline text (JSON or text
    form). An existing file wins, so a file named ``a=b.json`` is read, not
    parsed as text."""
    value = check_text(value, what, InputError)
    path = _existing_file(value)
    if path is not None:
        try:
            size = path.stat().st_size
            if size > MAX_FILE_BYTES:
                fail(f"{path}: {size} bytes is too large for {what} (at most {MAX_FILE_BYTES})")
            return check_text(path.read_bytes(), str(path), InputError)
        except OSError as exc:
            fail(f"cannot read {path}: {exc.strerror or exc}")
    s = value.strip()
    if s.startswith("{") or s.startswith("[") or "=" in s:
        return s
    if not s:  # before the folder check: Path("") is the current folder
        fail(f"{what} is empty: give a file, inline JSON or the text form")
    try:
        is_dir = Path(value).is_dir()
    except (OSError, ValueError):
        is_dir = False
    if is_dir:
        fail(f"{brief(value)} is a folder, not a file with {what}")
    fail(f"{brief(value)} is neither a file nor inline JSON/text for {what}")


def load_position(value: str, table: Any = None, playable: bool = True) -> Any:
    """A position to play from (``Position.check_playable``), or with
    ``playable=False`` as a shot left it (a referee's ``--after``)."""
    from piramida.env.position import Position

    pos = Position.parse(read_arg(value, "a position"), table)
    return pos.check_playable() if playable else pos


def load_shot(value: str) -> Any:
    from piramida.env.shot import Shot

    return Shot.parse(read_arg(value, "a shot"))


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
