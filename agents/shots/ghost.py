"""Ghost-ball aiming: the geometry every shot-maker starts from.

For a struck ball C, a target ball T and a pocket P, the object ball must
travel from T toward an aim point inside P's mouth; the struck ball must
arrive at the ghost position G = T - 2R * u, where u is the unit vector from
T to the aim point. The cut angle is the angle between C->G and T->aim.
This ignores throw (ball-ball friction turns the object ball off the line of
centres); ``shots.aim`` corrects for it by simulation.

Difficulty follows the usual pot-probability factors (Alciatore, "The
Illustrated Principles of Pool and Billiards"): a thin cut magnifies aim
error by 1/cos(cut), longer distances magnify it linearly, and on a pyramid
table the pocket only accepts balls arriving close to its axis (the corner
mouth is 4.5 mm wider than the ball).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import njit

from piramida.agents.shots.exact import exact_hypot, same_as_python
from piramida.agents.shots.surface import on_surface_at, surface_arrays
from piramida.env.position import Position
from piramida.env.table import Pocket, Table

Point = tuple[float, float]

#: Thinner cuts than this are not offered (the aim error grows as 1/cos).
MAX_CUT_DEG = 75.0
#: A cosine of the cut this far below the limit's is past it whatever the
#: rounding of the angle: ``lines_among`` skips the arc cosine there.
_COS_BEYOND_CUT = math.cos(math.radians(MAX_CUT_DEG)) - 1e-9
#: A line's difficulty counts the object ball's distance as at least
#: ``MIN_OD`` m, its window as at least ``MIN_WINDOW`` rad and the cut's
#: cosine as at least ``MIN_COS`` (``lines_among``, ``best_placements``).
MIN_OD, MIN_WINDOW, MIN_COS = 0.1, 1e-6, 0.05


@dataclass(frozen=True)
class PotLine:
    """One geometric pot: struck ball into target into pocket."""

    struck: str
    target: str
    pocket: str
    phi: float  # cue direction, degrees CCW from +x
    cut: float  # degrees, 0 = straight
    ghost: Point
    aim: Point  # where the object ball is sent
    cue_distance: float  # struck ball to ghost, m
    object_distance: float  # target to aim point, m
    approach: float  # degrees between the object ball's path and the pocket axis
    difficulty: float  # larger is harder; ~ the angular window's inverse
    bank: str | None = None  # the cushion of a bank shot (shots/banks.py); None: direct
    svoyak: bool = False  # the struck ball goes in off the target (shots/svoyak.py)

    @property
    def description(self) -> str:
        return f"{self.target} into {self.pocket} off {self.struck} (cut {self.cut:.0f}°)"


def unit_vector(x: float, y: float) -> tuple[float, float, float]:
    """(x, y) scaled to length one, and its length; zeros for a null vector."""
    n = math.hypot(x, y)
    return (x / n, y / n, n) if n > 1e-12 else (0.0, 0.0, 0.0)


def aim_point(pocket: Pocket, table: Table) -> Point:
    """A point on the pocket axis just behind the mouth: the centre of the
    opening the object ball must pass through."""
    d = 0.5 * table.ball_radius
    return (
        pocket.mouth_centre[0] + pocket.axis[0] * d,
        pocket.mouth_centre[1] + pocket.axis[1] * d,
    )


_POCKETS: dict[int, tuple[Table, tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}


def pocket_arrays(table: Table) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per pocket of ``table`` (in its order): the aim point
    (``aim_point``), the axis and the mouth, as arrays for compiled code;
    made once a table."""
    # Keyed by identity: hashing a Table (a deep frozen dataclass) costs more
    # than this whole function.
    got = _POCKETS.get(id(table))
    if got is not None and got[0] is table:
        return got[1]
    pockets = list(table.pockets.values())
    aims = np.array([aim_point(p, table) for p in pockets])
    axes = np.array([p.axis for p in pockets])
    mouths = np.array([p.mouth for p in pockets])
    _POCKETS[id(table)] = (table, (aims, axes, mouths))
    return aims, axes, mouths


def _distances(a: Point, b: Point, points: Iterable[Point]) -> Iterator[float]:
    """The distance from each of ``points`` to the segment a-b, the
    segment's terms made once (a search asks this of every ball for every
    line)."""
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    L2 = dx * dx + dy * dy
    hypot = math.hypot
    for px, py in points:
        if L2 == 0:
            yield hypot(px - ax, py - ay)
        else:
            s = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / L2))
            yield hypot(px - (ax + s * dx), py - (ay + s * dy))


