"""Regenerate the physics golden files (run from the repository root):

    .venv/bin/python tests/env/physics/golden/make_golden.py

Only after a deliberate change to the physics; say why in the commit.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from piramida.env.physics import simulate
from piramida.env.position import Position
from piramida.env.shot import Shot
from piramida.env.table import Table

HERE = Path(__file__).parent


def constant_friction_table() -> Table:
    """The default table with the constant ball-ball friction (mu_ball) and
    no squirt (cue_end_mass 0), the simpler models the golden cases were made
    with; the default table has speed-dependent friction and squirt."""
    t = Table.default()
    ph = dataclasses.replace(t.physics, ball_friction_model="constant", cue_end_mass=0.0)
    return dataclasses.replace(t, physics=ph)


#: name -> (position, shot, noise, seed[, table]). The *_constant_friction
#: cases were recorded before the speed-dependent ball-ball friction became
#: the default and must not be regenerated: they show the constant model
#: still gives the old numbers.
FROZEN = ("cut_with_side_constant_friction", "stun_cut30_constant_friction")

CASES = {
    "break_seed0_pro": (Position.start("free", seed=0), Shot("0", 90.0, 8.0, place=(0.8875, 0.6)), "pro", 0),
    "cut_with_side": (
        Position.from_balls("free", {"0": (0.6, 0.9), "4": (0.9, 2.2), "9": (1.4, 2.9)}),
        Shot("0", 76.0, 3.0, a=0.3, b=0.2, theta=8.0),
        None,
        None,
    ),
    "cut_with_side_constant_friction": (
        Position.from_balls("free", {"0": (0.6, 0.9), "4": (0.9, 2.2), "9": (1.4, 2.9)}),
        Shot("0", 76.0, 3.0, a=0.3, b=0.2, theta=8.0),
        None,
        None,
        constant_friction_table(),
    ),
    "stun_cut30_constant_friction": (
        Position.from_balls("free", {"0": (0.8, 0.5), "1": (0.834, 1.0)}),
        Shot("0", 90.0, 1.5),
        None,
        None,
        constant_friction_table(),
    ),
}


def record(name: str) -> dict:
    pos, shot, noise, seed, *rest = CASES[name]
    table = rest[0] if rest else None
    if table is not None:
        pos = Position.from_dict(pos.to_dict(), table)
    r = simulate(pos, shot, table=table, noise=noise, seed=seed)
    return {"position": pos.to_dict(), "shot": r.shot.to_dict(), **r.to_dict()}


if __name__ == "__main__":
    for name in CASES:
        if name in FROZEN:
            continue
        (HERE / f"{name}.json").write_text(json.dumps(record(name), indent=1) + "\n")
        print("wrote", name)
