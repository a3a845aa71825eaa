"""Suggestions: the best shots an agent finds in a position
(docs/design.md §6), for ``piramida suggest`` and the web page.

``ranking_agent`` builds the agent that ranks shots (a spec of an agent in
``specs.RANKING``); ``plans_for`` checks a position and returns that
agent's top plans (agents.plans.Plan); ``plan_geometry`` is what a
drawing of a plan shows, in table coordinates.
"""

from __future__ import annotations

from typing import Any

from piramida.env.errors import PiramidaError


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
    (``ranking_agent``) for the player to move in ``position``."""
    from piramida.agents.planner import warm_up
    from piramida.env.view import GameView

    ranker = ranking_agent(agent, budget_s, noise, seed, n_sims)
    view = GameView.for_position(position)
    # Loading the compiled physics is not thinking time.
    warm_up(view)
    return ranker.plan(view, top=top)


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


def plans_for(position: Any, ranker: Any, top: int = 3, variant: str | None = None) -> list[Any]:
    """The ``top`` plans of ``ranker`` (``ranking_agent``) for ``position``,
    after the checks ``piramida suggest`` and the web API share: the variant
    (when given) matches, there are balls, a shot was found. Each refusal is
    a one-line ``PiramidaError``."""
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
    plans = suggest(position, top=top, agent=ranker)
    if not plans:
        raise SuggestError(f"no playable shot found (position: {position.to_text()})")
    return plans
