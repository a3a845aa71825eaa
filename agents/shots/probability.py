"""Pot probability: how likely a table's easiest pot is to go in.

After each simulated sample the planner asks how good the table is for
whoever shoots next, greedy how easy its next pot is, and a safety how hard
the opponent's. Simulating that shot too would square the cost, so they
use the ghost-ball difficulty of the easiest open pot (``ghost.pot_lines``'s
formula: the angular pocket window seen from the target, shrunk by the cut
and the cue ball's distance), vectorised here over every (struck, target,
pocket) triple with numpy (``easiest_difficulty``): in free pyramid any
ball may be struck, and the plain Python loop of ``ghost.pot_lines`` over
12 balls costs more than the shot's simulation.

One model turns these into probabilities for a skill: ``PotModel``, one
per noise preset (configs/noise), fitted by ``python -m
bench.leave_calibration --noise NAME --write`` from greedy's play under
that preset and stored in ``configs/agents/pot_model.toml``:

- ``chance(d)``: the chance that the easiest open pot of difficulty ``d``
  goes in, ``1 / (1 + (d / d50) ** k)`` (the next-pot curve: the
  planner's turn and race values, greedy's leave, the candidates'
  features);
- ``line(half_width, speed_hits)``: the chance of a centred, throw-corrected
  pot (``aim.pot_line``) whose potting range is ``half_width`` degrees
  either side of the aim, ``erf(half_width / (line_sigma sqrt 2))`` times
  the share of two speed errors (+-8%) that still pot;
- ``typical(variant)``: the chance that a shot later in a visit pots (the
  race model's ``q``), measured per variant.

A noise given as a file gets the fitted preset with the same sigmas, or
else the nearest fitted preset by aim error with ``d50`` scaled inversely
and ``line_sigma`` in proportion to the aim error (``PotModel.of``).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from piramida.agents.shots.ghost import MAX_CUT_DEG, aim_point
from piramida.configs import CONFIG_DIR
from piramida.env.errors import PiramidaError
from piramida.env.physics import Noise, load_noise
from piramida.env.position import Position
from piramida.env.table import Table

MODEL_PATH = CONFIG_DIR / "agents" / "pot_model.toml"
#: A fitted entry records the sigmas of the preset it was fitted for.
SIGMA_KEYS = ("phi", "theta", "v", "a", "b")


_POCKETS: dict[int, tuple[Table, tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}


def _pocket_arrays(table: Table) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # Keyed by identity: hashing a Table (a deep frozen dataclass) costs more
    # than this whole function.
    got = _POCKETS.get(id(table))
    if got is not None and got[0] is table:
        return got[1]
    pockets = list(table.pockets.values())
    aims = np.array([aim_point(p, table) for p in pockets])
    axes = np.array([p.axis for p in pockets])
    mouths = np.array([p.mouth for p in pockets])
    _POCKETS[id(table)] = (table, (aims, axes, mouths))
    return aims, axes, mouths


def _seg_dist(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance from points ``p`` to segments a-b (broadcasting, last axis 2)."""
    d = b - a
    L2 = np.maximum((d * d).sum(-1), 1e-18)
    s = np.clip(((p - a) * d).sum(-1) / L2, 0.0, 1.0)
    q = a + s[..., None] * d
    return np.sqrt(((p - q) ** 2).sum(-1))