def path_clear(
    a: Point, b: Point, others: Iterable[Point], radius: float, clearance: float = 0.0
) -> bool:
    """Can a ball of ``radius`` roll from a to b without touching balls at
    ``others``?"""
    limit = 2 * radius + clearance
    return all(d >= limit for d in _distances(a, b, others))


@njit(cache=True, error_model="numpy")
def path_clear_of(xy, skip1, skip2, ax, ay, bx, by, limit):  # pragma: no cover - compiled
    """``path_clear`` from (ax, ay) to (bx, by) past the balls at the rows of
    ``xy`` but ``skip1`` and ``skip2``, with ``limit`` = 2 radius +
    clearance: one call for a line's ball-by-ball test (``pot_lines`` asks
    it of every line it offers). The distances are ``path_clear``'s up to
    the last bit of a square root, so the answers differ only for a ball
    touching the path to within that."""
    dx, dy = bx - ax, by - ay
    L2 = dx * dx + dy * dy
    for k in range(xy.shape[0]):
        if k == skip1 or k == skip2:
            continue
        if segment_distance(xy[k, 0], xy[k, 1], ax, ay, dx, dy, L2) < limit:
            return False
    return True


@njit(cache=True, error_model="numpy")
def segment_distance(px, py, ax, ay, dx, dy, L2):  # pragma: no cover - compiled
    """The distance from (px, py) to the segment from (ax, ay) along (dx,
    dy), whose squared length is ``L2``: ``_distances``' arithmetic."""
    if L2 == 0:
        return math.hypot(px - ax, py - ay)
    s = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / L2))
    return math.hypot(px - (ax + s * dx), py - (ay + s * dy))


@njit(cache=True, error_model="numpy")
def near_paths(xy, aims, limit):  # pragma: no cover - compiled
    """For each ball (row of ``xy``) sent to each aim point (row of
    ``aims``): which other balls lie nearer than ``limit`` to its path,
    ``_distances``' test for every ball and pocket of a position in one
    call (up to the last bit of a square root, as ``path_clear_of``)."""
    n, m = xy.shape[0], aims.shape[0]
    out = np.zeros((n, m, n), dtype=np.bool_)
    for i in range(n):
        ax, ay = xy[i, 0], xy[i, 1]
        for j in range(m):
            dx, dy = aims[j, 0] - ax, aims[j, 1] - ay
            L2 = dx * dx + dy * dy
            for k in range(n):
                if k != i:
                    out[i, j, k] = segment_distance(xy[k, 0], xy[k, 1], ax, ay, dx, dy, L2) < limit
    return out


def pocket_window(pocket: Pocket, approach_deg: float, table: Table) -> float:
    """Width (m) of the opening a ball centre may pass through when arriving
    at ``approach_deg`` to the pocket axis: the mouth seen obliquely, less
    the ball. Negative means the jaws block it."""
    c = math.cos(math.radians(approach_deg))
    return pocket.mouth * c - 2 * table.ball_radius


def each_target(
    position: Position, struck: str, targets: Iterable[str] | None
) -> Iterable[tuple[Point, str, Point, list[Point]]]:
    """For every target other than ``struck`` that is on the table: the
    struck ball's centre, the target, its centre and the other balls'
    centres (the obstacles of both paths). Nothing if ``struck`` is not on
    the table."""
    balls = position.ball_map
    if struck not in balls:
        return
    c = balls[struck]
    for target in targets if targets is not None else balls:
        if target == struck or target not in balls:
            continue
        others = [xy for b, xy in balls.items() if b not in (struck, target)]
        yield c, target, balls[target], others


class ObjectLeg(NamedTuple):
    """The object ball's half of a pot, which does not depend on the struck
    ball: the target sent to ``aim`` in ``pocket`` (unit direction ``u``,
    distance ``od``, ``approach`` degrees off the pocket axis, ``window`` m
    of the mouth open at that angle), its ghost ball and whether that lies
    on the bed, and the balls within a ball of its path (``blockers``: the
    path is clear for a struck ball that is none of them or the only one)."""

    pocket: Pocket
    aim: Point
    od: float
    u: Point
    approach: float
    window: float
    ghost: Point
    on_bed: bool
    blockers: tuple[str, ...]


#: The last position's legs: one decision asks for them once per struck ball
#: (free pyramid: every ball) and per placement of a ball in hand.
_LEGS: list[tuple[Position, dict[str, list[ObjectLeg]]]] = []


