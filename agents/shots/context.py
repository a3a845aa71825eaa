"""One decision: the view, its referee and state, noise-free trials and the
budget that counts them, and the pot-probability model of the skill the
decision is made for.

Every shot-finder of the toolbox takes a ``Context``. ``trial(shot)``
simulates a stroke without noise and has the variant's own referee judge
it (``Trial``: the shot, what happened, the ruling and its value for the
shooter), so fouls, calls, caroms and свояк count as the rules say. With a
``Budget`` every trial is counted, so that a planner's candidate generation
and its noisy evaluation spend one budget.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, NoReturn

from piramida.agents.base import GameView, NoLegalShotError, why_no_shot
from piramida.agents.shots.ghost import PotLine
from piramida.agents.shots.probability import PotModel
from piramida.agents.shots.referee_cache import CachingReferee, caching
from piramida.env.errors import PiramidaError
from piramida.env.physics import ShotResult, Simulator
from piramida.env.position import Position, cue_ball_of
from piramida.env.rules import get_referee
from piramida.env.rules.base import Outcome
from piramida.env.shot import Shot

#: Variants where every shot names a ball and a pocket (docs/game_rules.md §5.6, §5.7).
CALLED = ("classic71", "five_ball")


class Trial:
    """A simulated candidate: the shot, what happened, whether the referee
    passes it (``legal``), its value for the shooter (``Context.value``)
    and the referee's ruling.

    A search judges dozens of strokes a decision that end the same way (the
    same ball first, the same balls into the same pockets). Where the
    referee summarises a stroke's outcome (``CachingReferee.outcome_key``,
    agents/shots/referee_cache.py) and a stroke
    with that summary was already judged legal in this decision, its
    legality and value are that ruling's (the referee's contract), and the
    stroke's own ruling is made only when it is read."""

    __slots__ = ("shot", "result", "value", "legal", "key", "_ruling", "_judge", "_like")

    def __init__(
        self,
        shot: Shot,
        result: ShotResult,
        ruling: Any,
        value: float,
        legal: bool | None = None,
        judge: Callable[[], Any] | None = None,
        key: tuple[Any, ...] | None = None,
        like: Any = None,
    ) -> None:
        self.shot = shot
        self.result = result
        self.value = value
        self.legal = bool(ruling.legal) if legal is None else legal
        #: Its outcome key (``CachingReferee.outcome_key``; None: none), as judged.
        self.key = key
        self._ruling = ruling
        self._judge = judge
        self._like = like

    @property
    def outline(self) -> Any:
        """The ruling, or for a trial whose ruling is made from an earlier
        legal one of the same outcome key (``Context.known``), that one,
        without making this one's: the same but for where the balls rest
        (the referee's contract), so for the fouls, score, next decision
        and frame state either will do."""
        return self._ruling if self._ruling is not None else self._like

    @property
    def ruling(self) -> Any:
        if self._ruling is None:
            assert self._judge is not None
            self._ruling = self._judge()
        return self._ruling

    @property
    def rest(self) -> Position:
        """A position with the balls where they rest after the ruling (only
        its balls are meant): the ruling's position, or, while the ruling
        is not made, the stroke's final position, which by the referee's
        contract has the same balls unless balls come back to the table
        (five balls' reds and yellow: then the ruling is made)."""
        if self._ruling is None and (self._like is None or not self._like.respotted):
            return self.result.final
        return self.ruling.position

    def __repr__(self) -> str:
        return f"Trial(shot={self.shot!r}, value={self.value}, legal={self.legal})"


#: ``Context.shot``'s templates of strokes from where the ball lies, shared
#: by every decision; cleared when this many (more than a variant's balls,
#: calls and spins make).
TEMPLATES_KEPT = 4096
_TEMPLATES: dict[tuple[Any, ...], Shot] = {}


class Budget:
    """Wall time, a simulation count or a rollout count, whichever is given
    (a count wins). ``used`` counts every simulated stroke, the search's
    noise-free trials included; ``rolled`` only the noisy samples of the
    candidates, which is all that ``n_rollouts`` limits: finding the
    candidates is then never cut short."""

    def __init__(self, budget_s: float | None, n_sims: int | None, n_rollouts: int | None = None) -> None:
        self.t0 = time.perf_counter()
        self.budget_s = budget_s
        self.n_sims = n_sims
        self.n_rollouts = n_rollouts
        self.used = 0
        self.rolled = 0

    @property
    def counted(self) -> bool:
        """Whether a count of strokes, not the clock, limits it."""
        return self.n_sims is not None or self.n_rollouts is not None

    def spent(self, share: float = 1.0, reserve_s: float = 0.0) -> bool:
        """Whether ``share`` of the budget is used; with a wall-clock budget,
        ``reserve_s`` more seconds of work still to come count as used."""
        if self.n_rollouts is not None:
            return self.rolled >= self.n_rollouts * share
        if self.n_sims is not None:
            return self.used >= self.n_sims * share
        if self.budget_s is None:
            return False
        return time.perf_counter() - self.t0 + reserve_s >= self.budget_s * share


