"""Game: a frame of one variant - position, referee, whose turn, the pending
decision, and the full history (docs/design.md §2, §4).

``Game.play(shot)`` simulates the shot (the physics is imported lazily, or
injected as ``simulate``) and judges it; ``Game.play_recorded`` judges a
given outcome (tests, the ``referee`` command, a scorer of a real match);
``Game.choose`` makes a decision. A game saves to JSON with its full history
and loads by replaying it, so a saved game comes back in the same state.

The lag for the break (docs/game_rules.md §4.1, item 7; seed 000 for five-ball) is an
optional phase: with ``lag=True`` both players first play a lag shot (each
simulated alone on an empty table, player 0 left of the long axis, player 1
right of it); the winner then chooses ``break`` or ``make_opponent_break``.
Without it the seed picks the breaker.

Every lag shot, played live (``check_shot``, ``play``), recorded
(``play_recorded``) or read from a saved game (``from_dict``), goes through
``check_lag_shot`` (the ``referee`` command calls it too): a recorded or saved
history that breaks it is refused with one line naming the shot and the
reason, never judged.

Every frame ends (docs/rules.md, "How a frame ends"): a player reaches the
target; the table is left with nothing to hit (the referee's ``settle``:
the higher score wins, equal scores draw); or the frame reaches
``MAX_SHOTS_PER_FRAME`` shots (lag shots included) without a winner and is
a draw. A drawn frame is ``over`` with ``winner`` None.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from piramida.env.errors import IllegalShotError, PiramidaError
from piramida.env.events import Event, check_order, events_from_list
from piramida.env.inputs import brief, known_keys, load_json
from piramida.env.position import Position, cue_ball_of
from piramida.env.rules import get_referee
from piramida.env.rules import pyramid as P
from piramida.env.rules.ruling import (
    BREAK,
    MAKE_OPPONENT_BREAK,
    Next,
    Pending,
    Ruling,
    State,
    reported_foul,
)
from piramida.env.shot import Shot
from piramida.env.table import Table

Simulator = Callable[[Position, Shot], tuple[Sequence[Event], Position]]
SAVE_VERSION = 1

#: The hard bound on shots in a frame (lag shots included): a frame that has
#: not ended after this many is over, a draw (docs/rules.md, "How a frame
#: ends"). Frames between the built-in agents take 10-110 shots.
MAX_SHOTS_PER_FRAME = 1000


class InvalidSaveError(PiramidaError):
    """A saved game that cannot be read or replayed."""


_SAVE_KEYS = ("piramida_game", "variant", "seed", "options", "lag", "initial", "history", "max_shots")


# ------------------------------------------------------------------ the lag
def lag_position(variant: str, player: int, table: Table | None = None) -> Position:
    """The table of a lag shot: empty, ``player``'s ball in hand in the house
    (each lag shot is simulated alone)."""
    return Position(variant, (), to_move=player, in_hand="house", table=table or Table.default())


def check_lag_shot(variant: str, player: int, shot: Shot, table: Table | None = None) -> None:
    """Raise ``IllegalShotError`` unless ``shot`` is a lag shot ``player`` may
    play (docs/game_rules.md §4.1; seed 004 items 7.1, 10.1-10.2): his own
    ball, placed from hand on the playing surface, in the house (the house
    line is not part of it: a ball on the line is outside), on his side of
    the long axis (player 0 left of it, 1 right; on the axis counts as the
    left), calling and declaring no ball (the table is empty)."""
    t = table or Table.default()
    cue = cue_ball_of(variant, player)
    if shot.ball != cue or shot.place is None:
        raise IllegalShotError(f"lag: strike ball {cue} placed in the house")
    x, y = shot.place
    r = t.ball_radius
    if not t.on_surface(x, y) or not r <= x <= t.width - r:
        why = "is not on the playing surface"
    elif not t.in_house(x, y):
        why = f"is outside the house (y < {t.house_line:.4f}; the house line is not part of it)"
    elif (x > t.width / 2) != (player == 1):
        why = f"is on player {1 - player}'s side of the long axis"
    else:
        shot.check_on(lag_position(variant, player, t))
        return
    raise IllegalShotError(f"lag: place the ball in the house on your side of the long axis: ({x}, {y}) {why}")


def lag_distance(
    variant: str,
    player: int,
    shot: Shot,
    events: Sequence[Event],
    after: Position,
    table: Table | None = None,
) -> float | None:
    """One lag shot judged: ``check_lag_shot`` (an illegal one raises), then
    the distance from the front cushion of the ball where it stopped, or
    None when the lag is lost (item 7.2: the ball stopped on the opponent's
    side, did not reach the rear cushion or touched it twice, touched a
    long cushion, was pocketed or left the table; five balls: did not come
    back into the house)."""
    t = table or Table.default()
    check_lag_shot(variant, player, shot, t)
    return P.lag_result(t, player, events, after.ball_map, shot.ball, back_to_house=variant == "five_ball")


def lag_winner(first: float | None, second: float | None) -> int | None:
    """The winner of a lag from both players' ``lag_distance`` (player 0's
    first): the one whose ball stopped nearer the front cushion, or None
    when the lag is played again (both lost, or equally near; item 7.3)."""
    if (first is None and second is None) or (first is not None and second is not None and first == second):
        return None
    return 0 if second is None or (first is not None and first < second) else 1


class PhysicsUnavailableError(PiramidaError):
    """``Game.play`` needs ``piramida.env.physics.simulate``, which is missing."""


def default_simulate(position: Position, shot: Shot) -> tuple[Sequence[Event], Position]:
    """The physics' ``simulate``, imported only when a shot is played."""
    try:
        from piramida.env import physics
    except ImportError as exc:  # pragma: no cover - the package is always there
        raise PhysicsUnavailableError(f"the physics cannot be imported: {exc}") from None
    sim = getattr(physics, "simulate", None)
    if sim is None:
        raise PhysicsUnavailableError(
            "piramida.env.physics.simulate is not available yet; judge recorded shots with "
            "Game.play_recorded or pass simulate= to Game.new"
        )
    result = sim(position, shot)
    return result.events, result.final


