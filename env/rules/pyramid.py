"""Shared rules of pyramid (docs/game_rules.md §3-§4; seed 004 items 5-29) as small
pure functions over a position before the shot, the shot, the event log and
the position after it.

Nothing here imports the physics: everything is read from the ordered event
log of docs/design.md §2. Interpretations are marked "Interpretation" and cite
docs/game_rules.md; each is pinned by a golden case in ``tests/golden/rulings``.
"""

from __future__ import annotations

import math
from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from piramida.env.errors import InvalidEventsError
from piramida.env.events import Event
from piramida.env.position import CLASSIC_RACK, Position, ball_ids, rack_spots
from piramida.env.shot import Shot
from piramida.env.table import Table

XY = tuple[float, float]

# Which half of the table each cushion segment lies in (docs/game_rules.md §1: six
# segments; the middle pockets split the long cushions at the centre line).
CUSHION_HALF: dict[str, str] = {
    "front": "front",
    "left_front": "front",
    "right_front": "front",
    "rear": "rear",
    "left_rear": "rear",
    "right_rear": "rear",
}

# Push test (docs/game_rules.md §3, item 19.2): "within half a ball radius" is the gap
# between the surfaces; "at least 45 degrees" away from the line of centres.
PUSH_GAP_RADII = 0.5
PUSH_ANGLE_DEG = 45.0


# ------------------------------------------------------------------- the facts
@dataclass(frozen=True)
class ShotFacts:
    """What happened on one shot, read from the events (no rule applied yet)."""

    cue: str
    start: Mapping[str, XY]
    first_contact: str | None
    first_contact_index: int | None
    pocketed: tuple[tuple[str, str], ...]
    jumped: tuple[str, ...]
    frozen: Mapping[str, str]
    final: Mapping[str, XY]
    events: tuple[Event, ...] = field(repr=False, default=())
    #: The position after the shot that ``final`` was read from.
    after: Position | None = field(repr=False, compare=False, default=None)
    #: ``push_near`` of ``start`` where the caller had it (None: not given).
    near: list[tuple[str, float, float]] | None = field(repr=False, compare=False, default=None)
    #: Seed 003's special cases, where the variant rules them so (``analyse``
    #: with ``special``; elsewhere such balls are in ``jumped``): the balls
    #: resting on the rail and where, the struck ball returned by an outside
    #: cause.
    rail: Mapping[str, XY] = field(default_factory=dict)
    returned: tuple[str, ...] = ()
    #: Balls that fell from the jaws by themselves before the struck ball
    #: reached them (``hanging_drop``), with the pocket where the log names it.
    hanging: tuple[tuple[str, str | None], ...] = ()

    @property
    def pocketed_ids(self) -> tuple[str, ...]:
        return tuple(b for b, _ in self.pocketed)

    def pocket_of(self, ball: str) -> str | None:
        for b, p in self.pocketed:
            if b == ball:
                return p
        return None


def start_positions(before: Position, shot: Shot) -> dict[str, XY]:
    """Ball centres when the shot starts: the position before plus the cue
    ball at its placement when it was in hand."""
    start = dict(before.ball_map)
    if shot.place is not None and shot.ball not in start:
        start[shot.ball] = (shot.place[0], shot.place[1])
    return start


def frozen_balls(table: Table, start: Mapping[str, XY]) -> dict[str, str]:
    """Balls frozen to a cushion before the shot (``Table.frozen_cushion``),
    for item 20 (2c)/(3c) and note 2."""
    out: dict[str, str] = {}
    for b, (x, y) in start.items():
        c = table.frozen_cushion(x, y)
        if c is not None:
            out[b] = c
    return out


def first_contact(events: Sequence[Event], cue: str) -> tuple[int, str] | None:
    """Index and id of the first ball the cue ball touches (item 5.1)."""
    for i, e in enumerate(events):
        if e.type == "ball_ball" and cue in e.balls:
            other = e.balls[0] if e.balls[1] == cue else e.balls[1]
            return i, other
    return None


