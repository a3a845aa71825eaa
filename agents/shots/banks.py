"""Bank shots: the object ball off one cushion into a pocket.

Geometry first (the mirror image): the object ball's centre reflects off
the line one ball radius in front of a cushion's nose, so a ball sent at the
pocket's aim point mirrored in that line arrives at the pocket. The bounce
point must lie on the cushion clear of its jaws, both legs of the object
ball's path and the struck ball's path to the ghost ball must be clear, and
the pocket must accept the ball from the bounce point's direction.

A real cushion does not reflect like a mirror (the Han/Mathavan cushion of
docs/physics.md takes speed off and turns the ball by its spin), so the
aim is then corrected by simulation (``refine_bank``): a secant iteration on
the cue direction driving the object ball's lateral miss of the aim point,
measured along its path just after the cushion, to zero.

Banks are long and sensitive (the error of the first leg is doubled by
the second), so ``bank_lines`` rates them ``BANK_FACTOR`` times harder than
a direct pot of the same length; the planner only looks at them when no
direct pot is likely (``shots.candidates``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from numba import njit

from piramida.agents.shots.aim import pockets_target
from piramida.agents.shots.context import Context, Trial
from piramida.agents.shots.exact import exact_hypot, same_as_python
from piramida.agents.shots.ghost import (
    PotLine,
    aim_point,
    each_target,
    pairs_arrays,
    path_clear,
    pocket_window,
    unit_vector,
)
from piramida.agents.shots.surface import on_surface_at, surface_arrays
from piramida.env.errors import PiramidaError
from piramida.env.events import Event
from piramida.env.physics import ShotResult
from piramida.env.physics.aiming import pots_target, stroke
from piramida.env.physics.codes import EV_BALL, EV_CENTRE, EV_CUE, EV_CUSHION, EV_MOTION
from piramida.env.physics.result import states_at
from piramida.env.position import Position
from piramida.env.table import CUSHIONS, POCKETS

XY = tuple[float, float]

#: A bank is rated this many times harder than a direct pot of the same
#: path length and window (the cushion's error on top of the aim's).
BANK_FACTOR = 2.5
#: Thinner cuts than this are not banked.
MAX_BANK_CUT_DEG = 60.0
#: The bounce point keeps this far (m) from the ends of the cushion's nose.
JAW_CLEARANCE = 0.08
#: A pocket this close (m) to the reflection line is on that cushion: no bank.
MIN_POCKET_DEPTH = 0.15
#: Secant iterations of ``refine_bank`` (one simulation each).
BANK_ITERS = 8
#: ``closest_miss``'s samples along a leg.
MISS_SAMPLES = 24
#: ``bank_secant``'s answers: no stroke went in (the secant's answer is
#: None), the last stroke played goes in, or Python must play it.
NONE_IN, GOES_IN, ASK_PYTHON = 0, 1, -1


#: The last table's ``mirrors`` (a process plays on one table; matched by
#: identity, since hashing a ``Table`` costs more than remaking them).
_MIRRORS: list[Any] = [None, None]


def mirrors(t: Any) -> list[tuple[Any, ...]]:
    """Each cushion's reflection line (name, normal, start, unit direction,
    length) with the pockets that can be banked into off it (the pocket,
    its aim point, that point's distance in front of the line and its
    mirror image) on table ``t``. None of it depends on the balls, so
    ``bank_lines`` takes it from here instead of remaking it for every
    struck ball and target; the expressions are the ones it used inline,
    so every line it finds is the same to the last bit."""
    if _MIRRORS[0] is t:
        return _MIRRORS[1]
    R = t.ball_radius
    out: list[tuple[Any, ...]] = []
    for cushion in t.cushions.values():
        nx, ny = cushion.normal
        sx, sy = cushion.start
        tx_, ty_, length = unit_vector(cushion.end[0] - sx, cushion.end[1] - sy)
        pockets = []
        for pocket in t.pockets.values():
            ap = aim_point(pocket, t)
            dp = (ap[0] - sx) * nx + (ap[1] - sy) * ny - R
            if dp < MIN_POCKET_DEPTH:
                continue
            pockets.append((pocket, ap, dp, (ap[0] - 2 * dp * nx, ap[1] - 2 * dp * ny)))
        out.append((cushion.name, nx, ny, sx, sy, tx_, ty_, length, pockets))
    _MIRRORS[:] = [t, out]
    return out


def bank_lines(position: Position, struck: str, targets: Iterable[str] | None = None) -> list[PotLine]:
    """Every geometrically open one-cushion bank for ``struck``, easiest
    first. ``PotLine.aim`` is the mirrored aim point (where the object ball
    is sent), ``object_distance`` the length of both legs and ``bank`` the
    cushion's name."""
    t = position.table
    R = t.ball_radius
    out: list[PotLine] = []
    lines = mirrors(t)
    for c, target, tp, others in each_target(position, struck, targets):
        for cushion_name, nx, ny, sx, sy, tx_, ty_, length, pockets in lines:
            # Signed distances from the reflection line (positive: in play).
            dt = (tp[0] - sx) * nx + (tp[1] - sy) * ny - R
            if dt <= 0.02:
                continue
            for pocket, ap, dp, image in pockets:
                f = dt / (dt + dp)
                bx, by = tp[0] + (image[0] - tp[0]) * f, tp[1] + (image[1] - tp[1]) * f
                along = (bx - sx) * tx_ + (by - sy) * ty_
                if not JAW_CLEARANCE < along < length - JAW_CLEARANCE:
                    continue
                ax, ay, leg2 = unit_vector(ap[0] - bx, ap[1] - by)
                approach = math.degrees(
                    math.acos(max(-1.0, min(1.0, ax * pocket.axis[0] + ay * pocket.axis[1])))
                )
                window = pocket_window(pocket, approach, t)
                if window <= 0:
                    continue
                ux, uy, _ = unit_vector(image[0] - tp[0], image[1] - tp[1])
                g = (tp[0] - 2 * R * ux, tp[1] - 2 * R * uy)
                if not t.on_surface(*g):
                    continue
                cx, cy, cd = unit_vector(g[0] - c[0], g[1] - c[1])
                if cd < 1e-9:
                    continue
                cos_cut = cx * ux + cy * uy
                cut = math.degrees(math.acos(max(-1.0, min(1.0, cos_cut))))
                if cut > MAX_BANK_CUT_DEG:
                    continue
                bounce = (bx, by)
                leg1 = math.hypot(bx - tp[0], by - tp[1])
                if not (
                    path_clear(c, g, others, R)
                    and path_clear(tp, bounce, others, R)
                    and path_clear(bounce, ap, others + [c], R)
                ):
                    continue
                od = leg1 + leg2
                difficulty = (
                    BANK_FACTOR * (1.0 + cd / max(od, 0.1)) / (max(window / od, 1e-6) * max(cos_cut, 0.05))
                )
                phi = math.degrees(math.atan2(cy, cx)) % 360.0
                out.append(
                    PotLine(
                        struck, target, pocket.name, phi, cut, g, image, cd, od, approach,
                        difficulty, bank=cushion_name,
                    )
                )
    out.sort(key=lambda p: p.difficulty)
    return out


