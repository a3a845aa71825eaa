"""The greedy agent: the easiest pot that really pots (docs/design.md §6).

For every ball it may strike, every target and every pocket with clear
paths (``aim.pot_lines``, ghost-ball geometry), easiest first, it simulates
the shot without noise and corrects the cue direction for throw: ball-ball
friction turns the object ball off the line of centres by about a degree,
which on a pyramid table (corner mouth 4.5 mm wider than the ball) is the
difference between a pot and a miss (docs/references.md: naive ghost-ball aim
potted 21 of 200). The correction is a secant iteration on the object
ball's direction error just after contact. A line that then pots is kept
with a robustness score (how many of four slightly perturbed strokes still
pot) and judged by the variant's referee, so fouls, calls and caroms count
as the rules say.

Ball in hand: placements straight behind the ghost ball of each open pot
inside the allowed zone (house, temporary house, anywhere), first-contact
rule of item 21.2 respected. The break: a few candidate strokes from the
house at the rack, the best legal one by simulation. Nothing pots: a safety
chosen by simulation among full and half-ball hits at a few speeds - legal
under item 20 (docs/game_rules.md §4.3) and leaving the opponent the hardest pot.
Decisions after fouls: take the ball the opponent would pot most easily,
shoot only with a pot on.

Deterministic: no randomness; the same view gives the same answer.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, NoReturn

from piramida.agents.aim import PotLine, aim_point, cue_speed_for, path_clear, pot_lines
from piramida.agents.base import Action, GameView, NoLegalShotError, why_no_shot
from piramida.env.errors import PiramidaError
from piramida.env.physics import ShotResult, simulate
from piramida.env.position import Position, cue_ball_of, object_ball_ids
from piramida.env.rules import get_referee
from piramida.env.shot import Shot

#: Variants where every shot names a ball and a pocket (docs/game_rules.md §5.6, §5.7).
CALLED = ("classic71", "five_ball")
#: Lines tried per shot, easiest first, and the pots kept before stopping.
MAX_LINES = 8
ENOUGH_POTS = 2
#: Secant iterations of the throw correction.
REFINE_ITERS = 7
#: A pot this likely (estimated) is good enough to stop looking.
SURE = 0.9
#: Below this best estimate, twice as many lines are tried.
LIKELY = 0.6


@dataclass(frozen=True)
class Trial:
    """A simulated candidate: the shot, what happened, what the referee
    said, and its value for the shooter."""

    shot: Shot
    result: ShotResult
    ruling: Any
    value: float


def _wrap_deg(a: float) -> float:
    return (a + 180.0) % 360.0 - 180.0


class GreedyAgent:
    """Pots the easiest ball that the noise-free physics says goes in."""

    name = "greedy"

    def __init__(self, seed: int | None = None, max_lines: int = MAX_LINES) -> None:
        self.seed = seed
        self.max_lines = max_lines
        #: What the last shot meant to do: ("pot", ball, pocket), ("safety",)
        #: or ("break",); the match runner counts pot rates from it.
        self.last_intent: tuple[str, ...] = ()

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = seed

    # ------------------------------------------------------------ entry
    def act(self, view: GameView) -> Action:
        ctx = Context(view)
        if view.kind == "choice":
            return choose(ctx)
        if view.kind == "shot" and ctx.state.over:
            ctx.no_shot()
        if view.kind == "lag":
            self.last_intent = ("lag",)
            return lag_shot(view)
        if view.is_break and view.variant != "five_ball":
            self.last_intent = ("break",)
            return ctx.final(break_shot(ctx))
        return ctx.final(self.best_shot(ctx))

    def best_shot(self, ctx: Context) -> Shot:
        pot = self.best_pot(ctx)
        if pot is not None:
            line = pot[1]
            self.last_intent = ("pot", line.target, line.pocket)
            return pot[0].shot
        self.last_intent = ("safety",)
        return safety(ctx).shot

    def best_pot(self, ctx: Context) -> tuple[Trial, PotLine] | None:
        """The best potting shot found and its line, or None."""
        found: list[tuple[float, Trial, PotLine]] = []
        sure = 0
        best_p = 0.0
        for k, (line, place) in enumerate(candidate_lines(ctx)[: 2 * self.max_lines]):
            # Past the usual number of lines, look on only while nothing
            # likely has turned up.
            if k >= self.max_lines and best_p >= LIKELY:
                break
            got = pot_line(ctx, line, place)
            if got is None:
                continue
            found.append((got[0], got[1], line))
            best_p = max(best_p, got[2])
            sure += got[2] >= SURE
            if sure >= ENOUGH_POTS:
                break
        if not found:
            return None
        best = max(found, key=lambda st: st[0])
        return best[1], best[2]


class Context:
    """One decision: the view, its referee and state, and a cached judge."""

    def __init__(self, view: GameView) -> None:
        self.view = view
        self.pos: Position = view.position
        self.table = view.position.table
        self.R = self.table.ball_radius
        self.referee = view.referee or get_referee(
            view.variant, dict(view.options) or None, self.table
        )
        self.state = (
            view.state if view.state is not None else self.referee.initial_state(view.position)
        )
        self.me = view.player
        self.called = view.variant in CALLED

    def cue_balls(self) -> tuple[str, ...]:
        if self.view.cue_balls:
            return tuple(self.view.cue_balls)
        return tuple(self.referee.allowed_cue_balls(self.pos))

    def first_cue_ball(self) -> str:
        """The first ball the shooter may strike that is on the table or in
        hand; ``NoLegalShotError`` (one line, with the position) when there
        is none."""
        hand = cue_ball_of(self.view.variant, self.pos.to_move) if self.pos.in_hand else None
        for b in self.cue_balls():
            if b in self.pos or b == hand:
                return b
        self.no_shot()

    def no_shot(self) -> NoReturn:
        """Raise ``NoLegalShotError`` with the referee's reason."""
        why = why_no_shot(self.view) or "no legal shot found: no ball may be struck"
        raise NoLegalShotError(f"{why} (position: {self.pos.to_text()})")

    def trial(self, shot: Shot) -> Trial | None:
        """Simulate (no noise) and judge ``shot``; None if it cannot be played."""
        try:
            res = simulate(self.pos, shot)
            ruling = self.referee.judge(self.pos, shot, res.events, res.final, (), self.state)
        except PiramidaError:
            return None
        return Trial(shot, res, ruling, self.value(ruling))

    def value(self, ruling: Any) -> float:
        """Points gained over the opponent, with the turn and the frame."""
        me, op = self.me, 1 - self.me
        before = self.pos.score
        v = float((ruling.score[me] - before[me]) - (ruling.score[op] - before[op]))
        if ruling.winner == me:
            v += 100.0
        elif ruling.winner == op:
            v -= 100.0
        if not ruling.legal:
            v -= 1.0
        if ruling.next.player == me and ruling.next.kind == "shot":
            v += 0.5
        return v

    def legal(self, shot: Shot) -> bool:
        try:
            self.referee.check_shot(self.state, shot)
        except PiramidaError:
            return False
        return True

    def final(self, shot: Shot) -> Shot:
        """The shot, or, should the referee refuse it, a plain legal one."""
        if self.legal(shot):
            return shot
        return fallback(self)

    def shot(
        self, line: PotLine, phi: float, v: float, place: tuple[float, float] | None, **kw: Any
    ) -> Shot:
        call = (line.target, line.pocket) if self.called else None
        return Shot(
            ball=line.struck, phi=phi % 360.0, v=min(max(v, 0.3), 9.0), place=place, call=call, **kw
        )