def analyse(
    before: Position,
    shot: Shot,
    events: Sequence[Event],
    after: Position,
    start: Mapping[str, XY] | None = None,
    frozen: Mapping[str, str] | None = None,
    near: list[tuple[str, float, float]] | None = None,
    special: bool = False,
) -> ShotFacts:
    """Check that the event log and the position after fit the position
    before, and collect the facts. A log that cannot have come from this
    position is an ``InvalidEventsError`` naming the position. ``start``,
    ``frozen`` and ``near``: ``start_positions``, ``frozen_balls`` and
    ``push_near`` of this position and shot where the caller has them (a
    search judges many strokes of one ball from one position).

    The special cases' events (env/events.py ``SPECIAL_TYPES``): with
    ``special`` (seed 003's rulings) a ball ``on_rail`` goes to
    ``facts.rail`` and the struck ball ``returned`` to ``facts.returned``;
    otherwise, and for an object ball returned, they are jumped balls (seed
    004 items 24.1, 24.2: a ball stopping on the rail, or coming back after
    touching something that is not part of the table, has left it). A ball
    ``hanging_drop`` goes to ``facts.hanging`` either way."""
    if start is None:
        start = start_positions(before, shot)
    known = set(ball_ids(before.variant))
    def bad(msg: str) -> InvalidEventsError:
        # The position's text is built only for an error: this runs every shot.
        return InvalidEventsError(f"{msg} (position before: {before.to_text()})")

    if shot.ball not in start:
        raise bad(f"struck ball {shot.ball} is not on the table and not placed")
    cues = [i for i, e in enumerate(events) if e.type == "cue"]
    if not cues:
        raise bad("event log has no 'cue' event")
    if len(cues) > 1 or events[cues[0]].balls[0] != shot.ball:
        raise bad(f"event log must have exactly one 'cue' event, on the struck ball {shot.ball}")
    gone: dict[str, str] = {}
    pocketed: list[tuple[str, str]] = []
    jumped: list[str] = []
    on_rail: list[str] = []
    returned: list[str] = []
    hanging: list[tuple[str, str | None]] = []
    contact = first_contact(events, shot.ball)
    if before.rail:
        raise bad(
            f"ball(s) {', '.join(b for b, _, _ in before.rail)} rest on the rail: the referee places them "
            "against the cushion before the next shot"
        )
    in_play = known.intersection(start)
    for k, e in enumerate(events):
        for b in e.balls:
            if b in in_play and b not in gone:
                continue
            if b not in known:
                raise bad(f"event names unknown ball {b!r}")
            if b not in start:
                raise bad(f"event names ball {b}, which was not on the table")
            raise bad(f"ball {b} has a {e.type} event after it was {gone[b]}")
        if e.type == "pocket":
            b = e.balls[0]
            gone[b] = "pocketed"
            pocketed.append((b, str(e.pocket)))
        elif e.type == "off_table":
            b = e.balls[0]
            gone[b] = "off the table"
            jumped.append(b)
        elif e.type == "on_rail":
            b = e.balls[0]
            gone[b] = "on the rail"
            (on_rail if special else jumped).append(b)
        elif e.type == "returned":
            returned.append(e.balls[0])
        elif e.type == "hanging_drop":
            b = e.balls[0]
            if k < cues[0] or (contact is not None and k > contact[0]) or b == shot.ball:
                raise bad(
                    f"hanging_drop of ball {b} must come after the cue event and before the struck ball's "
                    "first contact, and name another ball (seed 003: the fall makes the stroke miss)"
                )
            where = hanging_pockets(before.table, *start[b])
            if not where or (e.pocket is not None and e.pocket not in where):
                in_pocket = f" {e.pocket}" if e.pocket is not None else ""
                raise bad(f"ball {b} was not standing in the jaws of a pocket{in_pocket} (hanging_drop)")
            gone[b] = "fallen from the jaws"
            hanging.append((b, e.pocket))
    final = after.ball_map
    if after.variant != before.variant:
        raise bad(f"position after is for variant {after.variant}, not {before.variant}")
    for b in final:
        if b not in start:
            raise bad(f"ball {b} is on the table after the shot but was not before it")
        if b in gone:
            raise bad(f"ball {b} is on the table after the shot but was {gone[b]}")
    rail = after.rail_map
    for b in rail:
        if gone.get(b) != "on the rail":
            raise bad(f"ball {b} rests on the rail after the shot, and the log has no on_rail event for it")
    for b, why in gone.items():
        if why == "on the rail" and b not in rail:
            raise bad(f"ball {b} has an on_rail event, and the position after does not hold it on the rail")
    for b in start:
        if b not in final and b not in gone:
            raise bad(f"ball {b} vanished: not on the table after, and no pocket/off_table event")
    back: list[str] = []
    for b in dict.fromkeys(returned):
        if b in gone:
            continue  # it came back, then dropped or left again: that is what is judged
        if special and b == shot.ball:
            back.append(b)
        else:
            jumped.append(b)  # item 24.2: it touched something off the table
            final = {k: xy for k, xy in final.items() if k != b}
    fc = contact
    return ShotFacts(
        cue=shot.ball,
        start=start,
        first_contact=fc[1] if fc else None,
        first_contact_index=fc[0] if fc else None,
        pocketed=tuple(pocketed),
        jumped=tuple(jumped),
        frozen=frozen if frozen is not None else frozen_balls(before.table, start),
        final=final,
        events=tuple(events),
        after=after,
        near=near,
        rail={b: rail[b] for b in on_rail},
        returned=tuple(back),
        hanging=tuple(hanging),
    )


