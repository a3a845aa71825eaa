"""Statistics of seeded breaks from the rack (docs/physics.md).

    python -m piramida.env.physics.breaks [--n 100] [--speed 8.0] [--noise pro] [--seed 0]

Break k: the rack of ``Position.start("free", seed=seed + k)``, the coloured
ball placed in the house on the long axis 0.6 m from the front cushion,
aimed at the apex ball at ``speed`` m/s with a centre-ball hit, played with
the noise preset seeded by ``seed + k``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from piramida.env.physics.simulate import simulate
from piramida.env.position import Position
from piramida.env.shot import Shot


def break_stats(n: int = 100, speed: float = 8.0, noise: str = "pro", seed: int = 0) -> dict[str, float]:
    rows = []
    t0 = time.perf_counter()
    for k in range(n):
        start = Position.start("free", seed=seed + k)
        x = start.table.width / 2
        shot = Shot("0", 90.0, speed, place=(x, 0.6))
        r = simulate(start, shot, noise=noise, seed=seed + k)
        crossed = {e.balls[0] for e in r.events if e.type == "centre_line" and e.balls[0] != "0"}
        rows.append(
            (
                len(r.events),
                sum(e.type == "ball_ball" for e in r.events),
                sum(e.type == "cushion" for e in r.events),
                len([b for b, _ in r.pocketed if b != "0"]),
                int(any(b == "0" for b, _ in r.pocketed)),
                len(r.off_table),
                len(crossed),
                r.duration,
            )
        )
    wall = time.perf_counter() - t0
    a = np.array(rows, dtype=float)
    names = (
        "events",
        "ball_ball",
        "cushion",
        "object_balls_pocketed",
        "cue_ball_pocketed",
        "off_table",
        "object_balls_crossing_centre_line",
        "duration_s",
    )
    out = {f"mean_{k}": float(v) for k, v in zip(names, a.mean(axis=0), strict=True)}
    out["breaks_with_a_pot"] = float((a[:, 3] > 0).mean())
    out["ms_per_break"] = 1000 * wall / n
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--speed", type=float, default=8.0)
    ap.add_argument("--noise", default="pro")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    simulate(Position.start("free"), Shot("0", 90.0, 1.0, place=(0.8875, 0.6)))  # compile
    for k, v in break_stats(args.n, args.speed, args.noise, args.seed).items():
        print(f"{k}: {v:.3f}")


if __name__ == "__main__":
    main()
