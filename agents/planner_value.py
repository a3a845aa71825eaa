"""How the planner values a sample: the race model of the games won by a
number of balls, and the turn value of the others.

In the games scored by balls (free, combined, Moscow, Nevskaya and dynamic
pyramid: the first to ``target`` balls wins) a frame is a race of runs at
the table. Valuing the position a shot leaves as one pot (``1.5 p - 0.5``
balls, as if the turn ended after it) would undervalue position play by a
factor of about four - a pot that leaves an easy next pot starts a run, and
a run decides the frame - and ignore the score (an easy leave for the
opponent who needs one ball is a lost frame; the same leave at 0-0 is not).

Here the value of a sample is the frame-winning chance of a simple race
model: each visit's first shot pots with the leave's chance ``p`` (the
geometry of the table as it is, ``PotModel.chance`` of its easiest open
pot), every later shot with a typical chance ``q`` (``PotModel.typical``,
measured per variant for the skill), the turn passes on a miss, and the
first to ``target`` wins. ``race_table`` solves the model exactly for every score; lookups are
O(1). Fouls, penalty balls and свояк need no part in the model: they are
already in the score the referee's ruling leaves.

In the points games (classic71, five_ball), and in the others with
``value="turn"``, a sample is worth the net points plus a turn value
``T(p) = unit * (1.5 p - 0.5)`` for the table left: the ball the next
shooter pots with chance p, less what the other player makes of a miss
(taken as even), positive when it is us, with the same ``PotModel.chance``.
``Valuation`` holds both, for one skill (the pot-probability model of the
agent's noise preset, agents/shots/probability.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from piramida.agents.shots.context import Context
from piramida.agents.shots.probability import PotModel, easiest_difficulty
from piramida.agents.value_obs import encode, is_points_game, target_of
from piramida.env.errors import PiramidaError
from piramida.env.position import Position


def race_tables(target: int, q: float, q_other: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The race solved for two players of pot chances ``q`` (player A) and
    ``q_other`` (player B, ``q`` when None).

    ``A[a, b]``: the chance that A, at the table, wins when he needs ``a``
    balls and B needs ``b``; ``B[b, a]``: the same for B at the table. A
    decided frame: ``X[0, b] = 1``, ``X[a, 0] = 0``.

    ``A[a, b] = qA A[a-1, b] + (1 - qA)(1 - B[b, a])`` (a pot keeps the turn,
    a miss hands it over) and the mirror equation for ``B[b, a]``: a 2x2
    linear system whose other terms have one ball fewer, so the tables fill
    by ``a + b``.
    """
    n = int(target)
    if n < 1:
        raise ValueError(f"race_table: target must be at least 1, got {target}")
    qb = q if q_other is None else q_other
    for name, v in (("q", q), ("q_other", qb)):
        if not 0.0 < v < 1.0:
            raise ValueError(f"race_table: {name} must lie in (0, 1), got {v}")
    A = np.full((n + 1, n + 1), np.nan)
    A[0, 1:] = 1.0
    A[1:, 0] = 0.0
    B = A.copy()
    ra, rb = 1.0 - q, 1.0 - qb
    for s in range(2, 2 * n + 1):
        for a in range(max(1, s - n), min(n, s - 1) + 1):
            b = s - a
            x = q * A[a - 1, b] + ra  # A[a, b] = x - ra B[b, a]
            y = qb * B[b - 1, a] + rb  # B[b, a] = y - rb A[a, b]
            A[a, b] = (x - ra * y) / (1.0 - ra * rb)
            B[b, a] = y - rb * A[a, b]
    return A, B


def race_table(target: int, q: float) -> np.ndarray:
    """``G[a, b]``: the chance that the player at the table wins when he
    needs ``a`` balls and the other ``b``, every shot of both potting with
    chance ``q`` (``race_tables`` with equal players)."""
    return race_tables(target, q)[0]


class RaceModel:
    """Frame-winning chances for one variant's target, the planner's own
    later-shot chance ``q`` and the opponent's ``q_other`` (``q`` if None)."""

    def __init__(self, target: int, q: float, q_other: float | None = None) -> None:
        self.target = int(target)
        self.q = float(q)
        self.q_other = self.q if q_other is None else float(q_other)
        self.A, self.B = race_tables(self.target, self.q, self.q_other)
        #: The symmetric name kept for a model of equal players.
        self.G = self.A

    def need(self, score: int) -> int:
        return max(0, min(self.target, self.target - int(score)))

    def at_table(self, mine: int, theirs: int, p: float, me: bool = True) -> float:
        """The chance that the player about to shoot wins, with scores
        ``mine``/``theirs`` (his and the other's) and chance ``p`` of potting
        the shot he faces; ``me``: he is the planner (else the opponent)."""
        a, b = self.need(mine), self.need(theirs)
        if a == 0:
            return 1.0
        if b == 0:
            return 0.0
        X, Y = (self.A, self.B) if me else (self.B, self.A)
        return float(p * X[a - 1, b] + (1.0 - p) * (1.0 - Y[b, a]))