def hanging_pockets(table: Table, x: float, y: float) -> tuple[str, ...]:
    """The pockets in whose jaws a ball at (x, y) stands: its centre within
    half a mouth and a radius of the mouth's centre."""
    r = table.ball_radius
    return tuple(
        name
        for name, p in table.pockets.items()
        if math.hypot(x - p.mouth_centre[0], y - p.mouth_centre[1]) <= p.mouth / 2 + r
    )


def place_on_cushion(
    table: Table, at: XY, occupied: Mapping[str, XY], cushion: str | None = None, step: float = 0.001
) -> XY:
    """Where a ball that came to rest on the rail at ``at`` is put back
    (seed 003, special cases: "placed tight against the cushion near where
    it stopped on it"): frozen to the cushion segment nearest ``at`` (or
    ``cushion``), at the point of the segment nearest ``at``, or the free
    point nearest it along the segment, ``step`` apart, clear of the balls
    ``occupied`` (touching allowed), the jaws and the pockets."""
    r = table.ball_radius
    segs = []
    for c in table.cushions.values():
        (sx, sy), (ex, ey) = c.start, c.end
        length = math.hypot(ex - sx, ey - sy)
        tx, ty = (ex - sx) / length, (ey - sy) / length
        s = min(length, max(0.0, (at[0] - sx) * tx + (at[1] - sy) * ty))
        dist = math.hypot(at[0] - (sx + s * tx), at[1] - (sy + s * ty))
        segs.append((c.name != cushion, dist, c.name, s, length, (sx, sy), (tx, ty), c.normal))
    segs.sort()

    def free(x: float, y: float, name: str) -> bool:
        return (
            table.on_surface(x, y)
            and table.frozen_cushion(x, y) == name
            and all(math.hypot(x - ox, y - oy) >= 2 * r for ox, oy in occupied.values())
        )

    for _, _, name, s0, length, (sx, sy), (tx, ty), (nx, ny) in segs:
        for k in range(int(length / step) + 2):
            for s in (s0 + k * step, s0 - k * step) if k else (s0,):
                if 0.0 <= s <= length:
                    x, y = sx + s * tx + r * nx, sy + s * ty + r * ny
                    if free(x, y, name):
                        return (x, y)
    raise ValueError(f"no room against any cushion for a ball from the rail at {at}")  # pragma: no cover