# ---------------------------------------------------------------- candidates
def zone_ok(ctx: Context, x: float, y: float, kind: str) -> bool:
    t = ctx.table
    r = ctx.R
    if not (r + 1e-4 <= x <= t.width - r - 1e-4 and r + 1e-4 <= y <= t.length - r - 1e-4):
        return False
    if kind == "house" and not t.in_house(x, y):
        return False
    if kind == "rear_house" and not t.in_rear_house(x, y):
        return False
    return all(math.hypot(x - bx, y - by) >= 2 * r + 1e-3 for _, bx, by in ctx.pos.balls)


def _first_contact_ok(ctx: Context, target: str) -> bool:
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
    out = [b for b in ctx.pos.ids if b != struck and _first_contact_ok(ctx, b)]
    if ctx.view.variant == "classic71":
        out = [b for b in out if b != "0"]
    return out


def _placed(ctx: Context, ball: str, xy: tuple[float, float]) -> Position:
    return ctx.pos.replace(balls=ctx.pos.balls + ((ball, xy[0], xy[1]),), in_hand=None)


def candidate_lines(ctx: Context) -> list[tuple[PotLine, tuple[float, float] | None]]:
    """Open pot lines (with the placement when in hand), easiest first."""
    out: list[tuple[PotLine, tuple[float, float] | None]] = []
    if ctx.pos.in_hand is None:
        for s in ctx.cue_balls():
            if s in ctx.pos:
                out.extend((ln, None) for ln in pot_lines(ctx.pos, s, targets_for(ctx, s)))
    else:
        for s in ctx.cue_balls():
            out.extend(hand_lines(ctx, s))
    out.sort(key=lambda lp: lp[0].difficulty)
    return out