class Context:
    """One decision: the view, its referee and state, noise-free trials.

    ``budget`` (optional) counts every trial; ``model`` is the
    pot-probability model of the skill the decision is made for (the
    agent's noise preset; by default ``pro``'s); ``best_p`` is the likeliest
    direct pot found so far (``aim.pot_line``'s estimate), which decides
    whether banks and more safeties are looked for."""

    def __init__(
        self, view: GameView, budget: Budget | None = None, model: PotModel | None = None
    ) -> None:
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
        #: The referee's caching hooks (``referee_cache.CachingReferee``), or
        #: None: then no stroke has an outcome key and each is judged in full.
        self.cache: CachingReferee | None = caching(self.referee)
        self.me = view.player
        self.called = view.variant in CALLED
        self.budget = budget
        self.model = model if model is not None else PotModel.of("pro")
        self.best_p = 0.0
        #: Every stroke of the decision is played from ``pos``: packed once.
        self.simulate = Simulator(self.pos)
        #: The ruling and value of each outcome key (``CachingReferee.outcome_key``)
        #: judged legal so far.
        self.outcomes: dict[tuple[Any, ...], tuple[Any, float]] = {}
        #: The ruling, value and balls of each shape of a pot
        #: (``CachingReferee.shape``) judged legal so far (with no note).
        self.shapes: dict[tuple[Any, ...], tuple[Any, float, tuple[str, ...]]] = {}
        #: ``shot``'s checked strokes, one per ball, placement, call and spin.
        self.templates: dict[tuple[Any, ...], Shot] = {}
        #: Where a ball in hand may be placed (``lines.hand_placements``), per ball.
        self.placements: dict[str, list[tuple[float, float]]] = {}
        #: The balls each ball may be sent at first (``lines.targets_for``), per ball.
        self.targets: dict[str, list[str]] = {}

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

    def spent(self, share: float = 1.0) -> bool:
        """Whether ``share`` of the budget is used (never without one)."""
        return self.budget is not None and self.budget.spent(share)

    def trial(self, shot: Shot, when: Callable[[ShotResult], bool] | None = None) -> Trial | None:
        """Simulate (no noise) and judge ``shot``; None if it cannot be
        played, or, with ``when``, if the simulated result fails it (then it
        is not judged). Counted in the budget, if any."""
        res = self.simulated(shot)
        if res is None or (when is not None and not when(res)):
            return None
        return self.judge(shot, res)

    def simulated(self, shot: Shot) -> ShotResult | None:
        """The noise-free result of ``shot`` (counted in the budget, if
        any), or None if the physics refuses it."""
        if self.budget is not None:
            self.budget.used += 1
        try:
            return self.played(shot)
        except PiramidaError:
            return None

    def played(self, shot: Shot) -> ShotResult:
        """The noise-free result of ``shot``, uncounted. From the rack of a
        break (every frame's, its labels shuffled) the physics' remembered
        strokes (``Simulator.recalled``): the same floats, not played again."""
        return self.simulate.recalled(shot) if self.pos.is_break else self.simulate(shot)

    def judge(self, shot: Shot, res: ShotResult) -> Trial | None:
        """The referee's trial of a simulated ``shot``, or None if it
        refuses it. A stroke whose outcome key was judged legal before in
        this decision takes that ruling's value, and its own ruling is made
        from that one when read (``Trial``, ``CachingReferee.rested``)."""
        key = self.outcome_key(shot, res)
        if key is not None and key in self.outcomes:
            return self.known(shot, res, key)
        made, shaped = self._by_shape(key, res)
        if made is not None:
            return Trial(shot, res, made[0], made[1], key=key)
        try:
            ruling = self.ruling(shot, res)
        except PiramidaError:
            return None
        value = self.value(ruling)
        self._remember(key, shaped, ruling, value)
        return Trial(shot, res, ruling, value, key=key)

    def _by_shape(self, key: tuple[Any, ...] | None, res: ShotResult) -> tuple[Any, Any]:
        """(The ruling and value of a stroke whose outcome key ``key`` is
        new, made from a legal pot of the same shape judged before
        (``CachingReferee.shape``, ``CachingReferee.relabeled``), or None;
        the key's shape, or None)."""
        if key is None or self.cache is None:
            return None, None
        shaped = self.cache.shape(self.pos, key)
        if shaped is None or shaped[0] not in self.shapes:
            return None, shaped
        like, value, labels = self.shapes[shaped[0]]
        made = self.outcomes[key] = (self.cache.relabeled(like, labels, shaped[1], res.final), value)
        return made, shaped

    def _remember(self, key: tuple[Any, ...] | None, shaped: Any, ruling: Any, value: float) -> None:
        """Keep a legal ruling for its outcome key and, without a note (a
        note may name a ball), for its shape."""
        if key is not None and ruling.legal:
            self.outcomes[key] = (ruling, value)
            if shaped is not None and ruling.penalty is None:
                self.shapes[shaped[0]] = (ruling, value, shaped[1])

    def known(self, shot: Shot, res: ShotResult, key: tuple[Any, ...]) -> Trial:
        """The trial of a simulated ``shot`` whose outcome key is ``key``,
        a key judged legal before in this decision: that ruling's legality
        and value, and its own ruling made from that one when read."""
        ruling, value = self.outcomes[key]
        cache = self.cache
        assert cache is not None  # a key is only made with one
        return Trial(shot, res, None, value, True, lambda: cache.rested(ruling, res.final), key, ruling)

    def ruled(self, shot: Shot, res: ShotResult) -> Any:
        """The referee's ruling on a simulated ``shot`` (``PiramidaError``
        if it refuses it), made from a legal one of the same outcome key
        where this decision has one (``CachingReferee.rested``), or of the
        same shape (``CachingReferee.relabeled``): what a planner's noisy
        samples of one stroke need, most of which end alike."""
        key = self.outcome_key(shot, res)
        known = self.outcomes.get(key) if key is not None else None
        if known is not None:
            assert self.cache is not None  # a key is only made with one
            return self.cache.rested(known[0], res.final)
        made, shaped = self._by_shape(key, res)
        if made is not None:
            return made[0]
        ruling = self.ruling(shot, res)
        self._remember(key, shaped, ruling, self.value(ruling))
        return ruling

    def outcome_key(self, shot: Shot, res: ShotResult) -> tuple[Any, ...] | None:
        """The referee's outcome key of a simulated ``shot`` (or None, as
        for every stroke where the referee is not a ``CachingReferee``)."""
        if self.cache is None:
            return None
        contact = res.first_contact(shot.ball)
        ball = shot.ball

        def cue_end() -> tuple[float, float] | None:
            final = res.final
            return final.xy(ball) if ball in final else None

        outcome = Outcome(
            contact[0] if contact is not None else None,
            tuple(res.pocketed),
            tuple(res.off_table),
            lambda: res.rule_events,
            res.records,
            cue_end,
        )
        return self.cache.outcome_key(self.pos, shot, outcome)

    def ruling(self, shot: Shot, res: ShotResult) -> Any:
        """The referee's ruling on a simulated ``shot`` (``PiramidaError``
        if it refuses it)."""
        return self.referee.judge(self.pos, shot, res.rule_events, res.final, (), self.state)

    def judged(self, shot: Shot) -> Trial | None:
        """``trial`` without counting it (what describes a candidate, not
        what searches for one)."""
        try:
            res = self.played(shot)
        except PiramidaError:
            return None
        return self.judge(shot, res)

    def value(self, ruling: Any) -> float:
        """Points gained over the opponent, with the turn and the frame:
        +0.5 for keeping the turn, -1 for a foul, +-100 for the frame."""
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

    def shot(
        self, line: PotLine, phi: float, v: float, place: tuple[float, float] | None, **kw: Any
    ) -> Shot:
        """The stroke that plays ``line`` at cue direction ``phi`` and speed
        ``v`` (clamped to 0.3-9 m/s), calling it where shots are called."""
        call = (line.target, line.pocket) if self.called else None
        # A search makes dozens of strokes a decision that differ from one
        # another only in direction and pace: the rest is checked once, in
        # a template per ball, placement, call and spin, and each stroke is
        # that template aimed (``Shot.aimed`` checks what it changes).
        # Those of strokes from where the ball lies depend on nothing else,
        # so every decision shares them (a finite set: balls, calls, spins);
        # a placement's are the decision's own.
        key = (line.struck, place, call, tuple(kw.items()))
        store = _TEMPLATES if place is None else self.templates
        template = store.get(key)
        if template is None:
            if len(_TEMPLATES) >= TEMPLATES_KEPT:
                _TEMPLATES.clear()
            template = store[key] = Shot(ball=line.struck, phi=0.0, v=1.0, place=place, call=call, **kw)
        return template.aimed(phi % 360.0, min(max(v, 0.3), 9.0))


__all__ = ["CALLED", "Budget", "Context", "Trial"]
