"""The planner's candidate shots (agents/planner.py, docs/design.md §6).

Where the planner's search starts: every stroke it will sample under
noise comes from here.

- Direct pots: greedy's centred, throw-corrected ``pot_line`` for the
  easiest lines, and for the best of them variants with follow, draw and
  other paces re-refined from the corrected aim (position play).
- Banks (agents/banks.py) when no direct pot is likely, and the struck ball
  in off an object ball (agents/svoyak.py) where that scores and it is
  asked for.
- Safeties: full and half-ball contacts on the nearest clear balls.
- The break: greedy's stroke and a family of strokes at the apex ball.

``PlanContext`` is greedy's decision context with the budget that counts
every simulated stroke, so generation and evaluation share one budget.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from piramida.agents import greedy as G
from piramida.agents.aim import PotLine, cue_speed_for
from piramida.agents.banks import bank_lines, refine_bank
from piramida.agents.base import GameView
from piramida.agents.break_book import book_shots
from piramida.agents.svoyak import refine_svoyak, svoyak_lines, svoyak_speed
from piramida.env.errors import PiramidaError
from piramida.env.position import object_ball_ids
from piramida.env.shot import Shot

#: Lines refined into candidates, and of those the easiest given spin variants.
MAX_LINES = 16
SPIN_LINES = 9
#: (b, speed factor, name): the variants of a centred pot re-refined for
#: position. Measured (docs/agents.md): widening the search from 8 lines,
#: 5 kept, 3 of them with 3 variants to 16, 12 and 9 with these 6 raised the
#: free-pyramid win rate against greedy from 0.63 to 0.72 (160 games).
SPINS: tuple[tuple[float, float, str], ...] = (
    (0.35, 1.0, "follow"),
    (-0.35, 1.25, "draw"),
    (0.0, 1.5, "firm stun"),
    (0.0, 0.7, "soft"),
    (0.3, 0.75, "soft follow"),
    (-0.6, 1.4, "deep draw"),
)
#: (b, speed factor) grid that ``screen`` tries on each of the best lines,
#: one noise-free stroke each, keeping the variants whose table left the
#: planner values most.
SCREEN_GRID: tuple[tuple[float, float], ...] = tuple(
    (b, k) for b in (-0.6, -0.3, 0.0, 0.3, 0.5) for k in (0.7, 1.0, 1.4)
)
#: Centred pots kept as candidates (best by greedy's estimate).
KEEP_POTS = 12
#: Safeties: strokes (contact offset in ball diameters, speed m/s) at each
#: of the nearest ``SAFETY_BALLS`` clear balls, twice as many balls when no
#: direct pot is ``SAFETY_WHEN`` likely (greedy's estimate) or none is open.
SAFETY_BALLS = 3
SAFETY_STROKES: tuple[tuple[float, float], ...] = ((0.0, 2.5), (0.5, 3.5))
SAFETY_WHEN = 0.0
#: Break strokes (with ``breaks``): contact offsets on the apex ball in
#: ball diameters (0 full, 0.5 half-ball) and cue ball speeds (m/s).
BREAK_OFFSETS = (0.0, 0.5, -0.5, 0.9, -0.9)
BREAK_SPEEDS = (8.0, 4.5)
#: Banks are looked for when no direct pot is this likely (greedy's
#: estimate); this many of the easiest are refined, at these speed factors.
BANK_WHEN = 0.5
BANK_LINES = 3
BANK_SPEEDS = (1.3, 1.8)

#: A break with at most this many object balls on the table also gets pot
#: candidates (item 12.1 (1)).
SPARSE_RACK = 3

#: Share of the budget candidate generation may use before evaluation.
GEN_SHARE = 0.5


@dataclass
class Candidate:
    """One shot under evaluation and its running statistics."""

    shot: Shot
    kind: str  # "pot" or "safety"
    line: PotLine | None = None
    spin: str = "stun"
    values: list[float] = field(default_factory=list)
    pots: int = 0
    fouls: int = 0
    points: float = 0.0
    rounds: int = 0  # rounds of successive halving it took part in

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def mean(self) -> float:
        return float(np.mean(self.values)) if self.values else -math.inf



class Budget:
    """Wall time or a simulation count, whichever is given (count wins)."""

    def __init__(self, budget_s: float | None, n_sims: int | None) -> None:
        self.t0 = time.perf_counter()
        self.budget_s = budget_s
        self.n_sims = n_sims
        self.used = 0

    def spent(self, share: float = 1.0) -> bool:
        if self.n_sims is not None:
            return self.used >= self.n_sims * share
        if self.budget_s is None:
            return False
        return time.perf_counter() - self.t0 >= self.budget_s * share


class PlanContext(G.Context):
    """Greedy's decision context, counting the simulations it runs."""

    def __init__(self, view: GameView, budget: Budget) -> None:
        super().__init__(view)
        self.budget = budget
        #: The likeliest direct pot found so far (greedy's estimate).
        self.best_p = 0.0

    def trial(self, shot: Shot) -> G.Trial | None:
        self.budget.used += 1
        return super().trial(shot)




