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

A difficulty maps to a pot probability at the configured skill by a
logistic in log-difficulty whose midpoint scales inversely with the noise
preset's aim error (``pot_probability``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from piramida.agents.shots.ghost import MAX_CUT_DEG, aim_point
from piramida.env.position import Position
from piramida.env.table import Table

#: Difficulty at which a ``pro`` (phi sigma 0.05 deg) pots half the time.
#: A 1 m straight corner pot (difficulty ~450) goes in ~95% at ``pro``
#: (configs/noise/pro.toml); the midpoint is set so that this holds.
D50_PRO = 1500.0
PRO_PHI = 0.05


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


def pot_probability(difficulty: float | None, phi_sigma: float) -> float:
    """Rough chance that a player of aim error ``phi_sigma`` (degrees)
    pots a line of this difficulty; 0 when no pot is open."""
    if difficulty is None:
        return 0.0
    d50 = D50_PRO * PRO_PHI / max(phi_sigma, 0.01)
    return 1.0 / (1.0 + (difficulty / d50) ** 2)


__all__ = ["easiest_difficulty", "pot_probability"]
