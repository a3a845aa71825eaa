"""Referee for the pyramid games scored by balls on the shelf: free,
combined, Moscow, Nevskaya and dynamic pyramid (docs/game_rules.md §5.1-§5.5).

One class, configured by the variant modules: which balls score, the
penalty (a ball from the table to the non-offender, or one from the
offender's shelf back to the table, owed when his shelf is empty), the
свояк, and where the cue ball is in hand after it or after a foul.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from piramida.env.position import Position
from piramida.env.rules.base import HAND_ZONES, BaseReferee, Judgement, Outcome, make_state
from piramida.env.rules.pyramid import ShotFacts
from piramida.env.rules.ruling import (
    BALL_IN_HAND_ANYWHERE,
    REMOVE_BALL,
    TAKE_BALL,
    Next,
    Pending,
    Ruling,
    State,
)
from piramida.env.shot import Shot

TAKE = "take_from_table"
RETURN = "offender_returns"


class ShelfReferee(BaseReferee):
    #: free pyramid: every ball scores, the struck one included (§5.1)
    any_ball_scores = False
    #: the coloured ball pocketed after a legal contact scores (свояк, §5.2)
    svoyak = True
    #: where the cue ball is in hand after a свояк
    svoyak_in_hand = "house"
    #: Nevskaya (§5.4): the non-offender may take ball in hand anywhere instead
    nevskaya = False
    #: dynamic (§5.5): the cue ball pocketed on a shot from hand anywhere is a foul
    premium_cue_foul = False
    #: fouls on which what the shot pocketed still counts (Moscow pyramid,
    #: seed 003 "Штрафы" (б), (в))
    fouls_keeping_pots: frozenset[str] = frozenset()

    # --------------------------------------------------------------- options
    def penalty_mode(self) -> str:
        return str(self.options.get("penalty", TAKE))

    def svoyak_chooser(self, shooter: int) -> int:
        return shooter if self.options.get("svoyak_pick", "opponent") == "shooter" else 1 - shooter

    def foul_in_hand(self) -> str:
        return str(self.options.get("foul_in_hand", "house"))

    def points(self) -> bool:
        return self.options.get("scoring", "balls") == "points"

    def break_by_layout(self, state: State) -> bool:
        """True for a break from a fresh frame (no score, shelf, debt or
        pending choice yet) where balls score by count: every ball the
        ruling scores counts one whatever its number (``value``), and what
        else a break's ruling reads names no object ball by its number -
        the break's own foul (item 12.1: balls reaching cushions or
        dropping, docs/game_rules.md §4.2), no contact, the jump and push
        fouls, and the struck ball, which is the same ball in every frame.
        Where balls are re-spotted differs by number; a ruling's value
        does not read it. Not with ``scoring = "points"``, which sums the
        numbers."""
        p = state.position
        return (
            p.is_break
            and not self.points()
            and p.score == (0, 0)
            and p.shelves == ((), ())
            and p.owed == (0, 0)
            and state.pending is None
            and state.winner is None
            and not state.over
            and state.fouls_charged == (0, 0)
        )

    def target(self) -> int:
        if self.points():
            return int(self.options["points_target"])
        return int(self.options["target"])

    def value(self, shelf: Iterable[str]) -> int:
        """Score of a shelf: balls, or (free, ``scoring = "points"``) the sum
        of the numbers; the coloured ball has no number and scores 0 then."""
        shelf = list(shelf)
        return sum(int(b) for b in shelf) if self.points() else len(shelf)

    def allowed_cue_balls(self, position: Position) -> tuple[str, ...]:
        if self.any_ball_scores and not position.is_break and position.in_hand is None:
            return position.ids  # §5.1: any ball on the table may be struck
        # The break, and (free pyramid) the coloured ball in hand: it is the
        # ball placed and struck (item 11, as on the break).
        return ("0",)

    def exhausted(self, position: Position) -> str | None:
        """Free pyramid (item 4.3): any ball may be struck, so the frame can
        go on while two balls are left (the one in hand counted); with one,
        there is nothing to contact (item 5.1)."""
        if not self.any_ball_scores:
            return super().exhausted(position)
        ids = list(position.ids)
        if position.in_hand is not None and "0" not in ids:
            ids.append("0")
        if len(ids) >= 2:
            return None
        if ids:
            return f"only ball {ids[0]} is left, with no other ball to contact (item 5.1)"
        return "no ball is on the table"

    # --------------------------------------------------------------- judge
    def outcome_key(self, before: Position, shot: Shot, outcome: Outcome) -> tuple[Any, ...] | None:
        """``BaseReferee.plain_key``, for a pot only where no ball is owed:
        nothing is re-spotted on a legal shot then, and the rest of the
        ruling reads only which balls dropped where (none: the turn
        passes)."""
        if outcome.pocketed and before.owed[before.to_move]:
            return None
        return self.plain_key(before, shot, outcome)

    def shape(self, before: Position, key: tuple[Any, ...]) -> tuple[tuple[Any, ...], tuple[str, ...]] | None:
        """A pot's key (``plain_key``) with the struck ball, the ball it
        touched first and any other ball pocketed named by their parts:
        where balls score by count, every ball pocketed scores (the struck
        one only in free pyramid: elsewhere a свояк waits on a choice of
        balls) and none is owed (``outcome_key``), the rule reads which
        ball played which part only to put it on the shelf (and, from the
        house, where the ball touched first lay: item 21.2)."""
        ball, place, call, frozen, contact, pocketed = key  # plain_key's fields
        if not pocketed or self.points():
            return None
        labels = [ball, contact]
        parts: list[str] = []
        for b, _pocket in pocketed:
            if b == ball:
                if not self.any_ball_scores:
                    return None  # a свояк, or a struck ball that does not score
                parts.append("struck")
            elif b == contact:
                parts.append("contact")
            else:
                parts.append("other")
                labels.append(b)
        inside = before.in_hand in HAND_ZONES and self.in_hand_zone(before, *before.xy(contact))
        return (place, call, frozen, inside, tuple(parts)), tuple(labels)

    def relabeled(self, ruling: Ruling, old: tuple[str, ...], new: tuple[str, ...], after: Position) -> Ruling:
        """``ruling`` (a legal pot of ``shape``'s, with no note) with the
        balls ``new`` in the parts of ``old``: they are the ones scored and
        put on the shelf, and the balls rest as in ``after``."""
        names = dict(zip(old, new, strict=True))
        # Every ball pocketed scored (``shape``): the shooter's are the ones.
        shooter = next(p for p, balls in ruling.scored.items() if balls)
        scored = tuple(names[b] for b in ruling.scored[shooter])
        st = ruling.state
        shelves = list(st.position.shelves)
        shelves[shooter] = shelves[shooter][: len(shelves[shooter]) - len(scored)] + scored
        pos = st.position.moved(after.balls).replace(shelves=(shelves[0], shelves[1]))
        return replace(
            ruling,
            scored={**ruling.scored, shooter: scored},
            state=replace(st, position=pos),
        )

    def rule(self, before: Position, shot: Shot, facts: ShotFacts, fouls: set[str], state: State) -> Judgement:
        cue = facts.cue
        shooter, opp = before.to_move, 1 - before.to_move
        cue_gone = (not self.any_ball_scores) and (cue in facts.pocketed_ids or cue in facts.jumped)
        if self.premium_cue_foul and before.in_hand == "anywhere" and cue in facts.pocketed_ids:
            # §5.5: on the premium shot only object balls may score.
            fouls.add("cue_ball_pocketed")
        legal = not fouls
        balls = {b: xy for b, xy in facts.final.items() if not (b == cue and cue_gone)}
        # Seed 003 (special cases; only where ``seed003_special``): a ball on
        # the rail goes back against the cushion, the turn passes, and what
        # the shot pocketed counts; the cue ball returned by an outside cause
        # costs no penalty, nothing it pocketed counts, the turn passes.
        from_rail = self.place_from_rail(balls, facts) if facts.rail else {}
        balls.update(from_rail)
        returned = bool(facts.returned)
        passes = bool(from_rail) or returned
        special = (("on_rail",) if from_rail else ()) + (("returned",) if returned else ())
        shelves = [list(before.shelves[0]), list(before.shelves[1])]
        owed = list(before.owed)
        to_respot: list[str] = []
        scored: list[str] = []
        notes: list[str] = []

        def scoring(b: str) -> bool:
            return self.any_ball_scores or b != cue

        if legal and returned:
            to_respot += [b for b in facts.pocketed_ids + facts.jumped if scoring(b)]
            notes.append(f"cue ball {cue} came back from off the table: no penalty, nothing pocketed counts")
        elif legal:
            scored = [b for b in facts.pocketed_ids if scoring(b)]
            # Option object_ball_jump_is_foul = false (item 1.9): re-spotted,
            # no penalty, pocketed balls count.
            to_respot += [b for b in facts.jumped if b != cue or self.any_ball_scores]
            shelves[shooter] += scored
            # Owed penalty balls are collected from the next scored balls
            # (seed 003 "Штрафы"; docs/game_rules.md §5.1 option, §5.3).
            n = min(owed[shooter], len(scored))
            for _ in range(n):
                b = shelves[shooter].pop()
                to_respot.append(b)
                owed[shooter] -= 1
                notes.append(f"owed ball {b} re-spotted from player {shooter}'s shelf")
        else:
            if fouls <= self.fouls_keeping_pots:
                # Seed 003 "Штрафы": only balls pocketed on fouls (а), (д)
                # and (е) are taken out; on (б) and (в) they count.
                scored = [b for b in facts.pocketed_ids if b != cue]
                shelves[shooter] += scored
                notes.append(f"balls pocketed on a foul {'/'.join(sorted(fouls))} count (seed 003)")
            to_respot += [b for b in facts.pocketed_ids + facts.jumped if scoring(b) and b not in scored]
            if self.penalty_mode() == RETURN:
                if shelves[shooter]:
                    b = shelves[shooter].pop()
                    to_respot.append(b)
                    notes.append(f"penalty: ball {b} from player {shooter}'s shelf re-spotted")
                else:
                    owed[shooter] += 1
                    notes.append(f"penalty: player {shooter} owes a ball (empty shelf)")
            else:
                notes.append(f"penalty: player {opp} takes a ball from the table")
        placed = self.respot(balls, to_respot)
        balls.update(placed)
        if from_rail:
            notes.append(f"from the rail, ball {', '.join(from_rail)} placed against the cushion")
        score = (self.value(shelves[0]), self.value(shelves[1]))
        pos = self.settled(
            before,
            facts,
            balls,
            shelves=(tuple(shelves[0]), tuple(shelves[1])),
            score=score,
            owed=(owed[0], owed[1]),
            in_hand=None,
            is_break=False,
        )
        winner = self.winner_of(score)
        svoyak = legal and self.svoyak and cue in facts.pocketed_ids and not returned
        if winner is not None:
            new = make_state(state, pos, Next(None, "none"), None, winner=winner)
        elif not legal:
            stages: tuple[str, ...] = ("after_break",) if before.is_break else ("after",)
            if self.penalty_mode() == TAKE:
                stages = ("take_or_hand" if self.nevskaya else "take",) + stages
            hand = self.foul_in_hand() if cue_gone else None
            new = self.pending_state(state, pos, Pending(stages, opp, shooter, hand))
        elif svoyak:
            notes.append("свояк: an object ball from the table to the shooter's shelf")
            stage = "svoyak_pass" if passes else "svoyak"
            pend = Pending((stage,), self.svoyak_chooser(shooter), shooter, self.svoyak_in_hand)
            new = self.pending_state(state, pos, pend)
        elif scored and not passes:
            p2, nxt = self.ready(pos, shooter, None)
            new = make_state(state, p2, nxt, None)
        else:
            p2, nxt = self.ready(pos, opp, None)
            new = make_state(state, p2, nxt, None)
        new, end = self.settle(new)
        if end:
            notes.append(end)
        if legal and passes and winner is None:
            notes.append(f"the turn passes to player {opp} (seed 003, special cases)")
        respotted = {**from_rail, **placed}
        return Judgement(fouls, {shooter: tuple(scored), opp: ()}, respotted, score, new, notes, special)

    # --------------------------------------------------------------- choices
    def apply_choice(self, state: State, pend: Pending, choice: str) -> State:
        p = state.position
        rest = Pending(pend.stages[1:], pend.chooser, pend.offender, pend.in_hand)
        if choice.startswith(TAKE_BALL):
            b = choice[len(TAKE_BALL) :]
            return self._to_shelf(state, p, b, pend.chooser, rest)
        if choice.startswith(REMOVE_BALL):
            b = choice[len(REMOVE_BALL) :]
            shooter = pend.offender
            after = Pending((), shooter, shooter, pend.in_hand)
            nxt = 1 - shooter if pend.stages[:1] == ("svoyak_pass",) else shooter
            return self._to_shelf(state, p, b, shooter, after, shooter_continues=True, next_player=nxt)
        if choice == BALL_IN_HAND_ANYWHERE:
            # Nevskaya (§5.4): decline the penalty ball; the cue ball is
            # taken up and placed anywhere by the non-offender, who shoots.
            balls = {b: xy for b, xy in p.ball_map.items() if b != "0"}
            pos = p.with_balls(balls).replace(to_move=pend.chooser, in_hand="anywhere")
            return make_state(state, pos, Next(pend.chooser, "shot", in_hand="anywhere"), None)
        return super().apply_choice(state, pend, choice)

    def _to_shelf(
        self,
        state: State,
        p: Position,
        ball: str,
        player: int,
        rest: Pending,
        shooter_continues: bool = False,
        next_player: int | None = None,
    ) -> State:
        balls = {b: xy for b, xy in p.ball_map.items() if b != ball}
        shelves = [list(p.shelves[0]), list(p.shelves[1])]
        owed = list(p.owed)
        if shooter_continues and owed[player] > 0:
            # The свояк ball is the shooter's next scored ball: it pays a debt.
            owed[player] -= 1
            balls.update(self.respot(balls, [ball]))
        else:
            shelves[player].append(ball)
        score = (self.value(shelves[0]), self.value(shelves[1]))
        pos = p.replace(
            balls=tuple((b, x, y) for b, (x, y) in balls.items()),
            shelves=(tuple(shelves[0]), tuple(shelves[1])),
            score=score,
            owed=(owed[0], owed[1]),
        )
        winner = self.winner_of(score)
        if winner is not None:
            return make_state(state, pos, Next(None, "none"), None, winner=winner)
        if shooter_continues:
            p2, nxt = self.ready(pos, player if next_player is None else next_player, rest.in_hand)
            return make_state(state, p2, nxt, None)
        return self.pending_state(state, pos, rest)