def object_legs(position: Position) -> dict[str, list[ObjectLeg]]:
    """Per target on the table, its ``ObjectLeg`` into each pocket whose
    mouth is open at the angle it arrives (same position, same legs: the
    last position's are kept)."""
    if _LEGS and _LEGS[0][0] is position:
        return _LEGS[0][1]
    t = position.table
    balls = position.ball_map
    names = list(balls)
    pockets = list(t.pockets.values())
    aims = [aim_point(pocket, t) for pocket in pockets]
    xy = np.array(list(balls.values()), dtype=np.float64).reshape(-1, 2)
    near = near_paths(xy, np.array(aims), 2 * t.ball_radius)
    make = compiled_legs if same_as_python() else python_legs
    out = make(t, names, pockets, aims, xy, near)
    _LEGS[:] = [(position, out)]
    return out


def python_legs(
    t: Table, names: list[str], pockets: list[Pocket], aims: list[Point], xy: np.ndarray, near: np.ndarray
) -> dict[str, list[ObjectLeg]]:
    """``object_legs``' loop in Python (where ``exact_hypot`` is not this
    interpreter's ``math.hypot``; and the reference the compiled one is
    tested against)."""
    R = t.ball_radius
    out: dict[str, list[ObjectLeg]] = {}
    for i, (target, tp) in enumerate(zip(names, xy.tolist(), strict=True)):
        legs: list[ObjectLeg] = []
        for j, pocket in enumerate(pockets):
            ap = aims[j]
            ox, oy = ap[0] - tp[0], ap[1] - tp[1]
            od = math.hypot(ox, oy)
            if od < 1e-9:
                continue
            ux, uy = ox / od, oy / od
            approach = math.degrees(
                math.acos(max(-1.0, min(1.0, ux * pocket.axis[0] + uy * pocket.axis[1])))
            )
            window = pocket_window(pocket, approach, t)
            if window <= 0:
                continue
            g = (tp[0] - 2 * R * ux, tp[1] - 2 * R * uy)
            row = near[i, j]
            blockers = tuple(b for k, b in enumerate(names) if row[k])
            legs.append(
                ObjectLeg(pocket, ap, od, (ux, uy), approach, window, g, t.on_surface(*g), blockers)
            )
        out[target] = legs
    return out


def compiled_legs(
    t: Table, names: list[str], pockets: list[Pocket], aims: list[Point], xy: np.ndarray, near: np.ndarray
) -> dict[str, list[ObjectLeg]]:
    """``object_legs``' loop with its arithmetic compiled (``leg_arrays``,
    the same floats); only the legs that are open are made here."""
    aim_xy, axes, mouths = pocket_arrays(t)
    pk, cu = surface_arrays(t)
    ok, rows = leg_arrays(xy, aim_xy, axes, mouths, t.ball_radius, t.width, t.length, pk, cu)
    # Read back as lists once: numpy's elements one by one cost more.
    ok_l, rows_l, near_l = ok.tolist(), rows.tolist(), near.tolist()
    out: dict[str, list[ObjectLeg]] = {}
    for i, target in enumerate(names):
        legs: list[ObjectLeg] = []
        for j, open_ in enumerate(ok_l[i]):
            if not open_:
                continue
            od, ux, uy, approach, window, gx, gy, on_bed = rows_l[i][j]
            blockers = tuple([b for b, hit in zip(names, near_l[i][j], strict=True) if hit])
            legs.append(
                ObjectLeg(pockets[j], aims[j], od, (ux, uy), approach, window, (gx, gy), on_bed != 0.0, blockers)
            )
        out[target] = legs
    return out


@njit(cache=True, error_model="numpy")
def leg_arrays(xy, aims, axes, mouths, R, W, L, pk, cu):  # pragma: no cover - compiled
    """``object_legs``' arithmetic for every ball (row of ``xy``) and
    pocket (aim point, axis, mouth), in its order of operations, with
    Python's ``math.hypot`` (``exact_hypot``) and ``Table.on_surface``
    (``on_surface_at``): whether the leg is open (the pocket not at the
    ball, its mouth open at the angle), and its distance, unit direction,
    approach angle, window, ghost ball and whether that is on the bed."""
    n, m = xy.shape[0], aims.shape[0]
    ok = np.zeros((n, m), dtype=np.bool_)
    rows = np.zeros((n, m, 8))
    for i in range(n):
        tx, ty = xy[i, 0], xy[i, 1]
        for j in range(m):
            ox, oy = aims[j, 0] - tx, aims[j, 1] - ty
            od = exact_hypot(ox, oy)
            if od < 1e-9:
                continue
            ux, uy = ox / od, oy / od
            approach = math.degrees(math.acos(max(-1.0, min(1.0, ux * axes[j, 0] + uy * axes[j, 1]))))
            window = mouths[j] * math.cos(math.radians(approach)) - 2 * R
            if window <= 0:
                continue
            gx, gy = tx - 2 * R * ux, ty - 2 * R * uy
            ok[i, j] = True
            r = rows[i, j]
            r[0], r[1], r[2], r[3], r[4], r[5], r[6] = od, ux, uy, approach, window, gx, gy
            r[7] = 1.0 if on_surface_at(gx, gy, R, W, L, pk, cu) else 0.0
    return ok, rows


