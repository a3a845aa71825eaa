"""Pot probability: how likely a table's easiest pot is to go in.

After each simulated sample the planner asks how good the table is for
whoever shoots next, greedy how easy its next pot is, and a safety how hard
the opponent's. Simulating that shot too would square the cost, so they
use the ghost-ball difficulty of the easiest open pot (``ghost.pot_lines``'s
formula: the angular pocket window seen from the target, shrunk by the cut
and the cue ball's distance), over every (struck, target, pocket) triple
in one compiled call (``easiest_difficulty``; a line that cannot beat the
best so far is not path-tested): in free pyramid any ball may be struck,
and the plain Python loop of ``ghost.pot_lines`` over 12 balls costs more
than the shot's simulation.

One model turns these into probabilities for a skill: ``PotModel``, one
per noise preset (configs/noise), fitted by ``piramida calibrate leave
--noise NAME --write`` from greedy's play under that preset and stored in
``configs/agents/pot_model.toml``:

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
from numba import njit

from piramida.agents.shots.ghost import MAX_CUT_DEG, pocket_arrays
from piramida.agents.shots.surface import on_surface_at, surface_arrays
from piramida.configs import CONFIG_DIR
from piramida.env.errors import PiramidaError
from piramida.env.physics import Noise, load_noise
from piramida.env.position import Position

MODEL_PATH = CONFIG_DIR / "agents" / "pot_model.toml"
#: A fitted entry records the sigmas of the preset it was fitted for.
SIGMA_KEYS = ("phi", "theta", "v", "a", "b")


@njit(cache=True, error_model="numpy")
def _ghosts_on_surface(on, ghost, r, W, L, PK, CU):  # pragma: no cover - compiled
    """``on`` completed for the ghost balls off the bed's rectangle: a ghost
    ball may still lie in a pocket's mouth (a ball hanging in the jaws)."""
    for j in range(on.shape[0]):
        for k in range(on.shape[1]):
            if not on[j, k]:
                on[j, k] = on_surface_at(ghost[j, k, 0], ghost[j, k, 1], r, W, L, PK, CU)


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
    index = {b: i for i, b in enumerate(ids)}
    S = np.array([index[s] for s in struck if s in index], dtype=np.int64)
    T = np.array([index[t] for t in (targets if targets is not None else ids) if t in index], dtype=np.int64)
    if not len(S) or not len(T):
        return None
    P = np.array([[x, y] for _, x, y in position.balls])
    aims, axes, mouths = pocket_arrays(table)
    pk, cu = surface_arrays(table)
    d = _easiest_of(P, S, T, aims, axes, mouths, table.ball_radius, table.width, table.length, pk, cu, _COS_MAX)
    return None if d < 0 else d


#: The cosine of the largest cut a line may have (``ghost.MAX_CUT_DEG``).
_COS_MAX = math.cos(math.radians(MAX_CUT_DEG))


@njit(cache=True, error_model="numpy")
def _easiest_of(P, S, T, aims, axes, mouths, R, W, L, pk, cu, cos_max):  # pragma: no cover - compiled
    """``easiest_difficulty``'s three kernels in one call (the planner asks
    it of every sample it values): the object lines, their ghost balls on
    the surface, and the easiest clear line (-1: none)."""
    u, ghost, window, od, on = _object_lines(P, T, aims, axes, mouths, R, W, L)
    _ghosts_on_surface(on, ghost, R, W, L, pk, cu)
    return _easiest(P, S, T, aims, u, ghost, window, od, on, R, cos_max)


# The two kernels below are one numpy computation written out as loops (a
# numpy version over arrays of a dozen balls spent its time in numpy's call
# overhead); the arithmetic is the same operations in the same order, so
# the difficulties are the same floats.
@njit(cache=True, error_model="numpy")
def _seg_dist2(px, py, ax, ay, bx, by):  # pragma: no cover - compiled
    """Distance from point p to segment a-b."""
    dx, dy = bx - ax, by - ay
    L2 = max(dx * dx + dy * dy, 1e-18)
    s = min(max(((px - ax) * dx + (py - ay) * dy) / L2, 0.0), 1.0)
    qx, qy = ax + s * dx, ay + s * dy
    return math.sqrt((px - qx) * (px - qx) + (py - qy) * (py - qy))


@njit(cache=True, error_model="numpy")
def _object_lines(P, T, aims, axes, mouths, R, W, L):  # pragma: no cover - compiled
    """Per target and pocket: the direction to the pocket's aim point, the
    ghost ball, the pocket window, the distance and whether the ghost ball
    is on the rectangle of the bed."""
    nt, nk = len(T), aims.shape[0]
    u = np.empty((nt, nk, 2))
    ghost = np.empty((nt, nk, 2))
    window = np.empty((nt, nk))
    od = np.empty((nt, nk))
    on = np.empty((nt, nk), dtype=np.bool_)
    eps = 1e-9  # Table.on_surface's tolerance
    for j in range(nt):
        tx, ty = P[T[j], 0], P[T[j], 1]
        for k in range(nk):
            vx, vy = aims[k, 0] - tx, aims[k, 1] - ty
            d = math.sqrt(vx * vx + vy * vy)
            od[j, k] = d
            dd = max(d, 1e-12)
            ux, uy = vx / dd, vy / dd
            u[j, k, 0], u[j, k, 1] = ux, uy
            cos_app = min(max(ux * axes[k, 0] + uy * axes[k, 1], -1.0), 1.0)
            window[j, k] = mouths[k] * cos_app - 2 * R
            gx, gy = tx - 2 * R * ux, ty - 2 * R * uy
            ghost[j, k, 0], ghost[j, k, 1] = gx, gy
            on[j, k] = R - eps <= gx <= W - R + eps and R - eps <= gy <= L - R + eps
    return u, ghost, window, od, on