def easiest_difficulty(
    position: Position, struck: Sequence[str], targets: Sequence[str] | None = None
) -> float | None:
    """The smallest ``ghost.pot_lines`` difficulty over struck balls,
    targets and pockets with clear paths (the same lines: the ghost ball on
    the bed or in a pocket's mouth, ``Table.on_surface``); None when no pot
    is open."""
    ids = position.ids
    if not ids:
        return None
    table = position.table
    R = table.ball_radius
    P = np.array([[x, y] for _, x, y in position.balls])
    index = {b: i for i, b in enumerate(ids)}
    S = [index[s] for s in struck if s in index]
    T = [index[t] for t in (targets if targets is not None else ids) if t in index]
    if not S or not T:
        return None
    aims, axes, mouths = _pocket_arrays(table)
    # Object paths: target t -> aim point of pocket k.
    Pt = P[T][:, None, :]  # (T,1,2)
    od_vec = aims[None, :, :] - Pt  # (T,K,2)
    od = np.sqrt((od_vec**2).sum(-1))  # (T,K)
    u = od_vec / np.maximum(od, 1e-12)[..., None]
    cos_app = np.clip((u * axes[None]).sum(-1), -1.0, 1.0)
    window = mouths[None] * cos_app - 2 * R  # (T,K)
    ghost = Pt - 2 * R * u  # (T,K,2)
    eps = 1e-9  # Table.on_surface's tolerance
    on = (
        (ghost[..., 0] >= R - eps)
        & (ghost[..., 0] <= table.width - R + eps)
        & (ghost[..., 1] >= R - eps)
        & (ghost[..., 1] <= table.length - R + eps)
    )
    # A ghost ball off the rectangle may still be in a pocket's mouth (a
    # ball hanging in the jaws): the few such lines are asked one by one.
    for j, k in zip(*np.nonzero(~on), strict=True):
        on[j, k] = table.on_surface(float(ghost[j, k, 0]), float(ghost[j, k, 1]))
    # Blockers of the object path: every ball but the target (and the struck
    # ball, subtracted below).
    d_obj = _seg_dist(P[None, None, :, :], Pt[:, :, None, :], aims[None, :, None, :])  # (T,K,n)
    hit_obj = d_obj < 2 * R
    hit_obj[np.arange(len(T)), :, T] = False
    n_obj = hit_obj.sum(-1)  # (T,K)
    Ps = P[S]  # (S,2)
    Sa = np.array(S)
    Ta = np.array(T)
    obj_by_s = hit_obj[:, :, Sa].transpose(2, 0, 1)  # (S,T,K): struck ball on the object path
    blocked_obj = (n_obj[None] - obj_by_s) > 0
    cvec = ghost[None] - Ps[:, None, None, :]  # (S,T,K,2)
    cd = np.sqrt((cvec**2).sum(-1))
    cos_cut = (cvec * u[None]).sum(-1) / np.maximum(cd, 1e-12)
    ok = (
        (window[None] > 0)
        & on[None]
        & ~blocked_obj
        & (cos_cut >= math.cos(math.radians(MAX_CUT_DEG)))
        & (cd > 1e-9)
        & (Sa[:, None, None] != Ta[None, :, None])
    )
    if not ok.any():
        return None
    wa = np.maximum(window / np.maximum(od, 1e-12), 1e-6)[None]
    diff = (1.0 + cd / np.maximum(od, 0.1)[None]) / (wa * np.maximum(cos_cut, 0.05))
    # The cue ball's path is checked lazily, easiest line first: the first
    # clear one is the answer, and it is usually among the first few.
    flat = np.flatnonzero(ok)
    order = flat[np.argsort(diff.ravel()[flat], kind="stable")]
    shape = ok.shape
    for f in order:
        i, j, k = np.unravel_index(f, shape)
        d = _seg_dist(P, Ps[i], ghost[j, k])
        d[Sa[i]] = np.inf
        d[Ta[j]] = np.inf
        if not (d < 2 * R).any():
            return float(diff[i, j, k])
    return None


class PotModelError(PiramidaError):
    """The pot-model file is missing an entry or a field is malformed."""


