"""Execution noise: skill presets in ``configs/noise/*.toml`` (docs/design.md §3).

A preset gives Gaussian standard deviations for the five stroke parameters:
``phi`` and ``theta`` in degrees, ``v`` in m/s, ``a`` and ``b`` in ball
radii. The noise is drawn from ``numpy.random.default_rng(seed)`` in the
fixed order phi, theta, v, a, b, so a seed reproduces the shot exactly.
The perturbed shot stays a valid shot (env/shot.py limits): theta, v and
the tip offset are clipped to what a cue can do, and a direction pushed past
``MAX_PHI`` is wrapped by whole turns (the same direction), so a stroke aimed
at the limit cannot fail because of its noise.
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
from piramida.env.inputs import brief, check_text, known_keys, number
from piramida.env.shot import MAX_PHI, MAX_SPEED, MAX_THETA, MIN_SPEED, MISCUE_LIMIT, Shot

KEYS = ("phi", "theta", "v", "a", "b")
#: The largest sigma a preset may give each parameter: beyond these the
#: noise is no longer a skill level but a random stroke (half a turn of aim,
#: the whole range of elevation, speed and tip offset).
MAX_SIGMA: dict[str, float] = {"phi": 180.0, "theta": MAX_THETA, "v": MAX_SPEED, "a": MISCUE_LIMIT, "b": MISCUE_LIMIT}


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
            phi=wrap_phi(shot.phi + float(d[0])),
            v=v,
            a=a,
            b=b,
            theta=theta,
            place=shot.place,
            call=shot.call,
            declare_frozen=shot.declare_frozen,
        )


def wrap_phi(phi: float) -> float:
    """``phi`` (degrees) within [-MAX_PHI, MAX_PHI]: unchanged when it is,
    else moved by whole turns (the same direction)."""
    if phi > MAX_PHI:
        return phi - 360.0 * math.ceil((phi - MAX_PHI) / 360.0)
    if phi < -MAX_PHI:
        return phi + 360.0 * math.ceil((-MAX_PHI - phi) / 360.0)
    return phi


def presets() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in (CONFIG_DIR / "noise").glob("*.toml")))


def load_noise(name_or_path: str | Path | Noise | None) -> Noise | None:
    """A preset by name (``configs/noise/NAME.toml``), a path, or None."""
    if name_or_path is None or isinstance(name_or_path, Noise):
        return name_or_path
    return _load(str(name_or_path))


@lru_cache(maxsize=32)
def _load(name_or_path: str) -> Noise:
    check_text(name_or_path, "noise preset name", InvalidNoiseError)
    p = Path(name_or_path)
    try:
        if not (p.suffix == ".toml" or p.exists()):
            p = CONFIG_DIR / "noise" / f"{name_or_path}.toml"
        found = p.is_file()
    except (OSError, ValueError):
        found = False
    if not found:
        raise InvalidNoiseError(
            f"noise preset {brief(name_or_path)} not found (known: {', '.join(presets())}, or a .toml file)"
        )
    try:
        data = tomllib.loads(check_text(p.read_bytes(), f"{p}", InvalidNoiseError))
    except tomllib.TOMLDecodeError as exc:
        raise InvalidNoiseError(f"{p}: not valid TOML: {exc}") from None
    except RecursionError:  # tomllib recurses into nested arrays and tables
        raise InvalidNoiseError(f"{p}: TOML nested too deeply") from None
    except OSError as exc:
        raise InvalidNoiseError(f"{p}: cannot be read: {exc.strerror or exc}") from None
    known_keys(data, ("noise",), f"{p}", InvalidNoiseError)
    sec = data.get("noise")
    if not isinstance(sec, dict):
        raise InvalidNoiseError(f"{p}: missing section [noise]")
    known_keys(sec, KEYS, f"{p} [noise]", InvalidNoiseError)
    vals = {}
    for k in KEYS:
        if k not in sec:
            raise InvalidNoiseError(f"{p}: [noise] needs {k} (sigmas for {', '.join(KEYS)})")
        vals[k] = number(sec[k], f"{p}: [noise] {k}", 0.0, MAX_SIGMA[k], InvalidNoiseError)
    return Noise(name=p.stem, **vals)