def pot_lines(
    position: Position,
    struck: str,
    targets: Iterable[str] | None = None,
    legs: dict[str, list[ObjectLeg]] | None = None,
) -> list[PotLine]:
    """Every geometrically open pot for ``struck``, easiest first.

    ``legs``: the object legs (``object_legs``) of a position that differs
    from ``position`` only by ``struck`` (a ball in hand placed), which
    the legs of its targets do not depend on."""
    balls = position.ball_map
    if struck not in balls:
        return []
    return lines_among(balls, position.table, struck, targets, legs if legs is not None else object_legs(position))


def lines_among(
    balls: dict[str, Point],
    table: Table,
    struck: str,
    targets: Iterable[str] | None,
    legs: dict[str, list[ObjectLeg]],
) -> list[PotLine]:
    """``pot_lines`` among the balls at ``balls`` (``struck`` one of them)
    on ``table``, with the targets' legs given: what a search over
    placements of a ball in hand asks at every spot, without making a
    position of each."""
    R = table.ball_radius
    cx0, cy0 = balls[struck]
    out: list[PotLine] = []
    names = list(balls)
    xy = np.array(list(balls.values()))
    k_struck = names.index(struck)
    for target in targets if targets is not None else balls:
        if target == struck or target not in balls:
            continue
        k_target = -1
        for leg in legs.get(target, ()):
            # Blocked unless no ball or only the struck one lies on the path.
            blockers = leg.blockers
            if not leg.on_bed or (blockers and blockers != (struck,)):
                continue
            ux, uy = leg.u
            g = leg.ghost
            cx, cy = g[0] - cx0, g[1] - cy0
            cd = math.hypot(cx, cy)
            if cd < 1e-9:
                continue
            cos_cut = (cx * ux + cy * uy) / cd
            if cos_cut < _COS_BEYOND_CUT:
                continue  # past the cut limit by far more than rounding
            cut = math.degrees(math.acos(max(-1.0, min(1.0, cos_cut))))
            if cut > MAX_CUT_DEG:
                continue
            if k_target < 0:
                k_target = names.index(target)
            if not path_clear_of(xy, k_struck, k_target, cx0, cy0, g[0], g[1], 2 * R):
                continue
            # The window as an angle seen from the target, shrunk by the cut's
            # error magnification and the cue ball's distance.
            od = leg.od
            window_angle = leg.window / od
            difficulty = (1.0 + cd / max(od, MIN_OD)) / (max(window_angle, MIN_WINDOW) * max(cos_cut, MIN_COS))
            phi = math.degrees(math.atan2(cy, cx)) % 360.0
            out.append(
                PotLine(struck, target, leg.pocket.name, phi, cut, g, leg.aim, cd, od, leg.approach, difficulty)
            )
    out.sort(key=lambda p: p.difficulty)
    return out


def pairs_arrays(
    position: Position, pairs: list[tuple[str, list[str]]]
) -> tuple[tuple[str, ...], np.ndarray, np.ndarray, np.ndarray]:
    """``position``'s balls (ids, and centres as rows) and, for compiled
    code, each pair's struck ball (its row) and the targets asked of it
    (a row of flags over the balls; the struck ball and balls not on the
    table never)."""
    names = position.ids
    row = {b: k for k, b in enumerate(names)}
    struck_rows = np.array([row[s] for s, _ in pairs], dtype=np.int64)
    asked = np.zeros((len(pairs), len(names)), dtype=np.bool_)
    for i, (s, targets) in enumerate(pairs):
        for b in targets:
            k = row.get(b)
            if k is not None and b != s:
                asked[i, k] = True
    xy = np.array([(x, y) for _, x, y in position.balls], dtype=np.float64).reshape(-1, 2)
    return names, xy, struck_rows, asked