# -------------------------------------------------------------------- the break
def legal_break(facts: ShotFacts, table: Table) -> tuple[bool, str]:
    """Item 12.1 (docs/game_rules.md §4.2): after the cue ball hits an object ball,
    (1) a ball is pocketed; or (2) three different object balls touch a
    cushion; or (3) two touch a cushion and an object ball crosses the
    centre line. Returns (legal, which condition or why not).

    Interpretation (docs/game_rules.md §4.2 "a ball is legally pocketed"): any ball,
    the cue ball included, counts for (1); whether pocketing the cue ball is
    itself a foul is the variant's business (classic, five-ball), and a foul
    makes the break illegal anyway. Item 20 note 3 applies to (3).
    """
    if facts.first_contact_index is None:
        return False, "no contact"
    after = list(after_contact(facts, table))
    if any(e.type == "pocket" for e in after):
        return True, "1: a ball pocketed"
    touched: set[str] = set()
    for e in after:
        if e.type == "cushion" and e.balls[0] != facts.cue:
            touched.add(e.balls[0])
    if len(touched) >= 3:
        return True, "2: three object balls touched a cushion"
    crossed = any(e.type == "centre_line" and e.balls[0] != facts.cue for e in after)
    if len(touched) == 2 and crossed:
        return True, "3: two object balls touched a cushion and one crossed the centre line"
    return False, f"{len(touched)} object ball(s) touched a cushion" + (
        ", one crossed the centre line" if crossed else ", none crossed the centre line"
    )


# ------------------------------------------------------------- centre crossings
def iter_corrected(events: Sequence[Event], start: Mapping[str, XY], table: Table) -> Iterator[Event]:
    """The event log with centre-line crossings as item 20 counts them
    (docs/game_rules.md §4.3):

    - note 3: a ball whose centre starts exactly on the line does not cross
      it by moving off; its first ``centre_line`` event is dropped.
    - note 4: a ball that touches a cushion segment of the other half (the
      jaw of a middle pocket, seen from its own half) has crossed the line;
      a crossing is inserted just before that cushion event.
      Interpretation: the event log names only the segment a jaw belongs to,
      so "a cushion of the other half while the ball is tracked in its own
      half" is how a middle-jaw rebound shows up in the log.
    """
    mid = table.centre_line
    half: dict[str, str] = {}
    for b, (_, y) in start.items():
        half[b] = "on" if y == mid else ("front" if y < mid else "rear")
    for e in events:
        if e.type == "centre_line":
            b = e.balls[0]
            was = half.get(b)
            half[b] = str(e.to)
            if was == "on":
                continue  # note 3
        elif e.type == "cushion":
            b = e.balls[0]
            side = CUSHION_HALF[str(e.cushion)]
            if half.get(b) in ("front", "rear") and half[b] != side:
                half[b] = side
                yield Event(e.t, "centre_line", (b,), to=side)  # note 4
        yield e


def after_contact(facts: ShotFacts, table: Table) -> Iterator[Event]:
    """The corrected events (``iter_corrected``) strictly after the cue
    ball's first contact, made as they are read: item 20's automaton mostly
    decides within a few events of the contact, and the log runs on until
    every ball stops."""
    if facts.first_contact_index is None:
        return iter(())
    contact = facts.events[facts.first_contact_index]
    ev = iter_corrected(facts.events, facts.start, table)
    for e in ev:
        if e is contact:
            break
    return ev


