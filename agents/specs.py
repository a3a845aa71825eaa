"""Agent specs: one grammar wherever an agent is named.

    NAME                      greedy
    NAME:key=value:key=value  planner:budget=1s:noise=amateur

Colons separate the parts, so that a comma can still separate the agents of
a list (``--agents planner:sims=500,greedy``). Each agent declares its keys
with a type; an unknown name or key, or a value that does not parse, is a
one-line ``AgentSpecError`` listing what is known. Keys a spec leaves out
take the caller's defaults (a match passes its noise preset and budget,
``piramida suggest`` its ``--budget``, ``--sims`` and ``--noise``), and
those take the agent's own. Where agents are named: ``piramida match
--agents``, ``piramida play --agents``, ``piramida suggest --agent`` (an
agent in ``RANKING`` only).

In a tournament, a sequential test or a study, ``{variant}`` in a spec is
replaced by the name of the variant being played (``for_variant``), so that
one spec names each variant's own model:
``policy:path=models/{variant}_policy.pt``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from piramida.env.errors import PiramidaError
from piramida.env.inputs import brief


class AgentSpecError(PiramidaError):
    """A malformed agent spec: unknown agent or key, or a bad value."""


_DURATION = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(ms|s)?\s*$")
MAX_BUDGET_S = 3600.0
MAX_SIMS = 10_000_000


def parse_duration(text: str, what: str = "budget") -> float:
    """'2s', '500ms', '2' (seconds) -> seconds, more than 0, at most an hour."""
    m = _DURATION.match(text)
    if m is None:
        raise AgentSpecError(f"{what} must look like 2s, 500ms or 2, got {brief(text, 30)}")
    value = float(m.group(1)) / (1000.0 if m.group(2) == "ms" else 1.0)
    if not 0 < value <= MAX_BUDGET_S:
        raise AgentSpecError(f"{what} must be more than 0 and at most an hour, got {brief(text, 30)}")
    return value


def _positive_int(text: str, what: str) -> int:
    if not re.fullmatch(r"\d{1,9}", text.strip()):
        raise AgentSpecError(f"{what} must be a whole number from 1 to {MAX_SIMS}, got {brief(text, 30)}")
    value = int(text)
    if not 1 <= value <= MAX_SIMS:
        raise AgentSpecError(f"{what} must be a whole number from 1 to {MAX_SIMS}, got {value}")
    return value


def _number(ok: Callable[[float], bool], told: str) -> Callable[[str, str], float]:
    """A parser of a number that ``ok`` accepts; ``told`` says which."""

    def parse(text: str, what: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not ok(value):
            raise AgentSpecError(f"{what} must be a number {told}, got {brief(text, 30)}")
        return value

    return parse


_weight = _number(lambda x: 0 <= x <= 100, "from 0 to 100")
_share = _number(lambda x: 0 < x <= 1, "more than 0 and at most 1")


def _noise(text: str, what: str) -> str:
    from piramida.env.physics import load_noise

    if text != "none":
        load_noise(text)  # refuses unknown presets and bad files with one line
    return text


def _flag(text: str, what: str) -> bool:
    t = text.strip().lower()
    if t in ("true", "1", "yes", "on"):
        return True
    if t in ("false", "0", "no", "off"):
        return False
    raise AgentSpecError(f"{what} must be true or false, got {brief(text, 30)}")


#: Replaced by the variant's name in a tournament's specs (``for_variant``).
VARIANT_PLACEHOLDER = "{variant}"


def for_variant(text: str, variant: str) -> str:
    """A spec with ``{variant}`` replaced by ``variant``."""
    return text.replace(VARIANT_PLACEHOLDER, variant)


def _file(text: str, what: str) -> str:
    from pathlib import Path

    if VARIANT_PLACEHOLDER in text:
        raise AgentSpecError(
            f"{what}: {VARIANT_PLACEHOLDER} is replaced by the variant's name only in a tournament, "
            f"sprt or study, got {brief(text, 60)}"
        )
    if not text.strip():
        raise AgentSpecError(f"{what} must name a file")
    if not Path(text).is_file():
        raise AgentSpecError(f"{what}: no file {brief(text, 60)}")
    return text


def _choice(*allowed: str) -> Callable[[str, str], str]:
    def parse(text: str, what: str) -> str:
        if text not in allowed:
            raise AgentSpecError(f"{what} must be one of {', '.join(allowed)}, got {brief(text, 30)}")
        return text

    return parse


def _value(text: str, what: str) -> str:
    from piramida.agents.planner_value import is_value_file

    if is_value_file(text):
        return _file(text, what)
    return _choice("auto", "race", "turn")(text, f"{what} (or a value file, *.pt)")


@dataclass(frozen=True)
class Key:
    """One key of an agent's spec: the keyword it gives the agent's factory
    (``make_agent``; the planner's is ``PlannerAgent.of``) and its parser."""

    arg: str
    parse: Callable[[str, str], Any]
    doc: str


#: Agent name -> its keys. The planner's ``budget``, ``sims`` and ``rollouts`` exclude each
#: other: a simulation count makes the agent reproducible on any machine.
KEYS: dict[str, dict[str, Key]] = {
    "random": {},
    "greedy": {
        "noise": Key("noise", _noise, "the skill it plays for: none, pro, amateur, novice or a .toml"),
    },
    "planner": {
        "budget": Key("budget_s", parse_duration, "thinking time per decision: 1s, 500ms"),
        "sims": Key("n_sims", _positive_int, "simulated strokes per decision, finding the candidates included (instead of a budget)"),
        "rollouts": Key(
            "n_rollouts", _positive_int, "noisy samples of the candidates per decision, finding them not counted (instead of a budget)"
        ),
        "noise": Key("noise", _noise, "the skill it plans for: none, pro, amateur, novice or a .toml"),
        "value": Key(
            "value", _value, "how a sample's table is scored: auto, race, turn or a value file (models/free_value.pt)"
        ),
        "book": Key("book", _flag, "play the break book's strokes on a full rack"),
        "seed": Key("salt", _positive_int, "mixed into the seeds a match gives it: the same planner sampling differently"),
        "prior": Key("prior", _file, "a policy file: sample only the candidates it likes best (models/free_policy.pt)"),
        "top": Key("prior_top", _positive_int, "how many candidates a prior lets through (default 4)"),
        "explore": Key("explore", _flag, "draw the prior's shortlist from its distribution instead of its favourites (self-play)"),
        "blend": Key(
            "blend", _weight, "how much the prior's logits weigh against the samples' mean win chance in choosing the shot (0: not at all)"
        ),
        "gen": Key("gen_share", _share, "share of the budget finding candidates may use (default 0.5)"),
        "samples": Key(
            "n_samples", _positive_int, "the most noisy samples one candidate gets (default 256; raise it so a long budget is spent)"
        ),
        "search": Key(
            "search", _choice("planner", "wide", "lean"), "its candidate search: planner (default), wide (four times the lines, the shipped policies' search) or lean (no banks)"
        ),
    },
    "policy": {
        "path": Key("path", _file, "a policy file written by piramida export (models/free_policy.pt)"),
        "noise": Key("noise", _noise, "the skill its candidates are made for (default: the file's)"),
        "search": Key(
            "search", _choice("planner", "wide", "lean", "greedy"), "the candidate search its options come from (default: the file's)"
        ),
    },
}


#: Keys an agent cannot do without.
REQUIRED: dict[str, tuple[str, ...]] = {"policy": ("path",)}


#: The agents that rank the shots of a decision (``plan(view, top)``): the
#: only ones ``piramida suggest --agent`` accepts. The planner ranks by its
#: noisy samples, a policy by its network's probabilities (``Plan.basis``).
RANKING: tuple[str, ...] = ("planner", "policy")


@dataclass(frozen=True)
class AgentSpec:
    """A parsed spec: the agent's name and its options as its factory's
    keywords (already parsed)."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()
    text: str = ""

    def __str__(self) -> str:
        return self.text or self.name

    def kwargs(self, defaults: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The factory's keywords: the caller's defaults (meant for this
        agent), then the spec's own."""
        out = dict(defaults or {})
        given = dict(self.options)
        limits = ("budget_s", "n_sims", "n_rollouts")
        if any(k in given for k in limits):
            # The spec's own limit replaces the caller's, whichever it is.
            for k in limits:
                out.pop(k, None)
            out["budget_s"] = given.get("budget_s")
        out.update(given)
        return out

    def defaults(self, offered: Mapping[str, Any]) -> dict[str, Any]:
        """Of a caller's ``offered`` defaults, the ones this agent takes
        (the keywords of its keys, and ``seed``): a match
        offers every agent its noise preset and the planner's budget."""
        args = {k.arg for k in KEYS.get(self.name, {}).values()} | {"seed"}
        return {k: v for k, v in offered.items() if k in args}

    def model_files(self) -> list[str]:
        """The model files its options name: a policy (``path``, ``prior``)
        and a value network (``value=FILE``)."""
        from piramida.agents.planner_value import is_value_file

        keys = {k.arg: k for k in KEYS.get(self.name, {}).values()}
        return [
            v for arg, v in self.options
            if keys[arg].parse is _file or (keys[arg].parse is _value and is_value_file(v))
        ]

    def build(self, defaults: Mapping[str, Any] | None = None) -> Any:
        from piramida.agents import make_agent

        return make_agent(self.name, **self.kwargs(defaults))


def parse_spec(text: str) -> AgentSpec:
    """``NAME[:key=value...]`` -> AgentSpec; AgentSpecError otherwise."""
    if not isinstance(text, str) or not text.strip():
        raise AgentSpecError(f"an agent spec is NAME or NAME:key=value:..., got {brief(text, 40)}")
    name, *parts = text.strip().split(":")
    keys = KEYS.get(name)
    if keys is None:
        raise AgentSpecError(f"unknown agent {brief(name, 30)}; known: {', '.join(KEYS)}")
    options: dict[str, Any] = {}
    for part in parts:
        if "=" not in part:
            raise AgentSpecError(f"{name}: expected key=value after ':', got {brief(part, 30)}")
        k, v = part.split("=", 1)
        key = keys.get(k)
        if key is None:
            known = ", ".join(keys) or "none"
            raise AgentSpecError(f"{name}: unknown key {brief(k, 30)} (known: {known})")
        if key.arg in options:
            raise AgentSpecError(f"{name}: key {k} given twice")
        options[key.arg] = key.parse(v, f"{name}:{k}")
    if sum(k in options for k in ("budget_s", "n_sims", "n_rollouts")) > 1:
        raise AgentSpecError(f"{name}: give one of budget, sims and rollouts")
    for k in REQUIRED.get(name, ()):
        if keys[k].arg not in options:
            raise AgentSpecError(f"{name} needs {k}=..., e.g. {name}:{k}=models/free_policy.pt")
    return AgentSpec(name, tuple(options.items()), text.strip())


def parse_specs(text: str, count: int | None = None) -> list[AgentSpec]:
    """A comma-separated list of specs (exactly ``count`` when given)."""
    specs = [parse_spec(t) for t in str(text).split(",")]
    if count is not None and len(specs) != count:
        raise AgentSpecError(f"expected {count} agents separated by commas, got {len(specs)}: {brief(text, 60)}")
    return specs


def describe_keys() -> str:
    """One line per agent with its keys, for --help texts and docs."""
    lines = []
    for name, keys in KEYS.items():
        if keys:
            lines.append(f"{name}: " + "; ".join(f"{k} ({key.doc})" for k, key in keys.items()))
        else:
            lines.append(f"{name}: no keys")
    return "\n".join(lines)
