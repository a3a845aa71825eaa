"""``piramida suggest``: the best shots in a position (docs/design.md §6).

    piramida suggest pos.json --budget 1s --top 3 --png shot.png
    piramida suggest --variant free --position pos.json --sims 1000

The agent named by ``--agent`` (a spec, ``NAME`` or ``NAME:key=value:...``;
default ``planner``; ``specs.RANKING`` lists the agents that rank shots)
searches within the budget at the given skill (noise preset) and prints the
top shots, best first by the value it shows; ``--budget``, ``--sims`` and
``--noise`` are shorthands for the planner's keys, which the spec's own
override (``--agent planner:sims=1000:noise=amateur``). The planner's shown
shots are then measured alike until the budget is spent
(agents/suggestions.py): the same number of samples each, the rates with
their 95% intervals. The first line says what the value is, the second
what the search spent and why it stopped; each shot is its text form
(rounded: ``--json`` keeps the exact stroke), its value, pot and foul
rates, expected points and a one-line description. ``--json`` prints
``Suggestions.to_dict``: ``{"value_meaning", "shots": [{"shot", "rounded",
"value", "value_text", "samples", "p_pot", "p_pot_interval", "p_foul",
"p_foul_interval", "expected_points", "description"}, ...], "search":
{"budget_s", "sims", "time_s", "candidates", "strokes", "stopped"}}``.
``--agent policy:path=FILE`` ranks by a trained policy's probabilities
instead (``PolicyAgent.plan``): no samples, so each shot adds ``"basis":
"policy"`` and ``"policy_probability"`` (its value), ``p_pot`` is the
candidate's estimate and ``p_foul`` / ``expected_points`` those of its
noise-free stroke, the intervals are null; the first line says so.
``--png`` draws the position, the aim line, the ghost ball, the
noise-free paths of the balls the shot moves, and the odds.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any

import typer

from piramida.agents.suggestions import (
    Suggestions,
    plan_geometry,
    ranking_agent,
    suggest,
    suggestions_for,
)
from piramida.commands.common import (
    MAX_SIMS,
    SEED_MAX,
    check_out_file,
    fail,
    friendly_errors,
    load_position,
    out_path,
    print_json,
)


def parse_budget(text: str) -> float:
    """'2s', '500ms', '2' (seconds) -> seconds; a one-line error otherwise."""
    from piramida.agents.specs import parse_duration

    return parse_duration(text, "--budget")


def overlays_for(position: Any, plan: Any) -> list[Any]:
    """Aim line, ghost ball, noise-free ball paths and the odds of a plan."""
    from piramida.env.render import Overlay

    geo = plan_geometry(position, plan)
    out: list[Any] = []
    for b, pts in geo["paths"].items():
        colour = "#ffd84a" if b == geo["struck"] else "#9ad0ff"
        out.append(Overlay.path(pts, colour=colour))
    if geo["ghost"] is not None:
        out.append(Overlay.ghost(geo["ghost"]))
    out.append(Overlay.aim(*geo["aim"]))
    t = position.table
    if plan.basis == "policy":
        odds = (f"policy {plan.value:.0%}  pot est. {plan.p_pot:.0%}  noise-free: "
                f"{'foul' if plan.p_foul else 'legal'}, {plan.expected_points:+.2f}")
    else:
        odds = (f"pot {plan.p_pot:.0%}  foul {plan.p_foul:.0%}  E[points] {plan.expected_points:+.2f}"
                f"  ({plan.samples} samples)")
    out.append(Overlay.text((t.width / 2, t.length * 0.14), odds))
    return out


def draw_plan(position: Any, plan: Any, path: Path, title: str | None = None) -> None:
    from piramida.env.render import draw_position

    shown = position
    place = plan.shot.place
    if place is not None:
        # Draw the ball in hand where the shot puts it.
        shown = position.replace(
            balls=position.balls + ((plan.shot.ball, place[0], place[1]),), in_hand=None
        )
    draw_position(shown, overlays_for(position, plan), path=path, title=title)


def percent_interval(interval: list[float] | None) -> str:
    """A rate's 95% interval (``Suggestions.interval``) in whole percent,
    widened outwards: ``[85, 98]`` (the page prints it alike)."""
    if interval is None:
        return ""
    lo, hi = interval
    return f" [{math.floor(100 * lo + 1e-9)}, {math.ceil(100 * hi - 1e-9)}]"


def odds_text(found: Suggestions, p: Any) -> str:
    """A plan's numbers in words: its value, then the planner's sampled
    rates with their intervals, or a policy's probability and its
    noise-free estimates (``Plan.basis``)."""
    if p.basis == "policy":
        return (f"policy {p.value:.0%}; pot estimate {p.p_pot:.0%}, noise-free stroke "
                f"{'fouls' if p.p_foul else 'legal'}, points {p.expected_points:+.2f}")
    value = f"value {found.value_text(p)}"
    points = f"expected points {p.expected_points:+.2f}"
    if not found.noisy:
        return f"{value}: pot {p.p_pot:.0%}, foul {p.p_foul:.0%}, {points} (one noise-free stroke)"
    pot, foul = percent_interval(found.interval(p, p.p_pot)), percent_interval(found.interval(p, p.p_foul))
    return f"{value}: pot {p.p_pot:.0%}{pot} of {p.samples}, foul {p.p_foul:.0%}{foul}, {points}"


def search_text(found: Suggestions) -> str:
    """One line: what the search spent and why it stopped."""
    if found.basis == "policy":
        return f"{found.time_s:.2f} s: {found.stopped} (one forward pass)"
    return (f"{found.candidates} candidates, {found.strokes} simulated strokes, {found.time_s:.2f} s: "
            f"{found.stopped}")


def format_suggestions(found: Suggestions) -> str:
    lines = [f"value: {found.meaning}", search_text(found)]
    for i, p in enumerate(found.plans, 1):
        lines.append(f"{i}. {p.shot.to_text(rounded=True)}\n   {odds_text(found, p)}\n   {p.description}")
    return "\n".join(lines)


#: Shots played (greedy against greedy, ``pro`` noise) to reach the demo's
#: mid-game positions, and the simulation budget of each suggestion.
DEMO_SHOTS = 4
DEMO_SIMS = 600


def sample_midgame(variant: str, seed: int = 0) -> Any:
    """A mid-game position of ``variant``: greedy plays both sides of the
    frame driver's frame of ``seed`` under ``pro`` noise for a few shots;
    the first shot decision after that."""
    from piramida.agents.greedy import GreedyAgent
    from piramida.env.driver import FrameDriver

    driver = FrameDriver(variant, "pro")
    game = driver.reset(seed)
    agent = GreedyAgent()
    driver.play(
        [agent, agent],
        max_actions=40,
        until=lambda view: view.kind == "shot" and game.shots >= DEMO_SHOTS,
    )
    return game.state.position


def demo_suggestions(out_dir: Path, seed: int = 0) -> None:
    """For ``make run``: a suggestion for a mid-game position of each
    pyramid variant, printed and drawn to ``out_dir/suggest_VARIANT.png``."""
    from piramida.env.position import PYRAMID_VARIANTS

    typer.echo("\nplanner suggestions (pro noise, "
               f"{DEMO_SIMS} simulations each) for a mid-game position of each pyramid variant:")
    for k, variant in enumerate(PYRAMID_VARIANTS):
        # A different rack per variant: the single-cue-ball games would
        # otherwise reach the same table.
        pos = sample_midgame(variant, seed + k)
        if pos.is_break or not pos.balls:
            continue
        plans = suggest(pos, budget_s=None, top=1, seed=seed, n_sims=DEMO_SIMS)
        if not plans:
            typer.echo(f"{variant:<10} no shot found")
            continue
        best = plans[0]
        path = out_dir / f"suggest_{variant}.png"
        try:
            draw_plan(pos, best, path, title=f"{variant}: {best.description}"[:90])
        except OSError as exc:
            fail(f"cannot write {path}: {exc.strerror or exc}")
        typer.echo(f"{variant:<10} {pos.to_text()}")
        typer.echo(
            f"{'':<10} -> {best.shot.to_text(rounded=True)}\n{'':<10}    pot {best.p_pot:.0%}, foul "
            f"{best.p_foul:.0%}, expected points {best.expected_points:+.2f} ({best.samples} samples): "
            f"{best.description}"
        )
        typer.echo(f"{'':<10}    picture -> {path}")


def register(app: typer.Typer) -> None:
    @app.command("suggest")
    @friendly_errors
    def suggest_cmd(
        position: Annotated[
            str | None,
            typer.Argument(
                metavar="POSITION",
                help="A position: a file, or inline JSON or text form (or give it with --position).",
                show_default=False,
            ),
        ] = None,
        position_opt: Annotated[
            str | None,
            typer.Option("--position", help="The position, as POSITION takes it.", show_default=False),
        ] = None,
        variant: Annotated[
            str | None,
            typer.Option("--variant", help="Variant; must match the position's (default: its own)."),
        ] = None,
        agent: Annotated[
            str,
            typer.Option(
                "--agent",
                help="The agent that ranks the shots: NAME or NAME:key=value:..., e.g. "
                "planner:sims=1000:noise=amateur (its keys override --budget, --sims, --noise).",
            ),
        ] = "planner",
        budget: Annotated[
            str, typer.Option("--budget", help="Thinking time: 2s, 500ms or 2 (seconds).")
        ] = "1s",
        sims: Annotated[
            int | None,
            typer.Option(
                "--sims", min=1, max=MAX_SIMS, help="A simulation-count budget instead (reproducible anywhere)."
            ),
        ] = None,
        top: Annotated[int, typer.Option("--top", min=1, max=50, help="How many shots to list.")] = 3,
        noise: Annotated[
            str, typer.Option("--noise", help="Skill to plan for: none, pro, amateur, novice.")
        ] = "pro",
        seed: Annotated[
            int, typer.Option("--seed", min=0, max=SEED_MAX, help="Seed of the noise samples.")
        ] = 0,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
        png: Annotated[
            Path | None, typer.Option("--png", parser=out_path, help="Draw the best shot here (.png).")
        ] = None,
    ) -> None:
        """Suggest the best shots for the player to move in POSITION."""
        from piramida.env.physics import load_noise
        from piramida.env.position import VARIANTS

        if position is not None and position_opt is not None:
            fail("give the position once: as POSITION or with --position, not both")
        given = position if position is not None else position_opt
        if given is None:
            fail("no position given: piramida suggest POSITION (a file, or inline JSON or text form)")
        budget_s = parse_budget(budget)
        # The agent is checked (and built) before the position is read.
        if noise != "none":
            load_noise(noise)
        ranker = ranking_agent(agent, budget_s, noise, seed, sims)
        if variant is not None and variant not in VARIANTS:
            fail(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
        if png is not None:
            check_out_file(png, "--png", ".png")
        pos = load_position(given)
        found = suggestions_for(pos, ranker, top, variant)
        plans = found.plans
        if png is not None:
            try:
                draw_plan(pos, plans[0], png, title=plans[0].description[:90])
            except OSError as exc:
                fail(f"cannot write {png}: {exc.strerror or exc}")
        if as_json:
            print_json(found.to_dict())
        else:
            typer.echo(format_suggestions(found))
            if png is not None:
                typer.echo(f"picture -> {png}")
