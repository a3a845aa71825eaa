"""A ranked suggestion (``Plan``) and its one-line description
(``describe``): what the agents that rank the shots of a decision (the
planner, agents/planner.py; a policy, agents/policy.py) hand to
``piramida suggest`` and the web page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from piramida.agents.shots.candidates import Candidate
from piramida.agents.shots.context import Context
from piramida.agents.shots.ghost import PotLine, pot_lines
from piramida.env.errors import PiramidaError
from piramida.env.physics import ShotResult
from piramida.env.shot import Shot

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
    #: What the numbers are: "samples" (the planner's noisy samples, as
    #: above) or "policy" (a trained policy's ranking, agents/policy.py:
    #: ``value`` the network's probability of choosing the shot, ``p_pot``
    #: the candidate's pot-probability estimate, ``p_foul`` 0 or 1 and
    #: ``expected_points`` from its one noise-free stroke, ``samples`` 0).
    basis: str = "samples"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "shot": self.shot.to_text(),
            "p_pot": round(self.p_pot, 4),
            "p_foul": round(self.p_foul, 4),
            "expected_points": round(self.expected_points, 4),
            "description": self.description,
        }
        if self.basis != "samples":
            out["basis"] = self.basis
            out["policy_probability"] = round(self.value, 4)
        return out



def describe(ctx: Context, c: Candidate) -> str:
    """One line: what goes where, with what spin, and what it leaves."""
    try:
        res: ShotResult | None = ctx.simulate(c.shot)  # without noise, once for both texts
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


def _leave_text(ctx: Context, shot: Shot, res: ShotResult | None) -> str:
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
    for s in cues:
        lines = pot_lines(
            pos, s, [b for b in pos.ids if not (ctx.view.variant == "classic71" and b == "0")]
        )
        if lines and (best is None or lines[0].difficulty < best.difficulty):
            best = lines[0]
    if best is None:
        return f"leaves {who}no open pot"
    return f"leaves {who}{best.target} on the {POCKET_NAMES.get(best.pocket, best.pocket)}"


__all__ = ["POCKET_NAMES", "Plan", "describe"]
