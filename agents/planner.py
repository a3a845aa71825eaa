"""The planner: Monte Carlo shot selection under execution noise (docs/design.md §6).

1. Candidates (``agents.shots.candidates``, the planner's ``Search``):
   centred, throw-corrected pots for the easiest lines with position
   variants (follow, draw, pace), banks when no direct pot is likely, свояк
   lines on request, safeties, and for the break the break book's strokes
   or a family of strokes at the rack.
2. Each candidate is played ``k`` times under the configured skill's noise
   (``configs/noise``), with common random numbers (sample ``j`` draws the
   same stroke errors for every candidate, which sharpens the comparison),
   and every sample is judged by the variant's referee: the points scored,
   the penalty (a foul is a loss of value, not just a miss: the opponent's
   penalty ball or the points deducted, and the choice he then gets), who
   shoots next, and the frame won.
3. A sample's value, one level deeper than the shot (``planner_value.Valuation``):
   - in the games won by a number of balls, the shooter's chance of winning
     the frame from the score the ruling leaves and the chance that
     whoever shoots next pots (a race model solved for every score, and a
     next-pot curve fitted to measured potting);
   - in the points games (classic71, five_ball), the net points plus a turn
     value ``T(p) = unit * (1.5 p - 0.5)`` for the table left: the ball the
     next shooter pots with chance p, less what the other player makes of
     a miss (taken as even), positive when it is us.
4. Successive halving: every candidate gets a few samples, the better half
   gets twice as many, and so on until the budget is spent (an
   ``Allowance``: wall time ``budget_s``, a simulation count ``n_sims``
   that includes finding the candidates, or a count of noisy samples
   ``n_rollouts`` that does not; a count gives the same answer on any
   machine).

A planner is built from its ``Search``, its sample value and its
``Allowance``; ``PlannerAgent.of`` builds one from an agent spec's flat
options (agents/specs.py).

Deterministic for a seed: candidates come from deterministic geometry and
noise-free refinement, and the noise streams from ``(seed, position)``.
The choices outside a shot follow ``shots.choices``, except "shoot or make
the offender shoot", which uses the planner's own value.
"""

from __future__ import annotations

import math
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from piramida.agents.base import Action, GameView, NoLegalShotError, ruled_view, why_no_shot
from piramida.agents.break_book import book_shots
from piramida.agents.planner_value import NetValuation, Valuation, is_value_file
from piramida.agents.plans import Plan, describe
from piramida.agents.shots.candidates import PLANNER, SEARCHES, Candidate, Search, generate
from piramida.agents.shots.choices import choose as choose_by_geometry
from piramida.agents.shots.context import Budget, Context
from piramida.agents.shots.probability import PotModel
from piramida.agents.shots.strokes import break_shot, fallback, final, lag_shot
from piramida.env.errors import PiramidaError
from piramida.env.physics import Noise, ShotResult, load_noise, simulate
from piramida.env.shot import Shot

#: Samples per candidate in the first round of successive halving, and the
#: most any candidate gets.
FIRST_SAMPLES = 8
MAX_SAMPLES = 256
#: Samples between two looks at the clock under a wall-clock budget.
TIME_CHUNK = 32
#: Candidates a policy prior (``prior``) lets through to the samples.
PRIOR_TOP = 4
#: Gumbel MuZero's visit offset: a sampled candidate's mean value ``q``
#: weighs ``(C_VISIT + most samples) * blend`` against the prior's logit.
C_VISIT = 50.0
#: The named searches (``shots.SEARCHES``) a planner may be given by name
#: (``planner:search=NAME``): those that differ from its own only in their
#: widths. ``wide`` is the one the shipped policies were trained on.
PLANNER_SEARCHES = ("planner", "wide", "lean")