#: The last table's ``mirrors`` as arrays (``mirror_arrays``).
_MIRROR_ARRAYS: list[Any] = [None, None]


def mirror_arrays(t: Any) -> tuple[list[tuple[Any, ...]], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``mirrors(t)`` for compiled code: the lines, each cushion's row
    (normal, start, unit direction, length), each cushion's first bankable
    pocket and one past its last, and per bankable pocket its row (aim
    point, depth, mirror image, the pocket's axis and mouth)."""
    if _MIRROR_ARRAYS[0] is t:
        return _MIRROR_ARRAYS[1]
    lines = mirrors(t)
    cushions = np.array([row[1:8] for row in lines], dtype=np.float64).reshape(-1, 7)
    start = np.zeros(len(lines), np.int64)
    end = np.zeros(len(lines), np.int64)
    rows: list[tuple[float, ...]] = []
    for k, row in enumerate(lines):
        start[k] = len(rows)
        for pocket, ap, dp, image in row[8]:
            rows.append((ap[0], ap[1], dp, image[0], image[1], pocket.axis[0], pocket.axis[1], pocket.mouth))
        end[k] = len(rows)
    got = (lines, cushions, start, end, np.array(rows, dtype=np.float64).reshape(-1, 8))
    _MIRROR_ARRAYS[:] = [t, got]
    return got


def many_banks(
    position: Position, pairs: list[tuple[str, list[str]]], limit: int | None = None
) -> list[PotLine] | None:
    """``bank_lines(position, struck, targets)`` for each (struck, targets)
    of ``pairs`` (struck balls on the table, targets in the position's
    order, each once), merged easiest first as one stable sort of them in
    that order would merge them (``lines.lines_for``), and only the
    ``limit`` easiest made (all with None): free pyramid asks for every
    ball, and the search refines three. Its arithmetic compiled
    (``bank_rows``: the same floats, ``exact_hypot`` for ``math.hypot``);
    None where that is not this interpreter's (then the caller asks
    ``bank_lines``)."""
    if not same_as_python():
        return None
    t = position.table
    names, xy, struck_rows, asked = pairs_arrays(position, pairs)
    lines, cushions, start, end, pockets = mirror_arrays(t)
    pk, cu = surface_arrays(t)
    m, idx, vals = bank_rows(
        xy, struck_rows, asked, cushions, start, end, pockets, t.ball_radius, t.width, t.length, pk, cu,
        JAW_CLEARANCE, MAX_BANK_CUT_DEG, BANK_FACTOR,
    )
    order = np.argsort(vals[7, :m], kind="stable")
    if limit is not None:
        order = order[:limit]
    idx_l, vals_l = idx[:, order].T.tolist(), vals[:, order].T.tolist()
    out: list[PotLine] = []
    for (i, target, c, q), (phi, cut, gx, gy, cd, od, approach, difficulty) in zip(idx_l, vals_l, strict=True):
        pocket, _ap, _dp, image = lines[c][8][q - int(start[c])]
        out.append(
            PotLine(
                pairs[i][0], names[target], pocket.name, phi, cut, (gx, gy), image, cd, od, approach, difficulty,
                bank=lines[c][0],
            )
        )
    return out


@njit(cache=True, error_model="numpy", inline="always")
def _unit(x, y):  # pragma: no cover - compiled
    # ``ghost.unit_vector`` with Python's hypot.
    n = exact_hypot(x, y)
    if n > 1e-12:
        return x / n, y / n, n
    return 0.0, 0.0, 0.0


@njit(cache=True, error_model="numpy")
def clear_exact(xy, skip1, skip2, ax, ay, bx, by, limit):  # pragma: no cover - compiled
    """``ghost.path_clear`` from (ax, ay) to (bx, by) past the balls at the
    rows of ``xy`` but ``skip1`` and ``skip2``, with its arithmetic
    (``exact_hypot``): the same answer to the last bit."""
    dx, dy = bx - ax, by - ay
    L2 = dx * dx + dy * dy
    for k in range(xy.shape[0]):
        if k == skip1 or k == skip2:
            continue
        px, py = xy[k, 0], xy[k, 1]
        if L2 == 0:
            d = exact_hypot(px - ax, py - ay)
        else:
            s = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / L2))
            d = exact_hypot(px - (ax + s * dx), py - (ay + s * dy))
        if not d >= limit:
            return False
    return True