def hand_placements(ctx: Context, ball: str) -> list[tuple[float, float]]:
    """Spots in the zone straight behind the ghost ball of some pot, then a
    coarse grid of the zone."""
    t = ctx.table
    kind = ctx.pos.in_hand or "anywhere"
    spots: list[tuple[float, float]] = []
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


def hand_lines(ctx: Context, ball: str) -> list[tuple[PotLine, tuple[float, float]]]:
    out: list[tuple[PotLine, tuple[float, float]]] = []
    for xy in hand_placements(ctx, ball):
        try:
            pos = _placed(ctx, ball, xy)
        except PiramidaError:
            continue
        out.extend((ln, xy) for ln in pot_lines(pos, ball, targets_for(ctx, ball)))
    # Keep the easiest placement per (target, pocket).
    best: dict[tuple[str, str], tuple[PotLine, tuple[float, float]]] = {}
    for ln, xy in out:
        key = (ln.target, ln.pocket)
        if key not in best or ln.difficulty < best[key][0].difficulty:
            best[key] = (ln, xy)
    return list(best.values())


# ---------------------------------------------------------------- potting
def _object_error(tr: Trial, line: PotLine, start: tuple[float, float]) -> float | None:
    """Degrees between the object ball's direction just after the struck
    ball first touches it and the direction to the aim point; None if the
    struck ball touches another ball first or nothing."""
    for e in tr.result.events:
        if e.type == "ball_ball" and line.struck in e.balls:
            other = e.balls[1] if e.balls[0] == line.struck else e.balls[0]
            if other != line.target:
                return None
            st = tr.result.states_at(e.t).get(line.target)
            if st is None:
                return None
            got = math.degrees(math.atan2(st[3], st[2]))
            want = math.degrees(math.atan2(line.aim[1] - start[1], line.aim[0] - start[0]))
            return _wrap_deg(got - want)
    return None


def pots(tr: Trial, line: PotLine, called: bool) -> bool:
    for b, p in tr.result.pocketed:
        if b == line.target:
            return p == line.pocket or not called
    return False


