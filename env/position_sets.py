"""The named position sets that benchmarks and tests play.

Two sets of 200 positions each, one JSON object a line
(``{"variant", "position", ...}``), kept with the benchmarks in
``bench/positions/`` of a source checkout:

- ``reference``: balls scattered at random, clear of the pocket mouths
  (``reference_position`` below; ``python -m bench.planner positions``
  writes the file);
- ``played``: where seeded frames of greedy against greedy leave the balls
  (``bench/positions/played.py``), jaws and cushions included.

The library never reads the files; an installed package (no checkout)
has none, and ``load_positions`` says so. ``reference_position(i)`` makes
reference position ``i`` from its seed (``piramida calibrate leave`` plays
them too): variant ``VARIANTS[i % 7]`` and ``random.Random(SEED_BASE + i)``,
5 to 12 balls scattered uniformly over the bed (clear of each other by a
millimetre and of the pocket mouths by 8 cm, so no ball starts in the
jaws), the balls not on the table on the players' shelves with scores that
match them, the player to move drawn, and in a quarter of the pyramid games
with a single cue ball (and of five-ball ones) the cue ball in hand in the
house, with at least one object ball outside the house (item 21.2).
Every position is checked by ``Position`` validation and by its
variant's referee.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

from piramida.env.errors import NotFoundError
from piramida.env.position import VARIANTS, Position, ball_ids, cue_ball_of
from piramida.env.rules import get_referee
from piramida.env.table import Table

#: ``bench/positions/`` of the source checkout (env/ -> repository root).
POSITIONS_DIR = Path(__file__).resolve().parents[1] / "bench" / "positions"
#: The sets by name, as ``--positions`` takes them.
SETS: dict[str, Path] = {
    "reference": POSITIONS_DIR / "reference.jsonl",
    "played": POSITIONS_DIR / "played.jsonl",
}


def load_positions(path: Path | str = "reference") -> list[dict[str, Any]]:
    """The rows of a position set (a name in ``SETS`` or a file), each with
    ``"position"`` read into a ``Position``."""
    if isinstance(path, str) and path in SETS:
        path = SETS[path]
    path = Path(path)
    if not path.is_file():
        raise NotFoundError(f"{path}: no such position set (the sets live in bench/positions/ of a source checkout)")
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            d = json.loads(line)
            d["position"] = Position.from_dict(d["position"])
            out.append(d)
    return out


N_POSITIONS = 200
SEED_BASE = 20260


def _value(variant: str, ball: str) -> int:
    if variant == "classic71":
        return 11 if ball == "1" else int(ball)
    return 1


def reference_position(i: int, table: Table | None = None) -> Position:
    """Reference position ``i`` (module docstring): seeded, so the same on
    every machine."""
    t = table or Table.default()
    variant = VARIANTS[i % len(VARIANTS)]
    rng = random.Random(SEED_BASE + i)
    R = t.ball_radius
    to_move = rng.randrange(2)
    every = list(ball_ids(variant))
    if variant == "five_ball":
        on_table = list(every)
    else:
        n = rng.randint(5, 12)
        objects = [b for b in every if b != "0"]
        on_table = ["0"] + rng.sample(objects, n - 1)
    single_cue = variant not in ("free",)
    in_hand = None
    if single_cue and rng.random() < 0.25:
        cue = cue_ball_of(variant, to_move)
        on_table.remove(cue)
        in_hand = "house"
    placed: dict[str, tuple[float, float]] = {}
    mouths = [p.mouth_centre for p in t.pockets.values()]
    for b in on_table:
        for _ in range(10_000):
            x = rng.uniform(R + 0.002, t.width - R - 0.002)
            y = rng.uniform(R + 0.002, t.length - R - 0.002)
            if in_hand and t.in_house(x, y) and rng.random() < 0.8:
                continue  # keep most balls out of the house so there is something to hit
            if any(math.hypot(x - mx, y - my) < 0.08 for mx, my in mouths):
                continue
            if all(math.hypot(x - px, y - py) >= 2 * R + 0.001 for px, py in placed.values()):
                placed[b] = (x, y)
                break
    off = [b for b in every if b not in placed and b not in on_table]
    if in_hand:
        off = [b for b in off if b != cue_ball_of(variant, to_move)]
    shelves: tuple[list[str], list[str]] = ([], [])
    score = [0, 0]
    if variant == "five_ball":
        off = []
        score = [rng.randrange(0, 50), rng.randrange(0, 50)]
    for b in off:
        p = rng.randrange(2)
        shelves[p].append(b)
        score[p] += _value(variant, b)
    if variant != "classic71" and variant != "five_ball":
        # Keep the frame unfinished: nobody at the target of 8 yet.
        while max(len(s) for s in shelves) >= 8:
            big = 0 if len(shelves[0]) >= 8 else 1
            shelves[1 - big].append(shelves[big].pop())
        score = [len(shelves[0]), len(shelves[1])]
    elif variant == "classic71":
        score = [min(s, 70) for s in score]
    pos = Position.from_balls(
        variant,
        placed,
        shelves=(tuple(shelves[0]), tuple(shelves[1])),
        score=tuple(score),
        to_move=to_move,
        in_hand=in_hand,
        table=t,
    )
    if in_hand and all(t.in_house(x, y) for _, x, y in pos.balls):
        return reference_position(i + len(VARIANTS) * 1000, t)  # nothing outside the house: draw again
    ref = get_referee(variant, None, t)
    ref.allowed_cue_balls(pos)
    ref.initial_state(pos)
    return pos


def reference_rows(n: int = N_POSITIONS) -> list[dict[str, Any]]:
    """The rows of ``reference.jsonl``: positions 0 to n - 1."""
    return [{"id": i, "variant": (p := reference_position(i)).variant, "position": p.to_dict()} for i in range(n)]


def write_reference(path: Path = SETS["reference"], n: int = N_POSITIONS) -> int:
    """(Re)write the reference set; the number of rows."""
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = reference_rows(n)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return len(rows)