@njit(cache=True, error_model="numpy")
def bank_rows(xy, struck_rows, asked, cushions, start, end, pockets, R, W, L, pk, cu, jaw_clearance, max_cut,
              factor):  # pragma: no cover - compiled
    """``bank_lines``' loop for each struck ball (row ``struck_rows[i]`` of
    the balls ``xy``) at the targets ``asked[i]``, off each cushion
    (``mirror_arrays``' rows) into its bankable pockets, in its order of
    operations: (the lines made, and for each in the order ``bank_lines``
    makes them, struck ball by struck ball, its pair, target row,
    cushion and pocket row, and its direction, cut, ghost ball, cue
    distance, length, approach angle and difficulty)."""
    n_pairs, n = asked.shape
    cap = n_pairs * n * max(pockets.shape[0], 1)
    idx = np.empty((4, cap), np.int64)
    vals = np.empty((8, cap))
    m = 0
    limit = 2 * R + 0.0
    for i in range(n_pairs):
        s = struck_rows[i]
        c0, c1 = xy[s, 0], xy[s, 1]
        for t in range(n):
            if not asked[i, t]:
                continue
            t0, t1 = xy[t, 0], xy[t, 1]
            for c in range(cushions.shape[0]):
                nx, ny, sx, sy, tx_, ty_, length = (
                    cushions[c, 0], cushions[c, 1], cushions[c, 2], cushions[c, 3], cushions[c, 4], cushions[c, 5],
                    cushions[c, 6],
                )
                dt = (t0 - sx) * nx + (t1 - sy) * ny - R
                if dt <= 0.02:
                    continue
                for q in range(start[c], end[c]):
                    ap0, ap1, dp, im0, im1 = pockets[q, 0], pockets[q, 1], pockets[q, 2], pockets[q, 3], pockets[q, 4]
                    f = dt / (dt + dp)
                    bx, by = t0 + (im0 - t0) * f, t1 + (im1 - t1) * f
                    along = (bx - sx) * tx_ + (by - sy) * ty_
                    if not jaw_clearance < along < length - jaw_clearance:
                        continue
                    ax, ay, leg2 = _unit(ap0 - bx, ap1 - by)
                    approach = math.degrees(math.acos(max(-1.0, min(1.0, ax * pockets[q, 5] + ay * pockets[q, 6]))))
                    window = pockets[q, 7] * math.cos(math.radians(approach)) - 2 * R
                    if window <= 0:
                        continue
                    ux, uy, _n = _unit(im0 - t0, im1 - t1)
                    gx, gy = t0 - 2 * R * ux, t1 - 2 * R * uy
                    if not on_surface_at(gx, gy, R, W, L, pk, cu):
                        continue
                    cx, cy, cd = _unit(gx - c0, gy - c1)
                    if cd < 1e-9:
                        continue
                    cos_cut = cx * ux + cy * uy
                    cut = math.degrees(math.acos(max(-1.0, min(1.0, cos_cut))))
                    if cut > max_cut:
                        continue
                    leg1 = exact_hypot(bx - t0, by - t1)
                    if not (
                        clear_exact(xy, s, t, c0, c1, gx, gy, limit)
                        and clear_exact(xy, s, t, t0, t1, bx, by, limit)
                        and clear_exact(xy, t, -1, bx, by, ap0, ap1, limit)
                    ):
                        continue
                    od = leg1 + leg2
                    difficulty = factor * (1.0 + cd / max(od, 0.1)) / (max(window / od, 1e-6) * max(cos_cut, 0.05))
                    idx[0, m], idx[1, m], idx[2, m], idx[3, m] = i, t, c, q
                    v = vals[:, m]
                    v[0] = math.degrees(math.atan2(cy, cx)) % 360.0
                    v[1], v[2], v[3], v[4], v[5], v[6], v[7] = cut, gx, gy, cd, od, approach, difficulty
                    m += 1
    return m, idx, vals


