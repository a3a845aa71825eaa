"""Variant options: the game type as data, read from
``configs/variants/NAME.toml`` and overridable per game (docs/game_rules.md: "every
option named here must exist in configs/variants/").

Each variant module declares its ``GameType`` (OpenSpiel's ``_GAME_TYPE``)
with one ``Option`` per name; the TOML's ``[options]`` table must hold exactly
those names, and its ``[limits]`` table the allowed range ``[lo, hi]`` of
every number option (the TOML is the declaration; docs/rules.md lists them
and a test keeps the two equal). Overrides come as a mapping; string values
(from the command line, ``--option k=v``) are parsed to the option's type.
Unknown names and bad values - nan, inf, a number out of its range - are
``InvalidOptionError`` of one line naming the option and what it accepts.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from piramida.configs import CONFIG_DIR
from piramida.env.errors import PiramidaError


class InvalidOptionError(PiramidaError):
    """An unknown option name, a bad option value, or a broken variant config."""


Limits = tuple[float, float]


@dataclass(frozen=True)
class Option:
    """One option: name, type (bool, int, float or a tuple of allowed
    strings) and what it means (with the docs/game_rules.md section). A numeric
    option's allowed range is not here: it is declared in the variant's
    TOML, ``[limits]`` (``read_limits``)."""

    name: str
    kind: Any
    doc: str

    @property
    def numeric(self) -> bool:
        return self.kind is int or self.kind is float

    def parse(self, value: Any, source: str, limits: Limits | None = None) -> Any:
        """``value`` (a string from the command line is parsed first)
        checked against the type and, for a number, ``limits`` (lo, hi)
        inclusive; a bad one is an ``InvalidOptionError`` of one line."""
        k = self.kind
        span = "" if limits is None else f" from {_num(limits[0])} to {_num(limits[1])}"
        if isinstance(value, str) and not isinstance(k, tuple):
            value = _from_text(value, k, self.name, source, span)
        if isinstance(k, tuple):
            if value not in k:
                raise InvalidOptionError(
                    f"{source}: option {self.name} must be one of {', '.join(map(repr, k))}, "
                    f"got {_shown(value)}"
                )
            return value
        if k is bool:
            if not isinstance(value, bool):
                raise InvalidOptionError(
                    f"{source}: option {self.name} must be true or false, got {_shown(value)}"
                )
            return value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InvalidOptionError(
                f"{source}: option {self.name} must be a number{span}, got {_shown(value)}"
            )
        try:
            finite = math.isfinite(value)
        except OverflowError:  # an int too large for a float
            finite = False
        if not finite:
            raise InvalidOptionError(
                f"{source}: option {self.name} must be a finite number{span}, got {_shown(value)}"
            )
        if k is int:
            if float(value) != int(value):
                raise InvalidOptionError(
                    f"{source}: option {self.name} must be an integer{span}, got {_shown(value)}"
                )
            value = int(value)
        else:
            value = float(value)
        if limits is None:
            if value < 0:
                raise InvalidOptionError(f"{source}: option {self.name} must be >= 0, got {_shown(value)}")
        elif not limits[0] <= value <= limits[1]:
            raise InvalidOptionError(f"{source}: option {self.name} must be{span}, got {_shown(value)}")
        return value


def _shown(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters (one line, short)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _num(x: float) -> str:
    """A number as a person writes it: 8, 0.001, 3600."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def _from_text(text: str, kind: Any, name: str, source: str, span: str = "") -> Any:
    t = text.strip().lower()
    if kind is bool:
        if t in ("true", "1", "yes", "on"):
            return True
        if t in ("false", "0", "no", "off"):
            return False
        raise InvalidOptionError(f"{source}: option {name} must be true or false, got {_shown(text)}")
    try:
        x = float(t)
    except ValueError:
        raise InvalidOptionError(f"{source}: option {name} must be a number{span}, got {_shown(text)}") from None
    return int(x) if kind is int and x.is_integer() else x


