"""Random but well-formed shot outcomes (event log + final position) for
property tests: a stand-in for the physics that exercises every branch of
the referee."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from piramida.env.events import Event
from piramida.env.position import Position
from piramida.env.shot import Shot
from piramida.env.table import CUSHIONS, POCKETS


def random_outcome(position: Position, shot: Shot, rng: random.Random) -> tuple[Sequence[Event], Position]:
    start = dict(position.ball_map)
    if shot.place is not None:
        start[shot.ball] = shot.place
    ids = list(start)
    cue = shot.ball
    t = 0.0
    events = [Event(0.0, "cue", (cue,))]
    gone: set[str] = set()

    def live() -> list[str]:
        return [b for b in ids if b not in gone]

    others = [b for b in ids if b != cue]
    if others and rng.random() < 0.85:
        t += 0.1
        events.append(Event(t, "ball_ball", (cue, rng.choice(others))))
    for _ in range(rng.randrange(0, 9)):
        t += 0.1
        balls = live()
        if not balls:
            break
        r = rng.random()
        b = rng.choice(balls)
        if r < 0.3 and len(balls) > 1:
            b2 = rng.choice([x for x in balls if x != b])
            events.append(Event(t, "ball_ball", (b, b2)))
        elif r < 0.6:
            events.append(Event(t, "cushion", (b,), cushion=rng.choice(CUSHIONS)))
        elif r < 0.8:
            events.append(Event(t, "centre_line", (b,), to=rng.choice(("front", "rear"))))
        elif r < 0.97:
            events.append(Event(t, "pocket", (b,), pocket=rng.choice(POCKETS)))
            gone.add(b)
        else:
            events.append(Event(t, "off_table", (b,)))
            gone.add(b)
    final = {b: start[b] for b in live()}
    tab = position.table
    rad = tab.ball_radius
    for b in list(final):
        if rng.random() < 0.3:
            for _ in range(20):
                x = rng.uniform(rad, tab.width - rad)
                y = rng.uniform(rad, tab.length - rad)
                if all(math.hypot(x - ox, y - oy) >= 2 * rad for o, (ox, oy) in final.items() if o != b):
                    final[b] = (x, y)
                    break
    after = position.replace(balls=tuple((b, x, y) for b, (x, y) in final.items()), in_hand=None)
    return events, after