def closest_miss(
    result: ShotResult, ball: str, t0: float, t1: float, aim: XY, samples: int = MISS_SAMPLES
) -> float | None:
    """Signed distance (m) by which ``ball``, moving between times ``t0``
    and ``t1``, passes ``aim``: taken where its path comes closest to it
    (sampled), across its direction of travel there. None if it is not
    moving.

    Measured on the real path because a ball leaving a cushion or another
    ball slides and curves until its spin catches up: the straight line off
    the contact misses by centimetres (measured: a bank aimed for zero miss
    along that line did not pot)."""
    t_end = min(t1, float(getattr(result, "duration", t0 + 3.0)))
    times = np.array([t0 + (t_end - t0) * k / (samples + 1) for k in range(1, samples + 1)])
    states = result.states_of(ball, times)
    if same_as_python():
        found, miss = nearest_pass(states, aim[0], aim[1])
        return miss if found else None
    best: tuple[float, float] | None = None
    for st in states.tolist():
        dx, dy, n = unit_vector(st[2], st[3])
        if n == 0.0:
            break
        rx, ry = aim[0] - st[0], aim[1] - st[1]
        d = math.hypot(rx, ry)
        if best is None or d < best[0]:
            best = (d, dx * ry - dy * rx)
    return None if best is None else best[1]


