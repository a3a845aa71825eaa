"""ShotResult and the conversion of kernel output into Python values."""

from __future__ import annotations

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
from piramida.env.table import CUSHIONS, POCKETS, Table

Trajectory = tuple[np.ndarray, np.ndarray, np.ndarray]


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

    The simulation itself is finished when ``simulate`` returns; the Python
    values above are made from the kernel's arrays the first time they are
    read, and kept (docs/performance.md: building every event object and
    the final Position for every shot cost more than the kernel). Reading
    them in any order, once or many times, gives the same values.
    """

    __slots__ = (
        "shot", "status", "_ev", "_segments", "_ids", "_P", "_start", "_S", "_mode", "_table",
        "_rows", "_mode_list", "_events", "_rule_events", "_final", "_pocketed", "_off_table", "_frozen", "_trajectories",
    )

    def __init__(
        self,
        shot: Shot,
        status: int,
        ev: np.ndarray,
        segments: np.ndarray,
        ids: tuple[str, ...],
        P: np.ndarray,
        start: Position,
        S: np.ndarray,
        mode: np.ndarray,
        table: Table,
    ) -> None:
        """From the event loop's output (loop.run): its event records ``ev``
        and segments (arrays of their own, not scratch), the final states
        ``S`` and modes ``mode`` of the balls ``ids`` of ``start``."""
        self.shot = shot
        self.status = status
        self._ev = ev
        self._segments = segments
        self._ids = ids
        self._P = P
        self._start = start
        self._S = S
        self._mode = mode
        self._table = table
        self._rows: list[list[float]] | None = None
        self._mode_list: list[int] | None = None
        self._events: list[Event] | None = None
        self._rule_events: list[Event] | None = None
        self._final: Position | None = None
        self._pocketed: list[tuple[str, str]] | None = None
        self._off_table: list[str] | None = None
        self._frozen: dict[str, tuple[str, ...]] | None = None
        self._trajectories: dict[str, Trajectory] | None = None

    def __repr__(self) -> str:
        return (
            f"ShotResult(shot={self.shot!r}, status={self.status}, events={len(self._ev)}, "
            f"pocketed={self.pocketed!r}, off_table={self.off_table!r})"
        )

    def _event_rows(self) -> list[list[float]]:
        rows = self._rows
        if rows is None:
            rows = self._rows = self._ev.tolist()
        return rows

    @property
    def events(self) -> list[Event]:
        if self._events is None:
            self._events = build_events(self._event_rows(), self._ids)
        return self._events

    @property
    def rule_events(self) -> list[Event]:
        """``events`` without the motion-state changes (sliding, rolling,
        spinning, stopped): the log as the rules read it - no rule looks at
        a ball's motion state, and those changes are about half of a
        shot's events, so a search that judges dozens of strokes a
        decision builds only these (tests/env/rules/test_rule_events.py
        checks that the rulings are the same)."""
        if self._rule_events is None:
            if self._events is not None:
                self._rule_events = [e for e in self._events if e.type != "motion"]
            else:
                ev = self._ev
                self._rule_events = build_events(ev[ev[:, 0] != EV_MOTION].tolist(), self._ids)
        return self._rule_events

    def _modes(self) -> list[int]:
        """Final motion state per ball; < 0: pocketed or off the table."""
        modes = self._mode_list
        if modes is None:
            modes = self._mode_list = self._mode.tolist()
        return modes

    @property
    def final(self) -> Position:
        if self._final is None:
            modes = self._modes()
            xs, ys = self._S[:, 0].tolist(), self._S[:, 1].tolist()
            if min(modes) >= 0:
                balls = tuple(zip(self._ids, xs, ys, strict=True))
            else:
                balls = tuple(
                    (b, x, y) for b, x, y, m in zip(self._ids, xs, ys, modes, strict=True) if m >= 0
                )
            self._final = self._start.moved(balls)
        return self._final

    @property
    def pocketed(self) -> list[tuple[str, str]]:
        if self._pocketed is None:
            self._gone()
        assert self._pocketed is not None
        return self._pocketed

    @property
    def off_table(self) -> list[str]:
        if self._off_table is None:
            self._gone()
        assert self._off_table is not None
        return self._off_table

    def _gone(self) -> None:
        """``pocketed`` and ``off_table``, from one compiled pass over the
        records (a search reads both of every stroke)."""
        # A ball that drops stays out of play: no ball out, no drop.
        if min(self._modes()) >= 0:
            self._pocketed, self._off_table = [], []
            return
        ids = self._ids
        pocketed: list[tuple[str, str]] = []
        off: list[str] = []
        for typ, ball, where in out_of_play(self._ev, len(self._ev)).tolist():
            if typ == EV_POCKET:
                pocketed.append((ids[ball], POCKETS[where]))
            else:
                off.append(ids[ball])
        self._pocketed, self._off_table = pocketed, off

    @property
    def frozen(self) -> dict[str, tuple[str, ...]]:
        if self._frozen is None:
            self._frozen = frozen_balls(self._start, self._table)
        return self._frozen

    @property
    def trajectories(self) -> dict[str, Trajectory]:
        if self._trajectories is None:
            self._trajectories = sample_trajectories(self._segments, self._ids, self._P, self.duration)
        return self._trajectories

    def first_contact(self, ball: str) -> tuple[str, float] | None:
        """The ball ``ball`` first touches and when: the first ball_ball
        event naming it in ``events``, read from the records without
        building the events (an aiming loop asks this of every trial)."""
        ids = self._ids
        try:
            k = ids.index(ball)
        except ValueError:
            return None
        other, t = first_contact(self._ev, len(self._ev), k)
        return (ids[other], t) if other >= 0 else None

    def records(self) -> tuple[np.ndarray, tuple[str, ...]]:
        """The event log as numbers (env/events.py), motion changes
        included, and the ball ids its rows index: what ``events`` is made
        from (not to be changed)."""
        return self._ev, self._ids

    @property
    def n_events(self) -> int:
        """len(events), without building them."""
        return len(self._ev)

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

    def states_of(self, ball: str, times: np.ndarray) -> np.ndarray:
        """``state_of(ball, t)`` for each of ``times``, in one call: one row
        a time, up to the first time the ball has no state (out of play or
        not yet moving), which ends the rows."""
        out = np.empty((len(times), 7))
        try:
            i = self._ids.index(ball)
        except ValueError:
            return out[:0]
        return out[: states_at(self._segments, i, times, self._P, out)]

    def _state(self, i: int, t: float) -> np.ndarray | None:
        s = np.empty(7)
        return s if state_at(self._segments, i, t, self._P, s) else None

    @property
    def duration(self) -> float:
        return float(self._ev[-1, 1]) if len(self._ev) else 0.0

    def to_dict(self) -> dict:
        """The ``piramida simulate --json`` object."""
        return {
            "events": [e.to_dict() for e in self.events],
            "final": self.final.to_dict(),
            "pocketed": [list(p) for p in self.pocketed],
            "off_table": list(self.off_table),
        }


@njit(cache=True, error_model="numpy")
def out_of_play(ev, nev):  # pragma: no cover - compiled
    """The pocket and off_table records of ``ev[:nev]``, in order, as rows
    of (type, ball index, pocket or cushion index)."""
    out = np.empty((nev, 3), dtype=np.int64)
    k = 0
    for q in range(nev):
        typ = ev[q, 0]
        if typ == EV_POCKET or typ == EV_OFF:
            out[k, 0] = int(typ)
            out[k, 1] = int(ev[q, 2])
            out[k, 2] = int(ev[q, 4])
            k += 1
    return out[:k]


@njit(cache=True, error_model="numpy")
def first_contact(ev, nev, cue):  # pragma: no cover - compiled
    """The ball ``cue`` first touches in ``ev[:nev]`` and when (the first
    ball_ball record naming it): (-1, -1.0) for none. Read where the
    records are, without a Python list of them: an aiming loop asks this
    of every stroke."""
    for q in range(nev):
        if ev[q, 0] == EV_BALL:
            i, j = ev[q, 2], ev[q, 3]
            if i == cue:
                return int(j), ev[q, 1]
            if j == cue:
                return int(i), ev[q, 1]
    return -1, -1.0


@njit(cache=True, error_model="numpy")
def state_at(seg, i, t, P, out):  # pragma: no cover - compiled
    """Ball ``i``'s state at time ``t`` into ``out``, from its last segment
    starting at or before ``t``; False when it has none or is out of play.
    One call instead of numpy masks over the segments (an aiming loop asks
    for a state after every trial)."""
    k = -1
    for r in range(seg.shape[0]):
        if seg[r, 0] == i and seg[r, 1] <= t:
            k = r
    if k < 0 or seg[k, 9] < 0:
        return False
    row = np.empty(7)
    for c in range(7):
        row[c] = seg[k, 2 + c]
    evolve(row, int(seg[k, 9]), t - seg[k, 1], P, out)
    return True


@njit(cache=True, error_model="numpy")
def states_at(seg, i, times, P, out):  # pragma: no cover - compiled
    """``state_at`` for each of ``times`` into the rows of ``out``; the
    number of rows filled (it stops at the first time without a state)."""
    for k in range(times.shape[0]):
        if not state_at(seg, i, times[k], P, out[k]):
            return k
    return times.shape[0]


def frozen_balls(position: Position, table: Table) -> dict[str, tuple[str, ...]]:
    """Cushion -> balls touching it (Table.frozen_cushion), every cushion listed."""
    out: dict[str, list[str]] = {c: [] for c in CUSHIONS}
    for b, x, y in position.balls:
        c = table.frozen_cushion(x, y)
        if c is not None:
            out[c].append(b)
    return {c: tuple(v) for c, v in out.items()}


def build_events(rows: list[list[float]], ids: tuple[str, ...]) -> list[Event]:
    """Event objects from the kernel's records (``ev.tolist()``), built
    without re-validating them: the kernel only writes valid records, and
    validation costs more than simulating a break. A frozen dataclass only
    guards ``__setattr__``, so the fields go straight into ``__dict__``.
    tests/env/physics/test_physics_api.py checks these equal validated
    events."""
    out: list[Event] = []
    new, setattr_ = object.__new__, object.__setattr__
    append = out.append
    names, motions, cushions, pockets = EVENT_NAMES, MOTION_NAMES, CUSHIONS, POCKETS
    for typ_, t, i, j, a, b in rows:
        typ = int(typ_)
        cushion = pocket = to = from_ = None
        if typ == EV_MOTION:
            balls: tuple[str, ...] = (ids[int(i)],)
            from_ = motions[int(a)]
            to = motions[int(b)]
        elif typ == EV_BALL:
            balls = (ids[int(i)], ids[int(j)])
        else:
            balls = (ids[int(i)],)
            if typ == EV_CUSHION or typ == EV_OFF:
                cushion = cushions[int(a)]
            elif typ == EV_POCKET:
                pocket = pockets[int(a)]
            elif typ == EV_CENTRE:
                to = "rear" if a > 0 else "front"
        e = new(Event)
        setattr_(e, "__dict__", {"t": t, "type": names[typ], "balls": balls, "cushion": cushion,
                                 "pocket": pocket, "to": to, "from_": from_})
        append(e)
    return out


@njit(cache=True, error_model="numpy")
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