# ------------------------------------------------------------ legal completion
def legal_completion(
    facts: ShotFacts, table: Table, declare_frozen: str | None = None
) -> tuple[bool, str]:
    """Item 20 (docs/game_rules.md §4.3) as an automaton over the ordered events after
    the cue ball's first contact with an object ball. Some ball must:

    1. go into a pocket; or
    2. rebound from a cushion, then (a) touch another cushion, (b) drive a
       ball to another cushion, (c) touch a ball frozen to another cushion;
    3. cross the centre line, then (a) touch any cushion, (b) drive a ball
       to a cushion, (c) touch a ball frozen to any cushion; or
    4. rebound from a cushion, then (a) cross the centre line, (b) roll a
       ball across it.

    Order matters (note 1): each ball carries what it has done so far, and
    a ball it strikes inherits that (the "drives"/"rolls" sub-cases). Notes
    3 and 4 come from ``iter_corrected``. Note 2: when the player declared a
    ball frozen to cushion F and the cue ball contacts it, the cue ball
    counts as having rebounded from F at that contact (one contact); with
    two separate contacts the object ball's own rebound from F is passed to
    the cue ball by the second contact and no declaration is needed.

    "Another cushion" is another of the six segments (docs/game_rules.md §6).
    Interpretation: "drives a ball" is read as "touches a ball that then
    does it", for contacts in either direction (the log does not say which
    ball was moving); a ball "frozen to a cushion" counts while it has not
    been touched yet on this shot.
    Returns (legal, the condition met or "none").
    """
    k = facts.first_contact_index
    if k is None:
        return False, "no contact"
    events = after_contact(facts, table)
    cushions: dict[str, set[str]] = {}
    crossed: set[str] = set()
    drv_cushions: dict[str, set[str]] = {}
    drv_crossed: set[str] = set()
    touched: set[str] = {facts.cue, str(facts.first_contact)}
    first = facts.first_contact
    if (
        declare_frozen is not None
        and first == declare_frozen
        and declare_frozen in facts.frozen
    ):
        cushions.setdefault(facts.cue, set()).add(facts.frozen[declare_frozen])
    for e in events:
        if e.type == "pocket":
            return True, "1"
        if e.type == "cushion":
            b, c = e.balls[0], str(e.cushion)
            own = cushions.setdefault(b, set())
            if own - {c}:
                return True, "2a"
            if b in crossed:
                return True, "3a"
            if drv_cushions.get(b, set()) - {c}:
                return True, "2b"
            if b in drv_crossed:
                return True, "3b"
            own.add(c)
        elif e.type == "centre_line":
            b = e.balls[0]
            if cushions.get(b):
                return True, "4a"
            if drv_cushions.get(b):
                return True, "4b"
            crossed.add(b)
        elif e.type == "ball_ball":
            x, y = e.balls
            for mover, hit in ((x, y), (y, x)):
                f = facts.frozen.get(hit)
                if f is not None and hit not in touched:
                    if cushions.get(mover, set()) - {f}:
                        return True, "2c"
                    if mover in crossed:
                        return True, "3c"
            for mover, hit in ((x, y), (y, x)):
                if cushions.get(mover):
                    drv_cushions.setdefault(hit, set()).update(cushions[mover])
                if mover in crossed:
                    drv_crossed.add(hit)
            touched.update(e.balls)
    return False, "none"


def completes(
    shot: Shot, start: Mapping[str, XY], frozen: Mapping[str, str], events: Sequence[Event], table: Table
) -> bool:
    """``legal_completion``'s verdict (with ``table``) on ``shot``'s log,
    from the balls' centres when it starts (``start_positions``) and those
    frozen to a cushion then (``frozen_balls`` of the position's table),
    without the position after it, which it does not read: the facts it
    reads made as ``analyse`` makes them."""
    cue = shot.ball
    contact = first_contact(events, cue)
    facts = ShotFacts(
        cue=cue,
        start=start,
        first_contact=contact[1] if contact is not None else None,
        first_contact_index=contact[0] if contact is not None else None,
        pocketed=(),
        jumped=(),
        frozen=frozen,
        final={},
        events=tuple(events),
    )
    return legal_completion(facts, table, shot.declare_frozen)[0]


