"""Training configs (``configs/training/NAME.toml``), read and checked.

One table, ``[training]``, with sub-tables ``net``, ``opponents``,
``league`` and ``evaluation``; every key has a default (``TrainConfig``),
and an unknown key or a value of the wrong kind is a one-line
``TrainConfigError``. docs/training.md lists the keys and what each
shipped config costs.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from piramida.agents.policy_obs import SEARCHES
from piramida.env.errors import PiramidaError
from piramida.env.position import VARIANTS


class TrainConfigError(PiramidaError):
    """A training config that cannot be used."""


@dataclass(frozen=True)
class TrainConfig:
    variant: str = "free"
    noise: str = "pro"
    search: str = "greedy"  # the candidates offered: a name of policy_obs.SEARCHES
    max_shots: int = 120  # actions of both players before a frame is truncated
    iterations: int = 50
    checkpoint_every: int = 5
    seed: int = 0
    env_runners: int = 1  # remote sampling processes (0: sample in the driver)
    batch: int = 512  # env steps per training iteration
    minibatch: int = 128
    epochs: int = 4
    lr: float = 3e-4
    gamma: float = 0.99
    entropy: float = 0.01
    net: dict[str, int] = field(default_factory=lambda: {"hidden": 64})
    #: Who ``player_1`` is in a training frame: "self" (the league's modules)
    #: or an agent spec played inside the env, with weights (0: never). The
    #: planner plays at 30 simulations a decision (``shot_env.OPPONENT_SIMS``)
    #: unless its spec says otherwise ("planner:sims=100").
    opponents: dict[str, float] = field(
        default_factory=lambda: {"self": 0.6, "greedy": 0.3, "random": 0.1, "planner": 0.0}
    )
    #: A frozen copy of main joins when main's win rate against the pool
    #: (greedy, random, earlier copies) reaches ``snapshot_win_rate``; at most
    #: ``max_frozen`` copies (the oldest is overwritten).
    snapshot_win_rate: float = 0.55
    max_frozen: int = 4
    #: A policy file (agents/policy.py: ``piramida export`` or
    #: ``piramida train-imitation``) whose weights start ``main`` in a new
    #: run; its variant, candidate search and network must be the run's.
    #: "" starts from random weights.
    init: str = ""
    eval_every: int = 5  # iterations between evaluations against greedy (0: never)
    eval_pairs: int = 10  # duplicate pairs per evaluation
    text: str = ""  # the TOML it was read from

    def env_config(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "noise": self.noise,
            "search": self.search,
            "max_shots": self.max_shots,
            "opponents": dict(self.opponents),
            "seed": self.seed,
        }

    def eval_env_config(self) -> dict[str, Any]:
        """The evaluation's env: duplicate pairs against greedy only. RLlib
        merges ``evaluation_config`` into the training config key by key,
        dicts included, so the training opponents are given weight 0 here
        (left out, they would be kept with their training weights)."""
        only_greedy = {name: 0.0 for name in self.opponents} | {"greedy": 1.0}
        return self.env_config() | {"opponents": only_greedy, "duplicate": True, "seed": 1_000_000 + self.seed}


_SUB = {"net": "net", "opponents": "opponents"}
_LEAGUE = {"snapshot_win_rate", "max_frozen"}
_EVAL = {"every": "eval_every", "pairs": "eval_pairs"}


def _check_type(name: str, value: Any, default: Any) -> Any:
    if isinstance(default, bool) or isinstance(value, bool):
        raise TrainConfigError(f"training.{name}: unexpected true/false")
    if isinstance(default, int) and not isinstance(default, bool):
        if not isinstance(value, int) or value < 0:
            raise TrainConfigError(f"training.{name} must be a whole number >= 0, got {value!r}")
    elif isinstance(default, float):
        if not isinstance(value, int | float) or value < 0:
            raise TrainConfigError(f"training.{name} must be a number >= 0, got {value!r}")
        value = float(value)
    elif isinstance(default, str) and not isinstance(value, str):
        raise TrainConfigError(f"training.{name} must be text, got {value!r}")
    return value


def parse_config(text: str, where: str = "config") -> TrainConfig:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TrainConfigError(f"{where}: not valid TOML: {exc}") from None
    extra = sorted(set(raw) - {"training"})
    if extra or "training" not in raw:
        raise TrainConfigError(f"{where}: expected one [training] table, got {sorted(raw) or 'nothing'}")
    t = dict(raw["training"])
    defaults = TrainConfig()
    known = {f.name for f in fields(TrainConfig)} - {"text"}
    kw: dict[str, Any] = {}
    for key, value in t.items():
        if key in _SUB:
            if not isinstance(value, dict):
                raise TrainConfigError(f"{where}: [training.{key}] must be a table")
            kw[_SUB[key]] = dict(value)
        elif key == "league":
            for k, v in dict(value).items():
                if k not in _LEAGUE:
                    raise TrainConfigError(f"{where}: unknown key training.league.{k} (known: {', '.join(sorted(_LEAGUE))})")
                kw[k] = _check_type(f"league.{k}", v, getattr(defaults, k))
        elif key == "evaluation":
            for k, v in dict(value).items():
                if k not in _EVAL:
                    raise TrainConfigError(f"{where}: unknown key training.evaluation.{k} (known: {', '.join(_EVAL)})")
                kw[_EVAL[k]] = _check_type(f"evaluation.{k}", v, getattr(defaults, _EVAL[k]))
        elif key in known:
            kw[key] = _check_type(key, value, getattr(defaults, key))
        else:
            raise TrainConfigError(f"{where}: unknown key training.{key} (known: {', '.join(sorted(known))})")
    cfg = TrainConfig(**kw, text=text)
    if cfg.variant not in VARIANTS:
        raise TrainConfigError(f"{where}: unknown variant {cfg.variant!r}; known: {', '.join(VARIANTS)}")
    if cfg.search not in SEARCHES:
        raise TrainConfigError(f"{where}: search must be one of {', '.join(SEARCHES)}")
    if cfg.iterations < 1 or cfg.batch < 1 or cfg.minibatch < 1 or cfg.epochs < 1 or cfg.max_shots < 1:
        raise TrainConfigError(f"{where}: iterations, batch, minibatch, epochs and max_shots must be at least 1")
    if not cfg.opponents or sum(cfg.opponents.values()) <= 0 or min(cfg.opponents.values()) < 0:
        raise TrainConfigError(f"{where}: [training.opponents] needs weights >= 0 with a positive sum")
    from piramida.agents.policy_net import net_config
    from piramida.agents.specs import parse_spec

    for name in cfg.opponents:
        if name != "self":
            parse_spec(name)
    try:
        net_config(cfg.net)
    except (ValueError, TypeError) as exc:
        raise TrainConfigError(f"{where}: [training.net]: {exc}") from None
    return cfg


def load_config(path: str | Path) -> TrainConfig:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TrainConfigError(f"cannot read training config {str(p)!r}: {type(exc).__name__}") from None
    return parse_config(text, str(p))


__all__ = ["TrainConfig", "TrainConfigError", "load_config", "parse_config"]
