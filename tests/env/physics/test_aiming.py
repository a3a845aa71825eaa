"""The compiled stroke families (env/physics/aiming.py) read the event
loop's records as ``ShotResult`` reads them: the same first contact,
the same balls dropped, the same object-ball direction, stroke for stroke."""

from __future__ import annotations

import math

import numpy as np
import pytest

from piramida.env.physics import Simulator
from piramida.env.physics.aiming import ASK, NO, YES, object_error, play, pots_target, stroke
from piramida.env.position import Position
from piramida.env.shot import Shot
from piramida.env.table import POCKETS


def straight_pot() -> tuple[Position, float]:
    """Ball 0 straight behind ball 5 on the axis of the rr pocket, two
    other balls off the line; and the direction of that line."""
    t = Position.start("free", seed=1).table
    rr = t.pockets["rr"]
    ux, uy = -rr.axis[0], -rr.axis[1]
    mx, my = rr.mouth_centre
    balls = {"0": (mx + 0.9 * ux, my + 0.9 * uy), "5": (mx + 0.45 * ux, my + 0.45 * uy), "7": (0.4, 1.0), "9": (1.3, 2.0)}
    return Position.from_balls("free", balls).replace(is_break=False), math.degrees(math.atan2(-uy, -ux))


def played(sim: Simulator, shot: Shot) -> tuple:
    """The raw records of ``shot`` played by ``aiming.stroke``."""
    inp = sim.loop_inputs(shot)
    S, mode = np.empty_like(inp.S0), np.zeros(len(inp.ids), dtype=np.int64)
    t = inp.table
    nev, nseg, status = stroke(
        shot.phi, shot.v, inp.S0, S, mode, inp.ids.index(shot.ball), math.radians(shot.theta), shot.a, shot.b,
        t.CU, t.JW, t.FC, t.PK, t.P, inp.ev, inp.seg, inp.fw, inp.iw, inp.mw,
    )
    return inp, S, mode, nev, nseg, status


def expected_verdict(res, ref, target: str, pocket: str, called: bool) -> int:  # noqa: ANN001 - two results
    contact, ref_contact = res.first_contact(res.shot.ball), ref.first_contact(ref.shot.ball)
    same = (contact and contact[0]) == (ref_contact and ref_contact[0])
    if same and res.pocketed == ref.pocketed and not res.off_table:
        return YES
    drops = [p for b, p in res.pocketed if b == target]
    if drops and (drops[0] == pocket or not called):
        return ASK
    return NO


@pytest.mark.parametrize("called", [False, True])
def test_verdicts_and_readings_match_the_shot_result(called: bool) -> None:
    pos, phi0 = straight_pot()
    sim = Simulator(pos)
    base = Shot(ball="0", phi=phi0, v=3.0)
    ref = sim(base)
    assert ref.pocketed == [("5", "rr")] and not ref.off_table
    inp = sim.loop_inputs(base)
    ids, t = inp.ids, inp.table
    ref_contact = ids.index(ref.first_contact("0")[0])
    ref_pocketed = np.array([[ids.index("5"), POCKETS.index("rr")]], dtype=np.int64)
    target = ids.index("5")
    seen: list[int] = []
    contacts = 0
    for d in (0.0, 0.05, -0.1, 0.3, -0.6, 1.5, -3.0, 8.0):
        for v, b in ((3.0, 0.0), (5.0, 0.5), (1.2, -0.3)):
            shot = Shot(ball="0", phi=(phi0 + d) % 360.0, v=v, b=b)
            res = sim(shot)
            S, mode = np.empty_like(inp.S0), np.zeros(len(ids), dtype=np.int64)
            got = play(
                shot.phi, shot.v, inp.S0, S, mode, ids.index("0"), math.radians(shot.theta), shot.a, shot.b,
                t.CU, t.JW, t.FC, t.PK, t.P, inp.ev, inp.seg, inp.fw, inp.iw, inp.mw,
                target, POCKETS.index("rr"), called, ref_contact, ref_pocketed,
            )
            assert got == expected_verdict(res, ref, "5", "rr", called), (d, v, b)
            seen.append(got)
            # The final states and the records the stroke leaves read as the result reads them.
            _, S2, mode2, nev, nseg, _ = played(sim, shot)
            assert [(ids[i], float(S2[i, 0]), float(S2[i, 1])) for i in range(len(ids)) if mode2[i] >= 0] == list(
                res.final.balls
            )
            drops = [p for bb, p in res.pocketed if bb == "5"]
            assert pots_target(inp.ev, nev, mode2, target, POCKETS.index("rr"), called) == bool(drops)
            contact = res.first_contact("0")
            has, err = object_error(inp.ev, nev, inp.seg[:nseg], ids.index("0"), target, t.P, 30.0)
            if contact is None or contact[0] != "5":
                assert not has
            else:
                st = res.state_of("5", contact[1])
                assert has and err == (math.degrees(math.atan2(st[3], st[2])) - 30.0 + 180.0) % 360.0 - 180.0
                contacts += 1
    assert {YES, NO, ASK} <= set(seen), seen
    assert contacts >= 12