# ------------------------------------------------------------------------ push
def push_near(start: Mapping[str, XY], cue: str, table: Table) -> list[tuple[str, float, float]]:
    """The balls whose surface lies within ``PUSH_GAP_RADII`` ball radii of
    the cue ball's when the shot starts: the only ones ``is_push`` reads."""
    r = table.ball_radius
    cx, cy = start[cue]
    return [
        (b, x, y)
        for b, (x, y) in start.items()
        if b != cue and math.hypot(x - cx, y - cy) - 2 * r <= PUSH_GAP_RADII * r + 1e-12
    ]


def is_push(facts: ShotFacts, shot: Shot, table: Table) -> bool:
    """The frozen-ball test of item 19.2 (docs/game_rules.md §3), also used for double
    hit and press.

    For every object ball whose surface is within half a ball radius of the
    cue ball's before the shot: if the cue direction phi is less than 45
    degrees off the line of centres and the cue ball touched that ball, the
    shot is legal only if the cue ball "does not follow the object ball
    forward". Interpretation: the log has no trajectories, so "follows" is
    read from where the cue ball ends: its net displacement along the line
    of centres (to its final spot, or to the pocket it fell into) is more
    than half a ball radius forward. A stop or draw shot is legal; a
    follow-through is a push. Striking away without contact is not a push
    (item 19.2 note).
    """
    # Most shots start with no ball that close: the log is read only when one is.
    near = facts.near if facts.near is not None else push_near(facts.start, facts.cue, table)
    if not near:
        return False
    end = cue_end(facts.final.get(facts.cue), facts.pocket_of(facts.cue), table)
    return pushes(facts.start[facts.cue], near, shot.direction, touched_by(facts.events, facts.cue), end, table)


def touched_by(events: Iterable[Event], cue: str) -> set[str]:
    """The balls ``cue`` touched in the log ``events``."""
    return {(e.balls[1] if e.balls[0] == cue else e.balls[0]) for e in events if e.type == "ball_ball" and cue in e.balls}


def cue_end(final: XY | None, pocket: str | None, table: Table) -> XY | None:
    """Where ``is_push`` reads the struck ball ended: its final centre, else
    the mouth of the pocket it fell into (``pocket``), else None (it left
    the table)."""
    if final is not None:
        return final
    return table.pockets[pocket].mouth_centre if pocket else None


def pushes(
    cue_start: XY,
    near: Sequence[tuple[str, float, float]],
    direction: XY,
    touched: Container[str],
    end: XY | None,
    table: Table,
) -> bool:
    """``is_push`` from what it reads: where the cue ball started, the balls
    ``near`` it (``push_near``), the cue's direction (unit vector), the
    balls the cue ball touched, and where it ended (its final centre, the
    mouth of the pocket it fell into, or None: it left the table)."""
    r = table.ball_radius
    cx, cy = cue_start
    dx, dy = direction
    for b, x, y in near:
        dist = math.hypot(x - cx, y - cy)
        ux, uy = (x - cx) / dist, (y - cy) / dist
        angle = math.degrees(math.acos(max(-1.0, min(1.0, ux * dx + uy * dy))))
        if angle >= PUSH_ANGLE_DEG or b not in touched:
            continue
        if end is None:
            return True  # cue ball jumped off along the line: it went forward.
        forward = (end[0] - cx) * ux + (end[1] - cy) * uy
        if forward > PUSH_GAP_RADII * r:
            return True
    return False