#: Turn value for a cue ball in hand (a pot is nearly always on).
P_IN_HAND = 0.75
#: A frame won or lost, in units of a ball.
WIN_UNITS = 25.0
#: Ways to score a sample (see ``Valuation``).
VALUES = ("auto", "race", "turn")
#: The variants "auto" scores by the race value: free pyramid, a potting
#: race. Measured in combined (docs/agents.md): the turn value won 36 of 40
#: against greedy where the race value, with q 0.7, was at 44 of 87 (and 7
#: of 10 with q 0.37); the one-cue-ball pyramids are safety battles.
RACE_AUTO = ("free",)
#: Points a pot is worth in the five-ball game (docs/game_rules.md §5.7: 4-23).
FIVE_BALL_UNIT = 8.0


def is_value_file(value: Any) -> bool:
    """Whether a planner's ``value`` names a value file (``*.pt``,
    agents/value_net.py) rather than one of ``VALUES``."""
    return isinstance(value, str) and value.endswith(".pt")


class Valuation:
    """A sample's value for a player of the skill ``model`` describes:
    ``mode`` "race" (the chance of winning the frame, in the games won by a
    number of balls), "turn" (net points plus the turn value of the table
    left) or "auto" (race in ``RACE_AUTO``); ``q``, ``q_other``: the race
    model's later-shot pot chances of the planner and the opponent (None:
    ``model.typical`` of the variant)."""

    def __init__(
        self, mode: str, model: PotModel, q: float | None = None, q_other: float | None = None
    ) -> None:
        if mode not in VALUES:
            raise PiramidaError(
                f"planner: value must be one of {', '.join(VALUES)} or a value file (.pt), got {mode!r}"
            )
        self.mode = mode
        self.model = model
        self.q = q
        self.q_other = q_other
        self._races: dict[tuple[int, str], RaceModel] = {}

    def ruling_value(self, ctx: Context, ruling: Any, immediate: float | None = None) -> float:
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

    def values(self, ctx: Context, rulings: Sequence[Any]) -> list[float]:
        """``ruling_value`` of each ruling of a round of samples (``worst``
        for None: a stroke the physics or the referee refused). The
        network's valuation scores them all in one call."""
        return [self.worst(ctx) if r is None else self.ruling_value(ctx, r) for r in rulings]

    def worst(self, ctx: Context) -> float:
        """The value of a stroke the physics or the referee refuses."""
        return 0.0 if self.race(ctx) is not None else -WIN_UNITS * self.unit(ctx.pos, ctx)

    def win_chance(self, ctx: Context) -> bool:
        """Whether the values in ``ctx`` are frame-winning chances (else
        points plus turn values)."""
        return self.race(ctx) is not None

    def unit(self, pos: Position, ctx: Context) -> float:
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

    def immediate(self, ctx: Context, ruling: Any) -> tuple[float, bool]:
        """Net points on the shot for the shooter (penalty balls and свояк
        included, the frame's end not), and whether he scored."""
        me, op = ctx.me, 1 - ctx.me
        before = ctx.pos.score
        gain = float((ruling.score[me] - before[me]) - (ruling.score[op] - before[op]))
        owed = balls_owed(ruling)
        gain += self.unit(ctx.pos, ctx) * (owed[me] - owed[op])
        # A свояк in the one-cue-ball pyramids scores through the ball taken
        # from the table after the shot (docs/game_rules.md §5.2), not the shelf.
        potted = bool(ruling.legal and (ruling.scored.get(me) or owed[me] > 0))
        return gain, potted

    def race(self, ctx: Context) -> RaceModel | None:
        """The race model of the frame, where the value is "race" (or "auto"
        and the variant is in ``RACE_AUTO``), else None."""
        if self.mode == "turn":
            return None
        opts = ctx.referee.options
        target = opts.get("target")
        v = ctx.view.variant
        by_balls = v not in ("classic71", "five_ball") and opts.get("scoring", "balls") == "balls"
        if self.mode == "auto" and v not in RACE_AUTO:
            return None
        if not (by_balls and isinstance(target, int) and target >= 1):
            if self.mode == "race":
                raise PiramidaError(
                    f"planner: value 'race' needs a variant won by a number of balls, not {v}"
                )
            return None
        key = (target, v)
        model = self._races.get(key)
        if model is None:
            q = self.q if self.q is not None else self.model.typical(v)
            q_other = self.q_other if self.q_other is not None else q
            model = self._races[key] = RaceModel(target, q, q_other)
        return model

    def next_chance(self, ctx: Context, pos: Position, in_hand: Any) -> float:
        """The chance that whoever shoots next from ``pos`` pots:
        ``model.chance`` of the easiest open pot (``shots.probability``), or
        ``P_IN_HAND`` with ball in hand."""
        if in_hand:
            return P_IN_HAND
        ids = pos.ids
        cues = cues_on_table(ctx, pos)
        targets = [b for b in ids if b != "0"] if ctx.view.variant == "classic71" else list(ids)
        return self.model.chance(easiest_difficulty(pos, cues, targets))

    def race_value(self, ctx: Context, race: RaceModel, ruling: Any) -> float:
        """The shooter's chance of winning the frame after this ruling."""
        me = ctx.me
        if ruling.winner is not None:
            return 1.0 if ruling.winner == me else 0.0
        if getattr(ruling.state, "over", False):
            return 0.5
        owed = balls_owed(ruling)
        score = [int(ruling.score[0]) + owed[0], int(ruling.score[1]) + owed[1]]
        nxt = ruling.next
        if nxt.player is None or nxt.kind not in ("shot", "choice"):
            return 0.5
        who, hand, choose = next_shooter(ruling)
        p = self.next_chance(ctx, ruling.position, hand)
        w = race.at_table(score[who], score[1 - who], p, me=who == me)
        if choose:
            # The chooser shoots or hands the table to the offender,
            # whichever is better for him (docs/game_rules.md §4.8).
            w = max(w, 1.0 - race.at_table(score[1 - who], score[who], p, me=who != me))
        return w if who == me else 1.0 - w

    def turn_value(self, ctx: Context, pos: Position, in_hand: Any) -> float:
        """What shooting next from ``pos`` is worth to that shooter."""
        unit = self.unit(pos, ctx)
        p = self.next_chance(ctx, pos, in_hand)
        return unit * (1.5 * p - 0.5)

    def leave(self, ctx: Context, ruling: Any) -> float:
        """The turn value of the table the ruling leaves, for the shooter."""
        if ruling.winner is not None or getattr(ruling.state, "over", False):
            return 0.0
        nxt = ruling.next
        if nxt.kind not in ("shot", "choice") or nxt.player is None:
            return 0.0
        who, hand, choose = next_shooter(ruling)
        t = self.turn_value(ctx, ruling.position.replace(to_move=who), hand)
        if choose:
            # The chooser shoots or hands the table over, whichever is better
            # for him (docs/game_rules.md §4.8).
            t = abs(t)
        return t if who == ctx.me else -t

    def shoot_or_hand_over(self, ctx: Context, hand: Any) -> bool:
        """After the opponent's foul: is shooting better than making him
        shoot again?"""
        race = self.race(ctx)
        if race is not None:
            p = self.next_chance(ctx, ctx.pos, hand)
            mine, theirs = ctx.pos.score[ctx.me], ctx.pos.score[1 - ctx.me]
            shoot = race.at_table(mine, theirs, p)
            return shoot >= 1.0 - race.at_table(theirs, mine, p, me=False)
        return self.turn_value(ctx, ctx.pos.replace(to_move=ctx.me), hand) > 0