def refine(
    ctx: Context, line: PotLine, place: tuple[float, float] | None, v: float, **kw: Any
) -> Trial | None:
    """Secant iteration on phi until the noise-free stroke pots the target
    (throw correction); the potting trial, or None."""
    start = ctx.pos.xy(line.target)
    cos_cut = max(math.cos(math.radians(line.cut)), 0.2)
    # d(object direction)/d(phi) for ghost-ball contact: a cue rotation moves
    # the contact point sideways by d * dphi, turning the line of centres by
    # that over 2R (opposite sense); the secant takes over after one step.
    slope = -max(line.cue_distance, 2 * ctx.R) / (2 * ctx.R * cos_cut)
    window = max(line.object_distance, 0.05)
    tol = math.degrees(0.0006 / window)
    phi = line.phi
    pts: list[tuple[float, float]] = []
    potted: Trial | None = None
    for _ in range(REFINE_ITERS):
        tr = ctx.trial(ctx.shot(line, phi, v, place, **kw))
        if tr is None:
            return None
        err = _object_error(tr, line, start)
        if pots(tr, line, ctx.called) and tr.ruling.legal:
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
        if len(pts) >= 2 and pts[-1][1] != pts[-2][1]:
            (p0, e0), (p1, e1) = pts[-2], pts[-1]
            s = (e1 - e0) / (p1 - p0)
            if s * slope <= 0:
                s = slope
        else:
            s = slope
        step = -err / s
        phi = phi + max(-2.0, min(2.0, step))
    return potted


def pot_line(
    ctx: Context, line: PotLine, place: tuple[float, float] | None, sigma_phi: float = 0.05
) -> tuple[float, Trial, float] | None:
    """Make ``line`` pot: throw-corrected aim, a speed that gets there, then
    the aim moved to the middle of the range of directions that pot.

    Returns (score, trial, p) where p estimates the pot probability under a
    Gaussian aim error ``sigma_phi`` (degrees; the ``pro`` preset's 0.05 by
    default) from the half-width of that range, times the share of two
    speed errors (+-8%) that still pot; score = value * p."""
    v0 = cue_speed_for(line, ctx.table)
    tr: Trial | None = None
    carom = ctx.view.variant == "five_ball"
    for v in (v0, v0 * 1.5, v0 * 0.75):
        tr = refine(ctx, line, place, v)
        # Five balls: a pot without a carom is worth nothing yet, but its
        # aim is where the carom search starts.
        if tr is not None and (tr.value > 0 or carom):
            break
        tr = None
    if tr is None:
        return None
    if carom:
        tr = carom_variant(ctx, line, place, tr)
    if tr.value <= 0:
        return None
    target_value = tr.value
    base = tr.shot

    def ok(phi: float, v: float) -> Trial | None:
        alt = ctx.trial(replace(base, phi=phi % 360.0, v=max(0.3, v)))
        if alt is not None and pots(alt, line, ctx.called) and alt.value >= target_value - 1e-9:
            return alt
        return None

    phi0, v = tr.shot.phi, tr.shot.v
    up, down = (
        _edge(lambda d: ok(phi0 + d, v) is not None),
        _edge(lambda d: ok(phi0 - d, v) is not None),
    )
    centred = ok(phi0 + 0.5 * (up - down), v) if up != down else None
    if centred is not None:
        tr = centred
    half = 0.5 * (up + down)
    p_phi = math.erf(half / (sigma_phi * math.sqrt(2.0))) if half > 0 else 0.2
    hits = sum(ok(tr.shot.phi, v * k) is not None for k in (0.92, 1.08))
    p = p_phi * (1 + hits) / 3.0
    # What a miss costs: the stroke just outside the potting range, judged
    # (a slow miss that reaches no cushion is an item-20 foul).
    miss = ctx.trial(replace(base, phi=(tr.shot.phi + half + MISS_DPHI) % 360.0))
    miss_value = min(miss.value, 0.0) if miss is not None else -1.0
    score = target_value * p + (1.0 - p) * miss_value + LEAVE_WEIGHT * p * leave(ctx, tr)
    return score, tr, p


#: How far past the edge of the potting range the "miss" stroke is aimed.
MISS_DPHI = 0.3

#: Weight of the next pot's ease in a pot's score (in points).
LEAVE_WEIGHT = 0.4