def miss_after(
    result: ShotResult, ball: str, aim: XY, starts: Callable[[Event], bool | None]
) -> float | None:
    """Signed distance (m) by which ``ball`` passes ``aim`` on the leg that
    begins with its first event for which ``starts(e)`` is True and ends at
    its next event (``closest_miss``). ``starts`` answers None for an event
    to pass over and False for one that means the stroke went wrong (then
    None is returned, as when the leg never begins)."""
    t0: float | None = None
    t1 = math.inf
    # The log without motion-state changes, which are passed over here anyway.
    for e in result.rule_events:
        if ball not in e.balls or e.type in ("motion", "centre_line", "cue"):
            continue
        if t0 is not None:
            t1 = e.t
            break
        ok = starts(e)
        if ok is False:
            return None
        if ok:
            t0 = e.t
    if t0 is None:
        return None
    return closest_miss(result, ball, t0, t1, aim)


@njit(cache=True, error_model="numpy")
def nearest_pass(states, ax, ay):  # pragma: no cover - compiled
    """``closest_miss``'s loop over the sampled states (rows x, y, vx,
    vy, ...) with Python's ``math.hypot`` (``exact_hypot``): (whether a
    moving sample was found, the signed miss at the nearest one)."""
    found, best_d, best = False, 0.0, 0.0
    for k in range(states.shape[0]):
        vx, vy = states[k, 2], states[k, 3]
        n = exact_hypot(vx, vy)
        if not n > 1e-12:
            break  # ``unit_vector``'s null vector: the ball has stopped
        dx, dy = vx / n, vy / n
        rx, ry = ax - states[k, 0], ay - states[k, 1]
        d = exact_hypot(rx, ry)
        if not found or d < best_d:
            found, best_d, best = True, d, dx * ry - dy * rx
    return found, best


@njit(cache=True, error_model="numpy")
def bank_leg(ev, ball, struck, cushion):  # pragma: no cover - compiled
    """``miss_after``'s scan of the log for a bank (``bank_miss``'s
    ``starts``) on the event records (rows type, t, i, j, a, b, motion
    changes included as ``records`` has them): ball ``ball``'s events
    other than motion, centre-line and cue ones, passing over its contact
    with ``struck``, must begin with cushion ``cushion``. (Whether they
    do, that event's time and the next one's, inf when none.)"""
    t0 = 0.0
    started = False
    for q in range(ev.shape[0]):
        typ = int(ev[q, 0])
        if typ == EV_MOTION or typ == EV_CENTRE or typ == EV_CUE:
            continue
        i = int(ev[q, 2])
        j = int(ev[q, 3]) if typ == EV_BALL else -1
        if i != ball and j != ball:
            continue
        if started:
            return True, t0, ev[q, 1]
        if typ == EV_BALL and (i == struck or j == struck):
            continue  # the contact that sends it
        if typ == EV_CUSHION and int(ev[q, 4]) == cushion:
            t0, started = ev[q, 1], True
        else:
            return False, 0.0, 0.0
    return started, t0, math.inf


