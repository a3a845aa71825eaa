"""Event logs: the JSON form round-trips and malformed events are refused
(docs/design.md §2)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from piramida.env.errors import InvalidEventsError
from piramida.env.events import (
    EVENT_TYPES,
    MOTION_STATES,
    Event,
    events_from_json,
    events_from_list,
    events_to_json,
)
from piramida.env.table import CUSHIONS, POCKETS

IDS = st.sampled_from([str(i) for i in range(16)])


@st.composite
def event_logs(draw: st.DrawFn) -> list[Event]:
    times = sorted(draw(st.lists(st.floats(0, 60), max_size=12)))
    out = []
    for t in times:
        kind = draw(st.sampled_from(EVENT_TYPES))
        if kind == "ball_ball":
            a, b = draw(st.lists(IDS, min_size=2, max_size=2, unique=True))
            out.append(Event(t, kind, (a, b)))
        elif kind == "cushion":
            out.append(Event(t, kind, (draw(IDS),), cushion=draw(st.sampled_from(CUSHIONS))))
        elif kind == "off_table":
            out.append(
                Event(t, kind, (draw(IDS),), cushion=draw(st.none() | st.sampled_from(CUSHIONS)))
            )
        elif kind == "pocket":
            out.append(Event(t, kind, (draw(IDS),), pocket=draw(st.sampled_from(POCKETS))))
        elif kind == "centre_line":
            out.append(Event(t, kind, (draw(IDS),), to=draw(st.sampled_from(("front", "rear")))))
        elif kind == "motion":
            states = st.sampled_from(MOTION_STATES)
            out.append(Event(t, kind, (draw(IDS),), from_=draw(states), to=draw(states)))
        else:
            out.append(Event(t, kind, (draw(IDS),)))
    return out


@given(event_logs())
def test_json_round_trip(events: list[Event]) -> None:
    text = events_to_json(events)
    assert events_from_json(text) == events
    assert events_to_json(events_from_json(text)) == text


def test_json_has_only_the_keys_that_apply() -> None:
    log = [
        Event(0.0, "cue", ("0",)),
        Event(0.5, "cushion", ("0",), cushion="rear"),
        Event(0.7, "motion", ("0",), from_="sliding", to="rolling"),
    ]
    assert json.loads(events_to_json(log)) == [
        {"t": 0.0, "type": "cue", "balls": ["0"]},
        {"t": 0.5, "type": "cushion", "balls": ["0"], "cushion": "rear"},
        {"t": 0.7, "type": "motion", "balls": ["0"], "from": "sliding", "to": "rolling"},
    ]


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"type": "bounce"}, "unknown event type 'bounce'"),
        ({"t": -1.0}, "time must be"),
        ({"t": math.nan}, "time must be"),
        ({"t": math.inf}, "time must be"),
        ({"t": True}, "time must be"),
        ({"type": "ball_ball", "balls": ("1",)}, "needs 2 ball"),
        ({"type": "ball_ball", "balls": ("1", "1")}, "one ball twice"),
        ({"balls": (1,)}, "as strings"),
        ({"type": "cushion"}, "cushion event needs a cushion"),
        ({"type": "cushion", "cushion": "top"}, "cushion event needs a cushion"),
        ({"type": "off_table", "cushion": "top"}, "off_table cushion"),
        ({"type": "pocket", "pocket": "centre"}, "pocket event needs a pocket"),
        ({"type": "centre_line", "to": "up"}, "centre_line event needs"),
        ({"type": "motion", "from_": "sliding", "to": "flying"}, "motion event needs"),
        ({"type": "motion", "to": "rolling"}, "motion event needs"),
        ({"from_": "sliding"}, "cue event cannot have from='sliding'"),
        ({"type": "pocket", "pocket": "rl", "cushion": "rear"}, "pocket event cannot have cushion"),
        ({"type": "cushion", "cushion": "rear", "pocket": "rl"}, "cushion event cannot have pocket"),
        ({"type": "ball_ball", "balls": ("1", "2"), "to": "rear"}, "ball_ball event cannot have to"),
    ],
)
def test_bad_event(kw: dict[str, object], match: str) -> None:
    args: dict[str, object] = {"t": 0.0, "type": "cue", "balls": ("0",)}
    args.update(kw)
    with pytest.raises(InvalidEventsError, match=match):
        Event(**args)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("data", "match"),
    [
        ({"t": 0}, "must be a JSON list"),
        ([1], "must be an object"),
        ([{"t": 0, "type": "cue"}], "needs 'balls'"),
        ([{"t": 0, "type": "cue", "balls": "0"}], "balls must be a list"),
        ([{"t": 0, "type": "cue", "balls": ["0"], "speed": 2}], "unknown key.*speed"),
        (
            [{"t": 1.0, "type": "cue", "balls": ["0"]}, {"t": 0.5, "type": "cue", "balls": ["1"]}],
            "out of time order",
        ),
    ],
)
def test_bad_log(data: object, match: str) -> None:
    with pytest.raises(InvalidEventsError, match=match):
        events_from_list(data)


def test_bad_json() -> None:
    with pytest.raises(InvalidEventsError, match="not valid JSON"):
        events_from_json("[{")
