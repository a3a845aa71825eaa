"""Regenerate the physics golden files (run from the repository root):

    .venv/bin/python tests/env/physics/golden/make_golden.py

Only after a deliberate change to the physics; say why in the commit.
"""

from __future__ import annotations

import json
from pathlib import Path

from piramida.env.physics import simulate
from piramida.env.position import Position
from piramida.env.shot import Shot

HERE = Path(__file__).parent

CASES = {
    "break_seed0_pro": (Position.start("free", seed=0), Shot("0", 90.0, 8.0, place=(0.8875, 0.6)), "pro", 0),
    "cut_with_side": (
        Position.from_balls("free", {"0": (0.6, 0.9), "4": (0.9, 2.2), "9": (1.4, 2.9)}),
        Shot("0", 76.0, 3.0, a=0.3, b=0.2, theta=8.0),
        None,
        None,
    ),
}


def record(name: str) -> dict:
    pos, shot, noise, seed = CASES[name]
    r = simulate(pos, shot, noise=noise, seed=seed)
    return {"position": pos.to_dict(), "shot": r.shot.to_dict(), **r.to_dict()}


if __name__ == "__main__":
    for name in CASES:
        (HERE / f"{name}.json").write_text(json.dumps(record(name), indent=1) + "\n")
        print("wrote", name)
