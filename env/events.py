"""Event: one thing that happened during a shot (docs/design.md §2).

The physics writes a time-ordered list of events; the rules read it. Both
import this module and nothing of each other.

JSON, one object per event, with only the keys that apply::

    {"t": 0.0, "type": "cue", "balls": ["0"]}
    {"t": 0.41, "type": "ball_ball", "balls": ["0", "5"]}
    {"t": 0.9, "type": "cushion", "balls": ["5"], "cushion": "rear"}
    {"t": 1.2, "type": "pocket", "balls": ["5"], "pocket": "rl"}
    {"t": 0.6, "type": "centre_line", "balls": ["0"], "to": "rear"}
    {"t": 0.7, "type": "off_table", "balls": ["3"], "cushion": "left_rear"}
    {"t": 0.2, "type": "motion", "balls": ["0"], "from": "sliding", "to": "rolling"}

Three more types are the special cases of seed 003, which the physics never
writes and a recorded match may hold (docs/rules.md, "Special cases")::

    {"t": 1.4, "type": "on_rail", "balls": ["3"], "cushion": "right_rear"}
    {"t": 0.8, "type": "returned", "balls": ["0"]}
    {"t": 0.3, "type": "hanging_drop", "balls": ["7"], "pocket": "rl"}

``on_rail``: the ball jumped and came to rest on top of the cushion or the
rail (where: the position after holds it in ``rail``; ``cushion``, optional,
the one it rests against). ``returned``: the ball left the table, struck
someone or something off it and came back onto the bed. ``hanging_drop``: a
ball standing in the jaws (of ``pocket``, optional) fell in by itself after
the stroke began and before the struck ball reached it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from piramida.env.errors import InvalidEventsError
from piramida.env.inputs import brief, load_json, number
from piramida.env.table import CUSHIONS, POCKETS

EVENT_TYPES: tuple[str, ...] = (
    "cue",
    "ball_ball",
    "cushion",
    "pocket",
    "centre_line",
    "off_table",
    "motion",
    "on_rail",
    "returned",
    "hanging_drop",
)
#: The types only a recorded match holds (seed 003, special cases).
SPECIAL_TYPES: tuple[str, ...] = ("on_rail", "returned", "hanging_drop")
MOTION_STATES: tuple[str, ...] = ("stationary", "spinning", "sliding", "rolling")

# The log as numbers: what the physics writes before any Event object is
# made (``ShotResult.records``), for a reader that wants it fast (a search
# judges dozens of strokes a decision). One float64 row an event,
# ``[type, t, i, j, a, b]``: ``type`` its index in EVENT_TYPES; ``i`` (and
# ``j``, the other ball of a ball_ball event) the ball's index in the ids
# the records come with; ``a`` the cushion's index in CUSHIONS (cushion,
# off_table), the pocket's in POCKETS (pocket), > 0 for a centre_line to
# the rear half and < 0 to the front, or the motion state left (index in
# MOTION_STATES; ``b`` the one entered). The rows are in the log's order.
CUE, BALL_BALL, CUSHION, POCKET, CENTRE_LINE, OFF_TABLE, MOTION, ON_RAIL, RETURNED, HANGING_DROP = range(10)
#: Seconds: no shot on a real table runs for an hour.
MAX_EVENT_TIME = 3600.0
#: Events in one log: a break has a few hundred, so this is generous.
MAX_EVENTS = 100_000
_NBALLS = {
    "cue": 1,
    "ball_ball": 2,
    "cushion": 1,
    "pocket": 1,
    "centre_line": 1,
    "off_table": 1,
    "motion": 1,
    "on_rail": 1,
    "returned": 1,
    "hanging_drop": 1,
}


@dataclass(frozen=True)
class Event:
    t: float
    type: str
    balls: tuple[str, ...]
    cushion: str | None = None
    pocket: str | None = None
    to: str | None = None
    from_: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "balls", tuple(self.balls))
        if self.type not in EVENT_TYPES:
            raise InvalidEventsError(f"unknown event type {brief(self.type)} (known: {', '.join(EVENT_TYPES)})")
        object.__setattr__(self, "t", number(self.t, "event time", 0.0, MAX_EVENT_TIME, InvalidEventsError))
        if len(self.balls) != _NBALLS[self.type] or not all(isinstance(b, str) for b in self.balls):
            raise InvalidEventsError(
                f"{self.type} event needs {_NBALLS[self.type]} ball id(s) as strings, got {brief(list(self.balls))}"
            )
        # A field that does not apply would be dropped or misread downstream.
        for name, value, types in (
            ("cushion", self.cushion, ("cushion", "off_table", "on_rail")),
            ("pocket", self.pocket, ("pocket", "hanging_drop")),
            ("to", self.to, ("centre_line", "motion")),
            ("from", self.from_, ("motion",)),
        ):
            if value is not None and self.type not in types:
                raise InvalidEventsError(f"{self.type} event cannot have {name}={brief(value)}")
        if self.type == "ball_ball" and self.balls[0] == self.balls[1]:
            raise InvalidEventsError(f"ball_ball event with one ball twice: {brief(list(self.balls))}")
        if self.type == "cushion" and self.cushion not in CUSHIONS:
            raise InvalidEventsError(f"cushion event needs a cushion in {CUSHIONS}, got {brief(self.cushion)}")
        if self.type in ("off_table", "on_rail") and self.cushion is not None and self.cushion not in CUSHIONS:
            raise InvalidEventsError(f"{self.type} cushion must be one of {CUSHIONS}, got {brief(self.cushion)}")
        if self.type == "pocket" and self.pocket not in POCKETS:
            raise InvalidEventsError(f"pocket event needs a pocket in {POCKETS}, got {brief(self.pocket)}")
        if self.type == "hanging_drop" and self.pocket is not None and self.pocket not in POCKETS:
            raise InvalidEventsError(f"hanging_drop pocket must be one of {POCKETS}, got {brief(self.pocket)}")
        if self.type == "centre_line" and self.to not in ("front", "rear"):
            raise InvalidEventsError(f"centre_line event needs to='front' or 'rear', got {brief(self.to)}")
        if self.type == "motion" and (self.to not in MOTION_STATES or self.from_ not in MOTION_STATES):
            raise InvalidEventsError(
                f"motion event needs from/to in {MOTION_STATES}, got {brief(self.from_)} -> {brief(self.to)}"
            )

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"t": self.t, "type": self.type, "balls": list(self.balls)}
        if self.cushion is not None:
            d["cushion"] = self.cushion
        if self.pocket is not None:
            d["pocket"] = self.pocket
        if self.type == "motion":
            d["from"] = self.from_
        if self.to is not None:
            d["to"] = self.to
        return d

    @classmethod
    def from_dict(cls, d: Any) -> Event:
        if not isinstance(d, dict):
            raise InvalidEventsError(f"an event must be an object, got {brief(d)}")
        unknown = sorted(set(d) - {"t", "type", "balls", "cushion", "pocket", "to", "from"})
        if unknown:
            raise InvalidEventsError(f"unknown key(s) in event {brief(d)}: {', '.join(brief(k, 30) for k in unknown)}")
        for need in ("t", "type", "balls"):
            if need not in d:
                raise InvalidEventsError(f"event {brief(d)} needs {need!r}")
        if not isinstance(d["balls"], list | tuple):
            raise InvalidEventsError(f"event balls must be a list, got {brief(d['balls'])}")
        return cls(
            t=d["t"],
            type=d["type"],
            balls=tuple(d["balls"]),
            cushion=d.get("cushion"),
            pocket=d.get("pocket"),
            to=d.get("to"),
            from_=d.get("from"),
        )


def describe_event(e: Event) -> str:
    """One readable line for an event of the log (``piramida simulate`` and
    the web page's event list print it)."""
    who = " ".join(e.balls)
    if e.type == "ball_ball":
        return f"ball {e.balls[0]} hits ball {e.balls[1]}"
    if e.type == "cue":
        return f"cue strikes ball {who}"
    if e.type == "cushion":
        return f"ball {who} hits cushion {e.cushion}"
    if e.type == "pocket":
        return f"ball {who} drops in pocket {e.pocket}"
    if e.type == "centre_line":
        return f"ball {who} crosses the centre line to the {e.to}"
    if e.type == "off_table":
        return f"ball {who} leaves the table at cushion {e.cushion}"
    if e.type == "on_rail":
        return f"ball {who} comes to rest on the rail" + (f" by cushion {e.cushion}" if e.cushion else "")
    if e.type == "returned":
        return f"ball {who} leaves the table, strikes something off it and comes back"
    if e.type == "hanging_drop":
        return f"ball {who} falls from the jaws" + (f" into pocket {e.pocket}" if e.pocket else "") + " by itself"
    return f"ball {who}: {e.from_} -> {e.to}"


def events_to_json(events: Iterable[Event]) -> str:
    return json.dumps([e.to_dict() for e in events])


def events_from_json(text: str) -> list[Event]:
    return events_from_list(load_json(text, "event log", InvalidEventsError))


def events_from_list(data: Any) -> list[Event]:
    if not isinstance(data, list):
        raise InvalidEventsError(f"an event log must be a JSON list, got {type(data).__name__}")
    if len(data) > MAX_EVENTS:
        raise InvalidEventsError(f"an event log holds at most {MAX_EVENTS} events, got {len(data)}")
    events = [Event.from_dict(d) for d in data]
    check_order(events)
    return events


def check_order(events: Sequence[Event]) -> None:
    for prev, cur in zip(events, events[1:], strict=False):
        if cur.t < prev.t:
            raise InvalidEventsError(f"events out of time order: t={cur.t} after t={prev.t}")
