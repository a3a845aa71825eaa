"""The ``Referee`` protocol, the variant registry, and what every variant
shares: shot checks, the common fouls of docs/game_rules.md §4.12, ball in hand, and
the choices after a foul (§4.8) or an illegal break (§4.2).

``BaseReferee.judge`` is a template method: the part every variant shares
(the state the shot is played in, the shot's facts from the event log and
the common fouls, the ``Ruling`` built at the end) is here; what a shot
earns under a variant's rules is its ``rule`` hook, which answers a
``Judgement``.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from piramida.env.errors import IllegalShotError, UnknownVariantError
from piramida.env.events import BALL_BALL, Event
from piramida.env.position import VARIANTS, Position, cue_ball_of, object_ball_ids
from piramida.env.rules import pyramid as P
from piramida.env.rules.completion import Start, completes_records
from piramida.env.rules.options import GameType, load_options
from piramida.env.rules.ruling import (
    AFTER_BREAK_FOUL_CHOICES,
    AFTER_FOUL_CHOICES,
    BALL_IN_HAND_ANYWHERE,
    BREAK,
    MAKE_OPPONENT_BREAK,
    REMOVE_BALL,
    TAKE_BALL,
    Next,
    Pending,
    Ruling,
    State,
    order_fouls,
)
from piramida.env.shot import Shot
from piramida.env.table import Table

XY = tuple[float, float]


@dataclass
class Judgement:
    """What a variant's rules make of a shot (``BaseReferee.rule``): the
    fouls (the common ones and the variant's own), the balls each player
    scored, the balls re-spotted and where, the notes of the penalty line,
    the score after the shot and the state the frame goes on in."""

    fouls: set[str]
    scored: dict[int, tuple[str, ...]]
    respotted: Mapping[str, XY]
    score: tuple[int, int]
    state: State
    notes: list[str] = field(default_factory=list)
    #: Seed 003's special cases applied (``Ruling.special``).
    special: tuple[str, ...] = ()


class Outcome(NamedTuple):
    """What a stroke did, in the few words ``outcome_key`` reads: the ball
    the struck ball touched first (None: none), the balls pocketed and
    where, in the order they dropped, the balls that left the table, and
    (``events``, called only for a stroke that pockets nothing) its event
    log as the rules read it; ``records``, where the caller has them, the
    same log as numbers and the ball ids its rows index (env/events.py),
    read in its place, faster."""

    first_contact: str | None
    pocketed: tuple[tuple[str, str], ...]
    off_table: tuple[str, ...]
    events: Callable[[], Sequence[Event]] | None = None
    records: Callable[[], tuple[Any, tuple[str, ...]]] | None = None
    #: Where the struck ball came to rest (None: it is off the bed), for
    #: the push test of a stroke that starts beside another ball; without
    #: it such a stroke has no key.
    cue_end: Callable[[], XY | None] | None = None


class Referee(Protocol):
    """What ``Game`` and the ``referee`` command need from a variant.

    ``BaseReferee`` also answers the hooks a search's caches use
    (``outcome_key``, ``start_near``, ``rested``, ``shape``,
    ``relabeled``); the agents' toolbox states them as its own optional
    protocol (agents/shots/referee_cache.py) and judges every stroke in
    full for a referee without them."""

    game_type: GameType
    table: Table

    # Read-only in the protocol, so a referee may keep its options in a dict.
    @property
    def options(self) -> Mapping[str, Any]: ...

    def initial_state(self, position: Position) -> State: ...

    def check_shot(self, state: State, shot: Shot) -> None: ...

    def judge(
        self,
        before: Position,
        shot: Shot,
        events: Sequence[Event],
        after: Position,
        extra_fouls: Iterable[str] = (),
        state: State | None = None,
    ) -> Ruling: ...

    def break_by_layout(self, state: State) -> bool: ...

    def choose(self, state: State, choice: str) -> State: ...

    def legal_choices(self, state: State) -> tuple[str, ...]: ...

    def allowed_cue_balls(self, position: Position) -> tuple[str, ...]: ...

    def target(self) -> int: ...


#: The kinds of ball in hand that item 21.2 reads a first contact against.
HAND_ZONES = ("house", "rear_house")


def _copied(obj: Any, **changes: Any) -> Any:
    """``dataclasses.replace`` for the frozen rulings and states, which
    check nothing on construction: the fields copied, not passed through
    ``__init__`` again (a planner moves the balls of a known ruling for
    each of thousands of samples a decision)."""
    out = object.__new__(type(obj))
    out.__dict__.update(obj.__dict__)
    out.__dict__.update(changes)
    return out


_REGISTRY: dict[str, Callable[..., Referee]] = {}


def register_game(game_type: GameType, factory: Callable[..., Referee]) -> None:
    """Called at the bottom of each variant module (OpenSpiel's
    ``register_game``)."""
    _REGISTRY[game_type.variant] = factory


def get_referee(variant: str, options: Mapping[str, Any] | None = None, table: Table | None = None) -> Referee:
    """The referee of a variant with its options (TOML defaults + overrides)."""
    if variant not in VARIANTS:
        raise UnknownVariantError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
    if variant not in _REGISTRY:
        importlib.import_module(f"piramida.env.rules.{variant}")
    return _REGISTRY[variant](options=options, table=table)


class BaseReferee:
    """Shared machinery; variants override the hooks (``rule`` for what a
    shot earns)."""

    game_type: GameType
    #: Does every shot but the break have to satisfy item 20?
    needs_completion = True
    #: A pot's outcome key is its first contact and the balls pocketed, in
    #: order, given the stroke (``plain_key``): a check of those alone (the
    #: compiled strokes' verdict, agents/shots/probe.py) stands for it.
    keys_by_pockets = True
    #: Seed 003's special cases ruled as seed 003 rules them (a ball on the
    #: rail put back against the cushion, the cue ball returned by an outside
    #: cause, a ball falling from the jaws): Moscow pyramid. Elsewhere the
    #: texts of seed 004 rule them (items 24.1, 24.2, 23.2; docs/rules.md
    #: "Special cases").
    seed003_special = False

    def __init__(self, options: Mapping[str, Any] | None = None, table: Table | None = None) -> None:
        self.options = load_options(self.game_type, options)
        self.table = table or Table.default()
        #: ``start_near``'s answers for the last position asked, by struck
        #: ball and placement (free pyramid's search strikes every ball).
        self.starts: tuple[
            Position | None,
            dict[tuple[str, XY | None], tuple[dict[str, XY], list[tuple[str, float, float]], dict[str, str]]],
            dict[tuple[str, XY | None] | None, tuple[dict[str, XY], dict[str, str]]],
        ] = (None, {}, {})
        #: The item-20 ``Start`` of each start of ``starts`` (by its identity;
        #: the start itself kept), for records with these ids.
        self.records_starts: dict[int, tuple[dict[str, XY], Start]] = {}

    @property
    def variant(self) -> str:
        return self.game_type.variant

    def break_by_layout(self, state: State) -> bool:
        """Whether, at ``state``, a break's ruling is worth the same to the
        shooter whichever ball lies on which spot of the rack: then a
        stroke's value (agents/shots/context.py ``Context.value``) is
        fixed by where the balls lie, and a search may keep it from one
        frame to the next (every frame's rack is the same, its balls
        shuffled). False by default: the rules may read the balls'
        numbers."""
        return False

    # ------------------------------------------------------------ the frame
    def initial_state(self, position: Position) -> State:
        """The frame at ``position``, the player to move to shoot. A ball in
        hand in the house with every object ball in the house is played from
        beyond the rear line (item 21.2, ``hand_kind``); a position already
        decided (a score at the target, nothing left to hit) is over
        (``settle``)."""
        p = position
        kind = p.in_hand
        if kind is not None and not p.is_break:
            kind = self.hand_kind(p.ball_map, kind)
            if kind != p.in_hand:
                p = p.replace(in_hand=kind)
        return self.settle(State(p, Next(p.to_move, "shot", in_hand=kind), breaker=p.to_move))[0]

    # ------------------------------------------------------------ frame end
    def exhausted(self, position: Position) -> str | None:
        """Why no legal shot can ever be played again from ``position`` and
        nothing the rules do will put a ball back, or None. Item 5.1: every
        legal shot, the break included, needs contact with an object ball;
        in the one-cue-ball pyramids that needs an object ball on the
        table. (docs/rules.md, "How a frame ends".)"""
        objs = set(object_ball_ids(self.variant))
        if any(b in objs for b in position.ids):
            return None
        cue = cue_ball_of(self.variant, position.to_move)
        if cue in position or position.in_hand is not None:
            return f"only the cue ball {cue} is on the table, with no object ball to contact (item 5.1)"
        return "no ball is on the table"

    def settle(self, state: State) -> tuple[State, str | None]:
        """The frame-end checks on a state that is not over yet, and a note
        saying why it ended: a score at the target (a position given by
        hand), or ``exhausted``: then the higher score wins and equal scores
        are a draw (the state is over with no winner)."""
        if state.over:
            return state, None
        pos = state.position
        w = self.winner_of(pos.score)
        if w is not None:
            return make_state(state, pos, Next(None, "none"), None, winner=w), None
        why = self.exhausted(pos)
        if why is None:
            return state, None
        s0, s1 = pos.score
        if s0 != s1:
            w = 0 if s0 > s1 else 1
            done = make_state(state, pos, Next(None, "none"), None, winner=w)
            return done, f"{why}: frame over, the higher score wins"
        done = State(pos, Next(None, "none"), None, None, True, state.fouls_charged, state.breaker)
        return done, f"{why}: frame over, equal scores, a draw"

    def why_no_shot(self, state: State) -> str | None:
        """Why no legal shot can be played now, in one line, or None when
        the rules leave one: the frame is over (won, drawn, or nothing left
        to hit), a choice is pending, or no ball the shooter may strike has
        a ball to contact (and, where shots are called, to call)."""
        pos = state.position
        s0, s1 = pos.score
        if state.over:
            result = f"a draw at {s0}-{s1}" if state.winner is None else (
                f"player {state.winner} won {s0}-{s1}"
            )
            why = self.exhausted(pos)
            if why is not None:
                return f"no legal shot exists: {why}; the frame is over, {result}"
            return f"the frame is over: {result}"
        if state.next.kind != "shot":
            return (
                f"no shot now: player {state.next.player} must make a choice first "
                f"({', '.join(state.next.choices)})"
            )
        if pos.rail:
            return f"no shot now: ball {pos.rail[0][0]} rests on the rail (the referee places it against the cushion first)"
        cue_in_hand = cue_ball_of(self.variant, pos.to_move) if pos.in_hand is not None else None
        for ball in self.allowed_cue_balls(pos):
            if ball not in pos and ball != cue_in_hand:
                continue
            others = [b for b in pos.ids if b != ball]
            if self.game_type.called and not pos.is_break:
                others = [b for b in others if self.callable(b)]
            if others:
                return None
        what = "to call" if self.game_type.called and not pos.is_break else "to contact"
        return f"no legal shot exists: no ball the player may strike has another ball {what} (item 5.1)"

    def callable(self, ball: str) -> bool:
        """May ``ball`` be called (classic: an object ball, not the cue ball)?"""
        return ball != "0"

    def score_of(self, position: Position, player: int) -> int:
        return position.score[player]

    def target(self) -> int:
        return int(self.options["target"])

    def winner_of(self, score: Sequence[int]) -> int | None:
        t = self.target()
        for p in (0, 1):
            if score[p] >= t:
                return p
        return None

    # ------------------------------------------------------------ shot checks
    def allowed_cue_balls(self, position: Position) -> tuple[str, ...]:
        return (cue_ball_of(self.variant, position.to_move),)

    def check_shot(self, state: State, shot: Shot) -> None:
        """A shot the rules do not allow here raises ``IllegalShotError``."""
        p = state.position

        def bad(msg: str) -> IllegalShotError:
            # The position's text is built only for an error: this runs every shot.
            return IllegalShotError(f"{msg} (position: {p.to_text()})")

        if state.over:
            raise bad("the frame is over")
        if state.next.kind != "shot":
            raise bad(f"player {state.next.player} must make a choice first: {', '.join(state.next.choices)}")
        if p.rail:
            raise bad(f"ball {p.rail[0][0]} rests on the rail: it is placed against the cushion before a shot")
        allowed = self.allowed_cue_balls(p)
        if shot.ball not in allowed:
            raise bad(f"ball {shot.ball} may not be struck now (allowed: {', '.join(allowed)})")
        if p.in_hand is not None and shot.ball in p:
            raise bad(f"ball {shot.ball} is on the table; the ball in hand must be placed and struck")
        r = self.table.ball_radius
        if p.in_hand is not None:
            if shot.place is None:
                raise bad(f"the cue ball is in hand ({p.in_hand}): the shot needs place=X,Y")
            x, y = shot.place
            if not self.table.on_surface(x, y) or not (r <= x <= self.table.width - r):
                raise bad(f"place ({x}, {y}) is not on the playing surface")
            if p.in_hand == "house" and not self.table.in_house(x, y):
                raise bad(f"place ({x}, {y}) is not in the house (y < {self.table.house_line:.4f})")
            if p.in_hand == "rear_house" and not self.table.in_rear_house(x, y):
                raise bad(f"place ({x}, {y}) is not beyond the rear line (y > {self.table.rear_line:.4f})")
            for b, bx, by in p.balls:
                if math.hypot(bx - x, by - y) < 2 * r - 1e-9:
                    raise bad(f"place ({x}, {y}) overlaps ball {b}")
        elif shot.place is not None:
            raise bad("place= is only for a cue ball in hand")
        if shot.declare_frozen is not None and (
            shot.declare_frozen not in p or shot.declare_frozen == shot.ball
        ):
            raise bad(f"declared frozen ball {shot.declare_frozen} is not an object ball on the table")
        self.check_call(p, shot, bad)
        if shot.call is not None and shot.call[0] not in p:  # a variant without a call still names a real ball
            raise bad(f"called ball {shot.call[0]} is not on the table")

    def check_call(self, position: Position, shot: Shot, bad: Callable[[str], Exception]) -> None:
        """Variants without a call ignore one."""

    # ------------------------------------------------------------ judging
    def judge(
        self,
        before: Position,
        shot: Shot,
        events: Sequence[Event],
        after: Position,
        extra_fouls: Iterable[str] = (),
        state: State | None = None,
    ) -> Ruling:
        """The ruling on ``shot`` played from ``before`` (the event log and
        the position after it): the state it was played in (``state``, or
        the frame at ``before``), the shot's facts and common fouls
        (``facts_and_fouls``, ``extra_fouls`` added), then the variant's
        ``rule``."""
        if state is None:
            state = self.initial_state(before)
        facts, fouls = self.facts_and_fouls(self.fouls_position(before), shot, events, after, extra_fouls)
        j = self.hanging_drop(before, facts, state) if facts.hanging else self.rule(before, shot, facts, fouls, state)
        return Ruling(
            legal=not j.fouls,
            fouls=order_fouls(j.fouls),
            scored=j.scored,
            respotted=j.respotted,
            penalty="; ".join(j.notes) or None,
            score=j.score,
            next=j.state.next,
            winner=j.state.winner,
            state=j.state,
            special=j.special,
        )

    def hanging_drop(self, before: Position, facts: P.ShotFacts, state: State) -> Judgement:
        """A ball standing in the jaws fell in by itself before the struck
        ball reached it, and the stroke missed: no foul, nothing scores, and
        the shot stays with the player who missed. Seed 003 (special cases;
        ``seed003_special``): the fallen ball (and anything else the stroke
        dropped or sent off) is re-spotted (the third spot, §4.7), the cue
        ball goes into hand in the house and the shot is played from there.
        Elsewhere (seed 004 items 23.2, 1.7): every ball is put back where it
        was and the shot is played again."""
        fallen = ", ".join(b for b, _ in facts.hanging)
        if not self.seed003_special:
            note = f"ball {fallen} fell from the jaws by itself: the balls are put back, the shot is played again"
            return Judgement(set(), {0: (), 1: ()}, {}, before.score, state, [note], ("hanging_drop",))
        cue = cue_ball_of(self.variant, before.to_move)
        balls = {b: xy for b, xy in facts.final.items() if b != cue}
        balls.update(self.place_from_rail(balls, facts))
        gone = [b for b, _ in facts.hanging] + [b for b in facts.pocketed_ids + facts.jumped if b != cue]
        placed = self.respot(balls, gone)
        balls.update(placed)
        pos, nxt = self.ready(self.settled(before, facts, balls, in_hand=None), before.to_move, "house")
        note = (
            f"ball {fallen} fell from the jaws by itself: re-spotted, no foul; the cue ball goes into the house "
            f"and player {before.to_move} plays the shot again"
        )
        return Judgement(
            set(), {0: (), 1: ()}, placed, before.score, make_state(state, pos, nxt, None), [note], ("hanging_drop",)
        )

    def place_from_rail(self, balls: Mapping[str, XY], facts: P.ShotFacts) -> dict[str, XY]:
        """Seed 003 (special cases): each ball resting on the rail
        (``facts.rail``) is placed tight against the cushion near where it
        stopped (``pyramid.place_on_cushion``), in id order, clear of
        ``balls`` and of each other; the cushion is the one its ``on_rail``
        event names, else the nearest."""
        cushions = {e.balls[0]: e.cushion for e in facts.events if e.type == "on_rail"}
        occupied = dict(balls)
        placed: dict[str, XY] = {}
        for b in sorted(facts.rail, key=P.id_order):
            placed[b] = occupied[b] = P.place_on_cushion(self.table, facts.rail[b], occupied, cushions.get(b))
        return placed

    def outcome_key(self, before: Position, shot: Shot, outcome: Outcome) -> tuple[Any, ...] | None:
        """A summary of a shot's outcome from what the physics says in a
        few words (``Outcome``), for a search that judges many strokes of
        one decision. The log is one the physics writes: no ball drops
        before the struck ball's first contact (nothing else moves before
        it, and a struck ball that drops touches nothing after).

        The contract: two shots played from ``before`` in one frame state
        whose keys are equal and not None, one of them judged legal, get
        the same ruling but for where the balls rest: no fouls, the same
        balls scored, score, winner, next decision and frame state, and
        nothing re-spotted (the position's balls are the shot's final
        balls; ``rested`` makes one ruling from the other). Five balls
        puts the reds and the yellow pocketed back on the table: there the
        same balls come back, and its ``rested`` places them again for
        where the others rest.
        None: no summary is that cheap here (the default: a variant's rules
        read more of the log). tests/env/rules/test_outcome_key.py checks the
        contract against full rulings."""
        return None

    def rested(self, ruling: Ruling, after: Position) -> Ruling:
        """The ruling on a stroke with the outcome key of the legal stroke
        ``ruling`` was made for, whose balls rest as in ``after`` (its final
        position): by ``outcome_key``'s contract only the balls move, so
        they are moved and nothing is judged again."""
        st = ruling.state
        return _copied(ruling, state=_copied(st, position=st.position.moved(after.balls)))

    def shape(self, before: Position, key: tuple[Any, ...]) -> tuple[tuple[Any, ...], tuple[str, ...]] | None:
        """An outcome key (``outcome_key``'s, from ``before``) with its balls
        named by the part they play, and the balls in that order: strokes
        of one shape, one of them judged legal, get the same ruling but for
        where the balls rest and which balls those parts are
        (``relabeled`` makes one from the other). None: the rules tell the
        balls apart (the default)."""
        return None

    def relabeled(self, ruling: Ruling, old: tuple[str, ...], new: tuple[str, ...], after: Position) -> Ruling:
        """The ruling on a stroke of the shape of the legal stroke ``ruling``
        was made for, whose balls ``new`` play the parts ``old`` played
        there and whose balls rest as in ``after`` (``shape``)."""
        raise NotImplementedError(f"{type(self).__name__} has no shapes")

    def plain_key(self, before: Position, shot: Shot, outcome: Outcome) -> tuple[Any, ...] | None:
        """The part of ``outcome_key`` every variant with item 20 shares.
        The shot completes (item 20): by a ball pocketed after the first
        contact (20.1), when no cushion or centre-line event counts, or,
        pocketing nothing, by the log's cushions and crossings (read from
        ``outcome.events``, as the referee reads them); nothing left the
        table; no ball starts close enough to the cue ball for the push test
        (item 19.2), the one common foul that reads where the cue ball ends;
        not a break (item 12.1 reads cushions). None otherwise. A stroke
        that pockets nothing has one key whatever ball was struck, from
        wherever it was placed, and whatever was touched first or called,
        but for whether the ball touched first lay in the house where the
        shot is from the house (item 21.2)."""
        if before.is_break or outcome.off_table or not self.needs_completion:
            return None
        start, near, frozen = self.start_near(before, shot)
        if near and (outcome.cue_end is None or self.pushed(start, near, shot, outcome)):
            return None
        if not outcome.pocketed:
            if outcome.first_contact is None:
                return None
            if outcome.records is not None:
                records, ids = outcome.records()
                got = self.records_starts.get(id(start))
                if got is None or got[0] is not start or got[1].ids != ids:
                    if any(b not in start for b in ids):
                        return None
                    got = self.records_starts[id(start)] = (start, Start(ids, start, frozen, self.table))
                if not completes_records(records, got[1], shot.ball, shot.declare_frozen):
                    return None
            elif outcome.events is None or not P.completes(shot, start, frozen, outcome.events(), self.table):
                return None
            # A completed stroke that drops nothing: the turn passes and
            # nothing scores whichever ball was struck, from wherever it was
            # placed, and whichever was touched first or called (they matter
            # to the common fouls only, and the key has checked those but
            # item 21.2, which from hand reads whether the ball touched first
            # lay in the house). One ruling then serves every such miss and
            # safety of a decision.
            inside = before.in_hand in HAND_ZONES and self.in_hand_zone(before, *start[outcome.first_contact])
            return ("", None, None, shot.declare_frozen, inside, ())
        return (shot.ball, shot.place, shot.call, shot.declare_frozen, outcome.first_contact, outcome.pocketed)

    def pushed(
        self, start: Mapping[str, XY], near: list[tuple[str, float, float]], shot: Shot, outcome: Outcome
    ) -> bool:
        """Item 19.2's push test (``pyramid.pushes``, as ``common_fouls``
        reads it) of a stroke whose struck ball starts with the balls
        ``near`` it, from its ``Outcome``: the balls the struck ball
        touched, from its records (or its log), and where it ended
        (``cue_end``; the mouth of the pocket it dropped into). True where
        the outcome cannot tell: such a stroke gets no key. A stroke that
        does not push is judged as if no ball were near it: the push test
        is the only rule that reads those balls."""
        cue = shot.ball
        touched: set[str] = set()
        if outcome.records is not None:
            records, ids = outcome.records()
            k = ids.index(cue)
            for row in records[records[:, 0] == BALL_BALL].tolist():
                i, j = int(row[2]), int(row[3])
                if i == k or j == k:
                    touched.add(ids[j if i == k else i])
        elif outcome.events is not None:
            touched = P.touched_by(outcome.events(), cue)
        else:
            return True
        assert outcome.cue_end is not None
        pocket = next((p for b, p in outcome.pocketed if b == cue), None)
        end = P.cue_end(outcome.cue_end(), pocket, self.table)
        return P.pushes(start[cue], near, shot.direction, touched, end, self.table)

    def start_near(
        self, before: Position, shot: Shot
    ) -> tuple[dict[str, XY], list[tuple[str, float, float]], dict[str, str]]:
        """The balls' centres when ``shot`` starts from ``before``, the balls
        within push distance of the struck ball (``push_near``) and the
        balls frozen to a cushion: the same for every stroke of a decision
        with the same struck ball and placement, so those of the last
        position asked are kept, by ball and placement (for the outcome keys
        and the rulings of one search)."""
        pos, known, shared = self.starts
        if pos is not before:
            known, shared = {}, {}
            self.starts = (before, known, shared)
            self.records_starts = {}
        key = (shot.ball, shot.place)
        got = known.get(key)
        if got is None:
            # The centres and the frozen balls depend on a placement only:
            # every ball struck from where it lies shares them.
            placed = key if shot.place is not None and shot.ball not in before else None
            both = shared.get(placed)
            if both is None:
                start = P.start_positions(before, shot)
                both = shared[placed] = (start, P.frozen_balls(before.table, start))
            start, frozen = both
            got = known[key] = (start, P.push_near(start, shot.ball, self.table), frozen)
        return got

    def fouls_position(self, before: Position) -> Position:
        """The position the common fouls are read from (five balls: never
        a break)."""
        return before

    def rule(
        self, before: Position, shot: Shot, facts: P.ShotFacts, fouls: set[str], state: State
    ) -> Judgement:
        """What the shot earns under the variant's rules; ``fouls`` holds
        the common fouls, to which the variant adds its own."""
        raise NotImplementedError(f"{type(self).__name__} has no rules for a shot")

    # ------------------------------------------------------------ fouls
    def common_fouls(self, before: Position, shot: Shot, facts: P.ShotFacts) -> set[str]:
        """docs/game_rules.md §4.12 fouls the log shows: no contact (5.3), illegal break
        (12.1), push (19.2), illegal completion (20), jumped ball (24.3/1.9),
        and item 21.2 (first contact outside the house after a shot from the
        house)."""
        fouls: set[str] = set()
        if facts.first_contact is None:
            fouls.add("no_contact")
        elif before.is_break:
            if not P.legal_break(facts, self.table)[0]:
                fouls.add("illegal_break")
        elif self.needs_completion and not P.legal_completion(facts, self.table, shot.declare_frozen)[0]:
            fouls.add("illegal_completion")
        if P.is_push(facts, shot, self.table):
            fouls.add("push")
        if facts.jumped and (self.options["object_ball_jump_is_foul"] or facts.cue in facts.jumped):
            fouls.add("jumped_ball")
        if facts.first_contact is not None and not before.is_break and before.in_hand in HAND_ZONES:
            # Item 21.2 (docs/game_rules.md §5.2): from hand, the first object ball hit
            # must lie outside the (temporary) house. Interpretation (docs/
            # rules.md): applied in every pyramid variant, not only combined.
            if self.in_hand_zone(before, *facts.start[facts.first_contact]) and self.variant != "five_ball":
                fouls.add("first_contact_in_house")
        return fouls

    def in_hand_zone(self, before: Position, x: float, y: float) -> bool:
        """Whether (x, y) lies in the zone the ball in hand of ``before`` is
        placed in (the house, or beyond the rear line): item 21.2 forbids a
        first contact there; False without a ball in hand there."""
        if before.in_hand == "house":
            return self.table.in_house(x, y)
        if before.in_hand == "rear_house":
            return self.table.in_rear_house(x, y)
        return False

    def facts_and_fouls(
        self, before: Position, shot: Shot, events: Sequence[Event], after: Position, extra: Iterable[str]
    ) -> tuple[P.ShotFacts, set[str]]:
        if shot.ball in before or shot.place is not None:
            start, near, frozen = self.start_near(before, shot)
            facts = P.analyse(before, shot, events, after, start, frozen, near, self.seed003_special)
        else:
            facts = P.analyse(before, shot, events, after, special=self.seed003_special)  # its error names the missing ball
        fouls = self.common_fouls(before, shot, facts)
        fouls.update(extra)
        return facts, fouls

    # ------------------------------------------------------------ helpers
    def respot(self, on_table: Mapping[str, XY], balls: Iterable[str]) -> dict[str, XY]:
        return P.respot(
            self.table,
            on_table,
            balls,
            gap=float(self.options["respot_gap"]),
            touching=bool(self.options["respot_touching"]),
        )

    def hand_kind(self, balls: Mapping[str, XY], kind: str) -> str:
        """Item 21.2: from the house, unless every object ball lies in it;
        then from beyond the rear line."""
        if kind != "house" or self.variant == "five_ball":
            return kind
        objs = [xy for b, xy in balls.items() if b in object_ball_ids(self.variant)]
        if objs and all(self.table.in_house(x, y) for x, y in objs):
            return "rear_house"
        return kind

    def settled(self, before: Position, facts: P.ShotFacts, balls: Mapping[str, XY], **state: Any) -> Position:
        """The position a shot leaves: ``balls`` on the table and the frame
        state ``state`` (shelves, score, owed, in_hand, is_break) over
        ``before``'s. When the balls are exactly those of the position after
        the shot (nothing re-spotted or removed), they are not checked
        again: a position's balls were checked when it was made, or are the
        physics' own (``Position.moved``); any other set is checked."""
        tup = tuple((b, x, y) for b, (x, y) in balls.items())
        after = facts.after
        if (
            after is not None
            and tup == after.balls
            and not after.rail
            and after.variant == before.variant
            and after.table is before.table
        ):
            frame = {k: getattr(before, k) for k in Position.STATE_FIELDS}
            return after.replace(**{**frame, **state})
        return before.replace(balls=tup, **state)

    def ready(self, position: Position, player: int, in_hand: str | None) -> tuple[Position, Next]:
        """Position and Next for ``player`` to shoot: the cue ball is in hand
        (of kind ``in_hand``, else the house) when it is not on the table."""
        cue = cue_ball_of(self.variant, player)
        if position.is_break:
            kind: str | None = "house"
        elif self.game_type.cue_ball == "any" or cue in position:
            kind = None
        else:
            kind = self.hand_kind(position.ball_map, in_hand or "house")
        pos = position.replace(to_move=player, in_hand=kind)
        return pos, Next(player, "shot", in_hand=kind)

    def stage_choices(self, state_pos: Position, stage: str) -> tuple[str, ...]:
        if stage == "after":
            return AFTER_FOUL_CHOICES
        if stage == "after_break":
            return AFTER_BREAK_FOUL_CHOICES
        if stage == "take":
            return tuple(TAKE_BALL + b for b in self.takeable(state_pos))
        if stage == "take_or_hand":
            return tuple(TAKE_BALL + b for b in self.takeable(state_pos)) + (BALL_IN_HAND_ANYWHERE,)
        if stage in ("svoyak", "svoyak_pass"):
            return tuple(REMOVE_BALL + b for b in self.takeable(state_pos))
        if stage == "lag_winner":
            return (BREAK, MAKE_OPPONENT_BREAK)
        raise AssertionError(stage)

    def takeable(self, position: Position) -> tuple[str, ...]:
        """Balls that may be taken as a penalty ball or after a свояк: object
        balls on the table."""
        objs = set(object_ball_ids(self.variant))
        return tuple(b for b in position.ids if b in objs)

    def legal_choices(self, state: State) -> tuple[str, ...]:
        return state.next.choices if state.next.kind == "choice" else ()

    def pending_state(self, state: State, position: Position, pending: Pending) -> State:
        """A state waiting on the first of ``pending.stages``; stages with
        nothing to choose from are skipped."""
        stages = pending.stages
        while stages:
            choices = self.stage_choices(position, stages[0])
            if choices:
                pend = Pending(stages, pending.chooser, pending.offender, pending.in_hand)
                pos = position.replace(to_move=pending.chooser, in_hand=None)
                return _state(state, pos, Next(pending.chooser, "choice", choices), pend)
            stages = stages[1:]
        # Nothing to choose from: after a свояк the shooter plays on (the
        # opponent where the turn passes: "svoyak_pass"), after a foul the
        # non-offender shoots.
        shooter = pending.offender if pending.stages[:1] == ("svoyak",) else pending.chooser
        if pending.stages[:1] == ("svoyak_pass",):
            shooter = 1 - pending.offender
        pos, nxt = self.ready(position, shooter, pending.in_hand)
        return _state(state, pos, nxt, None)

    def choose(self, state: State, choice: str) -> State:
        """Apply a decision (docs/design.md §4)."""
        if state.next.kind != "choice" or state.pending is None:
            raise IllegalShotError(f"no choice is pending (position: {state.position.to_text()})")
        if choice not in state.next.choices:
            raise IllegalShotError(
                f"choice {choice!r} is not allowed now (allowed: {', '.join(state.next.choices)}) "
                f"(position: {state.position.to_text()})"
            )
        return self.settle(self.apply_choice(state, state.pending, choice))[0]

    def apply_choice(self, state: State, pend: Pending, choice: str) -> State:
        p = state.position
        if choice in ("shoot", "accept_and_shoot"):
            pos, nxt = self.ready(p, pend.chooser, pend.in_hand)
            return _state(state, pos, nxt, None)
        if choice in ("make_offender_shoot", "accept_and_make_offender_shoot"):
            pos, nxt = self.ready(p, pend.offender, pend.in_hand)
            return _state(state, pos, nxt, None)
        if choice in ("rerack_and_break", "rerack_and_make_offender_break"):
            breaker = pend.chooser if choice == "rerack_and_break" else pend.offender
            pos = self.rerack(p)
            pos, nxt = self.ready(pos.replace(is_break=True), breaker, "house")
            return _state(state, pos, nxt, None, breaker=breaker)
        raise AssertionError(f"choice {choice} not handled")  # pragma: no cover

    def rerack(self, position: Position) -> Position:
        """Item 12.2 (3)-(4): the object balls on the table go back into a
        (possibly incomplete) pyramid; the cue ball goes into hand."""
        objs = [b for b in position.ids if b in object_ball_ids(self.variant)]
        return position.with_balls(P.rack(self.table, objs, self.variant))


def _state(
    old: State,
    position: Position,
    nxt: Next,
    pending: Pending | None,
    winner: int | None = None,
    breaker: int | None = None,
    fouls_charged: tuple[int, int] | None = None,
) -> State:
    w = old.winner if winner is None else winner
    over = old.over or w is not None
    if over:
        nxt = Next(None, "none")
        pending = None
    return State(
        position,
        nxt,
        pending,
        w,
        over,
        old.fouls_charged if fouls_charged is None else fouls_charged,
        old.breaker if breaker is None else breaker,
    )


make_state = _state
