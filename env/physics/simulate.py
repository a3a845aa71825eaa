"""``simulate``: Position + Shot -> ShotResult (docs/design.md §2-3).

A thin Python layer: it validates the stroke, packs the position into flat
arrays, applies execution noise, calls the numba event loop (loop.py) and
turns its numeric event records back into ``Event`` objects.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from piramida.env.errors import IllegalShotError
from piramida.env.physics.arrays import TableArrays, table_arrays
from piramida.env.physics.codes import (
    EV_OFF,
    EV_POCKET,
    NSTATE,
    STATIONARY,
)
from piramida.env.physics.loop import alloc, run
from piramida.env.physics.noise import Noise, load_noise
from piramida.env.physics.result import ShotResult, build_events
from piramida.env.position import Position, cue_ball_of
from piramida.env.shot import Shot
from piramida.env.table import CUSHIONS, POCKETS, Table


def place_struck_ball(position: Position, shot: Shot, table: Table) -> tuple[Position, bool]:
    """The position with the struck ball on the table, and whether it was
    placed from hand. Raises IllegalShotError for a ball that is neither on
    the table nor legally placed."""
    def text() -> str:  # only built when there is an error to report
        return position.to_text()

    if shot.ball in position:
        if shot.place is not None:
            raise IllegalShotError(
                f"shot places ball {shot.ball} but it is on the table, not in hand (position: {text()})"
            )
        return position, False
    in_hand = position.in_hand is not None and shot.ball == cue_ball_of(
        position.variant, position.to_move
    )
    if not in_hand:
        raise IllegalShotError(
            f"struck ball {shot.ball} is not on the table and not in hand (position: {text()})"
        )
    if shot.place is None:
        raise IllegalShotError(
            f"ball {shot.ball} is in hand: the shot must give place=X,Y (position: {text()})"
        )
    x, y = shot.place
    if not table.on_surface(x, y):
        raise IllegalShotError(
            f"place ({x}, {y}) for ball {shot.ball} is off the playing surface (position: {text()})"
        )
    r = table.ball_radius
    for b, bx, by in position.balls:
        if math.hypot(bx - x, by - y) < 2 * r - 1e-9:
            raise IllegalShotError(
                f"place ({x}, {y}) for ball {shot.ball} overlaps ball {b} (position: {text()})"
            )
    placed = position.replace(balls=position.balls + ((shot.ball, x, y),), in_hand=None)
    return placed, True


def frozen_balls(position: Position, table: Table) -> dict[str, tuple[str, ...]]:
    """Cushion -> balls touching it (Table.frozen_cushion), every cushion listed."""
    out: dict[str, list[str]] = {c: [] for c in CUSHIONS}
    for b, x, y in position.balls:
        c = table.frozen_cushion(x, y)
        if c is not None:
            out[c].append(b)
    return {c: tuple(v) for c, v in out.items()}


def pack(position: Position) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    ids = position.ids
    S = np.zeros((len(ids), NSTATE))
    for k, (_, x, y) in enumerate(position.balls):
        S[k, 0] = x
        S[k, 1] = y
    mode = np.full(len(ids), STATIONARY, dtype=np.int64)
    return ids, S, mode


def simulate(
    position: Position,
    shot: Shot,
    table: Table | None = None,
    noise: str | Path | Noise | None = None,
    seed: int | None = None,
) -> ShotResult:
    """Play ``shot`` from ``position`` and return what happened.

    ``table`` defaults to the position's table. ``noise`` is a preset name
    (configs/noise), a path to a preset, a Noise, or None for the exact
    shot; the noise comes from ``numpy.random.default_rng(seed)``. Same
    inputs and seed give bit-identical results."""
    table = table or position.table
    nz = load_noise(noise)
    if nz is not None:
        shot = nz.perturb(shot, np.random.default_rng(seed))
    start, placed = place_struck_ball(position, shot, table)
    frozen = frozen_balls(start, table)
    ids, S, mode = pack(start)
    ta = table_arrays(table)
    ev, seg = alloc()
    nev, nseg, status = _run(S, mode, ids.index(shot.ball), shot, ta, ev, seg)
    return _result(start, position, placed, shot, ids, S, mode, ev[:nev], seg[:nseg], status, frozen, ta)


def _run(S, mode, cue, shot: Shot, ta: TableArrays, ev, seg):
    return run(
        S,
        mode,
        cue,
        math.radians(shot.phi),
        math.radians(shot.theta),
        shot.v,
        shot.a,
        shot.b,
        ta.CU,
        ta.JW,
        ta.FC,
        ta.PK,
        ta.P,
        ev,
        seg,
    )


def _result(start, position, placed, shot, ids, S, mode, ev, seg, status, frozen, ta) -> ShotResult:
    events = build_events(ev, ids)
    pocketed = [(ids[int(r[2])], POCKETS[int(r[4])]) for r in ev if int(r[0]) == EV_POCKET]
    off = [ids[int(r[2])] for r in ev if int(r[0]) == EV_OFF]
    balls = tuple((ids[k], float(S[k, 0]), float(S[k, 1])) for k in range(len(ids)) if mode[k] >= 0)
    final = start.moved(balls)
    return ShotResult(
        events=events,
        final=final,
        pocketed=pocketed,
        off_table=off,
        frozen=frozen,
        shot=shot,
        status=int(status),
        _segments=seg.copy(),
        _ids=ids,
        _P=ta.P,
    )