@njit(cache=True, error_model="numpy")
def _easiest(P, S, T, aims, u, ghost, window, od, on, R, cos_max):  # pragma: no cover - compiled
    """The smallest difficulty over (struck, target, pocket) lines whose
    object and cue paths are clear; -1 when none is."""
    n, nt, nk = P.shape[0], len(T), aims.shape[0]
    best = math.inf
    for j in range(nt):
        t = T[j]
        for k in range(nk):
            if not (window[j, k] > 0 and on[j, k]):
                continue
            gx, gy = ghost[j, k, 0], ghost[j, k, 1]
            ux, uy = u[j, k, 0], u[j, k, 1]
            wa = max(window[j, k] / max(od[j, k], 1e-12), 1e-6)
            # The easiest this line could be, from any struck ball, before
            # any path is tested: a line no easier than the best so far is
            # not tested at all (the same minimum, found with fewer tests).
            lo = math.inf
            for i in range(len(S)):
                sb = S[i]
                if sb == t:
                    continue
                cx, cy = gx - P[sb, 0], gy - P[sb, 1]
                cd = math.sqrt(cx * cx + cy * cy)
                cos_cut = (cx * ux + cy * uy) / max(cd, 1e-12)
                if cos_cut >= cos_max and cd > 1e-9:
                    lo = min(lo, (1.0 + cd / max(od[j, k], 0.1)) / (wa * max(cos_cut, 0.05)))
            if lo >= best:
                continue
            # Balls on the object path other than the target.
            first, count = -1, 0
            for m in range(n):
                if m != t and _seg_dist2(P[m, 0], P[m, 1], P[t, 0], P[t, 1], aims[k, 0], aims[k, 1]) < 2 * R:
                    count += 1
                    first = m
            if count > 1:
                continue
            for i in range(len(S)):
                sb = S[i]
                if sb == t or (count == 1 and first != sb):
                    continue
                cx, cy = gx - P[sb, 0], gy - P[sb, 1]
                cd = math.sqrt(cx * cx + cy * cy)
                cos_cut = (cx * ux + cy * uy) / max(cd, 1e-12)
                if not (cos_cut >= cos_max and cd > 1e-9):
                    continue
                diff = (1.0 + cd / max(od[j, k], 0.1)) / (wa * max(cos_cut, 0.05))
                if diff >= best:
                    continue
                clear = True
                for m in range(n):
                    if m != sb and m != t and _seg_dist2(P[m, 0], P[m, 1], P[sb, 0], P[sb, 1], gx, gy) < 2 * R:
                        clear = False
                        break
                if clear:
                    best = diff
    return best if best < math.inf else -1.0


def easiest_difficulties(items: Sequence[tuple[Position, str]]) -> list[float | None]:
    """``easiest_difficulty(position, [struck])`` for each (position,
    struck ball) of ``items``, every target on the table, in one compiled
    call (a decision's candidates each ask it of where they leave the
    balls): the same kernels in the same order, so the same floats."""
    if not items:
        return []
    table = items[0][0].table
    if any(pos.table is not table for pos, _ in items):
        return [easiest_difficulty(pos, [struck]) for pos, struck in items]
    # Every position's balls in one array, made once (a decision asks for
    # a dozen or more), each position's from its offset.
    flat: list[tuple[float, float]] = []
    offsets = np.zeros(len(items), dtype=np.int64)
    counts = np.zeros(len(items), dtype=np.int64)
    struck_at = np.full(len(items), -1, dtype=np.int64)
    for c, (pos, struck) in enumerate(items):
        balls = pos.balls
        offsets[c], counts[c] = len(flat), len(balls)
        flat.extend([(x, y) for _, x, y in balls])
        for i, (b, _, _) in enumerate(balls):
            if b == struck:
                struck_at[c] = i
                break
    P = np.array(flat, dtype=np.float64).reshape(-1, 2)
    aims, axes, mouths = pocket_arrays(table)
    pk, cu = surface_arrays(table)
    d = np.empty(len(items))
    _easiest_each(P, offsets, counts, struck_at, aims, axes, mouths, table.ball_radius, table.width, table.length,
                  pk, cu, _COS_MAX, d)
    return [v if v >= 0 else None for v in d.tolist()]


@njit(cache=True, error_model="numpy")
def _easiest_each(P, offsets, counts, struck_at, aims, axes, mouths, R, W, L, pk, cu, cos_max,
                  out):  # pragma: no cover
    """``easiest_difficulty``'s three kernels for each position ``c``: its
    ``counts[c]`` balls, the rows of ``P`` from ``offsets[c]``, struck
    ball ``struck_at[c]`` (-1 where none)."""
    for c in range(offsets.shape[0]):
        out[c] = -1.0
        n = counts[c]
        if struck_at[c] < 0 or n == 0:
            continue
        o = offsets[c]
        out[c] = _easiest_of(P[o:o + n].copy(), np.array([struck_at[c]]), np.arange(n), aims, axes, mouths, R, W, L,
                             pk, cu, cos_max)


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
            raise PotModelError(f"{MODEL_PATH}: no fitted preset (piramida calibrate leave --noise NAME --write)")
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


__all__ = [
    "MODEL_PATH",
    "PotModel",
    "PotModelError",
    "easiest_difficulties",
    "easiest_difficulty",
    "fitted",
    "on_surface_at",
    "parse_models",
    "surface_arrays",
]
