"""ShotResult and the conversion of kernel output into Python values."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from numba import njit

from piramida.env.events import Event
from piramida.env.physics.codes import (
    EV_BALL,
    EV_CENTRE,
    EV_CUSHION,
    EV_MOTION,
    EV_OFF,
    EV_POCKET,
    EVENT_NAMES,
    MOTION_NAMES,
)
from piramida.env.physics.motion import evolve
from piramida.env.position import Position
from piramida.env.shot import Shot
from piramida.env.table import CUSHIONS, POCKETS

Trajectory = tuple[np.ndarray, np.ndarray, np.ndarray]


@dataclass(frozen=True, eq=False)
class ShotResult:
    """What a shot did.

    - ``events``: the time-ordered event log (docs/design.md §2);
    - ``final``: the position after the shot: same frame state, balls left
      on the table at their resting spots, ``in_hand`` cleared if the struck
      ball was placed;
    - ``pocketed``: (ball, pocket) in the order they dropped;
    - ``off_table``: balls that left the table;
    - ``frozen``: cushion name -> balls frozen to it before the shot;
    - ``trajectories``: ball -> (t, x, y) arrays sampled along its path;
    - ``shot``: the shot actually played (after execution noise);
    - ``status``: 0, or 1/2 if a safety limit (event count, time) stopped
      the simulation and the balls were stopped where they were.
    """

    events: list[Event]
    final: Position
    pocketed: list[tuple[str, str]]
    off_table: list[str]
    frozen: dict[str, tuple[str, ...]]
    shot: Shot
    status: int = 0
    _segments: np.ndarray = field(default_factory=lambda: np.zeros((0, 10)), repr=False)
    _ids: tuple[str, ...] = field(default=(), repr=False)
    _P: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False)

    @cached_property
    def trajectories(self) -> dict[str, Trajectory]:
        return sample_trajectories(self._segments, self._ids, self._P, self.duration)

    def states_at(self, t: float) -> dict[str, np.ndarray]:
        """Full state (x, y, vx, vy, wx, wy, wz) of every ball in play at
        time t, after the events at t (from the closed-form segments)."""
        out: dict[str, np.ndarray] = {}
        for i, b in enumerate(self._ids):
            s = self._state(i, t)
            if s is not None:
                out[b] = s
        return out

    def state_of(self, ball: str, t: float) -> np.ndarray | None:
        """``states_at(t).get(ball)``, computing that ball's state only."""
        try:
            i = self._ids.index(ball)
        except ValueError:
            return None
        return self._state(i, t)

    def _state(self, i: int, t: float) -> np.ndarray | None:
        seg = self._segments
        rows = seg[(seg[:, 0] == i) & (seg[:, 1] <= t)]
        if len(rows) == 0:
            return None
        row = rows[-1]
        if row[9] < 0:
            return None
        s = np.empty(7)
        evolve(np.ascontiguousarray(row[2:9]), int(row[9]), t - row[1], self._P, s)
        return s

    @property
    def duration(self) -> float:
        return self.events[-1].t if self.events else 0.0

    def to_dict(self) -> dict:
        """The ``piramida simulate --json`` object."""
        return {
            "events": [e.to_dict() for e in self.events],
            "final": self.final.to_dict(),
            "pocketed": [list(p) for p in self.pocketed],
            "off_table": list(self.off_table),
        }


def build_events(ev: np.ndarray, ids: tuple[str, ...]) -> list[Event]:
    """Event objects from the kernel's records, built without re-validating
    them: the kernel only writes valid records, and validation costs more
    than simulating a break (this loop is still a fifth of a mid-game
    shot's time). A frozen dataclass only guards ``__setattr__``, so the
    fields go straight into ``__dict__``. tests/env/physics/test_physics_api.py
    checks these equal validated events."""
    out: list[Event] = []
    new, setattr_ = object.__new__, object.__setattr__
    for row in ev.tolist():
        typ = int(row[0])
        d = {"t": row[1], "type": EVENT_NAMES[typ], "balls": (ids[int(row[2])],), "cushion": None,
             "pocket": None, "to": None, "from_": None}
        if typ == EV_MOTION:
            d["from_"] = MOTION_NAMES[int(row[4])]
            d["to"] = MOTION_NAMES[int(row[5])]
        elif typ == EV_BALL:
            d["balls"] = (d["balls"][0], ids[int(row[3])])
        elif typ == EV_CUSHION or typ == EV_OFF:
            d["cushion"] = CUSHIONS[int(row[4])]
        elif typ == EV_POCKET:
            d["pocket"] = POCKETS[int(row[4])]
        elif typ == EV_CENTRE:
            d["to"] = "rear" if row[4] > 0 else "front"
        e = new(Event)
        setattr_(e, "__dict__", d)
        out.append(e)
    return out


@njit(cache=True)
def _sample(seg, P, t_end, dt):
    # Segments of one ball, in time order; sample each at dt plus its ends.
    n = seg.shape[0]
    total = 0
    for k in range(n):
        t0 = seg[k, 1]
        t1 = seg[k + 1, 1] if k + 1 < n else t_end
        total += int(max(t1 - t0, 0.0) / dt) + 2
    ts = np.empty(total)
    xs = np.empty(total)
    ys = np.empty(total)
    tmp = np.empty(7)
    c = 0
    for k in range(n):
        t0 = seg[k, 1]
        t1 = seg[k + 1, 1] if k + 1 < n else t_end
        mode = int(seg[k, 9])
        m = int(max(t1 - t0, 0.0) / dt) + 2
        s = seg[k, 2:9].copy()
        for q in range(m):
            tau = min(q * dt, t1 - t0) if q < m - 1 else max(t1 - t0, 0.0)
            evolve(s, mode, tau, P, tmp)
            ts[c] = t0 + tau
            xs[c] = tmp[0]
            ys[c] = tmp[1]
            c += 1
    return ts[:c], xs[:c], ys[:c]


def sample_trajectories(
    segs: np.ndarray, ids: tuple[str, ...], P: np.ndarray, t_end: float, dt: float = 1 / 60
) -> dict[str, Trajectory]:
    out: dict[str, Trajectory] = {}
    for i, b in enumerate(ids):
        mine = np.ascontiguousarray(segs[segs[:, 0] == i])
        if len(mine) == 0:
            continue
        # A ball out of play (mode < 0) ends at its last segment's start.
        last = mine[-1]
        end = float(last[1]) if last[9] < 0 else max(t_end, float(last[1]))
        if last[9] < 0:
            mine = mine[:-1] if len(mine) > 1 else mine
            ts, xs, ys = _sample(mine, P, end, dt)
            # Close the path at the capture / launch point.
            ts = np.append(ts, end)
            xs = np.append(xs, last[2])
            ys = np.append(ys, last[3])
        else:
            ts, xs, ys = _sample(mine, P, end, dt)
        out[b] = (ts, xs, ys)
    return out


