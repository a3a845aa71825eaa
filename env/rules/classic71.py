"""Classic pyramid, "71 очко" (docs/game_rules.md §5.6; seed 004).

The coloured ball is the cue ball; the numbered balls are racked in the
fixed order of docs/game_rules.md §2. Every shot but the break is called (ball and
pocket). When the called ball drops in the called pocket on a legal shot,
every ball pocketed on it scores its number (ball 1 scores ``ace_value``;
the ball that clears the table ``last_ball_bonus`` more). An uncalled ball
pocketed while the call fails is re-spotted, no foul, and the turn passes.
A foul costs ``foul_points`` (seed 004: "снимается 5 очков в пользу
соперника"): deducted from the offender (scores may go negative), or with
``foul_points_to_opponent`` added to the opponent. Target 71.

Interpretations (docs/game_rules.md §5.6, §6), each pinned by a golden case:
- the break needs no call, and balls pocketed on a legal break score;
- when the table is cleared and nobody reached the target, the higher score
  wins; at equal scores ``tie = "replay"`` starts one more frame (new rack,
  scores from 0, the other player breaks) and ``tie = "draw"`` ends the
  frame with no winner.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from piramida.env.position import Position, object_ball_ids
from piramida.env.rules import pyramid as P
from piramida.env.rules.base import BaseReferee, Judgement, Outcome, make_state, register_game
from piramida.env.rules.options import COMMON_OPTIONS, GameType, Option
from piramida.env.rules.ruling import Next, Pending, State
from piramida.env.shot import Shot

_GAME_TYPE = GameType(
    variant="classic71",
    long_name="Classic pyramid (71 points)",
    cue_ball="coloured",
    called=True,
    rules="docs/game_rules.md §5.6",
    options=COMMON_OPTIONS
    + (
        Option("target", int, "points to win (71)"),
        Option("ace_value", int, "points for ball 1 (11)"),
        Option("last_ball_bonus", int, "extra points for the ball that clears the table (10)"),
        Option("foul_points", int, "points a foul costs (seed 004: 5)"),
        Option("foul_points_to_opponent", bool, "false: deducted from the offender; true: added to the opponent"),
        Option("tie", ("replay", "draw"), "table cleared at equal scores: one more frame, or a draw"),
    ),
)


class ClassicReferee(BaseReferee):
    game_type = _GAME_TYPE

    def value(self, ball: str) -> int:
        return int(self.options["ace_value"]) if ball == "1" else int(ball)

    def check_call(self, position: Position, shot: Shot, bad: Callable[[str], Exception]) -> None:
        if position.is_break:
            return
        if shot.call is None:
            raise bad("classic pyramid: every shot but the break needs a call (call=BALL:POCKET)")
        if shot.call[0] not in position or shot.call[0] == "0":
            raise bad(f"called ball {shot.call[0]} is not an object ball on the table")

    def outcome_key(self, before: Position, shot: Shot, outcome: Outcome) -> tuple[Any, ...] | None:
        """``BaseReferee.plain_key`` where the called ball drops in the called
        pocket and the cue ball stays up, or nothing drops: a legal shot then
        scores every ball it pocketed and re-spots none (§5.6)."""
        if outcome.pocketed and (shot.call is None or (shot.call[0], shot.call[1]) not in outcome.pocketed):
            return None
        if any(b == "0" for b, _ in outcome.pocketed):
            return None
        return self.plain_key(before, shot, outcome)

    def rule(self, before: Position, shot: Shot, facts: P.ShotFacts, fouls: set[str], state: State) -> Judgement:
        shooter, opp = before.to_move, 1 - before.to_move
        if "0" in facts.pocketed_ids:
            fouls.add("cue_ball_pocketed")  # §5.6
        cue_gone = "0" in facts.pocketed_ids or "0" in facts.jumped
        legal = not fouls
        balls = {b: xy for b, xy in facts.final.items() if b != "0" or not cue_gone}
        objs = [b for b in facts.pocketed_ids if b != "0"]
        jumped_objs = [b for b in facts.jumped if b != "0"]
        score = list(before.score)
        shelves = [list(before.shelves[0]), list(before.shelves[1])]
        charged = list(state.fouls_charged)
        scored: list[str] = []
        notes: list[str] = []
        to_respot = list(jumped_objs)
        success = False
        if legal:
            success = before.is_break or (
                shot.call is not None and (shot.call[0], shot.call[1]) in facts.pocketed
            )
            if success:
                scored = objs
                pts = sum(self.value(b) for b in objs)
                left = [b for b in balls if b in object_ball_ids(self.variant)] + to_respot
                if scored and not left:
                    pts += int(self.options["last_ball_bonus"])
                    notes.append(f"last ball: +{self.options['last_ball_bonus']}")
                score[shooter] += pts
                shelves[shooter] += scored
            else:
                to_respot += objs
                if objs:
                    notes.append("call failed: pocketed balls re-spotted, no foul")
        else:
            to_respot += objs
            fp = int(self.options["foul_points"])
            if self.options["foul_points_to_opponent"]:
                score[opp] += fp
                notes.append(f"penalty: {fp} points to player {opp}")
            else:
                score[shooter] -= fp
                notes.append(f"penalty: {fp} points deducted from player {shooter}")
            charged[shooter] += 1
        placed = self.respot(balls, to_respot)
        balls.update(placed)
        pos = self.settled(
            before,
            facts,
            balls,
            shelves=(tuple(shelves[0]), tuple(shelves[1])),
            score=(score[0], score[1]),
            in_hand=None,
            is_break=False,
        )
        fc = (charged[0], charged[1])
        winner = self.winner_of(score)
        cleared = not any(b in object_ball_ids(self.variant) for b in balls)
        if winner is not None:
            new = make_state(state, pos, Next(None, "none"), None, winner=winner, fouls_charged=fc)
        elif cleared:
            new = self._cleared(state, pos, fc, notes)
        elif not legal:
            stage = ("after_break",) if before.is_break else ("after",)
            hand = "house" if cue_gone else None
            new = self.pending_state(
                make_state(state, pos, state.next, None, fouls_charged=fc),
                pos,
                Pending(stage, opp, shooter, hand),
            )
        else:
            nxt_player = shooter if (success and scored) else opp
            p2, nxt = self.ready(pos, nxt_player, None)
            new = make_state(state, p2, nxt, None, fouls_charged=fc)
        return Judgement(fouls, {shooter: tuple(scored), opp: ()}, placed, (pos.score[0], pos.score[1]), new, notes)

    def settle(self, state: State) -> tuple[State, str | None]:
        """A position with no object ball left (given by hand) ends as a
        cleared table does (``_cleared``)."""
        if state.over or self.winner_of(state.position.score) is not None:
            return super().settle(state)
        if self.exhausted(state.position) is None:
            return state, None
        notes: list[str] = []
        new = self._cleared(state, state.position, state.fouls_charged, notes)
        return new, "; ".join(notes) or "table cleared: the higher score wins"

    def _cleared(self, state: State, pos: Position, fc: tuple[int, int], notes: list[str]) -> State:
        s0, s1 = pos.score
        if s0 != s1:
            return make_state(state, pos, Next(None, "none"), None, winner=0 if s0 > s1 else 1, fouls_charged=fc)
        if self.options["tie"] == "draw":
            done = make_state(state, pos, Next(None, "none"), None, fouls_charged=fc)
            return State(done.position, done.next, None, None, True, fc, state.breaker)
        notes.append("table cleared at equal scores: one more frame decides")
        breaker = 1 - state.breaker
        rack = P.rack(self.table, object_ball_ids(self.variant), self.variant)
        fresh = pos.replace(
            balls=tuple((b, x, y) for b, (x, y) in rack.items()),
            shelves=((), ()),
            score=(0, 0),
            owed=(0, 0),
            is_break=True,
        )
        p2, nxt = self.ready(fresh, breaker, "house")
        return make_state(state, p2, nxt, None, breaker=breaker, fouls_charged=(0, 0))


register_game(_GAME_TYPE, ClassicReferee)
