"""200 positions from seeded frames of greedy against greedy (``pro``
noise): the other set of positions a change to the candidate search is
checked on.

The reference positions (``piramida.env.position_sets.reference_position``)
scatter balls uniformly and keep every one 8 cm from the pocket mouths, so
that none starts in the jaws. Real frames are not like that: balls rest in
the jaws and against cushions, in clusters, the cue ball comes back in
hand after a foul. A search change measured on the reference positions
alone can look harmless there and still lose the only stroke that pots a
ball in the jaws (pot_line without its softest pace pots 5 fewer of 12,000
reference lines, and misses such a ball). Here frame ``f`` of variant
``VARIANTS[f % 7]`` is played from seed ``SEED_BASE + f`` by two greedy
agents, and every ``EVERY``-th shot decision of it (from its ``f %
EVERY``-th, the break included when it falls there) is kept, frames in
turn until each variant has its share of ``n``; a position is kept as the
player to act saw it.

    .venv/bin/python -m bench.positions.played [--out FILE] [--n 200]

The committed file is kept as it is, a fixed set: after a change to
greedy, the noise or the physics the same seeds play other frames, and a
new file would no longer compare with earlier measurements (write a new
one under another name instead).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from piramida.env.position import VARIANTS
from piramida.env.position_sets import SETS

N_POSITIONS = 200
SEED_BASE = 16_000
#: Every how many shot decisions of a frame one is kept.
EVERY = 4
#: A frame's shots are capped: a long safety battle adds nothing new.
MAX_SHOTS = 120
PATH = SETS["played"]


def frame_positions(f: int) -> list[dict[str, Any]]:
    """The kept positions of frame ``f`` (see the module docstring)."""
    from piramida.agents.greedy import GreedyAgent
    from piramida.env.driver import FrameDriver, Step

    variant = VARIANTS[f % len(VARIANTS)]
    driver = FrameDriver(variant, "pro")
    driver.reset(seed=SEED_BASE + f)
    shots: list[Any] = []

    def seen(step: Step) -> None:
        if step.is_shot:
            shots.append(step.position)

    agents = [GreedyAgent(noise="pro"), GreedyAgent(noise="pro")]
    driver.play(agents, max_shots=MAX_SHOTS, on_step=seen)
    kept = shots[f % EVERY :: EVERY]
    return [{"frame": f, "shot": f % EVERY + EVERY * k, "variant": variant, "position": p.to_dict()}
            for k, p in enumerate(kept)]


def positions(n: int = N_POSITIONS) -> list[dict[str, Any]]:
    """``n`` positions, the variants' shares as equal as ``n`` allows (a
    frame of free pyramid is shorter than one of classic pyramid): a
    frame's positions are kept while its variant's share is not full."""
    k = len(VARIANTS)
    quota = {v: n // k + (i < n % k) for i, v in enumerate(VARIANTS)}
    out: list[dict[str, Any]] = []
    f = 0
    while any(quota.values()):
        variant = VARIANTS[f % k]
        if quota[variant]:
            got = frame_positions(f)[: quota[variant]]
            quota[variant] -= len(got)
            out.extend(got)
        f += 1
    return [{"id": i, **d} for i, d in enumerate(out)]


def write(path: Path = PATH, n: int = N_POSITIONS) -> int:
    rows = positions(n)
    path.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows), encoding="utf-8")
    return len(rows)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.positions.played", description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--out", type=Path, default=PATH, help=f"where to write (default {PATH.name} here)")
    p.add_argument("--n", type=int, default=N_POSITIONS, help=f"how many positions (default {N_POSITIONS})")
    a = p.parse_args(argv)
    if a.n < 1:
        p.error("--n must be at least 1")
    print(f"{write(a.out, a.n)} positions -> {a.out}")


if __name__ == "__main__":
    main()