class Game:
    """One frame of a variant. Construct with ``Game.new``."""

    def __init__(
        self,
        variant: str,
        seed: int | None,
        options: Mapping[str, Any] | None,
        lag: bool,
        initial: Position,
        simulate: Simulator | None = None,
        table: Table | None = None,
        max_shots: int | None = None,
    ) -> None:
        self.max_shots = MAX_SHOTS_PER_FRAME if max_shots is None else int(max_shots)
        if not 1 <= self.max_shots <= MAX_SHOTS_PER_FRAME:
            raise PiramidaError(
                f"max_shots must be from 1 to {MAX_SHOTS_PER_FRAME}, got {max_shots!r}"
            )
        self.variant = variant
        self.seed = seed
        self.options = dict(options or {})
        self.referee = get_referee(variant, self.options, table)
        self.lag = lag or bool(self.referee.options["lag"])
        self.initial = initial
        self.simulate = simulate or default_simulate
        self.history: list[dict[str, Any]] = []
        self.rulings: list[Ruling | None] = []
        self._rebuild()

    # ------------------------------------------------------------- creation
    @classmethod
    def new(
        cls,
        variant: str,
        seed: int | None = 0,
        options: Mapping[str, Any] | None = None,
        lag: bool = False,
        simulate: Simulator | None = None,
        table: Table | None = None,
        position: Position | None = None,
        max_shots: int | None = None,
    ) -> Game:
        """A new frame: the start position of the variant (the rack is
        shuffled by ``seed`` where the variant allows), or ``position``. Without
        the lag the seed picks who breaks. ``max_shots`` lowers the frame's
        bound on shots (``MAX_SHOTS_PER_FRAME``, the most allowed)."""
        t = table or Table.default()
        if position is None:
            position = Position.start(variant, seed=seed, table=t)
            first = random.Random(seed).randrange(2)
            if first == 1:
                position = _swap_to(position, 1)
        return cls(variant, seed, options, lag, position, simulate, t, max_shots)

    # ------------------------------------------------------------- state
    @property
    def state(self) -> State:
        return self._state

    @property
    def position(self) -> Position:
        return self._state.position

    @property
    def next(self) -> Next:
        return self._state.next

    @property
    def to_move(self) -> int | None:
        return self._state.next.player

    @property
    def over(self) -> bool:
        return self._state.over

    @property
    def winner(self) -> int | None:
        return self._state.winner

    @property
    def score(self) -> tuple[int, int]:
        return self._state.position.score

    def legal_choices(self) -> tuple[str, ...]:
        return self._state.next.choices if self._state.next.kind == "choice" else ()

    @property
    def shots(self) -> int:
        """Shots played in the frame so far, lag shots included."""
        return self._shots

    def check_shot(self, shot: Shot) -> None:
        """Raise ``IllegalShotError`` if ``play(shot)`` would refuse the shot
        now (a lag shot during the lag, else the referee's check)."""
        if self._state.next.kind == "lag":
            self._check_lag_shot(self._lag_position(), shot)
        else:
            self.referee.check_shot(self._state, shot)

    # ------------------------------------------------------------- actions
    def play(self, shot: Shot, think_s: float | None = None) -> Ruling | None:
        """Simulate and judge a shot (a lag shot during the lag)."""
        if self._state.next.kind == "lag":
            pos = self._lag_position()
            self._check_lag_shot(pos, shot)
            events, after = self.simulate(pos, shot)
            return self.play_recorded(shot, events, after, think_s)
        self.referee.check_shot(self._state, shot)
        events, after = self.simulate(self._state.position, shot)
        return self.play_recorded(shot, events, after, think_s)

    def play_recorded(
        self,
        shot: Shot,
        events: Sequence[Event],
        after: Position,
        think_s: float | None = None,
        reported: Sequence[str] = (),
    ) -> Ruling | None:
        """Judge a shot whose outcome is given (event log and final
        position), with the fouls ``reported`` on it from outside (as
        ``report_foul``); None for a lag shot."""
        if reported and self._state.next.kind == "lag":
            raise IllegalShotError("a lag shot has no fouls to report (a lost lag is item 7.2's)")
        entry = {
            "type": "shot",
            "shot": shot.to_dict(),
            "events": [e.to_dict() for e in events],
            "after": after.to_dict(),
            "think_s": think_s,
            "reported": [str(k) for k in reported],
        }
        # The entry keeps the JSON form for saving; the objects in hand are
        # judged as they are instead of being parsed back from it.
        check_order(events)
        try:
            ruling = self._apply(entry, (shot, list(events), after))
        except IllegalShotError as exc:  # judged by the rules of live play, refused the same way
            raise IllegalShotError(f"shot {self._shots + 1}: {exc}") from None
        self.history.append(entry)
        self.rulings.append(ruling)
        return ruling

    def choose(self, choice: str) -> State:
        entry = {"type": "choice", "choice": choice}
        self._apply(entry)
        self.history.append(entry)
        self.rulings.append(None)
        return self._state

    def judge_action(
        self,
        action: Shot | str,
        events: Sequence[Event] = (),
        after: Position | None = None,
        reported: Sequence[str] = (),
    ) -> Ruling:
        """Any decision of the frame, with its ruling: a recorded shot (a lag
        shot during the lag) with its outcome and the fouls reported on it,
        or a choice. A lag shot or a choice gets ``Ruling.of_action``: legal,
        no fouls, a note of what happened (the lag's result, the choice)."""
        before = self._state
        player = before.next.player
        if isinstance(action, str):
            self.choose(action)
            return Ruling.of_action(before, self._state, f"p{player} chooses {action}")
        if after is None:
            raise IllegalShotError("a recorded shot needs the position after it")
        ruling = self.play_recorded(action, events, after, reported=reported)
        if ruling is not None:
            return ruling
        return Ruling.of_action(before, self._state, self._lag_note(int(player or 0)))

    def _lag_note(self, player: int) -> str:
        """What the lag shot just judged did (docs/game_rules.md §4.1)."""
        res = self._lag_results[-1]
        mine = "loses the lag (item 7.2)" if res is None else f"rests {res:.3f} m from the front cushion"
        note = f"lag: p{player} {mine}"
        if player == 0:
            return note
        if self._state.next.kind == "lag":
            return f"{note}; lag replayed (item 7.3)"
        a, b = self._lag_results[-2], res
        win = self._state.next.player
        if a is None or b is None:
            return f"{note}; p{win} wins the lag and chooses who breaks (item 7.4)"
        return f"{note}; p{win} wins the lag, {min(a, b):.3f} m against {max(a, b):.3f} m (item 7.4)"

    def report_foul(self, kind: str) -> Ruling:
        """A foul the simulation cannot see (docs/game_rules.md §3: hands on balls, feet
        off the floor...), reported on the most recent shot. The shot is
        judged again with it; decisions taken after that shot are dropped.
        A kind of ``REPORTED_FOULS`` (``env/rules/ruling.py``) is judged
        under its own name, anything else as the foul ``reported``."""
        idx = max((i for i, e in enumerate(self.history) if e["type"] == "shot"), default=None)
        if idx is None or self._entry_is_lag(idx):
            raise IllegalShotError("no shot to report a foul on")
        entry = dict(self.history[idx])
        entry["reported"] = list(entry.get("reported", [])) + [str(kind)]
        self.history = self.history[:idx] + [entry]
        self._rebuild()
        ruling = self.rulings[-1]
        assert ruling is not None
        return ruling

    def undo(self) -> None:
        """Take back the last action (a scorekeeper's correction; item 27)."""
        if not self.history:
            raise IllegalShotError("nothing to undo")
        self.history.pop()
        self._rebuild()

    # ------------------------------------------------------------- replay
    def _rebuild(self, loading: bool = False) -> None:
        """Replay ``history`` from the start. ``loading``: a saved game's
        history, where an entry the rules refuse is an ``InvalidSaveError``
        naming the entry and the shot."""
        history, self.history, self.rulings = self.history, [], []
        self._lag_results: list[float | None] = []
        self._clock_used = [0, 0]
        self._shots = 0
        if self.lag:
            self._state = State(self.initial, Next(0, "lag"), breaker=self.initial.to_move)
        else:
            self._state = self.referee.initial_state(self.initial)
        for i, entry in enumerate(history):
            try:
                ruling = self._apply(entry)
            except PiramidaError as exc:
                if not loading:
                    raise
                what = f"shot {self._shots + 1}" if entry.get("type") == "shot" else "a choice"
                raise InvalidSaveError(f"saved game: history entry {i + 1} ({what}): {exc}") from None
            self.history.append(entry)
            self.rulings.append(ruling)

    def _entry_is_lag(self, idx: int) -> bool:
        return bool(self.history[idx].get("lag"))

    def _apply(
        self,
        entry: Mapping[str, Any],
        parsed: tuple[Shot, Sequence[Event], Position] | None = None,
    ) -> Ruling | None:
        if entry["type"] == "choice":
            choice = str(entry["choice"])
            if self._state.pending is not None and self._state.pending.stages[:1] == ("lag_winner",):
                self._state = self._lag_choice(choice)
            else:
                self._state = self.referee.choose(self._state, choice)
            return None
        if parsed is not None:
            shot, events, after = parsed
        else:  # replaying a saved history
            shot = Shot.from_dict(entry["shot"])
            events = events_from_list(entry["events"])
            after = Position.from_dict(entry["after"], self.referee.table)
        if self._state.next.kind == "lag":
            res = lag_distance(self.variant, self._state.next.player or 0, shot, events, after, self.referee.table)
            if isinstance(entry, dict):
                entry["lag"] = True
            self._lag_shot(res)
            self._shots += 1
            if self._shots >= self.max_shots:
                self._state = self._drawn(self._state)
            return None
        self.referee.check_shot(self._state, shot)
        before = self._state.position
        extra = [reported_foul(str(k)) for k in entry.get("reported", [])]
        if self._clock_foul(before.to_move, entry.get("think_s")):
            extra.append("shot_clock")
        ruling = self.referee.judge(before, shot, events, after, extra, self._state)
        self._shots += 1
        if self._shots >= self.max_shots and not ruling.state.over:
            drawn = self._drawn(ruling.state)
            note = f"frame drawn: no winner after {self._shots} shots (the bound)"
            ruling = dataclasses.replace(
                ruling,
                next=drawn.next,
                winner=None,
                penalty=f"{ruling.penalty}; {note}" if ruling.penalty else note,
                state=drawn,
            )
        self._state = ruling.state
        return ruling

    @staticmethod
    def _drawn(state: State) -> State:
        """``state`` ended as a draw: over, no winner, nothing pending."""
        return State(state.position, Next(None, "none"), None, None, True, state.fouls_charged, state.breaker)

    def _clock_foul(self, player: int, think_s: Any) -> bool:
        """docs/game_rules.md §4.9: over the clock is a foul, unless a double extension
        is left (one per player per frame by default)."""
        limit = float(self.referee.options["shot_clock_s"])
        if not limit or think_s is None or float(think_s) <= limit:
            return False
        if float(think_s) <= 2 * limit and self._clock_used[player] < int(
            self.referee.options["shot_clock_extensions"]
        ):
            self._clock_used[player] += 1
            return False
        return True

    # ------------------------------------------------------------- the lag
    def _lag_position(self) -> Position:
        return lag_position(self.variant, self._state.next.player or 0, self.referee.table)

    def _check_lag_shot(self, pos: Position, shot: Shot) -> None:
        check_lag_shot(self.variant, pos.to_move, shot, self.referee.table)

    def _lag_shot(self, res: float | None) -> None:
        """Record one lag shot's ``lag_distance``; after player 1's, the
        winner chooses or the lag is played again."""
        player = self._state.next.player or 0
        self._lag_results.append(res)
        if player == 0:
            self._state = State(self.initial, Next(1, "lag"), breaker=self.initial.to_move)
            return
        win = lag_winner(self._lag_results[-2], self._lag_results[-1])
        if win is None:
            self._state = State(self.initial, Next(0, "lag"), breaker=self.initial.to_move)
            return
        pos = self.initial.replace(to_move=win, in_hand=None) if self.variant != "five_ball" else self.initial
        self._state = State(
            pos,
            Next(win, "choice", (BREAK, MAKE_OPPONENT_BREAK)),
            Pending(("lag_winner",), win, 1 - win),
            breaker=win,
        )

    def _lag_choice(self, choice: str) -> State:
        pend = self._state.pending
        assert pend is not None
        if choice not in (BREAK, MAKE_OPPONENT_BREAK):
            raise IllegalShotError(f"choice {choice!r} is not allowed now (allowed: break, make_opponent_break)")
        breaker = pend.chooser if choice == BREAK else pend.offender
        start = _swap_to(self.initial, breaker)
        st = self.referee.initial_state(start)
        if st.over:  # a position given by hand that is already decided
            return st
        return State(st.position, st.next, None, None, False, (0, 0), breaker)

    # ------------------------------------------------------------- save/load
    def to_dict(self) -> dict[str, Any]:
        return {
            "piramida_game": SAVE_VERSION,
            "variant": self.variant,
            "seed": self.seed,
            "options": self.options,
            "lag": self.lag,
            "initial": self.initial.to_dict(),
            "history": self.history,
        } | ({} if self.max_shots == MAX_SHOTS_PER_FRAME else {"max_shots": self.max_shots})

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def from_dict(cls, d: Any, simulate: Simulator | None = None, table: Table | None = None) -> Game:
        """A saved game, replayed shot by shot: every entry is checked as it
        would be when played, so a tampered history is refused, not loaded."""
        if not isinstance(d, dict) or d.get("piramida_game") != SAVE_VERSION:
            raise InvalidSaveError("not a saved piramida game (missing 'piramida_game': 1)")
        known_keys(d, _SAVE_KEYS, "saved game", InvalidSaveError)
        variant = d.get("variant")
        if not isinstance(variant, str):
            raise InvalidSaveError(f"saved game: 'variant' must be a variant name, got {brief(variant)}")
        seed = d.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise InvalidSaveError(f"saved game: 'seed' must be an integer or null, got {brief(seed)}")
        options = d.get("options") or {}
        if not isinstance(options, dict):
            raise InvalidSaveError(f"saved game: 'options' must be an object, got {brief(options)}")
        max_shots = d.get("max_shots")
        if max_shots is not None and (isinstance(max_shots, bool) or not isinstance(max_shots, int)):
            raise InvalidSaveError(f"saved game: 'max_shots' must be an integer or null, got {brief(max_shots)}")
        if "initial" not in d:
            raise InvalidSaveError("saved game: 'initial' (the start position) is missing")
        history = d.get("history", [])
        if not isinstance(history, list) or not all(isinstance(e, dict) for e in history):
            raise InvalidSaveError("saved game: 'history' must be a list of objects")
        t = table or Table.default()
        g = cls(
            variant,
            seed,
            options,
            bool(d.get("lag")),
            Position.from_dict(d["initial"], t),
            simulate,
            t,
            max_shots,
        )
        g.history = [dict(e) for e in history]
        try:
            g._rebuild(loading=True)
        except PiramidaError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise InvalidSaveError(f"saved game: a history entry is malformed ({type(exc).__name__}: {exc})") from None
        return g

    @classmethod
    def load(cls, path: str | Path, simulate: Simulator | None = None) -> Game:
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            raise InvalidSaveError(f"cannot read {path}: {exc.strerror or exc}") from None
        return cls.from_dict(load_json(raw, f"saved game {path}", InvalidSaveError), simulate)


def _swap_to(position: Position, player: int) -> Position:
    """The start position with ``player`` to break (five-ball: his white in
    hand, the other white off the table waiting in its owner's hand)."""
    return position.replace(to_move=player)
