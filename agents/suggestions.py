"""Suggestions: the best shots an agent finds in a position
(docs/design.md §6), for ``piramida suggest`` and the web page.

``ranking_agent`` builds the agent that ranks shots (a spec of an agent in
``specs.RANKING``); ``suggestions_for`` checks a position and returns
that agent's top plans (agents.plans.Plan) with what they were measured
on (``Suggestions``); ``plan_geometry`` is what a drawing of a plan shows,
in table coordinates.

With the planner a suggestion is made in two steps. The planner's search
(successive halving over its candidates) picks the shots to show, with
half of a wall-clock budget (all of a simulation count). Then the shown
shots are measured alike: each is played again under the noise with the
same stroke errors (sample ``j`` of every shot draws the same errors), in
steps of ``STEP_SAMPLES`` each, until the budget is spent or each has
``MAX_SHOWN_SAMPLES``, and never fewer than ``MIN_SHOWN_SAMPLES`` or the
most the search gave one of them. So every shown shot has the same number
of samples, the list is ordered by the mean value it shows, and its rates
come with 95% intervals (``wilson``).
"""

from __future__ import annotations

import math
import time
import zlib
from dataclasses import dataclass, replace
from typing import Any

from piramida.env.errors import PiramidaError

#: Samples each shown shot gets in one step of the measuring, and at least
#: and at most in all.
STEP_SAMPLES = 32
MIN_SHOWN_SAMPLES = 32
MAX_SHOWN_SAMPLES = 16384
#: The share of a wall-clock budget the planner's search may use; the
#: measuring of the shown shots has the rest.
SEARCH_SHARE = 0.5
#: z of a two-sided 95% interval.
Z95 = 1.959963984540054


def ranking_agent(
    agent: Any = "planner",
    budget_s: float | None = 1.0,
    noise: str | None = "pro",
    seed: int = 0,
    n_sims: int | None = None,
) -> Any:
    """The agent that ranks the shots: a spec (``NAME[:key=value...]``, or a
    parsed ``AgentSpec``) of an agent in ``specs.RANKING``, or an agent
    already built (anything with ``plan(view, top)``). ``budget_s``,
    ``n_sims``, ``noise`` and ``seed`` are defaults the spec's own keys
    override (``planner:sims=500`` drops the budget)."""
    from piramida.agents.specs import RANKING, AgentSpec, AgentSpecError, parse_spec

    if not isinstance(agent, str | AgentSpec) and callable(getattr(agent, "plan", None)):
        return agent
    spec = parse_spec(agent) if isinstance(agent, str) else agent
    if spec.name not in RANKING:
        raise AgentSpecError(
            f"suggest needs an agent that ranks shots ({', '.join(RANKING)}); "
            f"{spec.name} only picks one"
        )
    defaults = {"budget_s": None if n_sims else budget_s, "n_sims": n_sims, "noise": noise, "seed": seed}
    # Each agent takes the defaults it has keys for (a policy has no budget).
    return spec.build(spec.defaults(defaults))


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate of ``k`` in ``n`` (95% by
    default); (0, 1) for no samples."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    d = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1.0 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Suggestions:
    """The shots an agent suggests and what they rest on.

    ``plans``: best first by ``Plan.value``, the number shown; ``basis``:
    "samples" (the planner's noisy samples) or "policy" (a network's
    probabilities); ``meaning``: what the value is, for whom, in words
    (text prints it after "value: "); ``win_chance``: the value is a frame-winning chance (shown as a
    percentage); ``noisy``: the samples drew stroke errors (else one
    noise-free stroke decides each shot). ``time_s``: thinking time used
    (loading the physics not counted); ``candidates``: shots the search
    looked at; ``strokes``: strokes simulated for it, search and measuring;
    ``stopped``: why it ended when it did."""

    plans: tuple[Any, ...]
    basis: str
    meaning: str
    win_chance: bool
    noisy: bool
    budget_s: float | None
    n_sims: int | None
    time_s: float
    candidates: int
    strokes: int
    stopped: str

    def value_text(self, plan: Any) -> str:
        """A plan's value as shown: a percentage for a winning chance or a
        policy's probability, else signed units."""
        if self.win_chance or self.basis == "policy":
            return f"{100 * plan.value:.1f}%"
        return f"{plan.value:+.3f}"

    def shot_dict(self, plan: Any) -> dict[str, Any]:
        """One shot of the JSON answer: ``shot`` exact (it round-trips),
        ``rounded`` for reading, ``value`` and ``value_text`` (as the text
        output shows it), the rates with their 95%
        Wilson intervals over ``samples`` (null without noise or samples:
        a policy's estimates)."""
        out: dict[str, Any] = {
            "shot": plan.shot.to_text(),
            "rounded": plan.shot.to_text(rounded=True),
            "value": round(plan.value, 4),
            "value_text": self.value_text(plan),
            "samples": plan.samples,
            "p_pot": round(plan.p_pot, 4),
            "p_pot_interval": self.interval(plan, plan.p_pot),
            "p_foul": round(plan.p_foul, 4),
            "p_foul_interval": self.interval(plan, plan.p_foul),
            "expected_points": round(plan.expected_points, 4),
            "description": plan.description,
        }
        if plan.basis != "samples":
            out["basis"] = plan.basis
            out["policy_probability"] = round(plan.value, 4)
        return out

    def interval(self, plan: Any, rate: float) -> list[float] | None:
        if plan.basis != "samples" or not self.noisy or plan.samples <= 0:
            return None
        lo, hi = wilson(round(rate * plan.samples), plan.samples)
        return [round(lo, 4), round(hi, 4)]

    def search_dict(self) -> dict[str, Any]:
        return {
            "budget_s": self.budget_s,
            "sims": self.n_sims,
            "time_s": round(self.time_s, 3),
            "candidates": self.candidates,
            "strokes": self.strokes,
            "stopped": self.stopped,
        }

    def to_dict(self) -> dict[str, Any]:
        """What ``piramida suggest --json`` prints."""
        return {
            "value_meaning": self.meaning,
            "shots": [self.shot_dict(p) for p in self.plans],
            "search": self.search_dict(),
        }