@dataclass(frozen=True)
class Allowance:
    """What one decision may spend: wall time ``budget_s``, a count of
    simulated strokes ``n_sims`` (finding the candidates included) or a
    count of noisy samples ``n_rollouts`` (finding the candidates not
    counted, so never cut short): a count wins, rollouts first, and gives
    the same answer on any machine; none: no limit. ``n_samples``: the most
    noisy samples one candidate gets."""

    budget_s: float | None = 1.0
    n_sims: int | None = None
    n_samples: int = MAX_SAMPLES
    n_rollouts: int | None = None

    def start(self) -> Budget:
        """A decision's budget, its clock started now."""
        return Budget(self.budget_s, self.n_sims, self.n_rollouts)


@dataclass
class Arm:
    """A candidate under evaluation and its running statistics."""

    cand: Candidate
    values: list[float] = field(default_factory=list)
    pots: int = 0
    fouls: int = 0
    points: float = 0.0
    rounds: int = 0  # rounds of successive halving it took part in
    logit: float = 0.0  # the prior's logit where a prior shortlisted it

    @property
    def shot(self) -> Shot:
        return self.cand.shot

    @property
    def kind(self) -> str:
        return self.cand.kind

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def mean(self) -> float:
        return float(np.mean(self.values)) if self.values else -math.inf


def simulate_many(
    simulate: Callable[..., ShotResult], shots: Sequence[Shot], noise: Noise | None, seeds: Sequence[int]
) -> list[ShotResult | None]:
    """Each shot played by ``simulate`` (the decision's physics
    ``Simulator``) with its own noise seed; None where the physics refuses
    it (a ``PiramidaError``; anything else is a bug and propagates)."""
    out: list[ShotResult | None] = []
    for s, sd in zip(shots, seeds, strict=True):
        try:
            out.append(simulate(s, noise=noise, seed=sd))
        except PiramidaError:
            out.append(None)
    return out


@dataclass(frozen=True)
class SearchTrace:
    """What the last search of a shot decision computed: the view it
    planned for and every candidate of its search, as arms in the search's
    order; those a policy prior left out, or the budget never reached,
    have no samples (``n`` 0, ``rounds`` 0). Self-play reads the samples
    each candidate got as the search's distribution over them
    (training/iterate.py)."""

    view: GameView
    arms: tuple[Arm, ...]


def rank(arms: Sequence[Arm], blend: float = 0.0) -> list[Arm]:
    """Evaluated arms best first: the survivors of the last round of
    successive halving, by ``score``, then the ones dropped earlier
    (stable: ties keep the candidates' order)."""
    most = max((c.n for c in arms), default=0)
    return sorted(arms, key=lambda c: (-c.rounds, -score(c, blend, most)))


def score(arm: Arm, blend: float, most: int) -> float:
    """What successive halving ranks an arm by: its mean value, or with a
    prior's ``blend`` > 0 Gumbel MuZero's ``logit + (C_VISIT + most) *
    blend * mean`` (``most``: the most samples any arm has), so that
    where few samples cannot tell two shots apart the prior does, and
    where many can the samples do. The mean must then be a chance in
    [0, 1]."""
    if blend <= 0.0 or not arm.values:
        return arm.mean
    return arm.logit + (C_VISIT + most) * blend * arm.mean


