"""Свояк: the struck ball itself into a pocket off an object ball (an
"in-off" in English billiards).

In free pyramid every ball pocketed on a legal shot scores, the struck ball
included (docs/game_rules.md §5.1); in combined, Moscow, Nevskaya and dynamic pyramid
the cue ball pocketed after a legal contact scores an object ball from the
table and the cue ball in hand (§5.2-§5.5). Pyramid players pot this way as
often as the direct way, so the planner needs the lines.

Geometry (a stun stroke): after a sliding ball strikes another it leaves
along the tangent line, at right angles to the line of centres. So the
ghost position G - the struck ball's centre at contact, 2R from the object
ball T - must see the pocket's aim point A at a right angle from T: G lies
where the circle of radius 2R about T meets the circle on the diameter TA,
at angle ``acos(2R / |TA|)`` either side of T->A. The struck ball must come
into G with some cut (a full hit sends it nowhere), heading partly towards
A, along a clear path; its path G->A must be clear too (the object ball
leaves along G->T, away from it).

The real ball is not always sliding at contact (it follows through as it
rolls) and curves afterwards, so the aim is corrected by simulation
(``refine_svoyak``: the secant of shots/banks.py on the struck ball's
closest miss of A after the contact).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from piramida.agents.shots.banks import miss_after, secant_aim
from piramida.agents.shots.context import Context, Trial
from piramida.agents.shots.ghost import (
    PotLine,
    aim_point,
    cue_speed_for,
    each_target,
    path_clear,
    pocket_window,
    unit_vector,
)
from piramida.env.physics import ShotResult
from piramida.env.position import Position
from piramida.env.table import Table

XY = tuple[float, float]

#: Cuts outside this range (degrees) are not offered: a fuller hit leaves
#: the struck ball too slow to travel, a thinner one barely moves the
#: object ball and magnifies the aim error.
MIN_CUT_DEG = 15.0
MAX_CUT_DEG = 75.0
#: A свояк is rated this many times harder than a direct pot with the same
#: distances: the departure direction follows the contact point, which the
#: aim error moves, and the struck ball's spin bends its path.
SVOYAK_FACTOR = 1.5
#: Secant iterations of ``refine_svoyak`` (one simulation each).
SVOYAK_ITERS = 8


def svoyak_lines(position: Position, struck: str, targets: Iterable[str] | None = None) -> list[PotLine]:
    """Every geometrically open свояк for ``struck``, easiest first.
    ``PotLine.target`` is the object ball it strikes, ``pocket`` where the
    struck ball goes, ``aim`` that pocket's aim point, ``object_distance``
    the struck ball's path from the contact to the pocket and ``cut`` the
    cut angle of the contact; ``svoyak`` is True."""
    t = position.table
    R = t.ball_radius
    out: list[PotLine] = []
    for s, target, tp, others in each_target(position, struck, targets):
        for pocket in t.pockets.values():
            ap = aim_point(pocket, t)
            ux, uy, d_ta = unit_vector(ap[0] - tp[0], ap[1] - tp[1])
            if d_ta <= 2 * R + 0.02:
                continue
            theta = math.acos(2 * R / d_ta)
            for sign in (1.0, -1.0):
                c, sn = math.cos(sign * theta), math.sin(sign * theta)
                gx = tp[0] + 2 * R * (ux * c - uy * sn)
                gy = tp[1] + 2 * R * (ux * sn + uy * c)
                g = (gx, gy)
                if not t.on_surface(gx, gy):
                    continue
                ix, iy, cd = unit_vector(gx - s[0], gy - s[1])  # incoming
                if cd < 1e-9:
                    continue
                nx, ny, _ = unit_vector(tp[0] - gx, tp[1] - gy)  # line of centres
                ox, oy, od = unit_vector(ap[0] - gx, ap[1] - gy)  # departure
                cos_cut = ix * nx + iy * ny
                if cos_cut <= 0 or ix * ox + iy * oy <= 0:
                    continue
                cut = math.degrees(math.acos(max(-1.0, min(1.0, cos_cut))))
                if not MIN_CUT_DEG <= cut <= MAX_CUT_DEG:
                    continue
                approach = math.degrees(
                    math.acos(max(-1.0, min(1.0, ox * pocket.axis[0] + oy * pocket.axis[1])))
                )
                window = pocket_window(pocket, approach, t)
                if window <= 0:
                    continue
                if not (path_clear(s, g, others, R) and path_clear(g, ap, others, R)):
                    continue
                sin_cut = math.sin(math.radians(cut))
                difficulty = SVOYAK_FACTOR * (1.0 + cd / max(od, 0.1)) / (max(window / od, 1e-6) * sin_cut)
                phi = math.degrees(math.atan2(iy, ix)) % 360.0
                out.append(
                    PotLine(
                        struck, target, pocket.name, phi, cut, g, ap, cd, od, approach,
                        difficulty, svoyak=True,
                    )
                )
    out.sort(key=lambda p: p.difficulty)
    return out


def svoyak_speed(line: PotLine, table: Table) -> float:
    """Cue speed for the struck ball to reach the pocket after the contact:
    ``cue_speed_for`` with the share of speed a cut leaves the struck ball
    (sin cut) in place of the share it passes on (cos cut)."""
    return cue_speed_for(replace(line, cut=90.0 - line.cut), table)


def svoyak_miss(result: ShotResult, line: PotLine) -> float | None:
    """Signed distance (m) by which the struck ball, after striking the
    line's object ball, passes the pocket's aim point; None if it struck
    something else first or nothing."""
    return miss_after(
        result,
        line.struck,
        line.aim,
        lambda e: e.type == "ball_ball" and line.target in e.balls,
    )


def pots_struck(tr: Trial, line: PotLine) -> bool:
    """The struck ball went into the line's pocket on a legal shot."""
    return tr.legal and (line.struck, line.pocket) in tr.result.pocketed


def refine_svoyak(ctx: Context, line: PotLine, place: XY | None, v: float, **kw: Any) -> Trial | None:
    """Secant on the cue direction until the noise-free свояк goes in; the
    trial or None; ``kw`` (spin: ``b``) goes to the stroke."""
    return secant_aim(
        ctx,
        line,
        place,
        v,
        lambda res: svoyak_miss(res, line),
        lambda res: (line.struck, line.pocket) in res.pocketed,
        SVOYAK_ITERS,
        **kw,
    )


__all__ = ["pots_struck", "refine_svoyak", "svoyak_lines", "svoyak_miss", "svoyak_speed"]