# Options every pyramid variant has (docs/game_rules.md §4).
COMMON_OPTIONS: tuple[Option, ...] = (
    Option("lag", bool, "docs/game_rules.md §4.1: play the lag for the break first (else the seed picks)"),
    Option(
        "object_ball_jump_is_foul",
        bool,
        "docs/game_rules.md §4.6: a jumped object ball is a foul (item 24.3); false: re-spotted, no foul (item 1.9)",
    ),
    Option("respot_gap", float, "docs/game_rules.md §4.7: gap between re-spotted balls, metres (item 25.2)"),
    Option("respot_touching", bool, "docs/game_rules.md §4.7: re-spotted balls after the first touch (item 1.10)"),
    Option("shot_clock_s", float, "docs/game_rules.md §4.9: seconds per decision, 0 = no clock (45 when on)"),
    Option("shot_clock_extensions", int, "docs/game_rules.md §4.9: double extensions per player per frame"),
)


@dataclass(frozen=True)
class GameType:
    """A variant as data: name, what is struck, whether shots are called,
    and its options."""

    variant: str
    long_name: str
    cue_ball: str  # "any" (free), "coloured", or "own_white" (five-ball)
    called: bool
    options: tuple[Option, ...]
    rules: str  # docs/game_rules.md section

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise InvalidOptionError(
            f"unknown option {_shown(name)} for variant {self.variant} "
            f"(known: {', '.join(o.name for o in self.options)})"
        )


@lru_cache(maxsize=32)
def read_variant_config(variant: str) -> dict[str, Any]:
    path = CONFIG_DIR / "variants" / f"{variant}.toml"
    if not path.is_file():
        raise InvalidOptionError(f"variant config {path} not found")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise InvalidOptionError(f"{path}: not valid TOML: {exc}") from None


def read_limits(game_type: GameType) -> dict[str, Limits]:
    """The allowed range ``(lo, hi)``, inclusive, of every numeric option of
    the variant, from ``[limits]`` in its TOML (``name = [lo, hi]``): the
    TOML is the declaration; every int or float option must have one, and
    nothing else may."""
    data = read_variant_config(game_type.variant)
    source = f"configs/variants/{game_type.variant}.toml"
    table = data.get("limits")
    if not isinstance(table, dict):
        raise InvalidOptionError(f"{source}: missing [limits] table (name = [lo, hi] per numeric option)")
    numeric = {o.name: o for o in game_type.options if o.numeric}
    extra = sorted(set(table) - set(numeric))
    missing = sorted(set(numeric) - set(table))
    if extra or missing:
        raise InvalidOptionError(
            f"{source}: [limits] must name exactly the numeric options; "
            f"not numeric options {extra}, missing {missing}"
        )
    out: dict[str, Limits] = {}
    for name, opt in numeric.items():
        pair = table[name]
        ok = (
            isinstance(pair, list)
            and len(pair) == 2
            and all(isinstance(x, int | float) and not isinstance(x, bool) for x in pair)
            and all(math.isfinite(x) for x in pair)
            and pair[0] <= pair[1]
            and (opt.kind is not int or all(float(x).is_integer() for x in pair))
        )
        if not ok:
            raise InvalidOptionError(
                f"{source}: [limits] {name} must be [lo, hi], finite numbers with lo <= hi"
                f"{' (integers)' if opt.kind is int else ''}, got {pair!r}"
            )
        out[name] = (opt.kind(pair[0]), opt.kind(pair[1]))
    return out


def load_options(game_type: GameType, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The variant's options: TOML defaults, then ``overrides``; numbers
    within the variant's ``[limits]``."""
    data = read_variant_config(game_type.variant)
    source = f"configs/variants/{game_type.variant}.toml"
    table = data.get("options")
    if not isinstance(table, dict):
        raise InvalidOptionError(f"{source}: missing [options] table")
    names = {o.name for o in game_type.options}
    extra = sorted(set(table) - names)
    missing = sorted(names - set(table))
    if extra or missing:
        raise InvalidOptionError(f"{source}: unknown options {extra}, missing options {missing}")
    limits = read_limits(game_type)
    out = {o.name: o.parse(table[o.name], source, limits.get(o.name)) for o in game_type.options}
    for k, v in (overrides or {}).items():
        out[k] = game_type.option(k).parse(v, f"{game_type.variant}", limits.get(k))
    return out


def parse_option_args(args: list[str] | None) -> dict[str, str]:
    """``["k=v", ...]`` from the command line to a mapping."""
    out: dict[str, str] = {}
    for a in args or []:
        if "=" not in a:
            raise InvalidOptionError(f"--option needs NAME=VALUE, got {a!r}")
        k, v = a.split("=", 1)
        out[k.strip()] = v.strip()
    return out
