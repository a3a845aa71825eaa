"""Five balls with caroms (docs/game_rules.md §5.7; seed 000).

Player 0 strikes ``w1``, player 1 ``w2``; ``r1``, ``r2`` and ``y`` are object
balls, and the other white may be called too. Every shot is called. Only a
called ball pocketed in the called pocket with a carom scores: after the
cue ball contacts the called ball it goes on to contact other balls, and the
points come from the scoring table in ``configs/variants/five_ball.toml``
(data, not code). A called ball pocketed without a carom scores nothing and
passes the turn, except that at 58 a white pocketed without a carom lets the
same player shoot again (seed 000). A foul while pocketing the called ball
gives its points to the opponent. Every pocketed or jumped ball comes back:
a red or the yellow on its start spot (or by §4.7 re-spotting when that is
taken), a white into its owner's hand in the house.

Interpretations (docs/game_rules.md §5.7, §6), each pinned by a golden case:
- item 20 (legal completion) and item 12 (the break) are pyramid rules and
  do not apply; the fouls are no contact, push, a jumped ball, the own cue
  ball pocketed, and reported ones;
- the caromed balls are the distinct balls the cue ball touches after its
  first contact with the called ball, the called ball excluded; a
  combination not in the table scores as its largest listed sub-multiset
  (the higher score on a tie);
- a player may not call his own white.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from piramida.env.events import Event
from piramida.env.position import Position, cue_ball_of
from piramida.env.rules.base import BaseReferee, Judgement, Outcome, make_state, register_game
from piramida.env.rules.options import (
    COMMON_OPTIONS,
    GameType,
    InvalidOptionError,
    Option,
    read_variant_config,
)
from piramida.env.rules.pyramid import ShotFacts
from piramida.env.rules.ruling import Next, Pending, Ruling, State
from piramida.env.shot import Shot

_GAME_TYPE = GameType(
    variant="five_ball",
    long_name="Five balls with caroms (seed 000)",
    cue_ball="own_white",
    called=True,
    rules="docs/game_rules.md §5.7",
    options=COMMON_OPTIONS
    + (
        Option("target", int, "points to win (seed 000: 60)"),
        Option("foul_points", int, "points to the opponent for a foul without a pocketed called ball (0)"),
    ),
)

KINDS = ("red", "white", "yellow_corner", "yellow_middle")
ONTO = ("white", "red", "yellow")


def kind_of(ball: str) -> str:
    return "red" if ball in ("r1", "r2") else ("yellow" if ball == "y" else "white")


def load_scoring() -> dict[str, list[tuple[Counter[str], int]]]:
    """The carom table of seed 000 from ``[scoring]`` in five_ball.toml."""
    data: Any = read_variant_config("five_ball").get("scoring")
    src = "configs/variants/five_ball.toml"
    if not isinstance(data, dict) or set(data) != set(KINDS):
        raise InvalidOptionError(f"{src}: [scoring] needs exactly the tables {', '.join(KINDS)}")
    out: dict[str, list[tuple[Counter[str], int]]] = {}
    for kind, rows in data.items():
        parsed = []
        for row in rows:
            onto, pts = row.get("onto"), row.get("points")
            if not isinstance(onto, list) or not onto or any(o not in ONTO for o in onto):
                raise InvalidOptionError(f"{src}: [scoring] {kind}: bad 'onto' {onto!r}")
            if not isinstance(pts, int) or pts <= 0:
                raise InvalidOptionError(f"{src}: [scoring] {kind}: bad 'points' {pts!r}")
            parsed.append((Counter(onto), pts))
        out[kind] = parsed
    return out


def carom_points(table: dict[str, list[tuple[Counter[str], int]]], kind: str, onto: Counter[str]) -> int:
    """Points for a pocketed ball of ``kind`` caromed onto ``onto`` (kinds
    with multiplicity): the row for the largest listed sub-multiset."""
    best = (0, 0)
    for need, pts in table[kind]:
        if all(onto[k] >= n for k, n in need.items()):
            best = max(best, (sum(need.values()), pts))
    return best[1]


class FiveBallReferee(BaseReferee):
    game_type = _GAME_TYPE
    needs_completion = False

    def __init__(self, options: Any = None, table: Any = None) -> None:
        super().__init__(options, table)
        self.scoring = load_scoring()

    def start_spot(self, ball: str) -> tuple[float, float]:
        t = self.table
        return {"r1": t.front_spot, "y": t.centre_spot, "r2": t.rear_spot}[ball]

    def check_call(self, position: Position, shot: Shot, bad: Callable[[str], Exception]) -> None:
        if shot.call is None:
            raise bad("five balls: every shot needs a call (call=BALL:POCKET)")
        if shot.call[0] not in position or shot.call[0] == shot.ball:
            raise bad(f"called ball {shot.call[0]} is not a ball on the table other than the cue ball")

    def common_fouls(self, before: Position, shot: Shot, facts: Any) -> set[str]:
        fouls = super().common_fouls(self.fouls_position(before), shot, facts)
        fouls.discard("first_contact_in_house")
        return fouls

    # The outcome key: a search judges dozens of strokes a decision, and a
    # five-ball stroke's ruling reads, besides where the balls rest, only
    # the first contact, what dropped where and what the cue ball caromed
    # onto. Every red or the yellow pocketed comes back, where depending on
    # where the others rest: ``rested`` places them again.
    keys_by_pockets = False

    def outcome_key(self, before: Position, shot: Shot, outcome: Outcome) -> tuple[Any, ...] | None:
        """A key for a stroke that touches a ball first, sends none off the
        table, does not pocket the cue ball and starts with no ball within
        push distance (those rulings read more): the stroke's ball, call
        and placement, the first contact, the balls pocketed and where,
        and, where the called ball drops in the called pocket, the kinds the
        cue ball caromed onto after it (the points)."""
        if outcome.first_contact is None or outcome.off_table or before.is_break:
            return None
        if any(b == shot.ball for b, _ in outcome.pocketed) or shot.call is None:
            return None
        _start, near, _frozen = self.start_near(before, shot)
        if near:
            return None
        onto: tuple[tuple[str, int], ...] | None = None
        if (shot.call[0], shot.call[1]) in outcome.pocketed:
            if outcome.events is None:
                return None
            onto = tuple(sorted(caromed_in(outcome.events(), shot.ball, shot.call[0]).items()))
        return (shot.ball, shot.place, shot.call, shot.declare_frozen, outcome.first_contact, outcome.pocketed, onto)

    def rested(self, ruling: Ruling, after: Position) -> Ruling:
        """``BaseReferee.rested``, the balls that came back placed again
        for where the others rest now (as ``rule`` places them)."""
        if not ruling.respotted:
            return super().rested(ruling, after)
        balls = dict(after.ball_map)
        placed = self.place_back(balls, list(ruling.respotted))
        st = ruling.state
        pos = st.position.replace(balls=tuple((b, x, y) for b, (x, y) in balls.items()))
        return replace(ruling, respotted=placed, state=replace(st, position=pos))

    def place_back(self, balls: dict[str, tuple[float, float]], back: list[str]) -> dict[str, tuple[float, float]]:
        """Put ``back`` (reds, the yellow) on the table ``balls`` (changed
        in place): each on its start spot, or re-spotted (§4.7) where that
        is taken; where each went."""
        placed: dict[str, tuple[float, float]] = {}
        for b in sorted(back):
            sx, sy = self.start_spot(b)
            r = self.table.ball_radius
            if all((sx - x) ** 2 + (sy - y) ** 2 >= (2 * r) ** 2 - 1e-12 for x, y in balls.values()):
                placed[b] = (sx, sy)
            else:
                placed.update(self.respot(balls, [b]))
            balls[b] = placed[b]
        return placed

    def fouls_position(self, before: Position) -> Position:
        """No break in five balls: the first stroke's fouls are a shot's.
        (``before`` itself when it is no break: the referee keeps what it
        worked out for a position by its identity.)"""
        return before.replace(is_break=False) if before.is_break else before

    def rule(self, before: Position, shot: Shot, facts: ShotFacts, fouls: set[str], state: State) -> Judgement:
        shooter, opp = before.to_move, 1 - before.to_move
        cue = facts.cue
        if cue in facts.pocketed_ids:
            fouls.add("cue_ball_pocketed")
        legal = not fouls
        score = list(before.score)
        notes: list[str] = []
        points = 0
        made = False
        called = shot.call[0] if shot.call else None
        if called is not None and shot.call is not None and (called, shot.call[1]) in facts.pocketed:
            made = True
            kind = kind_of(called)
            if kind == "yellow":
                kind = "yellow_middle" if shot.call[1] in ("ml", "mr") else "yellow_corner"
            points = carom_points(self.scoring, kind, caromed_in(facts.events, facts.cue, called))
        scored: dict[int, tuple[str, ...]] = {shooter: (), opp: ()}
        same_player = False
        if legal:
            if points:
                score[shooter] += points
                scored[shooter] = (str(called),)
                notes.append(f"carom: {points} points")
                same_player = True
            elif made and kind_of(str(called)) == "white" and before.score[shooter] == 58:
                notes.append("58: a white without a carom - the same player shoots again")
                same_player = True
            elif made:
                notes.append("no carom: no points, the turn passes")
        else:
            gift = points if points else int(self.options["foul_points"])
            if gift:
                score[opp] += gift
                if points:
                    scored[opp] = (str(called),)
                notes.append(f"penalty: {gift} points to player {opp}")
        # Every pocketed or jumped ball comes back.
        balls = dict(facts.final)
        placed = self.place_back(balls, [b for b in facts.pocketed_ids + facts.jumped if b in ("r1", "r2", "y")])
        pos = self.settled(
            before,
            facts,
            balls,
            score=(score[0], score[1]),
            in_hand=None,
            is_break=False,
        )
        winner = self.winner_of(score)
        if winner is not None:
            new = make_state(state, pos, Next(None, "none"), None, winner=winner)
        elif not legal:
            new = self.pending_state(state, pos, Pending(("after",), opp, shooter, "house"))
        else:
            p2, nxt = self.ready(pos, shooter if same_player else opp, "house")
            new = make_state(state, p2, nxt, None)
        return Judgement(fouls, scored, placed, (score[0], score[1]), new, notes)

    def exhausted(self, position: Position) -> str | None:
        """Never: every pocketed or jumped ball comes back (docs/game_rules.md §5.7)."""
        return None

    def callable(self, ball: str) -> bool:
        return True  # any ball but the cue ball (check_call)

    def rerack(self, position: Position) -> Position:  # pragma: no cover - no break rule here
        return position

    def takeable(self, position: Position) -> tuple[str, ...]:
        return ()


def caromed_in(events: Sequence[Event], cue: str, called: str) -> Counter[str]:
    """Kinds of the distinct balls ``cue`` touches in ``events`` after
    first touching ``called`` (the called ball excluded)."""
    seen_called = False
    onto: set[str] = set()
    for e in events:
        if e.type != "ball_ball" or cue not in e.balls:
            continue
        other = e.balls[1] if e.balls[0] == cue else e.balls[0]
        if other == called:
            seen_called = True
        elif seen_called:
            onto.add(other)
    return Counter(kind_of(b) for b in onto)


def own_white(player: int) -> str:
    return cue_ball_of("five_ball", player)


register_game(_GAME_TYPE, FiveBallReferee)
