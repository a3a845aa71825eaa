"""Strokes that are not aimed pots: the break, the lag, safeties, and the
plain shot left when nothing else is.

- The break (docs/game_rules.md §4.2): ``break_shot`` simulates full and
  half-ball hits on the apex ball from three spots in the house at 6.5 and
  8 m/s and keeps the one the referee values most (greedy's break);
  ``break_family`` is the wider family the planner samples under noise
  (five contacts, two speeds); the break book (agents/break_book.py) has
  the strokes found offline.
- The lag (§4.1): ``lag_shot``.
- Safeties: ``safety_pairs`` (the nearest balls with a clear straight
  path) and ``safety_shots`` (strokes at them at given contacts and
  speeds); ``opponent_difficulty`` says how hard the table a stroke leaves
  is for whoever shoots next.
- ``fallback``: a plain shot at the nearest ball; ``final`` plays it in
  place of a shot the referee refuses.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit

from piramida.agents.base import GameView, why_no_shot
from piramida.agents.shots.context import Context, Trial
from piramida.agents.shots.exact import exact_hypot, same_as_python
from piramida.agents.shots.ghost import path_clear_of
from piramida.agents.shots.lines import hand_placements, targets_for, zone_ok
from piramida.agents.shots.probability import easiest_difficulty
from piramida.env.errors import PiramidaError
from piramida.env.physics import simulate
from piramida.env.position import Position, cue_ball_of
from piramida.env.shot import Shot
from piramida.env.table import Table

XY = tuple[float, float]

#: ``break_family``: contact offsets on the apex ball in ball diameters (0
#: full, 0.5 half-ball) and cue ball speeds (m/s), from three spots.
BREAK_OFFSETS = (0.0, 0.5, -0.5, 0.9, -0.9)
BREAK_SPEEDS = (8.0, 4.5)
#: Safety pairs looked at, nearest first.
SAFETY_PAIRS = 5


def _break_spots(ctx: Context) -> list[tuple[XY, XY, float, float]]:
    """(place, apex, distance, direction in degrees) from the three spots
    on the house line that are free."""
    t = ctx.table
    apex = min(((x, y) for _, x, y in ctx.pos.balls), key=lambda p: p[1])
    out = []
    for px in (t.width / 2, t.width / 2 - 0.25, t.width / 2 + 0.25):
        place = (px, t.house_line - 0.08)
        if not zone_ok(ctx, place[0], place[1], "house"):
            continue
        d = math.hypot(apex[0] - place[0], apex[1] - place[1])
        base = math.degrees(math.atan2(apex[1] - place[1], apex[0] - place[0]))
        out.append((place, apex, d, base))
    return out


def break_strokes(ctx: Context) -> list[Shot]:
    """Greedy's break strokes: full and half-ball hits on the apex ball at
    8 and 6.5 m/s from three spots."""
    if not ctx.pos.balls:
        return []
    ball = ctx.first_cue_ball()
    out = []
    for place, _apex, d, base in _break_spots(ctx):
        for off in (0.0, 0.5, -0.5):
            phi = base + math.degrees(math.asin(min(0.99, off * 2 * ctx.R / d)))
            for v in (8.0, 6.5):
                out.append(Shot(ball=ball, phi=phi % 360.0, v=v, place=place))
    return out


def break_trials(ctx: Context) -> list[Trial]:
    """``break_strokes``, simulated and judged (those the physics or the
    referee refuses left out)."""
    out = []
    for shot in break_strokes(ctx):
        tr = ctx.trial(shot)
        if tr is not None:
            out.append(tr)
    return out


#: ``best_break``'s values of greedy's break strokes, per rack layout, for
#: the last ``BREAK_MEMO_SIZE`` layouts.
BREAK_MEMO_SIZE = 32
_break_values: OrderedDict[tuple[Any, ...], tuple[Table, tuple[float | None, ...]]] = OrderedDict()
_break_lock = threading.Lock()


def best_break(ctx: Context) -> Trial | None:
    """The first of ``break_strokes`` with the highest value (judged), or
    None when the physics or the referee refuses them all.

    Every frame starts from the same rack, its balls shuffled, and judging
    the 18 strokes in full (a break's log is some 180 events) was about a
    tenth of a free-pyramid self-play frame. Where the referee says a
    break's value does not depend on which ball lies where
    (``Referee.break_by_layout``), the values are kept per layout
    (``_layout_key``) and the next frame from that layout judges only the
    stroke chosen: the same stroke and trial as judging them all, and the
    same strokes counted in a budget."""
    shots = break_strokes(ctx)
    key = _layout_key(ctx)
    if key is not None:
        with _break_lock:
            got = _break_values.get(key)
            if got is not None and got[0] is ctx.table:
                _break_values.move_to_end(key)
                values = got[1]
            else:
                values = None
        if values is not None:
            if ctx.budget is not None:
                ctx.budget.used += len(shots)  # as ``Context.trial`` counts each
            k = _first_best(values)
            return ctx.judged(shots[k]) if k is not None else None
    trials = [ctx.trial(shot) for shot in shots]
    judged = tuple(tr.value if tr is not None else None for tr in trials)
    if key is not None:
        with _break_lock:
            _break_values[key] = (ctx.table, judged)
            if len(_break_values) > BREAK_MEMO_SIZE:
                _break_values.popitem(last=False)
    k = _first_best(judged)
    return trials[k] if k is not None else None


def _first_best(values: Sequence[float | None]) -> int | None:
    """The index of the first of the highest ``values`` (None: refused)."""
    best: int | None = None
    top = 0.0
    for k, v in enumerate(values):
        if v is not None and (best is None or v > top):
            best, top = k, v
    return best


def _layout_key(ctx: Context) -> tuple[Any, ...] | None:
    """What fixes the values of ``break_strokes`` where the referee says
    the balls' numbers do not (``Referee.break_by_layout``): the referee's
    kind and options, the table, where the balls lie (not which lies
    where: every spot taken, and the struck ball's spot if it is on the
    table), the struck ball and the frame's state but for the position;
    None where the numbers may count."""
    ref = ctx.referee
    if not ctx.pos.balls or not ref.break_by_layout(ctx.state):
        return None
    pos, st = ctx.pos, ctx.state
    ball = ctx.first_cue_ball()
    spots = tuple(sorted((x, y) for b, x, y in pos.balls if b != ball))
    own = pos.xy(ball) if ball in pos else None
    options = repr(sorted(ref.options.items()))
    return (
        type(ref), options, id(ctx.table), spots, ball, own, pos.to_move, pos.in_hand, ctx.me,
        st.next, st.breaker,
    )


def break_shot(ctx: Context) -> Shot:
    """Greedy's break from the house at the rack (docs/game_rules.md §4.2):
    ``best_break``'s stroke, or ``fallback``."""
    best = best_break(ctx)
    return best.shot if best is not None else fallback(ctx)


def break_family(ctx: Context) -> list[Shot]:
    """Strokes at the apex ball from three spots on the house line:
    full, half-ball and thin contacts on either side, firm and soft."""
    if not ctx.pos.balls:
        return []
    ball = ctx.first_cue_ball()
    shots: list[Shot] = []
    for place, _apex, d, base in _break_spots(ctx):
        for off in BREAK_OFFSETS:
            phi = base + math.degrees(math.asin(min(0.99, off * 2 * ctx.R / d)))
            for v in BREAK_SPEEDS:
                shots.append(Shot(ball=ball, phi=phi % 360.0, v=v, place=place))
    return shots


def lag_shot(view: GameView) -> Shot:
    """The lag (docs/game_rules.md §4.1, item 7): from the house on our side of the long
    axis, straight at the rear cushion; the speed whose noise-free ball comes
    back nearest the front cushion having touched the rear cushion once and
    no other, on a grid of speeds shifted by player and attempt so that two
    such lags do not tie for ever."""
    t = view.table
    ball = cue_ball_of(view.variant, view.player)
    x = t.width * (0.75 if view.player == 1 else 0.25)
    place = (x, t.house_line - 0.1)
    empty = Position(view.variant, (), to_move=view.player, in_hand="house", table=t)
    # Two players with this same search would stop at the same distance
    # and tie for ever (item 7.3: a tie is replayed): the speed grid is
    # shifted by the player and by the attempt.
    shift = 0.011 * (1 + view.player) + 0.017 * (view.shot_number % 5)
    best: tuple[float, Shot] | None = None
    for k in range(16):
        shot = Shot(ball=ball, phi=90.0, v=1.5 + 0.2 * k + shift, place=place)
        try:
            res = simulate(empty, shot)
        except PiramidaError:
            continue
        cushions = [e.cushion for e in res.events if e.type == "cushion"]
        if cushions[:1] != ["rear"] or cushions.count("rear") != 1 or ball not in res.final:
            continue
        y = res.final.xy(ball)[1]
        if best is None or y < best[0]:
            best = (y, shot)
    return best[1] if best is not None else Shot(ball=ball, phi=90.0, v=2.5, place=place)


def safety_pairs(ctx: Context) -> list[tuple[str, XY | None, str]]:
    """(struck, placement, target) with a clear straight path, nearest
    first, ``SAFETY_PAIRS`` of them (with the cue ball in hand, from the
    first six placements)."""
    starts = safety_starts(ctx)
    if not same_as_python():
        return safety_pairs_python(ctx, starts)
    balls = ctx.pos.ball_map
    names = list(balls)
    row = {b: k for k, b in enumerate(names)}
    asked = np.zeros((len(starts), len(names)), dtype=np.bool_)
    for i, (_s, _place, _sxy, targets) in enumerate(starts):
        for t in targets:
            asked[i, row[t]] = True
    d = clear_distances(
        np.array(list(balls.values()), dtype=np.float64).reshape(-1, 2),
        np.array([sxy for _s, _p, sxy, _t in starts], dtype=np.float64).reshape(-1, 2),
        np.array([row.get(s, -1) for s, _p, _sxy, _t in starts], dtype=np.int64), asked, 2 * ctx.R,
    ).ravel()
    # Nearest first, ties in the order the pairs were asked (a stable sort).
    found = np.flatnonzero(d >= 0.0)
    order = found[np.argsort(d[found], kind="stable")[:SAFETY_PAIRS]].tolist()
    return [(starts[q // len(names)][0], starts[q // len(names)][1], names[q % len(names)]) for q in order]


def safety_starts(ctx: Context) -> list[tuple[str, XY | None, XY, list[str]]]:
    """Where ``safety_pairs`` strikes from, in order: each ball the shooter
    may strike (from the first six placements when in hand), with its
    placement, where it starts and the balls it may be sent at."""
    balls = ctx.pos.ball_map
    starts: list[tuple[str, XY | None, XY, list[str]]] = []
    for s in ctx.cue_balls():
        targets = targets_for(ctx, s)
        for place in [None] if s in balls else hand_placements(ctx, s)[:6]:
            starts.append((s, place, place if place is not None else balls[s], targets))
    return starts


def safety_pairs_python(
    ctx: Context, starts: list[tuple[str, XY | None, XY, list[str]]]
) -> list[tuple[str, XY | None, str]]:
    """``safety_pairs`` from ``safety_starts(ctx)`` in Python (where
    ``exact_hypot`` is not this interpreter's ``math.hypot``; and the
    reference the compiled one is tested against)."""
    balls = ctx.pos.ball_map
    row = {b: k for k, b in enumerate(balls)}
    xy = np.array(list(balls.values()), dtype=np.float64).reshape(-1, 2)
    out: list[tuple[float, str, XY | None, str]] = []
    for s, place, sxy, targets in starts:
        ks = row.get(s, -1)
        for t in targets:
            txy = balls[t]
            if path_clear_of(xy, ks, row[t], sxy[0], sxy[1], txy[0], txy[1], 2 * ctx.R):
                out.append((math.hypot(txy[0] - sxy[0], txy[1] - sxy[1]), s, place, t))
    out.sort(key=lambda x: x[0])
    return [(s, p, t) for _, s, p, t in out[:SAFETY_PAIRS]]


@njit(cache=True, error_model="numpy")
def clear_distances(xy, start_xy, start_k, asked, limit):  # pragma: no cover - compiled
    """For each start (a struck ball's row ``start_k[i]``, -1 when placed,
    at ``start_xy[i]``) and each ball ``t`` of ``asked[i]``: the distance
    to it (Python's ``math.hypot``, ``exact_hypot``) where the straight path
    is clear of the other balls (``path_clear_of``), else -1."""
    n_starts, n = asked.shape
    out = np.full((n_starts, n), -1.0)
    for i in range(n_starts):
        sx, sy = start_xy[i, 0], start_xy[i, 1]
        for t in range(n):
            if asked[i, t] and path_clear_of(xy, start_k[i], t, sx, sy, xy[t, 0], xy[t, 1], limit):
                out[i, t] = exact_hypot(xy[t, 0] - sx, xy[t, 1] - sy)
    return out


def safety_shots(
    ctx: Context, pairs: Sequence[tuple[str, XY | None, str]], strokes: Sequence[tuple[float, float]]
) -> list[tuple[Shot, str]]:
    """For each pair, a stroke at every (contact offset in ball diameters,
    speed m/s) of ``strokes``, with the ball it is aimed at; called at the
    nearest pocket where shots are called."""
    shots: list[tuple[Shot, str]] = []
    for ball, place, target in pairs:
        sx, sy = place if place is not None else ctx.pos.xy(ball)
        tx, ty = ctx.pos.xy(target)
        d = max(math.hypot(tx - sx, ty - sy), 2 * ctx.R)
        base = math.degrees(math.atan2(ty - sy, tx - sx))
        call = nearest_pocket_call(ctx, target) if ctx.called else None
        for off, v in strokes:
            phi = base + math.degrees(math.asin(min(0.99, off * 2 * ctx.R / d)))
            shots.append((Shot(ball=ball, phi=phi % 360.0, v=v, place=place, call=call), target))
    return shots


def nearest_pocket_call(ctx: Context, target: str) -> tuple[str, str]:
    """``target`` called into the pocket nearest to it."""
    x, y = ctx.pos.xy(target)
    pk = min(
        ctx.table.pockets.values(),
        key=lambda p: math.hypot(p.mouth_centre[0] - x, p.mouth_centre[1] - y),
    )
    return (target, pk.name)


def opponent_difficulty(ctx: Context, ruling: Any) -> float:
    """How hard the easiest pot is for whoever shoots next (large = good
    for us when it is the opponent)."""
    pos = ruling.position
    nxt = ruling.next
    if nxt.kind != "shot" or nxt.player is None:
        return 0.0
    try:
        cues = ctx.referee.allowed_cue_balls(pos)
    except PiramidaError:
        return 0.0
    best = easiest_difficulty(pos, [c for c in cues if c in pos])
    sign = 1.0 if nxt.player != ctx.me else -1.0
    return sign * (best if best is not None else 1e4)


def fallback(ctx: Context) -> Shot:
    """A plain shot at the nearest ball: what is left when nothing else is.
    ``NoLegalShotError`` when no ball may be struck (the frame is over, or
    nothing is left to strike)."""
    ball = ctx.first_cue_ball()
    place = None
    if ball not in ctx.pos:
        spots = hand_placements(ctx, ball)
        place = spots[0] if spots else (ctx.table.width / 2, ctx.R + 0.05)
    sxy = place if place is not None else ctx.pos.xy(ball)
    others = [(b, xy) for b, xy in ctx.pos.ball_map.items() if b != ball]
    call = None
    phi = 90.0
    if others:
        b, (x, y) = min(others, key=lambda o: math.hypot(o[1][0] - sxy[0], o[1][1] - sxy[1]))
        phi = math.degrees(math.atan2(y - sxy[1], x - sxy[0])) % 360.0
        if ctx.called and not ctx.pos.is_break:
            target = b if not (ctx.view.variant == "classic71" and b == "0") else others[-1][0]
            call = nearest_pocket_call(ctx, target)
    shot = Shot(ball=ball, phi=phi, v=3.0, place=place, call=call)
    if not ctx.legal(shot) and why_no_shot(ctx.view) is not None:
        ctx.no_shot()
    return shot


def final(ctx: Context, shot: Shot) -> Shot:
    """The shot, or, should the referee refuse it, a plain legal one."""
    if ctx.legal(shot):
        return shot
    return fallback(ctx)


__all__ = [
    "BREAK_MEMO_SIZE",
    "BREAK_OFFSETS",
    "BREAK_SPEEDS",
    "SAFETY_PAIRS",
    "best_break",
    "break_family",
    "break_shot",
    "break_strokes",
    "break_trials",
    "fallback",
    "final",
    "lag_shot",
    "nearest_pocket_call",
    "opponent_difficulty",
    "safety_pairs",
    "safety_pairs_python",
    "safety_starts",
    "safety_shots",
]
