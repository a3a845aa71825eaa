"""The greedy agent: the easiest pot that really pots (docs/design.md §6).

A small policy over the shot toolbox (``agents.shots``): its lazy search
(``shots.GREEDY``) refines the easiest open pot lines, easiest first,
until two sure pots turn up - each throw-corrected, centred in the range of
directions that pot and scored by ``shots.aim.pot_line`` (the referee's
value times the pot-probability estimate, what a miss costs, the next
pot's ease) - and greedy plays the best score. Nothing pots: a safety among
full and half-ball hits on the nearest balls, legal under item 20
(docs/game_rules.md §4.3) and leaving the opponent the hardest pot. The
break, the lag and the choices after fouls come from ``shots.strokes`` and
``shots.choices``.

Deterministic: no randomness; the same view gives the same answer.
"""

from __future__ import annotations

from dataclasses import replace

from piramida.agents.base import Action, GameView
from piramida.agents.shots.candidates import GREEDY, Candidate, generate
from piramida.agents.shots.choices import choose
from piramida.agents.shots.context import Context
from piramida.agents.shots.probability import PotModel
from piramida.agents.shots.strokes import break_shot, fallback, final, lag_shot, opponent_difficulty
from piramida.env.errors import PiramidaError
from piramida.env.shot import Shot

#: Lines tried per shot, easiest first (twice as many while nothing likely pots).
MAX_LINES = GREEDY.max_lines


class GreedyAgent:
    """Pots the easiest ball that the noise-free physics says goes in."""

    name = "greedy"

    def __init__(self, seed: int | None = None, max_lines: int = MAX_LINES, noise: str | None = "pro") -> None:
        self.seed = seed
        self.max_lines = max_lines
        self.search = replace(GREEDY, max_lines=max_lines)
        #: The skill it plays for: its noise preset's pot-probability model
        #: (agents/shots/probability.py), which scores its pots.
        self.noise = noise
        self.model = PotModel.of(None if noise in (None, "none") else noise)
        #: The candidate it chose last (a pot or a safety), or None.
        self.last_candidate: Candidate | None = None
        #: What the last shot meant to do: ("pot", ball, pocket), ("safety",)
        #: or ("break",); the match runner counts pot rates from it.
        self.last_intent: tuple[str, ...] = ()

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = seed

    def act(self, view: GameView) -> Action:
        ctx = Context(view, model=self.model)
        self.last_candidate = None
        if view.kind == "choice":
            return choose(ctx)
        if view.kind == "shot" and ctx.state.over:
            ctx.no_shot()
        if view.kind == "lag":
            self.last_intent = ("lag",)
            return lag_shot(view)
        if view.is_break and view.variant != "five_ball":
            self.last_intent = ("break",)
            return final(ctx, break_shot(ctx))
        return final(ctx, self.pick(ctx, generate(ctx, self.search)))

    def pick(self, ctx: Context, cands: list[Candidate]) -> Shot:
        """The best-scored pot; else the safety that leaves the opponent
        the hardest pot (one that pots something after all first)."""
        pots = [c for c in cands if c.kind == "pot" and c.score is not None and c.line is not None]
        if pots:
            best = max(pots, key=lambda c: c.score if c.score is not None else -1e9)
            assert best.line is not None
            self.last_intent = ("pot", best.line.target, best.line.pocket)
            self.last_candidate = best
            return best.shot
        self.last_intent = ("safety",)
        safeties = {id(c.trial): c for c in cands if c.kind == "safety" and c.trial is not None}
        trials = [c.trial for c in cands if c.kind == "safety" and c.trial is not None]
        if not trials:
            shot = fallback(ctx)
            if ctx.judged(shot) is None:
                raise PiramidaError(f"greedy: no playable shot (position: {ctx.pos.to_text()})")
            return shot
        trials.sort(key=lambda tr: -tr.value)
        if trials[0].value > 0.5:
            best_tr = trials[0]  # the safety potted something after all
        else:
            top = [tr for tr in trials if tr.value >= trials[0].value - 1e-9][:6]
            best_tr = max(top, key=lambda tr: opponent_difficulty(ctx, tr.ruling))
        self.last_candidate = safeties[id(best_tr)]
        return best_tr.shot


__all__ = ["MAX_LINES", "GreedyAgent"]
