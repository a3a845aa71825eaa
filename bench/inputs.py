"""Seeded benchmark inputs: breaks, mid-game shots and two-ball shots.

Depends only on piramida's value types (``Position``, ``Shot``, ``Table``),
never on the physics, so the same inputs feed piramida and pooltool. Every
case is a legal position (the ``Position`` constructor validates: on the
surface, no overlaps) with the struck ball on the table (not in hand: ``place`` is left empty so that both
engines see exactly the same start).

Three suites (docs/design.md §3 cares about all three speeds: planners simulate
mid-game and two-ball shots by the thousand, training plays breaks):

- ``break``: the rack of ``Position.start("free", seed)`` (docs/game_rules.md §2 item
  8), the coloured ball at a seeded spot in the house, aimed at the apex ball
  with a small seeded error, cue speed 8-9 m/s.
- ``midgame``: seeded positions of 7-10 balls scattered over the table; from
  each, shots with a random struck ball sent toward a random other ball (a
  random cut within the ball-ball contact cone), cue speed 1-4 m/s.
- ``two_ball``: the coloured ball and one object ball; the struck one sent
  toward the other, cue speed 1-4 m/s.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from piramida.env.position import Position
from piramida.env.shot import Shot
from piramida.env.table import Table

SUITES: tuple[str, ...] = ("break", "midgame", "two_ball")

# Full and --quick sizes: (breaks, midgame positions, shots per midgame position, two-ball shots).
FULL = {"break": 50, "midgame_positions": 20, "midgame_shots": 10, "two_ball": 200}
QUICK = {"break": 6, "midgame_positions": 4, "midgame_shots": 5, "two_ball": 20}

DEFAULT_SEED = 2026
# Clearance kept between scattered balls and from the cushions: balls that
# touch (frozen) are a special case that the benchmark should not depend on.
GAP = 0.002
# The tip offset stays well inside the miscue limit.
MAX_TIP = 0.4


@dataclass(frozen=True)
class Case:
    """One benchmark shot: a suite name, an index within it, a position and a shot."""

    suite: str
    index: int
    position: Position
    shot: Shot

    def to_dict(self) -> dict[str, Any]:
        """The form the pooltool runner reads (balls in piramida's frame)."""
        return {
            "balls": {b: [x, y] for b, x, y in self.position.balls},
            "shot": {
                "ball": self.shot.ball,
                "phi": self.shot.phi,
                "v": self.shot.v,
                "a": self.shot.a,
                "b": self.shot.b,
                "theta": self.shot.theta,
            },
        }


def _tip(rng: random.Random, limit: float = MAX_TIP) -> tuple[float, float]:
    """A uniform tip offset inside a disc of radius ``limit`` (ball radii)."""
    r = limit * math.sqrt(rng.random())
    t = rng.uniform(0.0, 2 * math.pi)
    return r * math.cos(t), r * math.sin(t)


def _bearing(src: tuple[float, float], dst: tuple[float, float]) -> float:
    """Direction from ``src`` to ``dst`` in degrees CCW from +x, in [0, 360)."""
    return math.degrees(math.atan2(dst[1] - src[1], dst[0] - src[0])) % 360.0


def _toward(
    rng: random.Random, src: tuple[float, float], dst: tuple[float, float], radius: float
) -> float:
    """A direction from ``src`` that hits a ball at ``dst`` if nothing is in
    the way: the centre line turned by a random cut inside 90% of the contact
    cone (half-angle asin(2R / d))."""
    d = math.hypot(dst[0] - src[0], dst[1] - src[1])
    half = math.degrees(math.asin(min(1.0, 2 * radius / d)))
    return (_bearing(src, dst) + rng.uniform(-0.9, 0.9) * half) % 360.0


def _scatter(
    rng: random.Random, table: Table, ids: list[str], tries: int = 10000
) -> dict[str, tuple[float, float]]:
    """Random non-overlapping spots on the open playing surface (not in the
    pocket mouths), ``GAP`` clear of the cushions and of each other."""
    r = table.ball_radius
    lo_x, hi_x = r + GAP, table.width - r - GAP
    lo_y, hi_y = r + GAP, table.length - r - GAP
    placed: dict[str, tuple[float, float]] = {}
    for b in ids:
        for _ in range(tries):
            x, y = rng.uniform(lo_x, hi_x), rng.uniform(lo_y, hi_y)
            if all(math.hypot(x - px, y - py) >= 2 * r + GAP for px, py in placed.values()):
                placed[b] = (x, y)
                break
        else:  # pragma: no cover - 10 balls on a 6 m^2 table always fit
            raise RuntimeError(f"could not place ball {b} after {tries} tries")
    return placed


def break_cases(n: int, seed: int = DEFAULT_SEED, table: Table | None = None) -> list[Case]:
    t = table or Table.default()
    r = t.ball_radius
    cases = []
    for i in range(n):
        rng = random.Random(f"break/{seed}/{i}")
        start = Position.start("free", seed=seed + i, table=t)
        apex = t.rear_spot
        # A spot in the house (y < house line), well clear of the cushions.
        cue = (rng.uniform(0.3, t.width - 0.3), rng.uniform(0.25, t.house_line - r - 0.05))
        balls = dict(start.ball_map)
        balls["0"] = cue
        pos = Position.from_balls("free", balls, is_break=True, table=t)
        a, b = _tip(rng, 0.15)
        phi = (_bearing(cue, apex) + rng.uniform(-0.5, 0.5)) % 360.0
        shot = Shot("0", phi=phi, v=rng.uniform(8.0, 9.0), a=a, b=b)
        cases.append(Case("break", i, pos, shot))
    return cases


def midgame_cases(
    n_positions: int, shots_each: int, seed: int = DEFAULT_SEED, table: Table | None = None
) -> list[Case]:
    t = table or Table.default()
    cases = []
    for k in range(n_positions):
        rng = random.Random(f"midgame/{seed}/{k}")
        n_balls = rng.randint(7, 10)
        ids = ["0"] + sorted(rng.sample([str(i) for i in range(1, 16)], n_balls - 1), key=int)
        pos = Position.from_balls("free", _scatter(rng, t, ids), table=t)
        bm = pos.ball_map
        for j in range(shots_each):
            struck = rng.choice(ids)
            target = rng.choice([b for b in ids if b != struck])
            a, b = _tip(rng)
            phi = _toward(rng, bm[struck], bm[target], t.ball_radius)
            shot = Shot(struck, phi=phi, v=rng.uniform(1.0, 4.0), a=a, b=b)
            cases.append(Case("midgame", k * shots_each + j, pos, shot))
    return cases


def two_ball_cases(n: int, seed: int = DEFAULT_SEED, table: Table | None = None) -> list[Case]:
    t = table or Table.default()
    cases = []
    for i in range(n):
        rng = random.Random(f"two_ball/{seed}/{i}")
        ids = ["0", str(rng.randint(1, 15))]
        pos = Position.from_balls("free", _scatter(rng, t, ids), table=t)
        struck = rng.choice(ids)
        target = ids[1] if struck == ids[0] else ids[0]
        a, b = _tip(rng)
        phi = _toward(rng, pos.xy(struck), pos.xy(target), t.ball_radius)
        shot = Shot(struck, phi=phi, v=rng.uniform(1.0, 4.0), a=a, b=b)
        cases.append(Case("two_ball", i, pos, shot))
    return cases


def suites(
    quick: bool = False, seed: int = DEFAULT_SEED, table: Table | None = None
) -> dict[str, list[Case]]:
    """All three suites, full size or the ``--quick`` size."""
    size = QUICK if quick else FULL
    return {
        "break": break_cases(size["break"], seed, table),
        "midgame": midgame_cases(size["midgame_positions"], size["midgame_shots"], seed, table),
        "two_ball": two_ball_cases(size["two_ball"], seed, table),
    }
