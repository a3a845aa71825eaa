"""Execution noise: skill presets in ``configs/noise/*.toml`` (DESIGN.md §3).

A preset gives Gaussian standard deviations for the five stroke parameters:
``phi`` and ``theta`` in degrees, ``v`` in m/s, ``a`` and ``b`` in ball
radii. The noise is drawn from ``numpy.random.default_rng(seed)`` in the
fixed order phi, theta, v, a, b, so a seed reproduces the shot exactly.
The perturbed shot is clipped to what a cue can do (env/shot.py limits).
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from piramida.configs import CONFIG_DIR
from piramida.env.errors import PiramidaError
from piramida.env.shot import MAX_SPEED, MAX_THETA, MISCUE_LIMIT, Shot

KEYS = ("phi", "theta", "v", "a", "b")
MIN_SPEED = 0.01  # m/s: noise never turns a stroke into no stroke.


class InvalidNoiseError(PiramidaError):
    """A noise preset is missing or malformed."""


@dataclass(frozen=True)
class Noise:
    """Gaussian sigmas of one skill level."""

    name: str
    phi: float
    theta: float
    v: float
    a: float
    b: float

    @property
    def sigmas(self) -> tuple[float, float, float, float, float]:
        return (self.phi, self.theta, self.v, self.a, self.b)

    def perturb(self, shot: Shot, rng: np.random.Generator) -> Shot:
        """The shot actually played: the intended shot plus noise."""
        d = rng.standard_normal(5) * np.array(self.sigmas)
        theta = min(max(shot.theta + float(d[1]), 0.0), MAX_THETA)
        v = min(max(shot.v + float(d[2]), MIN_SPEED), MAX_SPEED)
        a, b = shot.a + float(d[3]), shot.b + float(d[4])
        r = math.hypot(a, b)
        if r > MISCUE_LIMIT:
            a, b = a * MISCUE_LIMIT / r, b * MISCUE_LIMIT / r
        return Shot(
            ball=shot.ball,
            phi=shot.phi + float(d[0]),
            v=v,
            a=a,
            b=b,
            theta=theta,
            place=shot.place,
            call=shot.call,
            declare_frozen=shot.declare_frozen,
        )


def presets() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in (CONFIG_DIR / "noise").glob("*.toml")))


def load_noise(name_or_path: str | Path | Noise | None) -> Noise | None:
    """A preset by name (``configs/noise/NAME.toml``), a path, or None."""
    if name_or_path is None or isinstance(name_or_path, Noise):
        return name_or_path
    return _load(str(name_or_path))


@lru_cache(maxsize=32)
def _load(name_or_path: str) -> Noise:
    p = Path(name_or_path)
    if not (p.suffix == ".toml" or p.exists()):
        p = CONFIG_DIR / "noise" / f"{name_or_path}.toml"
    if not p.is_file():
        raise InvalidNoiseError(
            f"noise preset {name_or_path!r} not found (known: {', '.join(presets())})"
        )
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InvalidNoiseError(f"{p}: not valid TOML: {exc}") from None
    sec = data.get("noise")
    if not isinstance(sec, dict):
        raise InvalidNoiseError(f"{p}: missing section [noise]")
    vals = {}
    for k in KEYS:
        v = sec.get(k)
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) or v < 0:
            raise InvalidNoiseError(f"{p}: [noise] {k} must be a number >= 0, got {v!r}")
        vals[k] = float(v)
    return Noise(name=p.stem, **vals)