def bank_miss(result: ShotResult, line: PotLine, aim: XY) -> float | None:
    """Signed distance (m) by which the object ball, after its first
    cushion, passes the pocket's aim point; None if it touched another ball
    or cushion first, or never reached the bank's cushion."""
    if same_as_python() and line.bank in CUSHIONS:
        # ``miss_after`` on the records, without building the event log.
        ev, ids = result.records()
        if line.target in ids and line.struck in ids:
            ok, t0, t1 = bank_leg(ev, ids.index(line.target), ids.index(line.struck), CUSHIONS.index(line.bank))
            return closest_miss(result, line.target, t0, t1, aim) if ok else None

    def starts(e: Event) -> bool | None:
        if e.type == "ball_ball" and line.struck in e.balls:
            return None  # the contact that sends it
        return e.type == "cushion" and e.cushion == line.bank

    return miss_after(result, line.target, aim, starts)


def secant_aim(
    ctx: Context,
    line: PotLine,
    place: XY | None,
    v: float,
    miss: Callable[[ShotResult], float | None],
    goes_in: Callable[[ShotResult], bool],
    iters: int,
    **kw: Any,
) -> Trial | None:
    """Secant iteration on the cue direction driving ``miss(result)`` (a
    signed distance, None when the stroke goes wrong) to zero; returns the
    trial of the first stroke that ``goes_in`` (pockets what the line
    plays) and the referee passes, or None (one noise-free simulation per
    iteration, counted as ``Context.trial`` counts it). A stroke is judged
    only when it goes in: only such a stroke can be the answer, and a
    ruling costs more than the simulation."""
    pts: list[tuple[float, float]] = []
    phi = line.phi
    for _ in range(iters):
        shot = ctx.shot(line, phi, v, place, **kw)
        res = ctx.simulated(shot)
        if res is None:
            return None
        if goes_in(res):
            tr = ctx.judge(shot, res)
            if tr is None:
                return None
            if tr.legal:
                return tr
        m = miss(res)
        if m is None:
            return None
        pts.append((phi, m))
        if len(pts) < 2:
            phi += 0.2
            continue
        (p0, m0), (p1, m1) = pts[-2], pts[-1]
        if m1 == m0:
            return None
        step = -m1 * (p1 - p0) / (m1 - m0)
        phi = p1 + max(-1.5, min(1.5, step))
    return None


def refine_bank(ctx: Context, line: PotLine, place: XY | None, v: float) -> Trial | None:
    """Secant on the cue direction until the noise-free bank pots the
    line's target (in its pocket where shots are called) on a legal
    stroke; the potting trial or None. Compiled (``bank_secant``) up to
    the first stroke that goes in, where that stroke is the answer; else
    in Python (``secant_aim``): the same answer and the same strokes
    counted either way."""
    aim = aim_point(ctx.table.pockets[line.pocket], ctx.table)
    certain, got = _compiled_bank(ctx, line, place, v, aim)
    if certain:
        return got
    return secant_aim(
        ctx,
        line,
        place,
        v,
        lambda res: bank_miss(res, line, aim),
        lambda res: pockets_target(res, line, ctx.called),
        BANK_ITERS,
    )