def many_lines(
    position: Position, pairs: list[tuple[str, list[str]]], limit: int | None = None
) -> list[PotLine] | None:
    """``pot_lines(position, struck, targets)`` for each (struck, targets)
    of ``pairs`` (struck balls on the table), merged easiest first as one
    stable sort of them in that order would merge them, and only the
    ``limit`` easiest made (all with None): free pyramid asks it for
    every ball, and a search reads a few of the hundreds of lines. Each
    struck ball's targets are taken in the position's order (as
    ``lines.targets_for`` lists them), each once. The object legs are
    ``compiled_legs``' arrays and the lines ``lines_among``'s arithmetic,
    compiled (``line_rows``): the same floats. None where ``exact_hypot``
    is not this interpreter's ``math.hypot`` (then the caller asks
    ``pot_lines``)."""
    if not same_as_python():
        return None
    t = position.table
    names, xy, struck_rows, asked = pairs_arrays(position, pairs)
    pockets = list(t.pockets.values())
    aims = [aim_point(pocket, t) for pocket in pockets]
    aim_xy, axes, mouths = pocket_arrays(t)
    limit2 = 2 * t.ball_radius
    near = near_paths(xy, aim_xy, limit2)
    pk, cu = surface_arrays(t)
    ok, legs = leg_arrays(xy, aim_xy, axes, mouths, t.ball_radius, t.width, t.length, pk, cu)
    m, which, leg, vals = line_rows(
        xy, struck_rows, asked, ok, legs, near, limit2, _COS_BEYOND_CUT, MAX_CUT_DEG, MIN_OD, MIN_WINDOW, MIN_COS
    )
    order = np.argsort(vals[3, :m], kind="stable")
    if limit is not None:
        order = order[:limit]
    which_l, leg_l, vals_l = which[order].tolist(), leg[order].tolist(), vals[:, order].tolist()
    n_pockets = len(pockets)
    out: list[PotLine] = []
    for q, (i, tj) in enumerate(zip(which_l, leg_l, strict=True)):
        target, j = divmod(tj, n_pockets)
        od, _ux, _uy, approach, _window, gx, gy, _on_bed = legs[target, j].tolist()
        out.append(
            PotLine(
                pairs[i][0], names[target], pockets[j].name, vals_l[0][q], vals_l[1][q], (gx, gy), aims[j],
                vals_l[2][q], od, approach, vals_l[3][q],
            )
        )
    return out


@njit(cache=True, error_model="numpy")
def line_rows(xy, struck_rows, asked, ok, legs, near, limit, cos_beyond, max_cut, min_od, min_window,
              min_cos):  # pragma: no cover - compiled
    """``lines_among``'s loop for each struck ball (row ``struck_rows[i]``
    of the balls ``xy``) at the targets ``asked[i]`` along their open legs
    (``leg_arrays``' ``ok`` and rows ``legs``; ``near``: ``near_paths``'),
    with its arithmetic in its order (``exact_hypot`` for ``math.hypot``):
    (the lines made, and for each in the order ``lines_among`` makes them,
    struck ball by struck ball, its pair, its leg (target row times the
    pockets plus the pocket) and its direction, cut, cue distance and
    difficulty). A leg is open to a struck ball when its ghost ball is on
    the bed and no ball but the struck one lies on it (``ObjectLeg``'s
    ``blockers``)."""
    n_pairs, n = asked.shape
    n_pockets = ok.shape[1]
    cap = n_pairs * n * n_pockets
    which = np.empty(cap, np.int64)
    leg = np.empty(cap, np.int64)
    vals = np.empty((4, cap))
    m = 0
    for i in range(n_pairs):
        s = struck_rows[i]
        cx0, cy0 = xy[s, 0], xy[s, 1]
        for t in range(n):
            if not asked[i, t]:
                continue
            for j in range(n_pockets):
                if not ok[t, j] or legs[t, j, 7] == 0.0:
                    continue
                blocked = False
                for k in range(n):
                    if k != t and k != s and near[t, j, k]:
                        blocked = True
                        break
                if blocked:
                    continue
                r = legs[t, j]
                od, ux, uy, window, gx, gy = r[0], r[1], r[2], r[4], r[5], r[6]
                cx, cy = gx - cx0, gy - cy0
                cd = exact_hypot(cx, cy)
                if cd < 1e-9:
                    continue
                cos_cut = (cx * ux + cy * uy) / cd
                if cos_cut < cos_beyond:
                    continue
                cut = math.degrees(math.acos(max(-1.0, min(1.0, cos_cut))))
                if cut > max_cut:
                    continue
                if not path_clear_of(xy, s, t, cx0, cy0, gx, gy, limit):
                    continue
                window_angle = window / od
                difficulty = (1.0 + cd / max(od, min_od)) / (max(window_angle, min_window) * max(cos_cut, min_cos))
                which[m] = i
                leg[m] = t * n_pockets + j
                vals[0, m] = math.degrees(math.atan2(cy, cx)) % 360.0
                vals[1, m] = cut
                vals[2, m] = cd
                vals[3, m] = difficulty
                m += 1
    return m, which, leg, vals