class CandidateSearch:
    """The candidate generation of ``PlannerAgent`` (its knobs are set
    there)."""

    max_lines: int
    centred: bool
    spin_lines: int
    spins: tuple[tuple[float, float, str], ...]
    keep_pots: int
    breaks: bool
    book: bool
    max_svoyaks: int
    max_banks: int
    safety_balls: int
    safety_when: float
    safety_strokes: tuple[tuple[float, float], ...]
    screen: int
    phi_sigma: float

    def candidates(self, ctx: PlanContext) -> list[Candidate]:
        out: list[Candidate] = []
        seen: set[str] = set()

        def add(c: Candidate) -> None:
            if not ctx.legal(c.shot):
                return
            key = c.shot.to_text()
            if key not in seen:
                seen.add(key)
                out.append(c)

        if ctx.pos.is_break and ctx.view.variant != "five_ball":
            # The break (docs/game_rules.md §4.2): the break book's strokes for a full
            # rack (agents/break_book.py), greedy's stroke at the rack and,
            # with ``breaks``, a family of strokes at the apex ball, all
            # evaluated. Where the book has strokes the family is left out:
            # the book searched it thousands of times wider, and a break
            # costs enough to simulate that 1 s buys each candidate only a
            # few samples.
            cue = ctx.first_cue_ball()
            booked = book_shots(ctx.pos, cue) if self.book else []
            for shot in booked:
                add(Candidate(shot, "break"))
            objs = set(object_ball_ids(ctx.view.variant))
            if sum(b in objs for b in ctx.pos.ids) <= SPARSE_RACK:
                # A rack of a few balls (a re-rack late in a frame, a
                # position given by hand): three object balls at cushions
                # (item 12.1 (2)) is out of reach or nearly, so a legal break
                # is mostly a pot (12.1 (1)); the pots go first, so that a
                # small budget samples them.
                self._pot_candidates(ctx, add)
            add(Candidate(G.break_shot(ctx), "break"))
            if self.breaks and not booked:
                for shot in self.break_candidates(ctx):
                    add(Candidate(shot, "break"))
            return out
        refined = self._pot_candidates(ctx, add)
        for c in self.svoyaks(ctx):
            add(c)
        if ctx.best_p < BANK_WHEN:
            for c in self.banks(ctx):
                add(c)
        for line, place, tr in refined[: self.spin_lines]:
            if self.screen > 0:
                for c in self._screened_variants(ctx, line, place, tr):
                    add(c)
                continue
            for b, k, name in self.spins:
                if ctx.budget.spent(GEN_SHARE):
                    break
                start = replace(line, phi=tr.shot.phi)
                alt = G.refine(ctx, start, place, tr.shot.v * k, b=b)
                if alt is not None:
                    add(Candidate(alt.shot, "pot", line, name))
        few = self.safety_balls if ctx.best_p >= self.safety_when else 2 * self.safety_balls
        for shot in self.safeties(ctx, few=few if out else 2 * self.safety_balls):
            add(Candidate(shot, "safety"))
        if not out:
            try:
                add(Candidate(G.fallback(ctx), "safety"))
            except PiramidaError:
                pass
        return out

    def _screened_variants(
        self, ctx: PlanContext, line: PotLine, place: Any, tr: G.Trial
    ) -> list[Candidate]:
        """Position play by screening (CueCard's way): every spin and pace of
        ``SCREEN_GRID`` re-refined from the corrected aim, each scored once
        without noise by the planner's own value of the ruling (the table it
        leaves), and the ``screen`` best kept for the noisy samples."""
        scored: list[tuple[float, Candidate]] = []
        start = replace(line, phi=tr.shot.phi)
        for b, k in SCREEN_GRID:
            if ctx.budget.spent(GEN_SHARE):
                break
            alt = G.refine(ctx, start, place, tr.shot.v * k, b=b)
            if alt is None or not alt.ruling.legal:
                continue
            name = spin_name(b) + ("" if k == 1.0 else (", soft" if k < 1.0 else ", firm"))
            scored.append((self.ruling_value(ctx, alt.ruling), Candidate(alt.shot, "pot", line, name)))
        scored.sort(key=lambda vc: -vc[0])
        return [c for _, c in scored[: self.screen]]

    def ruling_value(self, ctx: PlanContext, ruling: Any) -> float:
        """The planner's value of a ruling (PlannerAgent)."""
        raise NotImplementedError

    def _pot_candidates(
        self, ctx: PlanContext, add: Any
    ) -> list[tuple[PotLine, tuple[float, float] | None, G.Trial]]:
        """Potting strokes, best first, added as candidates; returns the
        lines with their trials for the spin variants."""
        if self.centred:
            got = self._centred_pots(ctx)
            if got is not None:
                for line, _place, tr in got:
                    add(Candidate(tr.shot, "pot", line, spin_name(tr.shot.b)))
                return got
        lines = G.candidate_lines(ctx)[: self.max_lines]
        refined: list[tuple[PotLine, tuple[float, float] | None, G.Trial]] = []
        for line, place in lines:
            if ctx.budget.spent(GEN_SHARE) and refined:
                break
            v0 = cue_speed_for(line, ctx.table)
            tr = None
            # Softer or with draw when the plain stroke scratches (a ball in
            # the jaws: the cue ball follows it in).
            for k, b in ((1.0, 0.0), (0.75, 0.0), (1.4, 0.0), (1.0, -0.35)):
                tr = G.refine(ctx, line, place, v0 * k, b=b)
                if tr is not None:
                    break
            if tr is None:
                continue
            refined.append((line, place, tr))
            add(Candidate(tr.shot, "pot", line, spin_name(tr.shot.b)))
        return refined

    def _centred_pots(
        self, ctx: PlanContext
    ) -> list[tuple[PotLine, tuple[float, float] | None, G.Trial]] | None:
        """Greedy's ``pot_line`` strokes (throw-corrected, aimed at the middle
        of the range of directions that pot, scored by greedy's estimate),
        the ``keep_pots`` best of them; None if greedy's API is not the one
        this was written against."""
        found: list[tuple[float, PotLine, tuple[float, float] | None, G.Trial]] = []
        sure = 0
        try:
            for line, place in G.candidate_lines(ctx)[: 2 * self.max_lines]:
                if ctx.budget.spent(GEN_SHARE) and found:
                    break
                if len(found) >= self.max_lines or sure >= max(3, self.keep_pots - 2):
                    break
                got = G.pot_line(ctx, line, place, sigma_phi=max(self.phi_sigma, 0.02))
                if got is None:
                    continue
                score, tr, p = got[0], got[1], got[2]
                found.append((float(score), line, place, tr))
                ctx.best_p = max(ctx.best_p, float(p))
                sure += float(p) >= 0.9
        except (TypeError, ValueError, AttributeError):
            return None
        found.sort(key=lambda f: -f[0])
        return [(ln, pl, tr) for _, ln, pl, tr in found[: self.keep_pots]]

    def break_candidates(self, ctx: PlanContext) -> list[Shot]:
        """Strokes at the apex ball from three spots on the house line:
        full, half-ball and thin contacts on either side, firm and soft."""
        t = ctx.table
        if not ctx.pos.balls:
            return []
        ball = ctx.first_cue_ball()
        apex = min(((x, y) for _, x, y in ctx.pos.balls), key=lambda p: p[1])
        shots: list[Shot] = []
        for px in (t.width / 2, t.width / 2 - 0.25, t.width / 2 + 0.25):
            place = (px, t.house_line - 0.08)
            if not G.zone_ok(ctx, place[0], place[1], "house"):
                continue
            d = math.hypot(apex[0] - place[0], apex[1] - place[1])
            base = math.degrees(math.atan2(apex[1] - place[1], apex[0] - place[0]))
            for off in BREAK_OFFSETS:
                phi = base + math.degrees(math.asin(min(0.99, off * 2 * ctx.R / d)))
                for v in BREAK_SPEEDS:
                    shots.append(Shot(ball=ball, phi=phi % 360.0, v=v, place=place))
        return shots

    def svoyaks(self, ctx: PlanContext) -> list[Candidate]:
        """The struck ball in off an object ball (agents/svoyak.py), where it
        scores: free pyramid (any ball pocketed on a legal shot, docs/game_rules.md
        §5.1) and the свояк of combined, Moscow, Nevskaya and dynamic
        (§5.2-§5.5); the easiest ``max_svoyaks`` lines that go in without
        noise. Not with the cue ball in hand."""
        ref = ctx.referee
        if self.max_svoyaks <= 0 or ctx.pos.in_hand is not None or ctx.called:
            return []
        if not (getattr(ref, "any_ball_scores", False) or getattr(ref, "svoyak", False)):
            return []
        lines = _lines_for(ctx, svoyak_lines)
        out: list[Candidate] = []
        for line in lines[: self.max_svoyaks]:
            v0 = svoyak_speed(line, ctx.table)
            # Stun at the pace that gets there, firmer, then with draw (a
            # ball still rolling at contact follows through off the line).
            for k, b in ((1.0, 0.0), (1.4, 0.0), (1.2, -0.3)):
                if ctx.budget.spent(GEN_SHARE):
                    return out
                tr = refine_svoyak(ctx, line, None, v0 * k, b=b)
                if tr is not None:
                    out.append(Candidate(tr.shot, "pot", line, spin_name(tr.shot.b)))
                    break
        return out

    def banks(self, ctx: PlanContext) -> list[Candidate]:
        """One-cushion banks (agents/banks.py) that pot without noise, the
        easiest ``BANK_LINES``; not with the cue ball in hand."""
        if ctx.pos.in_hand is not None:
            return []
        lines = _lines_for(ctx, bank_lines)
        out: list[Candidate] = []
        for line in lines[: self.max_banks]:
            for k in BANK_SPEEDS:
                if ctx.budget.spent(GEN_SHARE):
                    return out
                v = cue_speed_for(line, ctx.table) * k
                tr = refine_bank(ctx, line, None, v, lambda t, ln: G.pots(t, ln, ctx.called))
                if tr is not None:
                    out.append(Candidate(tr.shot, "pot", line, "bank"))
                    break
        return out

    def safeties(self, ctx: PlanContext, few: int) -> list[Shot]:
        """Full and half-ball contacts on the nearest clear balls."""
        shots: list[Shot] = []
        for ball, place, target in G.safety_pairs(ctx)[:few]:
            sx, sy = place if place is not None else ctx.pos.xy(ball)
            tx, ty = ctx.pos.xy(target)
            d = max(math.hypot(tx - sx, ty - sy), 2 * ctx.R)
            base = math.degrees(math.atan2(ty - sy, tx - sx))
            call = G.nearest_pocket_call(ctx, target) if ctx.called else None
            for off, v in self.safety_strokes:
                phi = base + math.degrees(math.asin(min(0.99, off * 2 * ctx.R / d)))
                shots.append(Shot(ball=ball, phi=phi % 360.0, v=v, place=place, call=call))
        return shots


def _lines_for(ctx: PlanContext, finder: Any) -> list[PotLine]:
    """``finder(position, struck, targets)``'s lines for every ball the
    shooter may strike, easiest first."""
    lines: list[PotLine] = []
    for s in ctx.cue_balls():
        if s in ctx.pos:
            lines.extend(finder(ctx.pos, s, G.targets_for(ctx, s)))
    lines.sort(key=lambda ln: ln.difficulty)
    return lines


def spin_name(b: float) -> str:
    return "follow" if b > 0.15 else ("draw" if b < -0.15 else "stun")


__all__ = [
    "BANK_SPEEDS",
    "BREAK_OFFSETS",
    "BREAK_SPEEDS",
    "Budget",
    "Candidate",
    "CandidateSearch",
    "PlanContext",
]
