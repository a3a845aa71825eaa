"""Calibrate the planner's next-shot chance against real potting.

The planner values the table it leaves by the chance that whoever shoots
next pots (``planner_leave.pot_probability`` of the easiest open pot's
ghost-ball difficulty). This measures that chance directly: in seeded
positions (``bench/positions/generate.make``, pyramid variants, no ball in
hand) greedy picks its shot, the shot is played ``--samples`` times under
the noise preset (the frame driver's noise streams, env/driver.py), and the
share that scores is set against the position's easiest difficulty. It prints the measured share by difficulty band next to
the model's prediction, and the least-squares fit of the model's two
parameters (midpoint ``D50`` at ``pro`` and exponent).

    .venv/bin/python -m bench.leave_calibration [--positions 400] [--samples 16] [--noise pro]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np


def measure(n: int, samples: int, noise_name: str, start: int = 1000) -> list[tuple[float, float]]:
    from bench.positions.generate import make
    from piramida.agents.greedy import GreedyAgent
    from piramida.agents.shots.probability import easiest_difficulty
    from piramida.env.driver import FrameDriver
    from piramida.env.errors import PiramidaError
    from piramida.env.view import GameView

    drivers: dict[str, FrameDriver] = {}
    out: list[tuple[float, float]] = []
    greedy = GreedyAgent()
    i = start
    try:
        from tqdm import tqdm

        bar: Any = tqdm(total=n, desc="positions", file=sys.stderr)
    except ImportError:  # pragma: no cover
        bar = None
    while len(out) < n:
        pos = make(i)
        i += 1
        if pos.variant == "five_ball" or pos.in_hand is not None or pos.is_break:
            continue
        view = GameView.for_position(pos)
        ref = view.referee
        cues = [c for c in ref.allowed_cue_balls(pos) if c in pos]
        targets = [b for b in pos.ids if not (pos.variant == "classic71" and b == "0")]
        d = easiest_difficulty(pos, cues, targets)
        if d is None:
            continue
        shot = greedy.act(view)
        # Sample k is the shot under the preset's noise: the frame driver's
        # stroke of (seed i, pair k) from the position.
        driver = drivers.setdefault(pos.variant, FrameDriver(pos.variant, noise_name))
        hits = 0
        for k in range(samples):
            driver.reset(i, k, position=pos)
            try:
                r = driver.apply(shot).ruling
            except PiramidaError:
                continue
            assert r is not None
            hits += int(r.legal and bool(r.scored.get(view.player)))
        out.append((d, hits / samples))
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    return out


def model(d: np.ndarray, d50: float, k: float) -> np.ndarray:
    return 1.0 / (1.0 + (d / d50) ** k)


def fit(data: list[tuple[float, float]]) -> tuple[float, float, float]:
    d = np.array([x for x, _ in data])
    y = np.array([y for _, y in data])
    best = (np.inf, 0.0, 0.0)
    for d50 in np.geomspace(100, 20000, 200):
        for k in np.linspace(0.3, 3.0, 55):
            err = float(np.mean((model(d, d50, k) - y) ** 2))
            if err < best[0]:
                best = (err, float(d50), float(k))
    return best


def report(data: list[tuple[float, float]], d50_old: float, k_old: float) -> dict[str, Any]:
    d = np.array([x for x, _ in data])
    y = np.array([y for _, y in data])
    err, d50, k = fit(data)
    edges = np.quantile(d, np.linspace(0, 1, 7))
    rows = []
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        m = (d >= lo) & (d <= hi)
        rows.append(
            {
                "difficulty": [round(float(lo)), round(float(hi))],
                "positions": int(m.sum()),
                "measured": round(float(y[m].mean()), 3),
                "old_model": round(float(model(d[m], d50_old, k_old).mean()), 3),
                "fitted": round(float(model(d[m], d50, k).mean()), 3),
            }
        )
    old_err = float(np.mean((model(d, d50_old, k_old) - y) ** 2))
    return {"d50": d50, "k": k, "mse": err, "old_mse": old_err, "bands": rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.leave_calibration")
    ap.add_argument("--positions", type=int, default=400)
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--noise", default="pro")
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args(argv)
    data = measure(a.positions, a.samples, a.noise)
    out = report(data, 1500.0, 2.0)
    out.update({"noise": a.noise, "positions": len(data), "samples": a.samples})
    for r in out["bands"]:
        print(
            f"difficulty {r['difficulty'][0]:>5}-{r['difficulty'][1]:<5} n={r['positions']:>3}  "
            f"measured {r['measured']:.3f}  old model {r['old_model']:.3f}  fitted {r['fitted']:.3f}"
        )
    print(f"fit: D50 {out['d50']:.0f}, exponent {out['k']:.2f}; mse {out['mse']:.4f} (old {out['old_mse']:.4f})")
    if a.out is not None:
        out["data"] = data
        a.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
