"""Aiming a pot: throw correction and centring.

The ghost-ball line (``ghost.pot_lines``) ignores throw: ball-ball friction
turns the object ball off the line of centres by about a degree, which on a
pyramid table (corner mouth 4.5 mm wider than the ball) is the difference
between a pot and a miss (docs/references.md: naive ghost-ball aim potted
21 of 200). ``refine`` corrects the cue direction by a secant iteration on
the object ball's direction error just after contact, simulating without
noise (``Context.trial``). ``pot_line`` then finds how far the aim may move
each way and still pot, aims at the middle of that range (centring), and
scores the stroke: its pot-probability estimate from the range's
half-width (``PotModel.line`` of the decision's skill), what a miss costs,
and (where one cue ball is ours) the chance of the next pot from where the
struck ball stops (``PotModel.chance``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

from piramida.agents.shots.context import Context, Trial
from piramida.agents.shots.ghost import PotLine, cue_speed_for
from piramida.agents.shots.probability import easiest_difficulty
from piramida.agents.shots.probe import REFINE_ITERS, Probe, Reference, Secant, refined, secant_next
from piramida.env.physics import ShotResult
from piramida.env.position import cue_ball_of
from piramida.env.shot import Shot

#: How far past the edge of the potting range the "miss" stroke is aimed.
MISS_DPHI = 0.3
#: Weight of the next pot's ease in a pot's score (in points).
LEAVE_WEIGHT = 0.4

Place = tuple[float, float] | None


def wrap_deg(a: float) -> float:
    """An angle in degrees brought into [-180, 180)."""
    return (a + 180.0) % 360.0 - 180.0


def object_error(result: ShotResult, line: PotLine, start: tuple[float, float]) -> float | None:
    """Degrees between the object ball's direction just after the struck
    ball first touches it and the direction to the aim point; None if the
    struck ball touches another ball first or nothing."""
    contact = result.first_contact(line.struck)
    if contact is None or contact[0] != line.target:
        return None
    st = result.state_of(line.target, contact[1])
    if st is None:
        return None
    got = math.degrees(math.atan2(st[3], st[2]))
    want = math.degrees(math.atan2(line.aim[1] - start[1], line.aim[0] - start[0]))
    return wrap_deg(got - want)


def pots(tr: Trial, line: PotLine, called: bool) -> bool:
    """The trial pockets the line's target (in the line's pocket where
    shots are called)."""
    return pockets_target(tr.result, line, called)


def pockets_target(result: ShotResult, line: PotLine, called: bool) -> bool:
    """``pots`` of a simulated result, before the referee has judged it."""
    for b, p in result.pocketed:
        if b == line.target:
            return p == line.pocket or not called
    return False


def secant_for(ctx: Context, line: PotLine) -> Secant:
    """The secant of ``line``."""
    start = ctx.pos.xy(line.target)
    cos_cut = max(math.cos(math.radians(line.cut)), 0.2)
    # d(object direction)/d(phi) for ghost-ball contact: a cue rotation moves
    # the contact point sideways by d * dphi, turning the line of centres by
    # that over 2R (opposite sense); the secant takes over after one step.
    slope = -max(line.cue_distance, 2 * ctx.R) / (2 * ctx.R * cos_cut)
    window = max(line.object_distance, 0.05)
    tol = math.degrees(0.0006 / window)
    want = math.degrees(math.atan2(line.aim[1] - start[1], line.aim[0] - start[0]))
    return Secant(slope, tol, want)


def refine(
    ctx: Context,
    line: PotLine,
    place: Place,
    v: float,
    like: Reference | None = None,
    sec: Secant | None = None,
    **kw: Any,
) -> Trial | None:
    """Secant iteration on phi until the noise-free stroke pots the target
    (throw correction); the potting trial, or None. ``kw`` (spin) goes to
    the stroke. The secant runs compiled (``probe.refined``; ``like``: the
    ``probe.Reference`` of a legal pot of the line whose outcome the answer
    likely repeats) where its answer is certain, else in Python
    (``secant``): the same answer and the same strokes counted either way.
    ``sec``: ``secant_for(ctx, line)``, where the caller has it."""
    first = ctx.shot(line, line.phi, v, place, **kw)
    if sec is None:
        sec = secant_for(ctx, line)
    certain, got = refined(ctx, line, first, sec, like)
    if certain:
        return got
    return secant(ctx, line, first, sec)


def secant(ctx: Context, line: PotLine, first: Shot, sec: Secant) -> Trial | None:
    """``refine``'s secant in Python, from its first stroke ``first``:
    every stroke that pots the target is judged, and the last legal one is
    the answer."""
    start = ctx.pos.xy(line.target)
    slope, tol = sec.slope, sec.tol
    phi = line.phi
    pts: list[tuple[float, float]] = []
    potted: Trial | None = None
    for k in range(REFINE_ITERS):
        # Only the direction changes from one iteration to the next.
        shot = first if k == 0 else first.aimed(phi % 360.0)
        res = ctx.simulated(shot)
        if res is None:
            return None
        err = object_error(res, line, start)
        # Judged only when it pots: only a pot can be the answer.
        if pockets_target(res, line, ctx.called):
            tr = ctx.judge(shot, res)
            if tr is None:
                return None
            if tr.legal:
                potted = tr
                if err is None or abs(err) < tol:
                    break
        if err is None:
            if not pts:
                return potted
            # Overshot into another ball or a miss: go back halfway.
            phi = 0.5 * (phi + pts[-1][0])
            continue
        pts.append((phi, err))
        if abs(err) < tol * 0.5:
            break
        prev = pts[-2] if len(pts) >= 2 else (0.0, 0.0)
        phi = secant_next(phi, err, prev[0], prev[1], len(pts) >= 2, slope)
    return potted


def edge(pots_at: Callable[[float], bool], first: float = 0.02, limit: float = 0.64) -> float:
    """How far (degrees) the aim may move one way and still pot: doubling
    steps, then two bisections."""
    lo, hi, d = 0.0, None, first
    while d <= limit:
        if pots_at(d):
            lo, d = d, 2 * d
        else:
            hi = d
            break
    if hi is None:
        return lo
    for _ in range(2):
        mid = 0.5 * (lo + hi)
        if pots_at(mid):
            lo = mid
        else:
            hi = mid
    return lo


class AimedPot(NamedTuple):
    """A centred pot: its score, its noise-free trial, the pot-probability
    estimate ``p``, the half-width (degrees) of the range of directions that
    pot around its aim and how many of two speed errors (+-8%) still pot."""

    score: float
    trial: Trial
    p: float
    half_width: float
    speed_hits: int


def pot_line(ctx: Context, line: PotLine, place: Place) -> AimedPot | None:
    """Make ``line`` pot: throw-corrected aim, a speed that gets there, then
    the aim moved to the middle of the range of directions that pot.

    p = ``ctx.model.line(half-width, speed hits)``; score = value * p +
    (1 - p) * the value of a miss + ``LEAVE_WEIGHT`` * p * ``leave``."""
    v0 = cue_speed_for(line, ctx.table)
    tr: Trial | None = None
    carom = ctx.view.variant == "five_ball"
    sec = secant_for(ctx, line)
    # The softer third pace rarely pots where the first two did not (5 of
    # about 12,000 lines in generated positions, whose balls keep 8 cm from
    # the mouths), but it does for a ball in the jaws (tests/agents/
    # test_planner.py, classic71): kept.
    for v in (v0, v0 * 1.5, v0 * 0.75):
        tr = refine(ctx, line, place, v, sec=sec)
        # Five balls: a pot without a carom is worth nothing yet, but its
        # aim is where the carom search starts.
        if tr is not None and (tr.value > 0 or carom):
            break
        tr = None
    if tr is None:
        return None
    if carom:
        tr = carom_variant(ctx, line, place, tr, sec)
    if tr.value <= 0:
        return None
    target_value = tr.value
    base = tr.shot
    ref = tr

    def ok(phi: float, v: float) -> Trial | None:
        return pots_as(ctx, line, ref, phi, v)

    phi0, v = tr.shot.phi, tr.shot.v
    # The edges, the centred stroke and the speed checks, compiled where the
    # physics can answer for the referee (probe.py); in Python where not.
    probe = Probe.of(ctx, line, tr)
    up = probe.edge(phi0, 1.0, max(0.3, v)) if probe is not None else None
    if up is None:
        up = edge(lambda d: ok(phi0 + d, v) is not None)
    down = probe.edge(phi0, -1.0, max(0.3, v)) if probe is not None else None
    if down is None:
        down = edge(lambda d: ok(phi0 - d, v) is not None)
    centred = None
    if up != down:
        phi_c = phi0 + 0.5 * (up - down)
        certain, centred = (
            probe.trial(ref.shot.aimed(phi_c % 360.0, max(0.3, v))) if probe is not None else (False, None)
        )
        if not certain:
            centred = ok(phi_c, v)
    if centred is not None:
        tr = centred
    half = 0.5 * (up + down)
    hits = 0
    for k in (0.92, 1.08):
        hit = probe.pots(tr.shot.phi, max(0.3, v * k)) if probe is not None else None
        hits += hit if hit is not None else ok(tr.shot.phi, v * k) is not None
    p = ctx.model.line(half, hits)
    # What a miss costs: the stroke just outside the potting range, judged
    # (a slow miss that reaches no cushion is an item-20 foul).
    miss = ctx.trial(base.aimed((tr.shot.phi + half + MISS_DPHI) % 360.0))
    miss_value = min(miss.value, 0.0) if miss is not None else -1.0
    score = target_value * p + (1.0 - p) * miss_value + LEAVE_WEIGHT * p * leave(ctx, tr)
    return AimedPot(score, tr, p, half, hits)


def pots_as(ctx: Context, line: PotLine, ref: Trial, phi: float, v: float) -> Trial | None:
    """The trial of ``ref``'s stroke aimed at ``phi`` with speed ``v`` (at
    least 0.3 m/s), if it pots ``line``'s target legally and is worth at
    least as much as ``ref``; else None. Judged only when it pots: what
    does not pot does not pass, whatever the referee says."""
    alt = ctx.trial(
        ref.shot.aimed(phi % 360.0, max(0.3, v)),
        when=lambda res: pockets_target(res, line, ctx.called),
    )
    if alt is not None and pots(alt, line, ctx.called) and alt.value >= ref.value - 1e-9:
        return alt
    return None


def leave(ctx: Context, tr: Trial) -> float:
    """The chance of our next pot after ``tr`` (``ctx.model.chance`` of the
    easiest open pot; 1 with the cue ball in hand, 0 when the turn passes).
    Only where one cue ball is ours to strike: in free pyramid any ball may
    be struck next and there is nearly always something on."""
    if ctx.view.variant == "free":
        return 0.0
    # The next decision and the frame state are the same in a trial's
    # ruling and in the one it is keyed to (``Trial.outline``), and the
    # balls rest where ``Trial.rest`` says: its ruling need not be made.
    ruling = tr.outline
    nxt = ruling.next
    if nxt.player != ctx.me or nxt.kind != "shot":
        return 0.0
    if ruling.position.in_hand is not None:
        return 1.0
    pos = tr.rest
    cue = cue_ball_of(ctx.view.variant, ctx.me)
    d = easiest_difficulty(pos, [cue] if cue in pos else [])
    return ctx.model.chance(d)


def carom_variant(ctx: Context, line: PotLine, place: Place, tr: Trial, sec: Secant | None = None) -> Trial:
    """Five balls (docs/game_rules.md §5.7): a pot scores only with a carom, so try
    follow, draw and more pace, re-refined, and keep the best (``sec``:
    ``secant_for(ctx, line)``, where the caller has it)."""
    if sec is None:
        sec = secant_for(ctx, line)
    best = tr
    for b, k in (
        (0.4, 1.0),
        (-0.4, 1.0),
        (0.4, 1.6),
        (0.0, 1.6),
        (-0.4, 1.6),
        (0.0, 2.4),
        (0.4, 2.4),
    ):
        alt = refine(ctx, line, place, tr.shot.v * k, sec=sec, b=b)
        if alt is not None and alt.value > best.value:
            best = alt
        if best.value > 5:
            break
    return best


__all__ = [
    "LEAVE_WEIGHT",
    "AimedPot",
    "MISS_DPHI",
    "REFINE_ITERS",
    "carom_variant",
    "edge",
    "leave",
    "object_error",
    "pot_line",
    "pockets_target",
    "pots",
    "pots_as",
    "refine",
    "Secant",
    "secant",
    "secant_for",
    "wrap_deg",
]
