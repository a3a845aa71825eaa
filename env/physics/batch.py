"""``simulate_batch``: many shots in one call, in parallel (docs/design.md §3).

A pure function over arrays with a leading batch axis: the positions are
packed into (B, N, 7) states (N = the most balls in any position; absent
balls are out of play), the noise is drawn per shot from
``default_rng(seeds[k])`` exactly as ``simulate`` draws it, and the numba
event loop runs over shots with ``prange``. Each shot runs the same kernel
on the same numbers as ``simulate``, so results are bit-identical to it
(while a shot stays within ``max_events``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np
from numba import njit, prange

from piramida.env.physics import warm
from piramida.env.physics.codes import EV_OFF, EV_POCKET, NEVCOL, NSEGCOL, NSTATE, POCKETED
from piramida.env.physics.loop import run
from piramida.env.physics.noise import Noise, load_noise
from piramida.env.physics.result import ShotResult
from piramida.env.physics.scratch import NF, NI, NM, width
from piramida.env.physics.simulate import place_struck_ball
from piramida.env.position import Position
from piramida.env.shot import Shot
from piramida.env.table import POCKETS, Table

# Where a ball ended, per (shot, ball): on the table, a pocket index 0..5,
# off the table, or not in this position.
ON_TABLE, OFF, ABSENT = -1, -2, -3


@njit(cache=True, parallel=True, error_model="numpy")
def _run_batch(S, mode, cue, phi, theta, V, a, b, CU, JW, FC, PK, P, cap, keep, ev_out, nev_out, status, where, nchunks,
               L):
    B = S.shape[0]
    # One scratch buffer per chunk, not per shot: a fresh half-megabyte
    # buffer per shot cost as much as simulating a short shot and kept the
    # threads waiting on the allocator. Shots are dealt to chunks in turn
    # (k = c, c + nchunks, ...), so long and short shots mix. The loop's
    # scratch (scratch.py) likewise, L = scratch.width(balls).
    for c in prange(nchunks):
        ev = np.empty((cap, NEVCOL))
        seg = np.empty((cap, NSEGCOL))
        fw = np.empty((NF, L))
        iw = np.empty((NI, L), dtype=np.int64)
        mw = np.empty((NM, L, L + 1))
        for k in range(c, B, nchunks):
            nev, _, st = run(S[k], mode[k], cue[k], phi[k], theta[k], V[k], a[k], b[k], CU, JW, FC, PK, P, ev, seg,
                             fw, iw, mw)
            nev_out[k] = nev
            status[k] = st
            for q in range(nev):
                typ = int(ev[q, 0])
                if typ == EV_POCKET:
                    where[k, int(ev[q, 2])] = int(ev[q, 4])
                elif typ == EV_OFF:
                    where[k, int(ev[q, 2])] = OFF
            if keep:
                for q in range(min(nev, ev_out.shape[1])):
                    for j in range(NEVCOL):
                        ev_out[k, q, j] = ev[q, j]


@dataclass(frozen=True)
class BatchResult:
    """Outcomes of B shots.

    ``xy`` (B, N, 2): final ball centres (meaningful where ``where`` is
    ON_TABLE); ``where`` (B, N): ON_TABLE, a pocket index into
    ``table.POCKETS``, OFF (left the table) or ABSENT; ``ids[k]``: the ball
    ids of shot k in column order; ``n_events`` and ``status`` per shot;
    ``shots``: the shots played (after noise); ``results``: full
    ShotResults (events and final position, no trajectories) when asked for.
    """

    xy: np.ndarray
    where: np.ndarray
    ids: list[tuple[str, ...]]
    n_events: np.ndarray
    status: np.ndarray
    shots: list[Shot]
    results: list[ShotResult] | None

    def pocketed(self, k: int) -> list[tuple[str, str]]:
        """(ball, pocket) of shot k, in ball order (``results`` has drop order)."""
        return [(b, POCKETS[int(w)]) for b, w in zip(self.ids[k], self.where[k], strict=False) if w >= 0]

    def __len__(self) -> int:
        return len(self.shots)


def simulate_batch(
    positions: Position | Sequence[Position],
    shots: Sequence[Shot],
    noise: str | Path | Noise | None = None,
    seeds: Sequence[int | None] | None = None,
    events: bool = False,
    table: Table | None = None,
    max_events: int = 4096,
) -> BatchResult:
    """Simulate ``shots[k]`` from ``positions[k]`` (or all from one
    position) in parallel. ``seeds[k]`` seeds shot k's noise as
    ``simulate(..., seed=seeds[k])`` would. With ``events=True`` each
    shot's event log and final Position come back in ``results``."""
    from piramida.env.physics.arrays import table_arrays

    B = len(shots)
    pos_list: list[Position] = (
        [positions] * B if isinstance(positions, Position) else list(positions)  # type: ignore[list-item]
    )
    if len(pos_list) != B:
        raise ValueError(f"simulate_batch: {len(pos_list)} positions for {B} shots")
    seed_list = list(seeds) if seeds is not None else [None] * B
    if len(seed_list) != B:
        raise ValueError(f"simulate_batch: {len(seed_list)} seeds for {B} shots")
    table = table or (pos_list[0].table if B else Table.default())
    nz = load_noise(noise)
    played: list[Shot] = []
    starts: list[tuple[Position, bool]] = []
    for pos, sh, sd in zip(pos_list, shots, seed_list, strict=True):
        if sh.call is not None or sh.declare_frozen is not None:
            sh.check_on(pos)
        if nz is not None:
            sh = nz.perturb(sh, np.random.default_rng(sd))
        played.append(sh)
        starts.append(place_struck_ball(pos, sh, table))
    N = max((len(s.balls) for s, _ in starts), default=1)
    S = np.zeros((B, N, NSTATE))
    mode = np.full((B, N), POCKETED, dtype=np.int64)
    where = np.full((B, N), ABSENT, dtype=np.int64)
    ids: list[tuple[str, ...]] = []
    cue = np.zeros(B, dtype=np.int64)
    prm = np.zeros((6, B))
    # Packing is the serial part of a parallel call: one numpy write per shot,
    # and one conversion per distinct start position (a planner sends many
    # shots from one position).
    packed: dict[int, tuple[tuple[str, ...], np.ndarray]] = {}
    for k, ((start, _), sh) in enumerate(zip(starts, played, strict=True)):
        hit = packed.get(id(start))
        if hit is None:
            hit = (start.ids, np.array([(x, y) for _, x, y in start.balls]).reshape(-1, 2))
            packed[id(start)] = hit
        bid, xy = hit
        n = len(bid)
        ids.append(bid)
        S[k, :n, :2] = xy
        mode[k, :n] = 0
        where[k, :n] = ON_TABLE
        cue[k] = bid.index(sh.ball)
        prm[:, k] = (math.radians(sh.phi), math.radians(sh.theta), sh.v, sh.a, sh.b, 0.0)
    ta = table_arrays(table)
    ev_out = np.zeros((B if events else 0, max_events if events else 0, NEVCOL))
    nev = np.zeros(B, dtype=np.int64)
    status = np.zeros(B, dtype=np.int64)
    # Many small chunks handed out one at a time: shots differ a lot in
    # length (a break against a two-ball shot), so static halves leave one
    # thread idle.
    nchunks = max(1, min(B, 16 * numba.get_num_threads()))
    warm.start()
    with numba.parallel_chunksize(1):
        _run_batch(S, mode, cue, prm[0], prm[1], prm[2], prm[3], prm[4], ta.CU, ta.JW, ta.FC,
                   ta.PK, ta.P, max_events, events, ev_out, nev, status, where, nchunks, width(N))
    results = None
    if events:
        results = [
            ShotResult(played[k], int(status[k]), ev_out[k, : nev[k]].copy(), np.zeros((0, NSEGCOL)), ids[k],
                       ta.P, start, S[k, : len(ids[k])].copy(), mode[k, : len(ids[k])].copy(), table)
            for k, (start, _placed) in enumerate(starts)
        ]
    return BatchResult(S[:, :, :2].copy(), where, ids, nev, status, played, results)