# ------------------------------------------------------------------ re-spotting
def respot(
    table: Table,
    on_table: Mapping[str, XY],
    balls: Iterable[str],
    gap: float = 0.001,
    touching: bool = False,
) -> dict[str, XY]:
    """Item 25 (docs/game_rules.md §4.7): place ``balls`` on the spot line.

    Each ball goes to the point of the spot line nearest the rear spot,
    toward the rear cushion, that is clear of every ball already there by
    ``gap`` (not touching); with ``touching`` (item 1.10) balls re-spotted
    on this call touch each other but still keep ``gap`` from the blockers.
    When the line between the rear spot and the rear cushion has no room,
    the ball goes on the extension toward the centre, as close to the rear
    spot as possible. Balls are placed in id order (item 25.2: "in
    arbitrary order").
    """
    r = table.ball_radius
    x0, y0 = table.rear_spot
    ymax = table.length - r
    placed: dict[str, XY] = {}
    occupied = dict(on_table)
    for b in sorted(balls, key=id_order):
        blocked: list[tuple[float, float]] = []
        for o, (ox, oy) in occupied.items():
            need = 2 * r + (0.0 if touching and o in placed else gap)
            dx = abs(ox - x0)
            if dx >= need:
                continue
            h = math.sqrt(need * need - dx * dx)
            blocked.append((oy - h, oy + h))

        def free(y: float, blocked: list[tuple[float, float]] = blocked) -> bool:
            return all(not (lo + 1e-12 < y < hi - 1e-12) for lo, hi in blocked)

        rear = sorted(c for c in [y0] + [hi for _, hi in blocked] if y0 <= c <= ymax and free(c))
        if rear:
            y = rear[0]
        else:
            front = sorted(
                (c for c in [y0] + [lo for lo, _ in blocked] if r <= c <= y0 and free(c)),
                reverse=True,
            )
            if not front:  # pragma: no cover - a full spot line end to end
                raise ValueError(f"no room to re-spot ball {b} on the long axis")
            y = front[0]
        placed[b] = (x0, y)
        occupied[b] = (x0, y)
    return placed


def id_order(b: str) -> tuple[int, int, str]:
    return (0, int(b), "") if b.isdigit() else (1, 0, b)


# ------------------------------------------------------------------------ rack
def rack(table: Table, balls: Iterable[str], variant: str) -> dict[str, XY]:
    """Rack the given object balls (item 8 and its note): a full or an
    incomplete pyramid from ``rack_spots``. Classic pyramid keeps the order of
    its fixed rack for the balls that remain; the other games rack in id
    order (any order is allowed)."""
    ids = list(balls)
    if variant == "classic71":
        order = [b for row in CLASSIC_RACK for b in row]
        ids.sort(key=lambda b: order.index(b) if b in order else 99)
    else:
        ids.sort(key=id_order)
    spots = rack_spots(table, len(ids))
    return dict(zip(ids, spots, strict=True))


# ------------------------------------------------------------------------- lag
def lag_result(
    table: Table,
    side: int,
    events: Sequence[Event],
    final: Mapping[str, XY],
    ball: str,
    back_to_house: bool = False,
) -> float | None:
    """One player's lag (item 7, docs/game_rules.md §4.1): the distance of the ball
    from the front cushion when it stops, or None when the lag is lost: the
    ball ended on the opponent's side of the long axis (``side`` 0 plays
    left of it, 1 right; the log has no trajectory, so where it stops is
    what is judged), did not reach the rear cushion, was pocketed or left the
    table, touched a long cushion, or touched the rear cushion more than
    once. ``back_to_house`` adds the five-ball condition (seed 000, last
    paragraph): the ball must come back into the house."""
    if ball not in final:
        return None
    rear = 0
    for e in events:
        if e.type in ("pocket", "off_table", "on_rail", "returned"):
            return None
        if e.type == "cushion" and ball in e.balls:
            if e.cushion == "rear":
                rear += 1
            elif e.cushion != "front":
                return None
    if rear != 1:
        return None
    x, y = final[ball]
    mid = table.width / 2
    if (side == 0 and x > mid) or (side == 1 and x < mid):
        return None
    if back_to_house and not table.in_house(x, y):
        return None
    return y
