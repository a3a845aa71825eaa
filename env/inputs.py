"""The one input layer: every text that comes from outside (a position, a
shot, an event log, a saved game, a noise or table file, an option value)
is read through these functions before any of it reaches a model.

What they guarantee, so that nothing downstream needs to check it again:

- size: at most ``MAX_TEXT_CHARS`` characters of text, JSON nested at most
  ``MAX_DEPTH`` levels deep;
- numbers: JSON ``NaN``/``Infinity`` are refused, a float that overflows
  (``1e400``) is refused, an integer has at most ``MAX_INT_DIGITS`` digits
  (``10**400`` would overflow the first ``float()`` downstream);
- JSON objects: a key given twice is refused (the last one would silently
  win);
- text: valid UTF-8 without NUL characters (a file's leading byte-order
  mark is dropped).

Every refusal is the caller's error class (a ``PiramidaError``) with a
one-line message that names what was being read.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

from piramida.env.errors import PiramidaError

MAX_TEXT_CHARS = 1_000_000
MAX_DEPTH = 16
MAX_INT_DIGITS = 18


class InvalidInputError(PiramidaError):
    """Input that cannot be read at all: too large, too deep, not UTF-8,
    non-finite numbers, duplicate keys."""


def one_line(message: str, limit: int = 400) -> str:
    """A message folded onto one line and cut to ``limit`` characters."""
    s = " ".join(str(message).split())
    return s if len(s) <= limit else s[: limit - 3] + "..."


def brief(value: Any, limit: int = 60) -> str:
    """``repr(value)`` short enough for a one-line message."""
    try:
        r = repr(value)
    except Exception:  # a repr that fails must not hide the real error
        r = f"<{type(value).__name__}>"
    return r if len(r) <= limit else r[: limit - 3] + "..."


def check_text(text: Any, what: str, error: type[PiramidaError] = InvalidInputError) -> str:
    """``text`` as a str of sane size, valid UTF-8, without NUL."""
    if isinstance(text, bytes):
        try:
            # A byte-order mark (files saved by Windows tools) is not content.
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise error(f"{what} is not valid UTF-8") from None
    if not isinstance(text, str):
        raise error(f"{what} must be text, got {type(text).__name__}")
    if len(text) > MAX_TEXT_CHARS:
        raise error(f"{what} is too long ({len(text)} characters; at most {MAX_TEXT_CHARS})")
    if "\x00" in text:
        raise error(f"{what} contains a NUL character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # Command-line bytes that are not UTF-8 arrive as lone surrogates.
        raise error(f"{what} is not valid UTF-8") from None
    return text


def load_json(text: Any, what: str, error: type[PiramidaError] = InvalidInputError) -> Any:
    """Parse JSON under the layer's limits (see the module docstring)."""
    text = check_text(text, what, error)

    def no_constant(name: str) -> Any:
        raise error(f"{what}: {name} is not a number JSON allows here (numbers must be finite)")

    def finite_float(s: str) -> float:
        x = float(s)
        if not math.isfinite(x):
            raise error(f"{what}: number {brief(s, 30)} is too large")
        return x

    def bounded_int(s: str) -> int:
        if len(s.lstrip("-")) > MAX_INT_DIGITS:
            raise error(f"{what}: integer {brief(s, 30)} is too large (at most {MAX_INT_DIGITS} digits)")
        return int(s)

    def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in pairs:
            if k in out:
                raise error(f"{what}: key {brief(k, 30)} is given twice")
            out[k] = v
        return out

    depth = _max_depth(text)
    if depth > MAX_DEPTH:
        raise error(f"{what}: JSON nested {depth} levels deep (at most {MAX_DEPTH})")
    try:
        return json.loads(
            text,
            parse_constant=no_constant,
            parse_float=finite_float,
            parse_int=bounded_int,
            object_pairs_hook=unique_keys,
        )
    except json.JSONDecodeError as exc:
        raise error(f"{what} is not valid JSON: {exc}") from None
    except RecursionError:  # _max_depth bounds this; kept for safety
        raise error(f"{what}: JSON nested too deeply") from None


def _max_depth(text: str) -> int:
    """The deepest nesting of [ and { outside strings (before parsing, so
    that a 5000-deep document never reaches the recursive parser)."""
    depth = best = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            best = max(best, depth)
        elif c in "]}":
            depth -= 1
    return best


def number(
    value: Any,
    what: str,
    lo: float = -math.inf,
    hi: float = math.inf,
    error: type[PiramidaError] = InvalidInputError,
) -> float:
    """A real number (not a bool) that is finite and within [lo, hi]."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise error(f"{what} must be a number, got {brief(value)}")
    try:
        x = float(value)
    except OverflowError:
        raise error(f"{what} is too large: {brief(value, 30)}") from None
    if not math.isfinite(x):
        raise error(f"{what} must be finite, got {brief(value, 30)}")
    if not lo <= x <= hi:
        raise error(f"{what} must be in [{lo:g}, {hi:g}], got {x:g}")
    return x


def integer(
    value: Any,
    what: str,
    lo: int,
    hi: int,
    error: type[PiramidaError] = InvalidInputError,
) -> int:
    """An int (not a bool) within [lo, hi]."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{what} must be an integer, got {brief(value)}")
    if not lo <= value <= hi:
        raise error(f"{what} must be in [{lo}, {hi}], got {brief(value, 30)}")
    return value


def known_keys(
    keys: Iterable[str], allowed: Iterable[str], what: str, error: type[PiramidaError] = InvalidInputError
) -> None:
    """Refuse keys outside ``allowed``, naming the known ones."""
    allowed_t = tuple(allowed)
    unknown = sorted(set(keys) - set(allowed_t), key=str)
    if unknown:
        raise error(
            f"unknown key(s) in {what}: {', '.join(map(brief, unknown))} (known: {', '.join(allowed_t)})"
        )