def leave(ctx: Context, tr: Trial) -> float:
    """How easy our next pot is after ``tr`` (0..1; 0 when the turn passes).
    Only where one cue ball is ours to strike: in free pyramid any ball may
    be struck next and there is nearly always something on."""
    nxt = tr.ruling.next
    if ctx.view.variant == "free" or nxt.player != ctx.me or nxt.kind != "shot":
        return 0.0
    pos = tr.ruling.position
    if pos.in_hand is not None:
        return 1.0
    cue = cue_ball_of(ctx.view.variant, ctx.me)
    d = easiest(pos, [cue] if cue in pos else [])
    return 0.0 if d is None else 300.0 / (300.0 + d)


def _edge(pots_at: Any, first: float = 0.02, limit: float = 0.64) -> float:
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


def carom_variant(
    ctx: Context, line: PotLine, place: tuple[float, float] | None, tr: Trial
) -> Trial:
    """Five balls (docs/game_rules.md §5.7): a pot scores only with a carom, so try
    follow, draw and more pace, re-refined, and keep the best."""
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
        alt = refine(ctx, line, place, tr.shot.v * k, b=b)
        if alt is not None and alt.value > best.value:
            best = alt
        if best.value > 5:
            break
    return best


# ---------------------------------------------------------------- break
def break_shot(ctx: Context) -> Shot:
    """A break from the house at the rack (docs/game_rules.md §4.2): candidate spots
    and contact points on the apex ball, the best legal one by simulation."""
    t = ctx.table
    ball = ctx.first_cue_ball()
    balls = [(x, y) for _, x, y in ctx.pos.balls]
    if not balls:
        return fallback(ctx)
    apex = min(balls, key=lambda p: p[1])
    best: Trial | None = None
    for px in (t.width / 2, t.width / 2 - 0.25, t.width / 2 + 0.25):
        place = (px, t.house_line - 0.08)
        if not zone_ok(ctx, place[0], place[1], "house"):
            continue
        d = math.hypot(apex[0] - place[0], apex[1] - place[1])
        base = math.degrees(math.atan2(apex[1] - place[1], apex[0] - place[0]))
        for off in (0.0, 0.5, -0.5):
            phi = base + math.degrees(math.asin(min(0.99, off * 2 * ctx.R / d)))
            for v in (8.0, 6.5):
                call = None
                tr = ctx.trial(Shot(ball=ball, phi=phi % 360.0, v=v, place=place, call=call))
                if tr is not None and (best is None or tr.value > best.value):
                    best = tr
    return best.shot if best is not None else fallback(ctx)


# ---------------------------------------------------------------- lag
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


# ---------------------------------------------------------------- safety
def safety(ctx: Context) -> Trial:
    """No pot: a legal shot that leaves the opponent the hardest pot."""
    cands: list[Trial] = []
    for ball, place, target in safety_pairs(ctx):
        sx, sy = place if place is not None else ctx.pos.xy(ball)
        tx, ty = ctx.pos.xy(target)
        d = math.hypot(tx - sx, ty - sy)
        base = math.degrees(math.atan2(ty - sy, tx - sx))
        for off in (0.0, 0.5, -0.5):
            phi = base + math.degrees(math.asin(min(0.99, off * 2 * ctx.R / max(d, 2 * ctx.R))))
            for v in (2.5, 4.5):
                call = nearest_pocket_call(ctx, target) if ctx.called else None
                tr = ctx.trial(Shot(ball=ball, phi=phi % 360.0, v=v, place=place, call=call))
                if tr is not None:
                    cands.append(tr)
    if not cands:
        shot = fallback(ctx)
        tr = ctx.trial(shot)
        if tr is None:
            raise PiramidaError(f"greedy: no playable shot (position: {ctx.pos.to_text()})")
        return tr
    cands.sort(key=lambda tr: -tr.value)
    top = [tr for tr in cands if tr.value >= cands[0].value - 1e-9][:6]
    if cands[0].value > 0.5:
        return cands[0]  # the safety potted something after all
    return max(top, key=lambda tr: opponent_difficulty(ctx, tr.ruling))