def _compiled_bank(ctx: Context, line: PotLine, place: XY | None, v: float, aim: XY) -> tuple[bool, Trial | None]:
    """``refine_bank``'s secant compiled: (True, its answer) where the
    compiled secant's answer is certain (no stroke goes in, or the first
    that does is legal), (False, None) where Python must play it (nothing
    counted then)."""
    if not same_as_python() or line.bank not in CUSHIONS or place is not None:
        return False, None
    first = ctx.shot(line, line.phi, v, place)
    try:
        inputs = ctx.simulate.loop_inputs(first)
    except PiramidaError:
        return False, None
    ids, t = inputs.ids, inputs.table
    if line.target not in ids or line.struck not in ids:
        return False, None
    S, mode = np.empty(inputs.S0.shape), np.empty(len(ids), dtype=np.int64)  # filled by ``stroke``
    code, phi, n, nev, nseg, status = bank_secant(
        line.phi, first.v, BANK_ITERS, inputs.S0, S, mode, ids.index(line.struck), math.radians(first.theta),
        first.a, first.b, t.CU, t.JW, t.FC, t.PK, t.P, inputs.ev, inputs.seg, inputs.fw, inputs.iw, inputs.mw,
        ids.index(line.target), POCKETS.index(line.pocket), ctx.called, CUSHIONS.index(line.bank), aim[0], aim[1],
        MISS_SAMPLES,
    )
    if code == ASK_PYTHON:
        return False, None
    tr: Trial | None = None
    if code == GOES_IN:
        shot = first.aimed(phi % 360.0)
        tr = ctx.judge(shot, ctx.simulate.result(shot, inputs, status, nev, nseg, S, mode))
        if tr is not None and not tr.legal:
            return False, None  # Python's secant goes on past a foul
    if ctx.budget is not None:
        ctx.budget.used += n
    return True, tr


@njit(cache=True, error_model="numpy")
def bank_secant(phi, v, iters, S0, S, mode, cue, theta, a, b, CU, JW, FC, PK, P, ev, seg, fw, iw, mw, target, pocket,
                called, cushion, aim_x, aim_y, samples):  # pragma: no cover - compiled
    """``secant_aim`` of ``refine_bank`` (``bank_miss``, ``closest_miss``
    on the records) from direction ``phi``, up to the first stroke that
    pockets the target (``pots_target``): (GOES_IN, NONE_IN or ASK_PYTHON,
    the last stroke's direction, strokes played, and its event and
    segment counts and status, whose records are still in the buffers)."""
    pts_phi = np.empty(iters)
    pts_m = np.empty(iters)
    npts = 0
    states = np.empty((samples, 7))
    times = np.empty(samples)
    n = nev = nseg = status = 0
    for _it in range(iters):
        if not math.isfinite(phi):
            return ASK_PYTHON, phi, n, nev, nseg, status
        nev, nseg, status = stroke(phi, v, S0, S, mode, cue, theta, a, b, CU, JW, FC, PK, P, ev, seg, fw, iw, mw)
        n += 1
        if pots_target(ev, nev, mode, target, pocket, called):
            return GOES_IN, phi, n, nev, nseg, status
        ok, t0, t1 = bank_leg(ev[:nev], target, cue, cushion)
        if not ok:
            return NONE_IN, phi, n, nev, nseg, status
        duration = ev[nev - 1, 1] if nev > 0 else 0.0
        t_end = min(t1, duration)
        for k in range(1, samples + 1):
            times[k - 1] = t0 + (t_end - t0) * k / (samples + 1)
        count = states_at(seg[:nseg], target, times, P, states)
        found, m = nearest_pass(states[:count], aim_x, aim_y)
        if not found:
            return NONE_IN, phi, n, nev, nseg, status
        pts_phi[npts] = phi
        pts_m[npts] = m
        npts += 1
        if npts < 2:
            phi += 0.2
            continue
        p0, m0, p1, m1 = pts_phi[npts - 2], pts_m[npts - 2], pts_phi[npts - 1], pts_m[npts - 1]
        if m1 == m0:
            return NONE_IN, phi, n, nev, nseg, status
        step = -m1 * (p1 - p0) / (m1 - m0)
        phi = p1 + max(-1.5, min(1.5, step))
    return NONE_IN, phi, n, nev, nseg, status


__all__ = [
    "BANK_FACTOR",
    "bank_lines",
    "many_banks",
    "bank_miss",
    "closest_miss",
    "miss_after",
    "refine_bank",
    "secant_aim",
]