def value_meaning(planner: Any, ctx: Any) -> tuple[str, bool]:
    """What the planner's sample value is in ``ctx``, in one line, and
    whether it is a frame-winning chance."""
    from piramida.agents.planner_value import WIN_UNITS, NetValuation

    me = f"p{ctx.me}, the player to move"
    val = planner.valuation
    if isinstance(val, NetValuation):
        return (f"the chance that {me}, wins the frame after the shot, as the value network "
                "scores the table it leaves"), True
    if val.win_chance(ctx):
        return (f"the chance that {me}, wins the frame after the shot: the score it leaves and "
                "whoever shoots next with his chance of a pot, in a race of pots (docs/agents.md)"), True
    unit = val.unit(ctx.pos, ctx)
    units = "balls" if unit == 1.0 else "points"
    worth = (f"what the shot is worth to {me}, in {units}: his points on it less the opponent's, "
             "plus the table it leaves, worth")
    if unit == 1.0:
        return (f"{worth} 1.5p - 0.5 balls to whoever shoots next (p: his chance of a pot); "
                f"a frame won counts {WIN_UNITS:g} balls"), False
    return (f"{worth} (1.5p - 0.5) x {unit:.3g} points to whoever shoots next (p: his chance of a pot, "
            f"{unit:.3g} a pot's mean worth); a frame won counts {WIN_UNITS:g} x {unit:.3g}"), False


@dataclass
class Tally:
    """A shown shot's samples in the measuring: values and counts, kept as
    the planner keeps an arm's (``PlannerAgent.record``)."""

    plan: Any
    values: list[float]
    pots: int = 0
    fouls: int = 0
    points: float = 0.0

    @property
    def n(self) -> int:
        return len(self.values)

    def measured(self) -> Any:
        n = max(self.n, 1)
        return replace(
            self.plan,
            p_pot=self.pots / n,
            p_foul=self.fouls / n,
            expected_points=self.points / n,
            value=math.fsum(self.values) / n,
            samples=self.n,
        )


def measure(planner: Any, ctx: Any, tallies: list[Tally], count: int) -> None:
    """Play each shown shot until it has ``count`` samples, sample ``j``
    of every shot with the same stroke errors, and add what the referee
    and the planner's valuation make of them."""
    import numpy as np

    from piramida.agents.planner import simulate_many

    key = zlib.crc32(ctx.pos.to_text().encode())
    seeds = [int(s) for s in np.random.SeedSequence([planner.seed, key, 0x5E65]).generate_state(count, np.uint64)]
    for t in tallies:
        start = t.n
        if start >= count:
            continue
        results = simulate_many(ctx.simulate, [t.plan.shot] * (count - start), planner.noise, seeds[start:count])
        planner.record(ctx, [(t, planner.judge(ctx, res)) for res in results])


