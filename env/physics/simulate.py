"""``simulate``: Position + Shot -> ShotResult (docs/design.md §2-3).

A thin Python layer: it validates the stroke, packs the position into flat
arrays, applies execution noise and calls the numba event loop (loop.py);
the ShotResult turns the loop's numeric records into ``Event`` objects and
the final ``Position`` when they are first read (result.py).
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from pathlib import Path
from typing import NamedTuple

import numpy as np

from piramida.env.errors import IllegalShotError
from piramida.env.physics import warm
from piramida.env.physics.arrays import TableArrays, table_arrays
from piramida.env.physics.codes import EV_BALL, NSTATE, STATIONARY
from piramida.env.physics.loop import alloc, run
from piramida.env.physics.noise import Noise, load_noise
from piramida.env.physics.result import ShotResult, frozen_balls
from piramida.env.physics.scratch import scratch
from piramida.env.position import Position, cue_ball_of
from piramida.env.shot import Shot
from piramida.env.table import Table


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


def pack(position: Position) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """Ball ids, states (n, NSTATE) at rest at their spots, and modes
    (all STATIONARY) of a position, in its ball order."""
    balls = position.balls
    S = np.zeros((len(balls), NSTATE))
    S[:, 0] = [b[1] for b in balls]
    S[:, 1] = [b[2] for b in balls]
    return tuple([b[0] for b in balls]), S, np.zeros(len(balls), dtype=np.int64)


assert STATIONARY == 0  # pack's modes are np.zeros

#: How many noise-free strokes ``Simulator.recalled`` keeps (a break's
#: records are a few tens of kB).
RECALL_SIZE = 256
# key -> (table arrays, status, events, segments, final states, modes), the
# balls numbered by their spots (``Simulator.recalled``).
_recall: OrderedDict[tuple, tuple] = OrderedDict()
_recall_counts = {"hits": 0, "plays": 0}
_recall_lock = threading.Lock()


def recall_stats() -> dict[str, int]:
    """``Simulator.recalled``'s strokes kept (``kept``), found again
    (``hits``) and played (``plays``) in this process."""
    return {"kept": len(_recall), **_recall_counts}


# Buffers for the event loop's records, one pair per thread: the loop fills
# a few rows of each per shot, and a result keeps copies of just those. The
# loop's scratch (scratch.py) is kept beside them, for the most balls seen.
_local = threading.local()


def _buffers(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    bufs = getattr(_local, "bufs", None)
    if bufs is None or bufs[0] < n:
        warm.start()  # the first shot of a process may compile the kernels
        bufs = _local.bufs = (max(n, 16), *alloc(), *scratch(max(n, 16)))
    return bufs[1:]


class LoopInputs(NamedTuple):
    """``Simulator.loop_inputs``: the position a stroke starts from, its
    ball ids, their states at rest (not to be changed), the table's arrays
    and the loop's record and scratch buffers (this thread's, overwritten
    by the next stroke)."""

    start: Position
    ids: tuple[str, ...]
    S0: np.ndarray
    table: TableArrays
    ev: np.ndarray
    seg: np.ndarray
    fw: np.ndarray
    iw: np.ndarray
    mw: np.ndarray


class Simulator:
    """Shots played from one position: ``Simulator(position)(shot, noise,
    seed)`` is ``simulate(position, shot, noise=noise, seed=seed)``. The
    position (and each placement of a ball in hand) is checked and packed
    into arrays once, not once a shot: a decision's search plays a hundred
    strokes or more from one position, and packing them was a tenth of its
    time."""

    def __init__(self, position: Position, table: Table | None = None) -> None:
        self.position = position
        self.table = table or position.table
        self._ta = table_arrays(self.table)
        self._packed: dict[tuple[str, tuple[float, float] | None], tuple[Position, tuple[str, ...], np.ndarray]] = {}

    def packed(self, shot: Shot) -> tuple[Position, tuple[str, ...], np.ndarray]:
        """The position ``shot`` starts from (its ball placed if in hand),
        its ball ids and their states at rest, as the event loop takes them
        (kept per struck ball and placement; the states must not be
        changed). ``IllegalShotError`` as ``simulate`` raises it."""
        key = (shot.ball, shot.place)
        got = self._packed.get(key)
        if got is None:
            start, _placed = place_struck_ball(self.position, shot, self.table)
            ids, S, _mode = pack(start)
            got = self._packed[key] = (start, ids, S)
        return got

    def loop_inputs(self, shot: Shot) -> LoopInputs:
        """What ``loop.run`` needs to play strokes of ``shot``'s ball (and
        placement) from this position: for a kernel that plays many of
        them without coming back to Python."""
        start, ids, S0 = self.packed(shot)
        return LoopInputs(start, ids, S0, self._ta, *_buffers(len(ids)))

    def result(
        self, shot: Shot, inputs: LoopInputs, status: int, nev: int, nseg: int, S: np.ndarray, mode: np.ndarray
    ) -> ShotResult:
        """The result of ``shot`` played by a kernel with ``inputs``
        (``loop_inputs(shot)``): the loop's status, event and segment
        counts, and the final states and modes it left in ``S`` and
        ``mode`` (kept by the result, not copied); its records are copied
        from the buffers, which the next stroke overwrites."""
        return ShotResult(
            shot, int(status), inputs.ev[:nev].copy(), inputs.seg[:nseg].copy(), inputs.ids, inputs.table.P,
            inputs.start, S, mode, self.table,
        )

    def __call__(self, shot: Shot, noise: str | Path | Noise | None = None, seed: int | None = None) -> ShotResult:
        nz = load_noise(noise)
        if shot.call is not None or shot.declare_frozen is not None:
            shot.check_on(self.position)
        if nz is not None:
            shot = nz.perturb(shot, np.random.default_rng(seed))
        inp = self.loop_inputs(shot)
        status, nev, nseg, S, mode = self._play(inp, shot)
        return self.result(shot, inp, status, nev, nseg, S, mode)

    def _play(self, inp: LoopInputs, shot: Shot) -> tuple[int, int, int, np.ndarray, np.ndarray]:
        """One stroke through the event loop: (status, event count, segment
        count, final states, final modes); the records are in the buffers."""
        S, mode = inp.S0.copy(), np.zeros(len(inp.ids), dtype=np.int64)  # the loop leaves the final states in them
        ta = inp.table
        nev, nseg, status = run(
            S, mode, inp.ids.index(shot.ball), math.radians(shot.phi), math.radians(shot.theta), shot.v, shot.a,
            shot.b, ta.CU, ta.JW, ta.FC, ta.PK, ta.P, inp.ev, inp.seg, inp.fw, inp.iw, inp.mw,
        )
        return status, nev, nseg, S, mode

    def recalled(self, shot: Shot) -> ShotResult:
        """``self(shot)`` without noise, remembered across positions and
        labellings. The event loop reads nothing of a ball but its state
        (docs/physics.md), so the same stroke from the same layout of balls
        on the same table gives the same records whatever the labels: the
        last ``RECALL_SIZE`` such strokes are kept, with the balls in the
        order of their spots (x, then y), and a repeat is not played again,
        only renamed to this position's balls. For strokes that recur from
        one frame to the next: a break from the rack (every frame's rack,
        its balls shuffled) is some 180 events."""
        inp = self.loop_inputs(shot)
        S0, n = inp.S0, len(inp.ids)
        spot = sorted(range(n), key=lambda k: (S0[k, 0], S0[k, 1]))  # spot -> ball
        cue = inp.ids.index(shot.ball)
        key = (id(self._ta), S0[spot].tobytes(), spot.index(cue), shot.phi, shot.v, shot.a, shot.b, shot.theta)
        with _recall_lock:
            hit = _recall.get(key)
            if hit is not None and hit[0] is self._ta:
                _recall.move_to_end(key)
                _recall_counts["hits"] += 1
            else:
                hit = None
                _recall_counts["plays"] += 1
        if hit is not None:
            _ta, status, ev, seg, S, mode = hit
            ev, seg, S, mode = _renamed(ev, seg, S, mode, np.array(spot))
            return ShotResult(shot, status, ev, seg, inp.ids, self._ta.P, inp.start, S, mode, self.table)
        status, nev, nseg, S, mode = self._play(inp, shot)
        res = self.result(shot, inp, status, nev, nseg, S, mode)
        ball_spot = np.empty(n, dtype=np.int64)
        ball_spot[spot] = np.arange(n)
        kept = (self._ta, int(status), *_renamed(inp.ev[:nev], inp.seg[:nseg], S, mode, ball_spot))
        with _recall_lock:
            _recall[key] = kept
            if len(_recall) > RECALL_SIZE:
                _recall.popitem(last=False)
        return res


def _renamed(
    ev: np.ndarray, seg: np.ndarray, S: np.ndarray, mode: np.ndarray, to: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A stroke's records with ball ``k`` renamed ``to[k]`` (new arrays):
    the events' balls, each contact's two lower index first as the loop
    writes them, the segments' balls, and the final states and modes moved
    to their new rows."""
    ev = ev.copy()
    for col in (2, 3):
        named = ev[:, col] >= 0
        ev[named, col] = to[ev[named, col].astype(np.int64)]
    contact = (ev[:, 0] == EV_BALL) & (ev[:, 2] > ev[:, 3])
    ev[contact, 2], ev[contact, 3] = ev[contact, 3], ev[contact, 2].copy()
    seg = seg.copy()
    seg[:, 0] = to[seg[:, 0].astype(np.int64)]
    S2, mode2 = np.empty_like(S), np.empty_like(mode)
    S2[to], mode2[to] = S, mode
    return ev, seg, S2, mode2


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
    return Simulator(position, table)(shot, noise, seed)


__all__ = ["RECALL_SIZE", "LoopInputs", "Simulator", "frozen_balls", "pack", "place_struck_ball", "recall_stats", "simulate"]