def safety_pairs(ctx: Context) -> list[tuple[str, tuple[float, float] | None, str]]:
    """(struck, placement, target) with a clear straight path, nearest first,
    a handful of them."""
    out: list[tuple[float, str, tuple[float, float] | None, str]] = []
    balls = ctx.pos.ball_map
    for s in ctx.cue_balls():
        starts: list[tuple[float, float] | None]
        if s in balls:
            starts = [None]
        else:
            starts = list(hand_placements(ctx, s)[:6])
        for place in starts:
            sxy = place if place is not None else balls[s]
            for t in targets_for(ctx, s):
                if t == s:
                    continue
                others = [xy for b, xy in balls.items() if b not in (s, t)]
                if path_clear(sxy, balls[t], others, ctx.R):
                    out.append(
                        (math.hypot(balls[t][0] - sxy[0], balls[t][1] - sxy[1]), s, place, t)
                    )
    out.sort(key=lambda x: x[0])
    return [(s, p, t) for _, s, p, t in out[:5]]


def nearest_pocket_call(ctx: Context, target: str) -> tuple[str, str]:
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
    best = easiest(pos, [c for c in cues if c in pos])
    sign = 1.0 if nxt.player != ctx.me else -1.0
    return sign * (best if best is not None else 1e4)


def easiest(pos: Position, struck: Iterable[str]) -> float | None:
    ds = [ln.difficulty for s in struck for ln in pot_lines(pos, s)[:1]]
    return min(ds) if ds else None


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


# ---------------------------------------------------------------- choices
def choose(ctx: Context) -> str:
    """Decisions outside a shot (docs/design.md §4)."""
    choices: Sequence[str] = ctx.view.choices
    takes = [c for c in choices if c.startswith("take_ball:") or c.startswith("remove_ball:")]
    if takes:
        pend = getattr(ctx.state, "pending", None)
        shooter_picks = (
            pend is not None and pend.stages[:1] == ("svoyak",) and pend.offender == ctx.me
        )
        ranked = rank_targets(ctx.pos, [c.split(":", 1)[1] for c in takes])
        # Take the ball the next shooter would pot most easily; a shooter
        # removing a ball for himself takes the hardest one instead.
        pick = ranked[-1] if shooter_picks else ranked[0]
        return next(c for c in takes if c.split(":", 1)[1] == pick)
    have_pot = has_pot(ctx)
    for yes, no in (
        ("shoot", "make_offender_shoot"),
        ("accept_and_shoot", "accept_and_make_offender_shoot"),
        ("break", "make_opponent_break"),
    ):
        if yes in choices and no in choices:
            if yes == "break":
                return no  # breaking a pyramid rarely pots; let the opponent open it
            return yes if have_pot else no
    return choices[0]


def rank_targets(pos: Position, balls: Sequence[str]) -> list[str]:
    """``balls`` from the easiest to pot (by any struck ball) to the hardest."""
    best: dict[str, float] = {b: 1e9 for b in balls}
    for s in pos.ids:
        for ln in pot_lines(pos, s, balls):
            best[ln.target] = min(best[ln.target], ln.difficulty)
    return sorted(balls, key=lambda b: (best[b], b))


#: A pot easier than this is "on" (difficulty of a ~1 m straight pot ~ 300).
EASY = 600.0


def has_pot(ctx: Context) -> bool:
    pos = ctx.pos
    if ctx.view.variant in ("free",):
        struck: list[str] = list(pos.ids)
    else:
        cue = cue_ball_of(ctx.view.variant, ctx.me)
        if cue not in pos:
            return True  # cue ball in hand: there is nearly always a pot
        struck = [cue]
    objs = set(object_ball_ids(ctx.view.variant)) | set(pos.ids)
    d = easiest(pos, [s for s in struck if s in objs])
    return d is not None and d < EASY
