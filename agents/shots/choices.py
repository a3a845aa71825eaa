"""Decisions outside a shot (docs/design.md §4), by geometry.

- Penalty ball (``take_ball:``) and the ball removed after a свояк
  (``remove_ball:``): the one the next shooter would pot most easily; a
  shooter who picks for himself takes the hardest.
- Shoot or make the offender shoot (and accept and shoot, after an illegal
  break): shoot when a pot easier than ``EASY`` is on, or the cue ball is
  in hand.
- Lag winner: makes the opponent break. Anything else: the first choice
  offered (Nevskaya: the penalty ball).
"""

from __future__ import annotations

from collections.abc import Sequence

from piramida.agents.shots.context import Context
from piramida.agents.shots.ghost import pot_lines
from piramida.agents.shots.probability import easiest_difficulty
from piramida.env.position import Position, cue_ball_of, object_ball_ids

#: A pot easier than this is "on" (difficulty of a ~1 m straight pot ~ 300).
EASY = 600.0


def choose(ctx: Context) -> str:
    """One of ``ctx.view.choices``; see the module docstring."""
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


def has_pot(ctx: Context) -> bool:
    """Is a pot easier than ``EASY`` on for the shooter (or the cue ball in hand)?"""
    pos = ctx.pos
    if ctx.view.variant in ("free",):
        struck: list[str] = list(pos.ids)
    else:
        cue = cue_ball_of(ctx.view.variant, ctx.me)
        if cue not in pos:
            return True  # cue ball in hand: there is nearly always a pot
        struck = [cue]
    objs = set(object_ball_ids(ctx.view.variant)) | set(pos.ids)
    d = easiest_difficulty(pos, [s for s in struck if s in objs])
    return d is not None and d < EASY


__all__ = ["EASY", "choose", "has_pot", "rank_targets"]
