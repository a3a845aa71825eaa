"""Pot rates of the noise presets on three reference shots (docs/physics.md).

    python -m piramida.env.physics.calibrate [--trials 1000] [--seed 0] [--presets ...]

Reference shots (centre-ball hit, cue speed 2.5 m/s, the cue ball 0.5 m
from the ghost-ball position):

- ``straight_corner``: object ball 1.0 m from the rear-right corner pocket's
  mouth, on its axis; straight in.
- ``cut30_corner``: the same object ball, cue ball on a line 30 degrees off
  the object-pocket line (a 30 degree cut over 1.0 m).
- ``cut45_middle``: object ball 0.5 m from the right middle pocket's mouth
  on its axis, cut at 45 degrees.

The intended aim is the centre of the band of cue directions that pots the
ball without noise (found by scanning), so throw is already allowed for;
the presets then perturb that shot. A trial succeeds when the object ball
drops in the target pocket.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass

import numpy as np

from piramida.env.physics.noise import load_noise, presets
from piramida.env.physics.simulate import simulate
from piramida.env.position import Position
from piramida.env.shot import Shot
from piramida.env.table import Table

SPEED = 2.5
CUE_DIST = 0.5


@dataclass(frozen=True)
class Reference:
    name: str
    position: Position
    shot: Shot
    pocket: str


def _setup(table: Table, pocket: str, dist: float, cut_deg: float) -> tuple[Position, float]:
    p = table.pockets[pocket]
    R = table.ball_radius
    ax, ay = p.axis
    ox, oy = p.mouth_centre[0] - dist * ax, p.mouth_centre[1] - dist * ay
    gx, gy = ox - 2 * R * ax, oy - 2 * R * ay
    c = math.radians(cut_deg)
    # The cue ball comes in along a direction cut_deg off the object line.
    dx, dy = ax * math.cos(c) - ay * math.sin(c), ax * math.sin(c) + ay * math.cos(c)
    cx, cy = gx - CUE_DIST * dx, gy - CUE_DIST * dy
    pos = Position.from_balls("free", {"0": (cx, cy), "1": (ox, oy)}, table=table)
    return pos, math.degrees(math.atan2(gy - cy, gx - cx))


def _pots(pos: Position, phi: float, pocket: str) -> bool:
    r = simulate(pos, Shot("0", phi, SPEED))
    return ("1", pocket) in r.pocketed


def _best_aim(pos: Position, phi0: float, pocket: str) -> float:
    """Centre of the band of cue directions that pot (no noise)."""
    grid = phi0 + np.linspace(-2.0, 2.0, 801)
    ok = np.array([_pots(pos, float(f), pocket) for f in grid])
    if not ok.any():
        raise RuntimeError(f"no aim pots the reference shot into {pocket}")
    # The widest run of successes.
    best, run, start, best_start = 0, 0, 0, 0
    for k, v in enumerate(ok):
        if v:
            if run == 0:
                start = k
            run += 1
            if run > best:
                best, best_start = run, start
        else:
            run = 0
    lo, hi = grid[best_start], grid[best_start + best - 1]
    return float((lo + hi) / 2)


def references(table: Table | None = None) -> list[Reference]:
    t = table or Table.default()
    out = []
    for name, pocket, dist, cut in (
        ("straight_corner", "rr", 1.0, 0.0),
        ("cut30_corner", "rr", 1.0, 30.0),
        ("cut45_middle", "mr", 0.5, 45.0),
    ):
        pos, phi0 = _setup(t, pocket, dist, cut)
        phi = _best_aim(pos, phi0, pocket)
        out.append(Reference(name, pos, Shot("0", phi, SPEED), pocket))
    return out


def pot_rate(ref: Reference, preset: str, trials: int, seed: int) -> float:
    noise = load_noise(preset)
    hits = 0
    for k in range(trials):
        r = simulate(ref.position, ref.shot, noise=noise, seed=seed * 1_000_003 + k)
        hits += ("1", ref.pocket) in r.pocketed
    return hits / trials


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--presets", nargs="*", default=None)
    args = ap.parse_args(argv)
    names = args.presets or [p for p in ("none", "pro", "amateur", "novice") if p in presets()]
    refs = references()
    print("| preset | " + " | ".join(r.name for r in refs) + " |")
    print("|---|" + "---|" * len(refs))
    for name in names:
        rates = [pot_rate(r, name, args.trials, args.seed) for r in refs]
        print(f"| {name} | " + " | ".join(f"{100 * x:.1f}%" for x in rates) + " |")


if __name__ == "__main__":
    main()
