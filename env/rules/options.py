"""Variant options: the game type as data, read from
``configs/variants/NAME.toml`` and overridable per game (RULES.md: "every
option named here must exist in configs/variants/").

Each variant module declares its ``GameType`` (OpenSpiel's ``_GAME_TYPE``)
with one ``Option`` per name; the TOML's ``[options]`` table must hold exactly
those names. Overrides come as a mapping; string values (from the command
line, ``--option k=v``) are parsed to the option's type. Unknown names and
bad values are ``InvalidOptionError`` naming the option and what it accepts.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from piramida.configs import CONFIG_DIR
from piramida.env.errors import PiramidaError


class InvalidOptionError(PiramidaError):
    """An unknown option name, a bad option value, or a broken variant config."""


@dataclass(frozen=True)
class Option:
    """One option: name, type (bool, int, float or a tuple of allowed
    strings) and what it means (with the RULES.md section)."""

    name: str
    kind: Any
    doc: str

    def parse(self, value: Any, source: str) -> Any:
        k = self.kind
        if isinstance(value, str) and not isinstance(k, tuple):
            value = _from_text(value, k, self.name, source)
        if isinstance(k, tuple):
            if value not in k:
                raise InvalidOptionError(
                    f"{source}: option {self.name} must be one of {', '.join(map(repr, k))}, "
                    f"got {value!r}"
                )
            return value
        if k is bool:
            if not isinstance(value, bool):
                raise InvalidOptionError(f"{source}: option {self.name} must be true or false, got {value!r}")
            return value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InvalidOptionError(f"{source}: option {self.name} must be a number, got {value!r}")
        if k is int:
            if float(value) != int(value):
                raise InvalidOptionError(f"{source}: option {self.name} must be an integer, got {value!r}")
            value = int(value)
        else:
            value = float(value)
        if value < 0:
            raise InvalidOptionError(f"{source}: option {self.name} must be >= 0, got {value!r}")
        return value


def _from_text(text: str, kind: Any, name: str, source: str) -> Any:
    t = text.strip().lower()
    if kind is bool:
        if t in ("true", "1", "yes", "on"):
            return True
        if t in ("false", "0", "no", "off"):
            return False
        raise InvalidOptionError(f"{source}: option {name} must be true or false, got {text!r}")
    try:
        return kind(float(t)) if kind is int and float(t).is_integer() else float(t)
    except ValueError:
        raise InvalidOptionError(f"{source}: option {name} must be a number, got {text!r}") from None


# Options every pyramid variant has (RULES.md §4).
COMMON_OPTIONS: tuple[Option, ...] = (
    Option("lag", bool, "RULES.md §4.1: play the lag for the break first (else the seed picks)"),
    Option(
        "object_ball_jump_is_foul",
        bool,
        "RULES.md §4.6: a jumped object ball is a foul (item 24.3); false: re-spotted, no foul (item 1.9)",
    ),
    Option("respot_gap", float, "RULES.md §4.7: gap between re-spotted balls, metres (item 25.2)"),
    Option("respot_touching", bool, "RULES.md §4.7: re-spotted balls after the first touch (item 1.10)"),
    Option("shot_clock_s", float, "RULES.md §4.9: seconds per decision, 0 = no clock (45 when on)"),
    Option("shot_clock_extensions", int, "RULES.md §4.9: double extensions per player per frame"),
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
    rules: str  # RULES.md section

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise InvalidOptionError(
            f"unknown option {name!r} for variant {self.variant} "
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


def load_options(game_type: GameType, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The variant's options: TOML defaults, then ``overrides``."""
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
    out = {o.name: o.parse(table[o.name], source) for o in game_type.options}
    for k, v in (overrides or {}).items():
        out[k] = game_type.option(k).parse(v, "option")
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
