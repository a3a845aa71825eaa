"""The planner: Monte Carlo shot selection under execution noise (docs/design.md §6).

1. Candidates (``planner_candidates``): greedy's centred, throw-corrected
   pots for the easiest lines with position variants (follow, draw, pace),
   banks when no direct pot is likely, свояк lines on request, safeties,
   and for the break a family of strokes at the rack.
2. Each candidate is played ``k`` times under the configured skill's noise
   (``configs/noise``), with common random numbers (sample ``j`` draws the
   same stroke errors for every candidate, which sharpens the comparison),
   and every sample is judged by the variant's referee: the points scored,
   the penalty (a foul is a loss of value, not just a miss: the opponent's
   penalty ball or the points deducted, and the choice he then gets), who
   shoots next, and the frame won.
3. A sample's value, one level deeper than the shot:
   - in the games won by a number of balls, the shooter's chance of winning
     the frame from the score the ruling leaves and the chance that
     whoever shoots next pots (``planner_value``: a race model solved for
     every score, and a next-pot curve fitted to measured potting);
   - in the points games (classic71, five_ball), the net points plus a turn
     value ``T(p) = unit * (1.5 p - 0.5)`` for the table left: the ball the
     next shooter pots with chance p, less what the other player makes of
     a miss (taken as even), positive when it is us.
4. Successive halving: every candidate gets a few samples, the better half
   gets twice as many, and so on until the budget is spent (wall time
   ``budget_s`` or a simulation count ``n_sims``; the count is exact and
   gives the same answer on any machine).

Deterministic for a seed: candidates come from deterministic geometry and
noise-free refinement, and the noise streams from ``(seed, position)``.
The choices outside a shot follow greedy (documented there), except "shoot
or make the offender shoot", which uses the planner's own value.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from piramida.agents import greedy as G
from piramida.agents.aim import PotLine
from piramida.agents.base import Action, GameView, NoLegalShotError, why_no_shot
from piramida.agents.break_book import book_shots
from piramida.agents.planner_candidates import (
    BANK_LINES,
    KEEP_POTS,
    MAX_LINES,
    SAFETY_BALLS,
    SAFETY_STROKES,
    SAFETY_WHEN,
    SPIN_LINES,
    SPINS,
    Budget,
    Candidate,
    CandidateSearch,
    PlanContext,
)
from piramida.agents.planner_leave import easiest_difficulty, pot_probability
from piramida.agents.planner_value import RaceModel, next_pot_chance, typical_chance
from piramida.env.errors import PiramidaError
from piramida.env.physics import ShotResult, load_noise, simulate
from piramida.env.position import Position
from piramida.env.shot import Shot

#: Samples per candidate in the first round of successive halving, and the
#: most any candidate gets.
FIRST_SAMPLES = 8
MAX_SAMPLES = 256
#: Turn value for a cue ball in hand (a pot is nearly always on).
P_IN_HAND = 0.75
#: A frame won or lost, in units of a ball.
WIN_UNITS = 25.0
#: Ways to score a sample (see PlannerAgent.value).
VALUES = ("auto", "race", "turn")
#: The variants "auto" scores by the race value: free pyramid, a potting
#: race. Measured in combined (docs/agents.md): the turn value won 36 of 40
#: against greedy where the race value, with q 0.7, was at 44 of 87 (and 7
#: of 10 with q 0.37); the one-cue-ball pyramids are safety battles.
RACE_AUTO = ("free",)
#: Points a pot is worth in the five-ball game (docs/game_rules.md §5.7: 4-23).
FIVE_BALL_UNIT = 8.0
POCKET_NAMES = {
    "fl": "front-left corner",
    "fr": "front-right corner",
    "ml": "middle-left pocket",
    "mr": "middle-right pocket",
    "rl": "rear-left corner",
    "rr": "rear-right corner",
}


@dataclass(frozen=True)
class Plan:
    """A ranked suggestion: the shot and what the samples said of it.

    ``p_pot``: share of samples on which the shooter scored (a legal shot
    with a ball to his shelf or points); ``p_foul``: share ruled a foul;
    ``expected_points``: mean points gained by the shooter less points
    gained by the opponent on the shot itself (penalty balls and свояк
    included); ``value``: the mean value of the samples, the planner's
    ranking - with the race value the shooter's chance of winning the
    frame, with the turn value those points plus the turn value of the
    table left (a frame won or lost counting 25 units)."""

    shot: Shot
    kind: str
    p_pot: float
    p_foul: float
    expected_points: float
    value: float
    samples: int
    description: str
    line: PotLine | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "shot": self.shot.to_text(),
            "p_pot": round(self.p_pot, 4),
            "p_foul": round(self.p_foul, 4),
            "expected_points": round(self.expected_points, 4),
            "description": self.description,
        }


def _simulate_many(
    position: Position,
    shots: Sequence[Shot],
    noise: Any,
    seeds: Sequence[int],
    batch: bool = False,
) -> list[ShotResult | None]:
    """Each shot with its own noise seed; None where the physics refuses it.

    With ``batch`` it goes through the physics' ``simulate_batch`` (the same
    results as ``simulate`` with the same seed). Off by default: measured
    here on 2 cores, a batch of 32 took as long as the loop, and its first
    call in a process compiled for about 30 s."""
    if batch:
        try:
            from piramida.env.physics import simulate_batch

            got = simulate_batch(position, list(shots), noise=noise, seeds=list(seeds), events=True)
            if got.results is not None and len(got.results) == len(shots):
                return list(got.results)
        except (ImportError, TypeError, AttributeError, PiramidaError):
            pass  # a refused shot or another signature: one at a time below
    out: list[ShotResult | None] = []
    for s, sd in zip(shots, seeds, strict=True):
        try:
            out.append(simulate(position, s, noise=noise, seed=sd))
        except PiramidaError:
            out.append(None)
    return out


class PlannerAgent(CandidateSearch):
    """Monte Carlo planner; see the module docstring."""

    name = "planner"

    def __init__(
        self,
        budget_s: float | None = 1.0,
        noise: str | None = "pro",
        seed: int | None = 0,
        n_sims: int | None = None,
        n_samples: int = MAX_SAMPLES,
        max_lines: int = MAX_LINES,
        centred: bool = True,
        run: float | None = None,
        value: str = "auto",
        spin_lines: int = SPIN_LINES,
        keep_pots: int = KEEP_POTS,
        spins: tuple[tuple[float, float, str], ...] = SPINS,
        breaks: bool = True,
        book: bool = True,
        safety_balls: int = SAFETY_BALLS,
        safety_strokes: tuple[tuple[float, float], ...] = SAFETY_STROKES,
        safety_when: float = SAFETY_WHEN,
        svoyaks: int = 0,
        screen: int = 0,
        q: float | None = None,
        q_other: float | None = None,
    ) -> None:
        if value not in VALUES:
            raise PiramidaError(f"planner: value must be one of {', '.join(VALUES)}, got {value!r}")
        self.budget_s = budget_s
        self.noise = None if noise in (None, "none") else load_noise(noise)
        self.seed = 0 if seed is None else int(seed)
        self.n_sims = n_sims
        self.n_samples = max(1, int(n_samples))
        self.max_lines = max_lines
        #: True: pots from greedy's centred, scored ``pot_line`` (the
        #: default); False: plain throw-corrected aim (the first version).
        self.centred = centred
        self.spin_lines = int(spin_lines)
        self.keep_pots = int(keep_pots)
        #: Evaluate a family of break strokes, not only greedy's.
        self.breaks = bool(breaks)
        #: Offer the break book's strokes (agents/break_book.py) on a full
        #: rack.
        self.book = bool(book)
        self.safety_balls = int(safety_balls)
        self.safety_when = float(safety_when)
        #: свояк lines refined into candidates (0: none).
        self.max_svoyaks = int(svoyaks)
        #: Position variants per line chosen by noise-free screening of
        #: ``SCREEN_GRID`` (0: the fixed ``spins`` instead).
        self.screen = int(screen)
        self.safety_strokes = tuple((float(o), float(v)) for o, v in safety_strokes)
        self.spins = tuple((float(b), float(k), str(n)) for b, k, n in spins)
        self.max_banks = BANK_LINES
        #: Balls a turn at the table is worth beyond the next pot, for the
        #: value of the position left; None: the plain 1.5 p - 0.5.
        self.run = run
        #: How a sample is scored: "race" (the chance of winning the frame,
        #: planner_value; the games won by a number of balls), "turn" (points
        #: plus the turn value below) or "auto" (race in ``RACE_AUTO``).
        self.value = value
        self.phi_sigma = self.noise.phi if self.noise is not None else 0.0
        #: What the last shot meant to do, as greedy reports it: ("pot", ball,
        #: pocket), ("safety",), ("break",); the match runner's pot rate.
        self.last_intent: tuple[str, ...] = ()
        #: The race model's later-shot pot chances, the planner's own and
        #: the opponent's; None: the variant's measured ones
        #: (``planner_value.typical_chance``).
        self.q = q
        self.q_other = q_other
        self._races: dict[tuple[int, float, str], RaceModel] = {}

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = int(seed)

    # ------------------------------------------------------------ entry
    def act(self, view: GameView) -> Action:
        budget = Budget(self.budget_s, self.n_sims)
        ctx = PlanContext(view, budget)
        if view.kind == "choice":
            return self.choose(ctx)
        if view.kind == "lag":
            self.last_intent = ("lag",)
            return G.lag_shot(view)
        why = why_no_shot(view)
        if why is not None:
            raise NoLegalShotError(f"{why} (position: {view.position.to_text()})")
        if (
            view.is_break
            and view.variant != "five_ball"
            and not self.breaks
            and not (self.book and view.cue_balls and book_shots(view.position, view.cue_balls[0]))
        ):
            self.last_intent = ("break",)
            return ctx.final(G.break_shot(ctx))
        plans = self.plan_ctx(ctx, top=1)
        if not plans:
            self.last_intent = ("safety",)
            return ctx.final(G.fallback(ctx))
        best = plans[0]
        if best.kind == "pot" and best.line is not None:
            ball = best.line.struck if best.line.svoyak else best.line.target
            self.last_intent = ("pot", ball, best.line.pocket)
        else:
            self.last_intent = (best.kind,)
        return ctx.final(best.shot)

    def plan(self, view: GameView, top: int = 3) -> list[Plan]:
        """The ``top`` best shots for a shot decision, best first.

        Where the rules leave no legal shot (the frame is over, won or
        drawn; nothing left to contact; a choice pending) it raises
        ``NoLegalShotError`` with the referee's one-line reason instead of
        ranking fouls as advice. Where a legal shot exists the plans are
        returned even if every candidate fouled in its samples."""
        if view.kind != "shot":
            raise PiramidaError(
                f"planner: a {view.kind} is pending, not a shot (position: {view.position.to_text()})"
            )
        why = why_no_shot(view)
        if why is not None:
            raise NoLegalShotError(f"{why} (position: {view.position.to_text()})")
        st = view.state
        if st is not None and st.position != view.position and st.next.kind == "shot":
            # The referee's initial state applied a rule to a position given
            # by hand (item 21.2: every object ball in the house, so the ball
            # in hand goes beyond the rear line): plan in that state.
            view = replace(view, position=st.position, in_hand=st.next.in_hand)
        ctx = PlanContext(view, Budget(self.budget_s, self.n_sims))
        return self.plan_ctx(ctx, top)

    def plan_ctx(self, ctx: PlanContext, top: int) -> list[Plan]:
        cands = self.candidates(ctx)
        if not cands:
            return []
        self.evaluate(ctx, cands)
        # The survivors of the last round first, by value; then the ones
        # dropped earlier.
        ranked = sorted(cands, key=lambda c: (-c.rounds, -c.mean))
        return [self._plan_of(ctx, c) for c in ranked[:top]]

    # ------------------------------------------------------------ evaluation
    def _seeds(self, ctx: PlanContext, start: int, k: int) -> list[int]:
        key = zlib.crc32(ctx.pos.to_text().encode())
        ss = np.random.SeedSequence([self.seed, key, 0x9A11])
        all_ = ss.generate_state(start + k, dtype=np.uint64)
        return [int(s) for s in all_[start:]]

    def evaluate(self, ctx: PlanContext, cands: list[Candidate]) -> None:
        """Successive halving over the candidates until the budget is spent."""
        alive = list(cands)
        k = FIRST_SAMPLES if self.noise is not None else 1
        for c in alive:
            c.values.clear()
        while True:
            for c in alive:
                c.rounds += 1
            for c in alive:
                need = min(k, self.n_samples) - c.n
                if need <= 0:
                    continue
                seeds = self._seeds(ctx, c.n, need)
                results = _simulate_many(ctx.pos, [c.shot] * need, self.noise, seeds)
                ctx.budget.used += need
                for res in results:
                    self._score(ctx, c, res)
                if ctx.budget.spent() and all(x.n > 0 for x in alive):
                    break
            if ctx.budget.spent() or self.noise is None:
                break
            if len(alive) > 2:
                # Keep two to the end: the last samples go to telling the
                # best two apart.
                alive.sort(key=lambda c: -c.mean)
                alive = alive[: max(2, math.ceil(len(alive) / 2))]
            if k >= self.n_samples:
                break
            k = min(2 * k, self.n_samples)

    def _score(self, ctx: PlanContext, c: Candidate, res: ShotResult | None) -> None:
        ruling = None
        if res is not None:
            try:
                ruling = ctx.referee.judge(ctx.pos, res.shot, res.events, res.final, (), ctx.state)
            except PiramidaError:
                ruling = None
        if ruling is None:
            # A stroke the physics or the referee refuses: the worst outcome.
            c.values.append(0.0 if self.race(ctx) is not None else -WIN_UNITS * self.unit(ctx.pos, ctx))
            c.fouls += 1
            return
        immediate, potted = self.immediate(ctx, ruling)
        c.points += immediate
        c.pots += int(potted)
        c.fouls += int(not ruling.legal)
        c.values.append(self.ruling_value(ctx, ruling, immediate))

    def ruling_value(self, ctx: PlanContext, ruling: Any, immediate: float | None = None) -> float:
        """A sample's value: the frame-winning chance after the ruling (race
        value), or the net points plus the turn value of the table left."""
        race = self.race(ctx)
        if race is not None:
            return self.race_value(ctx, race, ruling)
        if immediate is None:
            immediate = self.immediate(ctx, ruling)[0]
        unit = self.unit(ctx.pos, ctx)
        won = WIN_UNITS * unit if ruling.winner == ctx.me else 0.0
        lost = WIN_UNITS * unit if ruling.winner == 1 - ctx.me else 0.0
        return immediate + won - lost + self.leave(ctx, ruling)

    # ------------------------------------------------------------ values
    def unit(self, pos: Position, ctx: PlanContext) -> float:
        """Points one pot is worth on average in this variant."""
        v = ctx.view.variant
        if v == "five_ball":
            return FIVE_BALL_UNIT
        opts = ctx.referee.options
        if v == "classic71" or opts.get("scoring") == "points":
            ace = float(opts.get("ace_value", 11))
            vals = [ace if b == "1" else float(b) for b in pos.ids if b.isdigit() and b != "0"]
            return float(np.mean(vals)) if vals else 1.0
        return 1.0

    def immediate(self, ctx: PlanContext, ruling: Any) -> tuple[float, bool]:
        """Net points on the shot for the shooter (penalty balls and свояк
        included, the frame's end not), and whether he scored."""
        me, op = ctx.me, 1 - ctx.me
        before = ctx.pos.score
        gain = float((ruling.score[me] - before[me]) - (ruling.score[op] - before[op]))
        owed = _balls_owed(ruling)
        gain += self.unit(ctx.pos, ctx) * (owed[me] - owed[op])
        # A свояк in the one-cue-ball pyramids scores through the ball taken
        # from the table after the shot (docs/game_rules.md §5.2), not the shelf.
        potted = bool(ruling.legal and (ruling.scored.get(me) or owed[me] > 0))
        return gain, potted

    def race(self, ctx: PlanContext) -> RaceModel | None:
        """The race model of the frame, where the value is "race" (or "auto"
        and the variant is in ``RACE_AUTO``), else None."""
        if self.value == "turn":
            return None
        opts = ctx.referee.options
        target = opts.get("target")
        v = ctx.view.variant
        by_balls = v not in ("classic71", "five_ball") and opts.get("scoring", "balls") == "balls"
        if self.value == "auto" and v not in RACE_AUTO:
            return None
        if not (by_balls and isinstance(target, int) and target >= 1):
            if self.value == "race":
                raise PiramidaError(
                    f"planner: value 'race' needs a variant won by a number of balls, not {v}"
                )
            return None
        key = (target, self.phi_sigma, v)
        model = self._races.get(key)
        if model is None:
            q = self.q if self.q is not None else typical_chance(self.phi_sigma, v)
            q_other = self.q_other if self.q_other is not None else q
            model = self._races[key] = RaceModel(target, q, q_other)
        return model

    def next_chance(self, ctx: PlanContext, pos: Position, in_hand: Any, measured: bool = False) -> float:
        """The chance that whoever shoots next from ``pos`` pots, from the
        easiest open pot (``planner_leave``), or ``P_IN_HAND`` with ball in
        hand. ``measured``: the curve fitted to real potting
        (``planner_value.next_pot_chance``, used by the race value); else
        ``planner_leave.pot_probability``, the turn value's first guess,
        which is optimistic (see planner_value)."""
        if in_hand:
            return P_IN_HAND
        try:
            cues = [c for c in ctx.referee.allowed_cue_balls(pos) if c in pos]
        except PiramidaError:
            cues = []
        targets = [b for b in pos.ids if not (ctx.view.variant == "classic71" and b == "0")]
        d = easiest_difficulty(pos, cues, targets)
        if measured:
            return next_pot_chance(d, self.phi_sigma)
        return pot_probability(d, self.phi_sigma)

    def race_value(self, ctx: PlanContext, race: RaceModel, ruling: Any) -> float:
        """The shooter's chance of winning the frame after this ruling."""
        me = ctx.me
        if ruling.winner is not None:
            return 1.0 if ruling.winner == me else 0.0
        if getattr(ruling.state, "over", False):
            return 0.5
        owed = _balls_owed(ruling)
        score = [int(ruling.score[0]) + owed[0], int(ruling.score[1]) + owed[1]]
        nxt = ruling.next
        if nxt.player is None or nxt.kind not in ("shot", "choice"):
            return 0.5
        who, hand, choose = _next_shooter(ruling)
        p = self.next_chance(ctx, ruling.position, hand, measured=True)
        w = race.at_table(score[who], score[1 - who], p, me=who == me)
        if choose:
            # The chooser shoots or hands the table to the offender,
            # whichever is better for him (docs/game_rules.md §4.8).
            w = max(w, 1.0 - race.at_table(score[1 - who], score[who], p, me=who != me))
        return w if who == me else 1.0 - w

    def turn_value(self, ctx: PlanContext, pos: Position, in_hand: Any) -> float:
        """What shooting next from ``pos`` is worth to that shooter."""
        unit = self.unit(pos, ctx)
        p = self.next_chance(ctx, pos, in_hand)
        if self.run is None:
            return unit * (1.5 * p - 0.5)
        # The pot now plus the run it may start, less the opponent's run
        # after a miss: p (1 + R) - (1 - p) R.
        return unit * (p * (1.0 + 2.0 * self.run) - self.run)

    def leave(self, ctx: PlanContext, ruling: Any) -> float:
        if ruling.winner is not None or getattr(ruling.state, "over", False):
            return 0.0
        nxt = ruling.next
        if nxt.kind not in ("shot", "choice") or nxt.player is None:
            return 0.0
        who, hand, choose = _next_shooter(ruling)
        t = self.turn_value(ctx, ruling.position.replace(to_move=who), hand)
        if choose:
            # The chooser shoots or hands the table over, whichever is better
            # for him (docs/game_rules.md §4.8).
            t = abs(t)
        return t if who == ctx.me else -t

    # ------------------------------------------------------------ choices
    def choose(self, ctx: PlanContext) -> str:
        choices = ctx.view.choices
        for yes, no in (
            ("shoot", "make_offender_shoot"),
            ("accept_and_shoot", "accept_and_make_offender_shoot"),
        ):
            if yes in choices and no in choices:
                pend = getattr(ctx.state, "pending", None)
                hand = pend.in_hand if pend is not None else None
                race = self.race(ctx)
                if race is not None:
                    p = self.next_chance(ctx, ctx.pos, hand, measured=True)
                    mine, theirs = ctx.pos.score[ctx.me], ctx.pos.score[1 - ctx.me]
                    shoot = race.at_table(mine, theirs, p)
                    return yes if shoot >= 1.0 - race.at_table(theirs, mine, p, me=False) else no
                t = self.turn_value(ctx, ctx.pos.replace(to_move=ctx.me), hand)
                return yes if t > 0 else no
        return G.choose(ctx)

    # ------------------------------------------------------------ output
    def _plan_of(self, ctx: PlanContext, c: Candidate) -> Plan:
        n = max(c.n, 1)
        return Plan(
            shot=c.shot,
            kind=c.kind,
            p_pot=c.pots / n,
            p_foul=c.fouls / n,
            expected_points=c.points / n,
            value=c.mean if c.values else 0.0,
            samples=c.n,
            description=describe(ctx, c, self),
            line=c.line,
        )


def _balls_owed(ruling: Any) -> tuple[int, int]:
    """Balls each player is certain to get from the ruling's pending
    choices, not yet in its score (``Pending.balls_owed``)."""
    pend = getattr(ruling.state, "pending", None)
    return pend.balls_owed() if pend is not None else (0, 0)


def _next_shooter(ruling: Any) -> tuple[int, Any, bool]:
    """Who shoots after the ruling's pending choices, with which ball in
    hand, and whether he chose to (shoot or hand the table over).

    After a свояк (docs/game_rules.md §5.2) the opponent picks the ball but the
    shooter plays on; after a foul the non-offender takes his ball (if any)
    and then chooses (§4.8)."""
    nxt = ruling.next
    pend = getattr(ruling.state, "pending", None)
    if nxt.kind == "shot" or pend is None:
        return int(nxt.player), nxt.in_hand, False
    if "svoyak" in pend.stages:
        return int(pend.offender), pend.in_hand, False
    return int(pend.chooser), pend.in_hand, True


def warm_up(view: GameView) -> None:
    """Load the compiled physics and the referee with one throwaway shot, so
    that a wall-time budget is spent on thinking."""
    pos = view.position
    ball = next((b for b in pos.ids), None)
    if ball is None:
        return
    try:
        simulate(pos, Shot(ball=ball, phi=90.0, v=0.5))
    except PiramidaError:
        pass


def describe(ctx: PlanContext, c: Candidate, planner: PlannerAgent) -> str:
    """One line: what goes where, with what spin, and what it leaves."""
    try:
        res: ShotResult | None = simulate(ctx.pos, c.shot)  # without noise, once for both texts
    except PiramidaError:
        res = None
    parts: list[str] = []
    if c.kind == "pot" and c.line is not None:
        ln = c.line
        s = f"{ln.target} into the {POCKET_NAMES.get(ln.pocket, ln.pocket)}"
        if ctx.view.variant == "free" or (ln.struck,) != ctx.cue_balls()[:1]:
            s += f" off {ln.struck}"
        if c.shot.place is not None:
            s += f" (ball in hand at {c.shot.place[0]:.2f},{c.shot.place[1]:.2f})"
        if ln.bank is not None:
            s += f", banked off the {ln.bank.replace('_', ' ')} cushion"
        if ln.svoyak:
            s = f"{ln.struck} in off {ln.target} into the {POCKET_NAMES.get(ln.pocket, ln.pocket)} (свояк)"
        parts.append(s)
        parts.append(f"cut {ln.cut:.0f}°, {c.spin}")
    elif c.kind == "break":
        parts.append(f"break with {c.shot.ball} at the rack" + _break_pots_text(res, c.shot))
    else:
        parts.append(f"safety with {c.shot.ball}")
    parts.append(_leave_text(ctx, c.shot, res))
    return ", ".join(p for p in parts if p)


def _break_pots_text(res: ShotResult | None, shot: Shot) -> str:
    """What the stroke pockets without noise (``res``): the break book's
    strokes score with the struck ball in off the rack (свояк)."""
    if res is None:
        return ""
    gone = [
        f"{b} into the {POCKET_NAMES.get(p, p)}" + (" (свояк)" if b == shot.ball else "")
        for b, p in res.pocketed
    ]
    return (": " + ", ".join(gone)) if gone else ""


def _leave_text(ctx: PlanContext, shot: Shot, res: ShotResult | None) -> str:
    if res is None:
        return ""
    try:
        ruling = ctx.referee.judge(ctx.pos, shot, res.events, res.final, (), ctx.state)
    except PiramidaError:
        return ""
    nxt = ruling.next
    pos = ruling.position
    if ruling.winner is not None:
        return "wins the frame" if ruling.winner == ctx.me else "loses the frame"
    if nxt.kind != "shot" or nxt.player is None:
        return "gives the opponent a choice" if nxt.player != ctx.me else ""
    who = "" if nxt.player == ctx.me else "the opponent "
    if nxt.in_hand:
        return f"leaves {who}ball in hand"
    try:
        cues = [b for b in ctx.referee.allowed_cue_balls(pos) if b in pos]
    except PiramidaError:
        return ""
    best: PotLine | None = None
    from piramida.agents.aim import pot_lines

    for s in cues:
        lines = pot_lines(
            pos, s, [b for b in pos.ids if not (ctx.view.variant == "classic71" and b == "0")]
        )
        if lines and (best is None or lines[0].difficulty < best.difficulty):
            best = lines[0]
    if best is None:
        return f"leaves {who}no open pot"
    return f"leaves {who}{best.target} on the {POCKET_NAMES.get(best.pocket, best.pocket)}"


__all__ = ["Plan", "PlannerAgent", "describe", "warm_up"]