class PlannerAgent:
    """Monte Carlo planner; see the module docstring. Composed of its
    candidate search (``search``, a ``shots.Search``), its sample value
    (``valuation``, a ``planner_value.Valuation``) and what a decision may
    spend (``budget``, an ``Allowance``)."""

    name = "planner"

    def __init__(
        self,
        search: Search = PLANNER,
        value: str | Valuation = "auto",
        budget: Allowance = Allowance(),
        noise: str | None = "pro",
        seed: int | None = 0,
        salt: int = 0,
        prior: str | None = None,
        prior_top: int = PRIOR_TOP,
        explore: bool = False,
        blend: float = 0.0,
    ) -> None:
        #: What candidates it looks for (``shots.candidates``).
        self.search = search
        #: What a decision may spend.
        self.budget = replace(budget, n_samples=max(1, int(budget.n_samples)))
        #: Mixed into every seed it is given (the spec key ``seed``): two
        #: planners that differ only here draw different samples on the
        #: same rack, so a match of the two measures sampling luck. 0: none.
        self.salt = int(salt)
        self.noise = None if noise in (None, "none") else load_noise(noise)
        self.seed = 0
        self.reset(seed)
        #: The pot-probability model of the skill it plans for (its noise
        #: preset, agents/shots/probability.py): the candidates' estimates,
        #: the next pot's chance, the race model's later-shot chance.
        self.model = PotModel.of(self.noise)
        #: How a sample is scored (``planner_value``): ``value`` "race" (the
        #: chance of winning the frame; the games won by a number of balls),
        #: "turn" (points plus the turn value), "auto" (race in
        #: ``RACE_AUTO``), a value file (``*.pt``, agents/value_net.py: the
        #: table each sample leaves scored by that network), or a
        #: ``Valuation`` made for this planner's ``model``.
        if isinstance(value, Valuation):
            self.valuation: Valuation = value
        elif is_value_file(value):
            from piramida.agents.value_net import ValueModel

            self.valuation = NetValuation(ValueModel(value), self.model)
        else:
            self.valuation = Valuation(value, self.model)
        #: ``prior`` may name a policy file (agents/policy.py): then only the
        #: ``prior_top`` candidates that policy likes best are sampled, so
        #: the budget's samples are not spread over shots it would never
        #: play. The policy's forward pass costs no strokes.
        self.prior_top = max(1, int(prior_top))
        self.prior: Any = None
        if prior is not None:
            from piramida.agents.policy import PolicyAgent

            self.prior = PolicyAgent(prior)
        #: Draw the prior's shortlist from its distribution (Gumbel-top-k,
        #: seeded by the decision) instead of taking its favourites: the
        #: self-play of expert iteration, so that the search also samples
        #: shots the prior does not like yet (training/iterate.py).
        self.explore = bool(explore)
        #: How much the prior's logits weigh against the samples' mean
        #: values in successive halving (``score``); 0: not at all. Used
        #: where a sample's value is a frame-winning chance.
        self.blend = max(0.0, float(blend))
        #: What the last shot meant to do, as greedy reports it: ("pot", ball,
        #: pocket), ("safety",), ("break",); the match runner's pot rate.
        self.last_intent: tuple[str, ...] = ()
        #: The chosen shot's value when it is a frame-winning chance (the
        #: race value, a value network), else None: self-play data records it.
        self.last_value: float | None = None
        #: The last shot decision's search (``SearchTrace``); None where the
        #: decision searched nothing (a choice, a lag, a plain break).
        self.last_search: SearchTrace | None = None

    @classmethod
    def of(
        cls,
        budget_s: float | None = 1.0,
        n_sims: int | None = None,
        n_samples: int = MAX_SAMPLES,
        n_rollouts: int | None = None,
        noise: str | None = "pro",
        seed: int | None = 0,
        salt: int = 0,
        value: str = "auto",
        search: str = "planner",
        prior: str | None = None,
        prior_top: int = PRIOR_TOP,
        explore: bool = False,
        blend: float = 0.0,
        **changes: Any,
    ) -> PlannerAgent:
        """The planner of flat options, as an agent spec gives them
        (agents/specs.py: ``planner:sims=500:search=wide:book=false``):
        ``search`` names one of ``PLANNER_SEARCHES``, and ``changes`` are
        fields of ``Search`` replaced in it (``book``, ``gen_share``)."""
        if search not in PLANNER_SEARCHES:
            raise ValueError(f"unknown search {search!r}; known: {', '.join(PLANNER_SEARCHES)}")
        return cls(
            search=replace(SEARCHES[search], **changes),
            value=value,
            budget=Allowance(budget_s, n_sims, n_samples, n_rollouts),
            noise=noise,
            seed=seed,
            salt=salt,
            prior=prior,
            prior_top=prior_top,
            explore=explore,
            blend=blend,
        )

    @property
    def budget_s(self) -> float | None:
        return self.budget.budget_s

    @property
    def n_sims(self) -> int | None:
        return self.budget.n_sims

    @property
    def n_rollouts(self) -> int | None:
        return self.budget.n_rollouts

    @property
    def n_samples(self) -> int:
        return self.budget.n_samples

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = int(seed)
            if self.salt:
                self.seed = int(np.random.SeedSequence([self.seed, self.salt]).generate_state(1, dtype=np.uint64)[0])

    # ------------------------------------------------------------ entry
    def act(self, view: GameView) -> Action:
        self.last_value = None
        self.last_search = None
        ctx = Context(view, self.budget.start(), self.model)
        if view.kind == "choice":
            return self.choose(ctx)
        if view.kind == "lag":
            self.last_intent = ("lag",)
            return lag_shot(view)
        why = why_no_shot(view)
        if why is not None:
            raise NoLegalShotError(f"{why} (position: {view.position.to_text()})")
        if (
            view.is_break
            and view.variant != "five_ball"
            and not self.search.breaks
            and not (self.search.book and view.cue_balls and book_shots(view.position, view.cue_balls[0]))
        ):
            self.last_intent = ("break",)
            return final(ctx, break_shot(ctx))
        plans = self.plan_ctx(ctx, top=1)
        if not plans:
            self.last_intent = ("safety",)
            return final(ctx, fallback(ctx))
        best = plans[0]
        self.last_value = best.value if self.valuation.win_chance(ctx) else None
        if best.kind == "pot" and best.line is not None:
            ball = best.line.struck if best.line.svoyak else best.line.target
            self.last_intent = ("pot", ball, best.line.pocket)
        else:
            self.last_intent = (best.kind,)
        return final(ctx, best.shot)

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
        # A position given by hand may have had a rule applied (item 21.2).
        view = ruled_view(view)
        ctx = Context(view, self.budget.start(), self.model)
        return self.plan_ctx(ctx, top)

    def candidates(self, ctx: Context) -> list[Arm]:
        """The search's candidates in ``ctx`` (its budget counts them; its
        model should be ``self.model``), as arms to evaluate."""
        return [Arm(c) for c in generate(ctx, self.search)]

    def plan_ctx(self, ctx: Context, top: int) -> list[Plan]:
        arms = self.candidates(ctx)
        if not arms:
            return []
        self.last_search = SearchTrace(ctx.view, tuple(arms))
        blend = self.blend if self.prior is not None and self.valuation.win_chance(ctx) else 0.0
        if self.prior is not None and (len(arms) > self.prior_top or blend > 0.0):
            rng = np.random.default_rng(self._seeds(ctx, 0, 1)[0] ^ 0x6B1E) if self.explore else None
            keep = self.prior.ranked(ctx.view, [a.cand for a in arms], self.prior_top, rng)
            for i, logit in keep:
                arms[i].logit = logit
            arms = [arms[i] for i, _ in keep]
        self.evaluate(ctx, arms, blend)
        return [self._plan_of(ctx, c) for c in rank(arms, blend)[:top]]

    # ------------------------------------------------------------ evaluation
    def _seeds(self, ctx: Context, start: int, k: int) -> list[int]:
        key = zlib.crc32(ctx.pos.to_text().encode())
        ss = np.random.SeedSequence([self.seed, key, 0x9A11])
        all_ = ss.generate_state(start + k, dtype=np.uint64)
        return [int(s) for s in all_[start:]]

    def evaluate(self, ctx: Context, arms: list[Arm], blend: float = 0.0) -> None:
        """Successive halving over the arms until the budget is spent, the
        halves kept by ``score``."""
        assert ctx.budget is not None
        alive = list(arms)
        k = FIRST_SAMPLES if self.noise is not None else 1
        rollouts = ctx.budget.n_rollouts
        if rollouts is not None and alive:
            # A rollout count smaller than a full first round shares itself
            # out evenly: the count is what the decision spends.
            k = max(1, min(k, rollouts // len(alive)))
        for c in alive:
            c.values.clear()
        #: Seconds valuing one sample took in the last round: under a
        #: wall-clock budget the round's valuation is part of the time.
        per_sample = 0.0
        while True:
            for c in alive:
                c.rounds += 1
            # A round's samples are judged as they are played and valued
            # together at its end (one call of a value network a round).
            judged: list[tuple[Arm, Any]] = []
            taken = {id(c): c.n for c in alive}
            stop = False
            for c in alive:
                need = min(k, self.n_samples) - taken[id(c)]
                while need > 0:
                    # A stroke count is met after whole batches (reproducible
                    # anywhere); a wall-clock budget is looked at every
                    # TIME_CHUNK samples, or a late round's batch of
                    # thousands would overrun it.
                    n = need if ctx.budget.counted else min(need, TIME_CHUNK)
                    seeds = self._seeds(ctx, taken[id(c)], n)
                    results = simulate_many(ctx.simulate, [c.shot] * n, self.noise, seeds)
                    ctx.budget.used += n
                    ctx.budget.rolled += n
                    taken[id(c)] += n
                    need -= n
                    judged += [(c, self.judge(ctx, res)) for res in results]
                    stop = ctx.budget.spent(reserve_s=len(judged) * per_sample)
                    if stop:
                        break
                if stop and all(taken[id(x)] > 0 for x in alive):
                    break
            t0 = time.perf_counter()
            self.record(ctx, judged)
            if judged:
                per_sample = (time.perf_counter() - t0) / len(judged)
            if stop or ctx.budget.spent() or self.noise is None:
                break
            if len(alive) > 2:
                # Keep two to the end: the last samples go to telling the
                # best two apart.
                most = max(c.n for c in alive)
                alive.sort(key=lambda c: -score(c, blend, most))
                alive = alive[: max(2, math.ceil(len(alive) / 2))]
            if k >= self.n_samples:
                break
            k = min(2 * k, self.n_samples)

    def judge(self, ctx: Context, res: ShotResult | None) -> Any:
        """The referee's ruling on a sample; None for a stroke the physics
        or the referee refuses."""
        if res is None:
            return None
        try:
            return ctx.ruled(res.shot, res)
        except PiramidaError:
            return None

    def record(self, ctx: Context, judged: Sequence[tuple[Any, Any]]) -> None:
        """Value a round's samples (in one call) and add them to their arms
        (an ``Arm``, or anything with its ``values``, ``pots``, ``fouls`` and
        ``points``: suggestions' tallies): a refused stroke is the worst
        outcome and counts as a foul."""
        values = self.valuation.values(ctx, [r for _, r in judged])
        for (c, ruling), value in zip(judged, values, strict=True):
            c.values.append(value)
            if ruling is None:
                c.fouls += 1
                continue
            immediate, potted = self.valuation.immediate(ctx, ruling)
            c.points += immediate
            c.pots += int(potted)
            c.fouls += int(not ruling.legal)

    # ------------------------------------------------------------ choices
    def choose(self, ctx: Context) -> str:
        choices = ctx.view.choices
        for yes, no in (
            ("shoot", "make_offender_shoot"),
            ("accept_and_shoot", "accept_and_make_offender_shoot"),
        ):
            if yes in choices and no in choices:
                pend = getattr(ctx.state, "pending", None)
                hand = pend.in_hand if pend is not None else None
                return yes if self.valuation.shoot_or_hand_over(ctx, hand) else no
        return choose_by_geometry(ctx)

    # ------------------------------------------------------------ output
    def _plan_of(self, ctx: Context, c: Arm) -> Plan:
        n = max(c.n, 1)
        return Plan(
            shot=c.shot,
            kind=c.kind,
            p_pot=c.pots / n,
            p_foul=c.fouls / n,
            expected_points=c.points / n,
            value=c.mean if c.values else 0.0,
            samples=c.n,
            description=describe(ctx, c.cand),
            line=c.cand.line,
        )


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


__all__ = ["C_VISIT", "Allowance", "Arm", "PLANNER_SEARCHES", "PlannerAgent", "SearchTrace", "rank", "score", "simulate_many", "warm_up"]