@dataclass(frozen=True)
class PotModel:
    """The pot-probability model of one noise preset; see the module
    docstring. ``preset``: the fitted preset it is (or, for a noise given
    as a file, was scaled from); ``sigmas``: the noise it describes
    (phi, theta, v, a, b)."""

    preset: str
    sigmas: tuple[float, float, float, float, float]
    d50: float
    k: float
    line_sigma: float
    q: Mapping[str, float] = field(default_factory=dict)
    scaled: bool = False

    @property
    def phi(self) -> float:
        return self.sigmas[0]

    def chance(self, difficulty: float | None) -> float:
        """The chance that a table's easiest open pot of this difficulty
        (``easiest_difficulty``) goes in; 0 when none is open."""
        if difficulty is None:
            return 0.0
        return 1.0 / (1.0 + (max(difficulty, 0.0) / self.d50) ** self.k)

    def line(self, half_width: float, speed_hits: int) -> float:
        """The chance of a centred pot whose potting range reaches
        ``half_width`` degrees either side of the aim, of which
        ``speed_hits`` of the two speed errors (+-8%) still pot. A range
        too narrow to measure (0) counts as 0.2."""
        p_phi = math.erf(half_width / (self.line_sigma * math.sqrt(2.0))) if half_width > 0 else 0.2
        return p_phi * (1 + speed_hits) / 3.0

    def typical(self, variant: str) -> float:
        """The chance that a shot later in a visit pots in ``variant`` (the
        race model's ``q``), within 0.05-0.97."""
        q = self.q.get(variant)
        if q is None:
            q = float(np.mean(list(self.q.values()))) if self.q else 0.5
        return min(0.97, max(0.05, q))

    def scaled_to(self, noise: Noise) -> PotModel:
        """This model moved to another aim error: ``d50`` inversely with
        phi, ``line_sigma`` in proportion, each ``q`` along the curve."""
        ratio = max(noise.phi, 1e-4) / max(self.phi, 1e-4)
        d50 = self.d50 / ratio
        q = {}
        for v, qv in self.q.items():
            qv = min(0.97, max(0.05, qv))
            d_typical = self.d50 * ((1.0 - qv) / qv) ** (1.0 / self.k)
            q[v] = 1.0 / (1.0 + (d_typical / d50) ** self.k)
        return replace(
            self, sigmas=noise.sigmas, d50=d50, line_sigma=self.line_sigma * ratio, q=q, scaled=True
        )

    @classmethod
    def of(cls, noise: str | Path | Noise | None) -> PotModel:
        """The model of the noise an agent plays under: a preset name, a
        .toml file, a Noise, or None (no noise: the ``none`` preset)."""
        nz = load_noise("none") if noise is None or noise == "none" else load_noise(noise)
        assert nz is not None
        fits = fitted()
        if not fits:
            raise PotModelError(f"{MODEL_PATH}: no fitted preset (python -m bench.leave_calibration --write)")
        for m in fits.values():
            if m.sigmas == nz.sigmas:
                return m
        positive = [m for m in fits.values() if m.phi > 0] or list(fits.values())
        nearest = min(positive, key=lambda m: abs(math.log(max(m.phi, 1e-4) / max(nz.phi, 1e-4))))
        return nearest.scaled_to(nz)


def _number(entry: Mapping[str, object], key: str, where: str, low: float = 0.0) -> float:
    v = entry.get(key)
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(float(v)) or float(v) < low:
        raise PotModelError(f"{where}: '{key}' must be a finite number of at least {low}, got {v!r}")
    return float(v)


def parse_models(data: Mapping[str, object], source: str = "pot model") -> dict[str, PotModel]:
    """``configs/agents/pot_model.toml``'s tables -> preset name -> model."""
    out: dict[str, PotModel] = {}
    for name, entry in data.items():
        where = f"{source}: [{name}]"
        if not isinstance(entry, dict):
            raise PotModelError(f"{where} must be a table")
        noise = entry.get("noise")
        if not isinstance(noise, dict):
            raise PotModelError(f"{where}: 'noise' must be a table of the fitted preset's sigmas")
        sigmas = tuple(_number(noise, k, f"{where} noise") for k in SIGMA_KEYS)
        q = entry.get("q", {})
        if not isinstance(q, dict):
            raise PotModelError(f"{where}: 'q' must be a table of variant = chance")
        out[name] = PotModel(
            preset=name,
            sigmas=(sigmas[0], sigmas[1], sigmas[2], sigmas[3], sigmas[4]),
            d50=_number(entry, "d50", where, 1e-6),
            k=_number(entry, "k", where, 1e-6),
            line_sigma=_number(entry, "line_sigma", where, 1e-6),
            q={str(v): _number(q, v, f"{where} q") for v in q},
        )
    return out


@lru_cache(maxsize=4)
def _fitted(path: str, mtime: float) -> dict[str, PotModel]:
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise PotModelError(f"{path}: cannot be read: {exc}") from None
    return parse_models(data, path)


def fitted(path: Path = MODEL_PATH) -> dict[str, PotModel]:
    """The fitted models by preset name (re-read when the file changes)."""
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return {}
    return _fitted(str(path), mtime)


__all__ = ["MODEL_PATH", "PotModel", "PotModelError", "easiest_difficulty", "fitted", "parse_models"]