@njit(cache=True, error_model="numpy")
def best_placements(spots, xy, k_struck, leg_ball, leg_gx, leg_gy, leg_ux, leg_uy, leg_od, leg_window, limit,
                    max_cut):  # pragma: no cover - compiled
    """For a ball in hand placed at each of ``spots`` (row ``k_struck`` of
    the balls ``xy``, overwritten), the lines ``lines_among`` would make
    along each object leg (target row ``leg_ball``, ghost ball, unit
    direction, distance and window of each; only the legs open to the
    placed ball are given): per leg, the spot of the easiest line (-1:
    none), the first spot with a line and the line's difficulty there (a
    placement's lines are listed easiest first), and how many spots come
    within a billionth of the easiest (a tie the compiled arithmetic may not break
    as Python does). ``max_cut``: the cut limit in degrees, given a little
    wide, so that no line ``lines_among`` makes is missed here.

    The difficulty is ``lines_among``'s; its distances differ from
    Python's ``math.hypot`` in the last bit at most, which is why the
    caller makes the chosen lines again in Python."""
    n_spots, n_legs = spots.shape[0], leg_ball.shape[0]
    diff = np.full((n_spots, n_legs), np.inf)
    first = np.full(n_legs, -1, dtype=np.int64)
    for s in range(n_spots):
        sx, sy = spots[s, 0], spots[s, 1]
        xy[k_struck, 0] = sx
        xy[k_struck, 1] = sy
        for q in range(n_legs):
            gx, gy = leg_gx[q], leg_gy[q]
            cx, cy = gx - sx, gy - sy
            cd = math.hypot(cx, cy)
            if cd < 0.5e-9:
                continue
            cos_cut = (cx * leg_ux[q] + cy * leg_uy[q]) / cd
            if math.degrees(math.acos(max(-1.0, min(1.0, cos_cut)))) > max_cut:
                continue
            if not path_clear_of(xy, k_struck, leg_ball[q], sx, sy, gx, gy, limit):
                continue
            od = leg_od[q]
            diff[s, q] = (1.0 + cd / max(od, MIN_OD)) / (max(leg_window[q] / od, MIN_WINDOW) * max(cos_cut, MIN_COS))
            if first[q] < 0:
                first[q] = s
    best = np.full(n_legs, -1, dtype=np.int64)
    near = np.zeros(n_legs, dtype=np.int64)
    at_first = np.full(n_legs, np.inf)
    for q in range(n_legs):
        if first[q] >= 0:
            at_first[q] = diff[first[q], q]
        d = np.inf
        for s in range(n_spots):
            if diff[s, q] < d:
                d, best[q] = diff[s, q], s
        if best[q] >= 0:
            for s in range(n_spots):
                if abs(diff[s, q] - d) <= 1e-9 * d:
                    near[q] += 1
    return best, first, at_first, near


def cue_speed_for(line: PotLine, table: Table, margin: float = 0.4) -> float:
    """A cue speed (m/s) that sends the object ball past the pocket with
    some pace to spare, from rolling resistance alone (v^2 = 2 mu_r g d) and
    the share of speed a cut passes on (cos cut). Clamped to 1..6 m/s."""
    ph = table.physics
    d_obj = line.object_distance + margin
    v_obj = math.sqrt(2 * ph.mu_r * ph.g * d_obj) * 1.6
    v_contact = v_obj / max(math.cos(math.radians(line.cut)), 0.2)
    # The struck ball loses speed over its own path too.
    v_ball = math.sqrt(v_contact * v_contact + 2 * ph.mu_r * ph.g * line.cue_distance) * 1.15
    # Cue to ball (centre hit): v_ball = (1 + e) M / (M + m) * V.
    M, m = ph.cue_mass, table.ball_mass
    v_cue = v_ball * (M + m) / ((1 + ph.e_cue) * M)
    return float(min(6.0, max(1.0, v_cue)))
