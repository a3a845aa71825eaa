"""The open pot lines of a decision, and where to place a ball in hand.

``candidate_lines``: for every ball the shooter may strike (free pyramid:
any ball; the other pyramids: the coloured ball; five balls: his own
white), every target and every pocket, the ghost-ball line
(``ghost.pot_lines``) when both paths are clear, easiest first. Targets
the first-contact rule of item 21.2 forbids (from hand: a ball in the
house) and the coloured ball in classic pyramid are left out. With the cue
ball in hand, the placements are spots straight behind the ghost ball of
each open pot inside the allowed zone (house, the temporary house beyond
the rear line, or anywhere), then a coarse grid of the zone; the easiest
placement per (target, pocket) makes a line.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from piramida.agents.shots.context import Context
from piramida.agents.shots.ghost import (
    MAX_CUT_DEG,
    ObjectLeg,
    PotLine,
    aim_point,
    best_placements,
    lines_among,
    many_lines,
    object_legs,
    pot_lines,
)
from piramida.env.position import Position

XY = tuple[float, float]


def zone_ok(ctx: Context, x: float, y: float, kind: str) -> bool:
    """May the ball in hand be placed at (x, y) in zone ``kind`` (house,
    rear_house, anywhere), clear of every ball?"""
    t = ctx.table
    r = ctx.R
    if not (r + 1e-4 <= x <= t.width - r - 1e-4 and r + 1e-4 <= y <= t.length - r - 1e-4):
        return False
    if kind == "house" and not t.in_house(x, y):
        return False
    if kind == "rear_house" and not t.in_rear_house(x, y):
        return False
    return all(math.hypot(x - bx, y - by) >= 2 * r + 1e-3 for _, bx, by in ctx.pos.balls)


def first_contact_ok(ctx: Context, target: str) -> bool:
    """Item 21.2: from hand, the first ball hit lies outside the house."""
    kind = ctx.pos.in_hand
    if kind is None or ctx.view.variant == "five_ball":
        return True
    x, y = ctx.pos.xy(target)
    if kind == "house":
        return not ctx.table.in_house(x, y)
    if kind == "rear_house":
        return not ctx.table.in_rear_house(x, y)
    return True


def targets_for(ctx: Context, struck: str) -> list[str]:
    """The balls ``struck`` may be sent at first (made once a decision:
    the lines, the banks and the safeties all ask; not to be changed)."""
    out = ctx.targets.get(struck)
    if out is None:
        out = [b for b in ctx.pos.ids if b != struck and first_contact_ok(ctx, b)]
        if ctx.view.variant == "classic71":
            out = [b for b in out if b != "0"]
        ctx.targets[struck] = out
    return out


def struck_pairs(ctx: Context) -> list[tuple[str, list[str]]]:
    """Each ball the shooter may strike that is on the table, with the
    balls it may be sent at first (``targets_for``)."""
    return [(s, targets_for(ctx, s)) for s in ctx.cue_balls() if s in ctx.pos]


def candidate_lines(ctx: Context, limit: int | None = None) -> list[tuple[PotLine, XY | None]]:
    """Open pot lines (with the placement when in hand), easiest first;
    the ``limit`` easiest (all with None)."""
    out: list[tuple[PotLine, XY | None]] = []
    if ctx.pos.in_hand is None:
        pairs = struck_pairs(ctx)
        got = many_lines(ctx.pos, pairs, limit)
        if got is not None:
            return [(ln, None) for ln in got]
        for s, targets in pairs:
            out.extend((ln, None) for ln in pot_lines(ctx.pos, s, targets))
    else:
        for s in ctx.cue_balls():
            out.extend(hand_lines(ctx, s))
    out.sort(key=lambda lp: lp[0].difficulty)
    return out if limit is None else out[:limit]


def hand_placements(ctx: Context, ball: str) -> list[XY]:
    """Spots in the zone straight behind the ghost ball of some pot, then a
    coarse grid of the zone (made once a decision: the pots and the
    safeties both ask; not to be changed)."""
    got = ctx.placements.get(ball)
    if got is None:
        got = ctx.placements[ball] = _placements(ctx, ball)
    return got


def _placements(ctx: Context, ball: str) -> list[XY]:
    t = ctx.table
    kind = ctx.pos.in_hand or "anywhere"
    spots: list[XY] = []
    for target in targets_for(ctx, ball):
        tx, ty = ctx.pos.xy(target)
        for pocket in t.pockets.values():
            ax, ay = aim_point(pocket, t)
            d = math.hypot(ax - tx, ay - ty)
            if d < 1e-6:
                continue
            ux, uy = (ax - tx) / d, (ay - ty) / d
            gx, gy = tx - 2 * ctx.R * ux, ty - 2 * ctx.R * uy
            for back in (0.2, 0.35, 0.6, 0.9):
                x, y = gx - back * ux, gy - back * uy
                if zone_ok(ctx, x, y, kind):
                    spots.append((x, y))
                    break
    ylo, yhi = ctx.R + 0.01, t.length - ctx.R - 0.01
    if kind == "house":
        yhi = t.house_line - 0.01
    elif kind == "rear_house":
        ylo = t.rear_line + 0.01
    for i in range(7):
        for j in range(4):
            x = ctx.R + 0.02 + (t.width - 2 * ctx.R - 0.04) * i / 6
            y = ylo + (yhi - ylo) * (j + 0.5) / 4
            if zone_ok(ctx, x, y, kind):
                spots.append((x, y))
    return spots


def hand_lines(ctx: Context, ball: str) -> list[tuple[PotLine, XY]]:
    """The easiest placement's line for each (target, pocket), in the order
    the placements (``hand_placements``) first open them: every placement's
    lines (``lines_among``) compared in a compiled search
    (``ghost.best_placements``), and the chosen ones made again in Python,
    so that they are exactly ``placed_lines``'s (which also answers where
    the compiled arithmetic cannot tell two placements apart)."""
    # The ball placed is the one struck: the targets' legs are the table's.
    legs = object_legs(ctx.pos)
    targets = targets_for(ctx, ball)
    spots = hand_placements(ctx, ball)
    got = searched_placements(ctx, ball, targets, legs, spots)
    return got if got is not None else placed_lines(ctx, ball, targets, legs, spots)


def placed_lines(
    ctx: Context, ball: str, targets: list[str], legs: dict[str, list[ObjectLeg]], spots: list[XY]
) -> list[tuple[PotLine, XY]]:
    """``hand_lines`` in Python: the lines of ``ball`` placed at each of
    ``spots``, the easiest kept per (target, pocket)."""
    out: list[tuple[PotLine, XY]] = []
    balls = ctx.pos.ball_map
    for xy in spots:
        # A placement is on the bed and clear of every ball (zone_ok): the
        # lines are those of the position with the ball placed there.
        balls[ball] = xy
        out.extend((ln, xy) for ln in lines_among(balls, ctx.table, ball, targets, legs))
    best: dict[tuple[str, str], tuple[PotLine, XY]] = {}
    for ln, xy in out:
        key = (ln.target, ln.pocket)
        if key not in best or ln.difficulty < best[key][0].difficulty:
            best[key] = (ln, xy)
    return list(best.values())


def searched_placements(
    ctx: Context, ball: str, targets: list[str], legs: dict[str, list[ObjectLeg]], spots: list[XY]
) -> list[tuple[PotLine, XY]] | None:
    """``placed_lines`` by the compiled search (``ghost.best_placements``),
    or None where it cannot answer for Python (a near tie, a line Python
    does not make)."""
    balls = ctx.pos.ball_map
    if ball in balls or not spots:
        return None
    names = [*balls, ball]
    row = {b: k for k, b in enumerate(names)}
    order: list[tuple[str, ObjectLeg]] = []
    for target in targets:
        if target == ball or target not in balls:
            continue
        order.extend((target, leg) for leg in legs.get(target, ()) if leg.on_bed and all(b == ball for b in leg.blockers))
    if not order:
        return []
    xy = np.array([*balls.values(), spots[0]], dtype=np.float64)
    best, first, at_first, near = best_placements(
        np.array(spots, dtype=np.float64),
        xy,
        len(names) - 1,
        np.array([row[t] for t, _ in order], dtype=np.int64),
        np.array([leg.ghost[0] for _, leg in order]),
        np.array([leg.ghost[1] for _, leg in order]),
        np.array([leg.u[0] for _, leg in order]),
        np.array([leg.u[1] for _, leg in order]),
        np.array([leg.od for _, leg in order]),
        np.array([leg.window for _, leg in order]),
        2 * ctx.R,
        MAX_CUT_DEG + 1e-9,
    )
    out: list[tuple[PotLine, XY]] = []
    made: dict[tuple[int, str], list[PotLine]] = {}
    for q in sorted((q for q in range(len(order)) if best[q] >= 0), key=lambda q: (first[q], at_first[q], q)):
        if near[q] != 1:
            return None
        target, leg = order[q]
        s = int(best[q])
        lines = made.get((s, target))
        if lines is None:
            lines = made[(s, target)] = lines_among({**balls, ball: spots[s]}, ctx.table, ball, [target], legs)
        ln = next((ln for ln in lines if ln.pocket == leg.pocket.name), None)
        if ln is None:
            return None
        out.append((ln, spots[s]))
    return out


def lines_for(ctx: Context, finder: Callable[[Position, str, list[str]], list[PotLine]]) -> list[PotLine]:
    """``finder(position, struck, targets)``'s lines (banks, свояк) for
    every ball the shooter may strike that is on the table, easiest first."""
    lines: list[PotLine] = []
    for s in ctx.cue_balls():
        if s in ctx.pos:
            lines.extend(finder(ctx.pos, s, targets_for(ctx, s)))
    lines.sort(key=lambda ln: ln.difficulty)
    return lines


__all__ = [
    "candidate_lines",
    "first_contact_ok",
    "hand_lines",
    "hand_placements",
    "lines_for",
    "placed_lines",
    "searched_placements",
    "struck_pairs",
    "targets_for",
    "zone_ok",
]