def by_value(plans: list[Any]) -> list[Any]:
    """Best first by the value shown (stable: ties keep the agent's order)."""
    return sorted(plans, key=lambda p: -p.value)


def planner_suggestions(planner: Any, view: Any, top: int) -> Suggestions:
    """The planner's search picks ``top`` shots, then they are measured
    alike (module docstring) within its ``Allowance``."""
    from piramida.agents.base import NoLegalShotError, ruled_view, why_no_shot
    from piramida.agents.shots.context import Budget, Context

    why = why_no_shot(view)
    if why is not None:
        raise NoLegalShotError(f"{why} (position: {view.position.to_text()})")
    # A position given by hand may have had a rule applied (item 21.2).
    view = ruled_view(view)
    budget_s, n_sims, n_rollouts = planner.budget.budget_s, planner.budget.n_sims, planner.budget.n_rollouts
    timed = n_sims is None and n_rollouts is None and budget_s is not None
    search_s = budget_s * SEARCH_SHARE if timed and budget_s is not None else None
    t0 = time.perf_counter()
    ctx = Context(view, Budget(search_s, n_sims, n_rollouts), planner.model)
    plans = planner.plan_ctx(ctx, top)
    candidates = len(planner.last_search.arms) if planner.last_search is not None else 0
    strokes = ctx.budget.used if ctx.budget is not None else 0
    meaning, win = value_meaning(planner, ctx)
    noisy = planner.noise is not None

    def done(shown: list[Any], stopped: str) -> Suggestions:
        return Suggestions(tuple(by_value(shown)), "samples", meaning, win, noisy, budget_s, n_sims,
                           time.perf_counter() - t0, candidates, strokes, stopped)

    if not plans:
        return done([], "no candidate")
    if not noisy:
        return done(plans, "without noise one stroke decides each shot: more samples cannot change the answer")
    tallies = [Tally(p, []) for p in plans]
    count = max(MIN_SHOWN_SAMPLES, *(p.samples for p in plans))
    count = min(MAX_SHOWN_SAMPLES, STEP_SAMPLES * math.ceil(count / STEP_SAMPLES))
    before = len(plans) * count
    measure(planner, ctx, tallies, count)
    strokes += before
    if not timed:
        spent = f"{n_rollouts} noisy samples" if n_rollouts is not None else f"{n_sims} strokes"
        return done([t.measured() for t in tallies],
                    f"a simulation count: {spent} of search, then the shown shots {count} samples each")
    assert budget_s is not None
    step_s = 0.0
    while True:
        elapsed = time.perf_counter() - t0
        if count >= MAX_SHOWN_SAMPLES:
            stopped = (f"stopped after {elapsed:.2f} s: every shown shot has {count} samples, the most it gets "
                       "(their rates are known to within a point)")
            break
        if elapsed + step_s > budget_s:
            stopped = f"the {budget_s:g} s budget was spent"
            break
        t1 = time.perf_counter()
        more = min(MAX_SHOWN_SAMPLES, count + STEP_SAMPLES) - count
        count += more
        measure(planner, ctx, tallies, count)
        strokes += len(tallies) * more
        step_s = time.perf_counter() - t1
    return done([t.measured() for t in tallies], stopped)


def agent_suggestions(ranker: Any, view: Any, top: int) -> Suggestions:
    """The ``top`` suggestions of any ranking agent: the planner's measured
    (``planner_suggestions``), another's as it ranks them (a policy: by its
    network's probabilities, no samples)."""
    from piramida.agents.planner import PlannerAgent

    if isinstance(ranker, PlannerAgent):
        return planner_suggestions(ranker, view, top)
    t0 = time.perf_counter()
    plans = list(ranker.plan(view, top=top))
    policy = any(p.basis == "policy" for p in plans)
    meaning = (
        "the policy's probability of choosing the shot (one forward pass, no samples); pot is "
        "the candidate's estimate, foul and points those of its noise-free stroke"
        if policy
        else f"{getattr(ranker, 'name', 'the agent')}'s own ranking value"
    )
    return Suggestions(tuple(by_value(plans)), "policy" if policy else "samples", meaning, False, False,
                       None, None, time.perf_counter() - t0, len(plans), 0,
                       "a policy's ranking takes no samples" if policy else "the agent's own ranking")