def prior_features(
    prior: Valuation, ctx: Context, pos: Position, who: int, hand: Any, extra: Sequence[int] = (0, 0)
) -> tuple[float, float]:
    """The hand-made prior the value network reads (agents/value_obs.py):
    the chance that ``who``, to shoot from ``pos``, pots his easiest open
    ball, and the race model's chance that he wins the frame (0.5 in the
    points games). ``prior``: a "race" ``Valuation``."""
    p = prior.next_chance(ctx, pos, hand)
    if is_points_game(ctx.view.variant, ctx.referee.options):
        return p, 0.5
    race = prior.race(ctx)
    if race is None:
        return p, 0.5
    mine, theirs = pos.score[who] + int(extra[who]), pos.score[1 - who] + int(extra[1 - who])
    return p, race.at_table(mine, theirs, p, me=who == ctx.me)


def view_prior(view: Any, pot_model: PotModel) -> tuple[float, float]:
    """``prior_features`` of a shot decision, for its shooter."""
    ctx = Context(view, None, pot_model)
    return prior_features(Valuation("race", pot_model), ctx, view.position, view.player, view.in_hand)


class NetValuation(Valuation):
    """A sample's value by a learned value network (docs/training.md, "The learned value"): the
    shooter's chance of winning the frame from the table the ruling
    leaves, as ``model`` (an ``agents.value_net.ValueModel``, or anything
    with ``win(balls, globals)``) scores it for whoever shoots next. Every
    sample is still judged by the referee: a frame won or lost is 1 or 0,
    and the score, penalty balls and the next shooter are the ruling's.
    The samples of a halving round are scored in one inference call
    (``values``). The points and pot counts of ``Plan`` come from the
    hand-made valuation it extends (``pot_model``)."""

    def __init__(self, model: Any, pot_model: PotModel) -> None:
        super().__init__("auto", pot_model)
        self.net = model
        #: The race model and next-pot curve whose numbers the network
        #: reads as its prior (``prior_features``).
        self.prior = Valuation("race", pot_model)

    def win_chance(self, ctx: Context) -> bool:
        return True

    def worst(self, ctx: Context) -> float:
        return 0.0

    def _encode(self, ctx: Context, pos: Position, who: int, hand: Any, extra: Sequence[int]) -> tuple[Any, Any]:
        cues = cues_on_table(ctx, pos if pos.to_move == who else pos.replace(to_move=who))
        prior = prior_features(self.prior, ctx, pos, who, hand, extra)
        return encode(pos, who, cues, target_of(ctx.referee), hand, extra, ctx.view.options, prior)

    def values(self, ctx: Context, rulings: Sequence[Any]) -> list[float]:
        out: list[float] = []
        # Tables to score: (index in out, row of the batch, who shoots,
        # the row of the other shooter when the next player chooses).
        asks: list[tuple[int, int, int, int | None]] = []
        balls: list[Any] = []
        globs: list[Any] = []

        def row(pos: Position, who: int, hand: Any, extra: Sequence[int]) -> int:
            b, g = self._encode(ctx, pos, who, hand, extra)
            balls.append(b)
            globs.append(g)
            return len(balls) - 1

        for r in rulings:
            if r is None:
                out.append(0.0)
                continue
            if r.winner is not None:
                out.append(1.0 if r.winner == ctx.me else 0.0)
                continue
            nxt = r.next
            if getattr(r.state, "over", False) or nxt.player is None or nxt.kind not in ("shot", "choice"):
                out.append(0.5)
                continue
            who, hand, choose = next_shooter(r)
            owed = balls_owed(r)
            i = row(r.position, who, hand, owed)
            j = row(r.position, 1 - who, hand, owed) if choose else None
            asks.append((len(out), i, who, j))
            out.append(0.5)  # filled in below
        if asks:
            win = self.net.win(np.stack(balls), np.stack(globs))
            for k, i, who, j in asks:
                w = float(win[i])
                if j is not None:
                    # The chooser shoots or hands the table to the offender,
                    # whichever is better for him (docs/game_rules.md §4.8).
                    w = max(w, 1.0 - float(win[j]))
                out[k] = w if who == ctx.me else 1.0 - w
        return out

    def ruling_value(self, ctx: Context, ruling: Any, immediate: float | None = None) -> float:
        return self.values(ctx, [ruling])[0]

    def shoot_or_hand_over(self, ctx: Context, hand: Any) -> bool:
        me = ctx.me
        b0, g0 = self._encode(ctx, ctx.pos, me, hand, (0, 0))
        b1, g1 = self._encode(ctx, ctx.pos, 1 - me, hand, (0, 0))
        win = self.net.win(np.stack([b0, b1]), np.stack([g0, g1]))
        return float(win[0]) >= 1.0 - float(win[1])


def cues_on_table(ctx: Context, pos: Position) -> list[str]:
    """The balls the player to move in ``pos`` may strike that are on the
    table (none where the referee refuses the position)."""
    try:
        # Free pyramid allows every ball, and this runs for every sample:
        # a set, not a scan of the table per ball.
        on = set(pos.ids)
        return [c for c in ctx.referee.allowed_cue_balls(pos) if c in on]
    except PiramidaError:
        return []


def balls_owed(ruling: Any) -> tuple[int, int]:
    """Balls each player is certain to get from the ruling's pending
    choices, not yet in its score (``Pending.balls_owed``)."""
    pend = getattr(ruling.state, "pending", None)
    return pend.balls_owed() if pend is not None else (0, 0)


def next_shooter(ruling: Any) -> tuple[int, Any, bool]:
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


__all__ = [
    "FIVE_BALL_UNIT",
    "NetValuation",
    "P_IN_HAND",
    "RACE_AUTO",
    "VALUES",
    "WIN_UNITS",
    "RaceModel",
    "Valuation",
    "balls_owed",
    "cues_on_table",
    "is_value_file",
    "prior_features",
    "view_prior",
    "next_shooter",
    "race_table",
    "race_tables",
]
