"""How much error a shot tolerates: in aim (phi, degrees), pace (v,
relative), side (a) and height (b), before its outcome changes.

The outcome is read from the noise-free physics' event log:

- a called shot: the called ball drops in the called pocket (a called
  shot whose exact stroke does not do that has no window at all);
- otherwise, a shot that pots: its first-potted ball drops in the same
  pocket (other balls may drop or not);
- a shot that pots nothing: the struck ball's first contact is the same
  ball (or, for a stroke that touches nothing, still nothing).

Each of the eight edges (minus and plus of each parameter) is found on its
own, with the other three parameters exact: steps doubling outward from
the exact value until a stroke changes the outcome or the parameter's
limit is reached, then bisection between the last stroke that kept the
outcome and the first that changed it. All eight searches advance
together, one ``simulate_batch`` call a round. The answer on each side is
the largest offset known to keep the outcome, so it lies at most one
precision inside the edge; an island of changed outcomes narrower than a
doubling step can be stepped over (the window reported is then the one
around the exact stroke as seen on that grid).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from piramida.env.physics import BatchResult, ShotResult, simulate, simulate_batch
from piramida.env.position import Position
from piramida.env.shot import MAX_SPEED, MIN_SPEED, MISCUE_LIMIT, Shot
from piramida.env.table import POCKETS

#: The widest aim window searched, each way, in degrees: a stroke this far
#: off is another shot, whatever it does.
MAX_AIM_DEG = 20.0
#: The method, as the API states it beside the numbers.
METHOD = (
    "bisection on one parameter at a time with the others exact, noise-free physics; "
    "each side is the largest offset found to keep the outcome"
)


@dataclass(frozen=True)
class Outcome:
    """What the exact stroke does, as the search compares strokes:
    ``kind`` is ``pot`` (``ball`` drops in ``pocket``), ``contact`` (the
    struck ball first touches ``ball``; None: nothing) or ``miss`` (the
    called ``ball`` does not drop in the called ``pocket``)."""

    kind: str
    ball: str | None
    pocket: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "ball": self.ball, "pocket": self.pocket}

    def describe(self) -> str:
        if self.kind == "pot":
            return f"pots {self.ball} in {self.pocket}"
        if self.kind == "miss":
            return f"the called ball {self.ball} does not drop in {self.pocket}"
        return "touches nothing" if self.ball is None else f"first contact {self.ball}"


@dataclass(frozen=True)
class Window:
    """How far below (``minus``) and above (``plus``) the exact value the
    outcome holds, both >= 0, in the parameter's units (degrees for phi, a
    fraction of v for the pace, ball radii for a and b); ``at_limit``: the
    search reached the parameter's limit on that side, so the true window
    there is at least as wide."""

    minus: float
    plus: float
    at_limit: tuple[bool, bool]

    def to_dict(self, exact: float, relative: bool = False, digits: int = 4) -> dict[str, Any]:
        """The window and the values at its ends (``lo``, ``hi``), to
        ``digits`` decimals (finer than the search's precision)."""
        lo = exact * (1 - self.minus) if relative else exact - self.minus
        hi = exact * (1 + self.plus) if relative else exact + self.plus
        return {"minus": round(self.minus, digits), "plus": round(self.plus, digits), "lo": round(lo, digits),
                "hi": round(hi, digits), "at_limit": list(self.at_limit)}


@dataclass(frozen=True)
class Tolerance:
    """The windows of a shot (None for a called shot that misses its call),
    the strokes simulated to find them, and the exact stroke's result."""

    shot: Shot
    outcome: Outcome
    phi: Window | None
    v: Window | None
    a: Window | None
    b: Window | None
    sims: int
    exact: ShotResult = field(compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        s = self.shot
        out: dict[str, Any] = {
            "shot": s.to_text(),
            "outcome": self.outcome.to_dict() | {"text": self.outcome.describe()},
            "method": METHOD,
            "sims": self.sims,
        }
        for name, w, exact, rel, digits in (("phi", self.phi, s.phi, False, 5), ("v", self.v, s.v, True, 4),
                                            ("a", self.a, s.a, False, 4), ("b", self.b, s.b, False, 4)):
            out[name] = None if w is None else w.to_dict(exact, rel, digits)
        return out


@dataclass(frozen=True)
class Axis:
    """One parameter's search: its first step and precision, its limits
    (how far it may go down and up from ``shot``) and the stroke at an
    offset."""

    name: str
    first: float
    precision: float
    limits: Callable[[Shot], tuple[float, float]]
    moved: Callable[[Shot, float], Shot]


def _spin_room(other: float) -> float:
    # The miscue disc: a and b share it.
    return math.sqrt(max(0.0, MISCUE_LIMIT**2 - other**2))


AXES: tuple[Axis, ...] = (
    Axis("phi", 0.005, 1e-4, lambda s: (MAX_AIM_DEG, MAX_AIM_DEG),
         lambda s, d: s.aimed(math.fmod(s.phi + d, 360.0))),
    Axis("v", 0.01, 2e-3, lambda s: (1 - MIN_SPEED / s.v, MAX_SPEED / s.v - 1),
         lambda s, d: s.aimed(s.phi, min(MAX_SPEED, max(MIN_SPEED, s.v * (1 + d))))),
    Axis("a", 0.01, 2e-3, lambda s: (s.a + _spin_room(s.b), _spin_room(s.b) - s.a),
         lambda s, d: replace(s, a=s.a + d)),
    Axis("b", 0.01, 2e-3, lambda s: (s.b + _spin_room(s.a), _spin_room(s.a) - s.b),
         lambda s, d: replace(s, b=s.b + d)),
)


class _Edge:
    """The search for one side of one parameter: ``good`` is the largest
    offset known to keep the outcome, ``bad`` the smallest known to change
    it (None while stepping outward)."""

    def __init__(self, axis: Axis, sign: int, limit: float) -> None:
        self.axis, self.sign, self.limit = axis, sign, max(0.0, limit)
        self.good = 0.0
        self.bad: float | None = None
        self.step = axis.first
        self.done = self.limit <= 0.0

    def probe(self) -> float:
        if self.bad is None:
            return min(self.step, self.limit)
        return (self.good + self.bad) / 2

    def record(self, offset: float, same: bool) -> None:
        if same:
            self.good = offset
        else:
            self.bad = offset
        if self.bad is None:
            if offset >= self.limit:
                self.done = True
            self.step *= 2
        elif self.bad - self.good <= self.axis.precision:
            self.done = True

    @property
    def at_limit(self) -> bool:
        return self.bad is None


def outcome_of(result: ShotResult, shot: Shot) -> Outcome:
    """The exact stroke's outcome (see the module's docstring)."""
    if shot.call is not None:
        ball, pocket = shot.call
        return Outcome("pot" if (ball, pocket) in result.pocketed else "miss", ball, pocket)
    if result.pocketed:
        ball, pocket = result.pocketed[0]
        return Outcome("pot", ball, pocket)
    contact = result.first_contact(shot.ball)
    return Outcome("contact", None if contact is None else contact[0])


def _same(batch: BatchResult, k: int, outcome: Outcome, struck: str) -> bool:
    if outcome.kind == "pot":
        ids = batch.ids[k]
        return outcome.ball in ids and int(batch.where[k, ids.index(outcome.ball)]) == POCKETS.index(
            str(outcome.pocket)
        )
    assert batch.results is not None
    contact = batch.results[k].first_contact(struck)
    return (None if contact is None else contact[0]) == outcome.ball


def tolerance(position: Position, shot: Shot) -> Tolerance:
    """The error windows of ``shot`` from ``position`` (noise-free; see the
    module's docstring). Bad input (a struck ball neither on the table nor
    placed from hand, a called ball not on the table) raises the physics'
    one-line ``PiramidaError``."""
    exact = simulate(position, shot)
    outcome = outcome_of(exact, shot)
    sims = 1
    if outcome.kind == "miss":
        return Tolerance(shot, outcome, None, None, None, None, sims, exact)
    edges = [
        _Edge(axis, sign, lim)
        for axis in AXES
        for sign, lim in zip((-1, 1), axis.limits(shot), strict=True)
    ]
    events = outcome.kind == "contact"
    while True:
        live = [e for e in edges if not e.done]
        if not live:
            break
        offsets = [e.probe() for e in live]
        strokes = [e.axis.moved(shot, e.sign * d) for e, d in zip(live, offsets, strict=True)]
        batch = simulate_batch(position, strokes, events=events)
        sims += len(strokes)
        for k, (e, d) in enumerate(zip(live, offsets, strict=True)):
            e.record(d, _same(batch, k, outcome, shot.ball))
    windows = {
        axis.name: Window(lo.good, hi.good, (lo.at_limit, hi.at_limit))
        for axis, lo, hi in zip(AXES, edges[0::2], edges[1::2], strict=True)
    }
    return Tolerance(shot, outcome, windows["phi"], windows["v"], windows["a"], windows["b"], sims, exact)