def suggest(
    position: Any,
    budget_s: float | None = 1.0,
    top: int = 3,
    noise: str | None = "pro",
    seed: int = 0,
    n_sims: int | None = None,
    agent: Any = "planner",
) -> list[Any]:
    """The ``top`` plans (agents.plans.Plan) of the ranking ``agent``
    (``ranking_agent``) for the player to move in ``position``, best first
    (``advise``'s plans)."""
    return list(advise(position, ranking_agent(agent, budget_s, noise, seed, n_sims), top).plans)


def advise(position: Any, ranker: Any, top: int = 3) -> Suggestions:
    """The ``Suggestions`` of ``ranker`` (``ranking_agent``) for the player
    to move in ``position``."""
    from piramida.agents.planner import warm_up
    from piramida.env.view import GameView

    view = GameView.for_position(position)
    # Loading the compiled physics is not thinking time.
    warm_up(view)
    return agent_suggestions(ranker, view, top)


def plan_geometry(position: Any, plan: Any) -> dict[str, Any]:
    """What a drawing of a plan shows, in table coordinates: the struck
    ball and where it starts (``place`` for a ball in hand), the aim line
    (``aim``: start and end), the ghost ball (None for a shot that is not a
    pot line), the object ball (the pot's target, else the first ball the
    struck ball meets, else None) and the noise-free ``paths`` of the balls
    the shot moves, struck ball first. ``piramida suggest --png`` and the
    web page (piramida/web) draw from it."""
    import math

    import numpy as np

    from piramida.env.physics import simulate

    shot = plan.shot
    res = simulate(position, shot)
    paths: dict[str, list[tuple[float, float]]] = {}
    for b, (_, xs, ys) in sorted(res.trajectories.items(), key=lambda kv: kv[0] != shot.ball):
        if len(xs) > 1 and float(np.ptp(xs) + np.ptp(ys)) > 1e-3:
            paths[b] = list(zip(xs.tolist(), ys.tolist(), strict=True))
    start = shot.place if shot.place is not None else position.xy(shot.ball)
    if plan.line is not None:
        ghost: tuple[float, float] | None = plan.line.ghost
        end = plan.line.ghost
        target: str | None = plan.line.target
    else:
        ghost = None
        end = (
            start[0] + 0.4 * math.cos(math.radians(shot.phi)),
            start[1] + 0.4 * math.sin(math.radians(shot.phi)),
        )
        target = next(
            (
                e.balls[1] if e.balls[0] == shot.ball else e.balls[0]
                for e in res.events
                if e.type == "ball_ball" and shot.ball in e.balls
            ),
            None,
        )
    return {
        "struck": shot.ball,
        "start": (float(start[0]), float(start[1])),
        "aim": ((float(start[0]), float(start[1])), (float(end[0]), float(end[1]))),
        "ghost": None if ghost is None else (float(ghost[0]), float(ghost[1])),
        "object": target,
        "paths": paths,
    }


class SuggestError(PiramidaError):
    """No suggestion for a position: it has no balls, or no playable shot."""


def suggestions_for(position: Any, ranker: Any, top: int = 3, variant: str | None = None) -> Suggestions:
    """The ``top`` suggestions of ``ranker`` (``ranking_agent``) for
    ``position`` (``advise``), after the checks ``piramida suggest`` and
    the web API share: the variant (when given) matches, there are balls,
    a shot was found. Each refusal is a one-line ``PiramidaError``."""
    from piramida.env.position import VARIANTS

    if variant is not None and variant not in VARIANTS:
        raise SuggestError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
    if variant is not None and position.variant != variant:
        raise SuggestError(
            f"--variant {variant} but the position is a {position.variant} position "
            f"(position: {position.to_text()})"
        )
    if not position.balls:
        raise SuggestError(f"the position has no balls on the table (position: {position.to_text()})")
    found = advise(position, ranker, top)
    if not found.plans:
        raise SuggestError(f"no playable shot found (position: {position.to_text()})")
    return found


def plans_for(position: Any, ranker: Any, top: int = 3, variant: str | None = None) -> list[Any]:
    """The plans of ``suggestions_for``, best first."""
    return list(suggestions_for(position, ranker, top, variant).plans)
