"""The frame driver: one way to play a frame with seeded noise
(docs/design.md §2).

``FrameDriver`` owns a frame's ``Game``, its rack seed, its execution-noise
streams and the application of actions; ``FrameDriver.play`` plays the frame
between two agents and calls a callback after every step. The match runner
(``eval/match.py``), ``piramida play``, ``piramida demo``, the sample
positions of ``piramida suggest``, the gym environments (``env/gym/frame.py``)
and the benchmarks all play frames through it. An agent is any object with
``act(view) -> Shot | str`` (``view`` a ``GameView``) and optionally
``reset(seed)``; ``env`` does not import ``agents``.

Seeding. A frame is identified by a seed and a pair number (``pair`` is 0
outside matches):

- the rack: ``Game.new(seed=rack_seed(seed, pair))`` (the shuffle and who
  breaks);
- the noise of a stroke: ``noise_rng(seed, pair, seat, n)`` for the ``n``-th
  stroke (from 0, lag shots included) of the player in ``seat`` in this
  frame; the preset perturbs the stroke with it, then the physics plays it;
- the agents: ``reset(agent_seed(seed, pair, seat))`` before the frame;
- the fallback strokes (below): one ``fallback_rng(seed, pair)`` a frame.

Nothing depends on which agent sits in a seat, so the two games of a
duplicate pair (the same seed and pair, the agents' seats swapped) have the
same rack, the same breaking seat, and the same stroke errors for the
``n``-th stroke of each seat; no stream is shared between seeds or pairs.

An agent's illegal action. ``FrameDriver.act`` asks the agent to act and
``FrameDriver.take`` checks the answer before anything changes. An action that does not fit the
decision - a choice that is not offered, a choice where a shot is due, a
shot (or anything else) where a choice is due, a shot the referee (or, in
the lag, the lag's rule) refuses - is refused and replaced: a choice by the
first choice offered, a shot by a random legal stroke
(``env/random_shots.py``) drawn from the frame's fallback stream. The
frame goes on; the step records the refused action and the reason
(``Step.refused``, ``Step.reason``), so a runner can count it. This is the
only way the driver handles an agent's illegal action. ``FrameDriver.apply``
(a learner's action in the gym environments, a benchmark's shot) is strict
instead: an illegal action raises the game's ``PiramidaError`` and changes
nothing.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from piramida.env.errors import PiramidaError
from piramida.env.events import Event, events_from_list
from piramida.env.game import Game
from piramida.env.position import Position
from piramida.env.random_shots import random_lag_shot, random_shot
from piramida.env.rules.ruling import Ruling
from piramida.env.shot import Shot
from piramida.env.view import GameView

#: ``physics(position, shot) -> ShotResult``: the stroke as played, already
#: perturbed (``piramida.env.physics.simulate`` by default).
Physics = Callable[[Position, Shot], Any]

# Domain tags of the seed sequences, so that the streams never coincide.
_RACK, _NOISE, _AGENT, _FALLBACK = 0x7AC, 0x2015E, 0xA6E, 0xFA11


def rack_seed(seed: int, pair: int = 0) -> int:
    """The seed of pair ``pair``'s rack (shared by both games of the pair)."""
    return int(np.random.SeedSequence([seed, pair, _RACK]).generate_state(1)[0])


def noise_rng(seed: int, pair: int, seat: int, shot: int) -> np.random.Generator:
    """The noise stream of one stroke, keyed by (seed, pair, seat, shot)."""
    return np.random.default_rng([seed, pair, seat, shot, _NOISE])


def agent_seed(seed: int, pair: int, seat: int) -> int:
    """The seed the agent in ``seat`` is reset with (the same for whichever
    agent sits there)."""
    return int(np.random.SeedSequence([seed, pair, seat, _AGENT]).generate_state(1)[0])


def fallback_rng(seed: int, pair: int) -> np.random.Generator:
    """The frame's stream for the strokes that replace refused ones."""
    return np.random.default_rng([seed, pair, _FALLBACK])


@dataclass(frozen=True)
class Step:
    """One action of a frame, after it was played."""

    seat: int  # the player who acted
    kind: str  # the decision: "shot", "lag" or "choice"
    position: Position  # the position before the action (the lag's: the rack)
    action: Shot | str  # what was played: the agent's action or its replacement
    ruling: Ruling | None  # a shot's ruling; None for choices and lag shots
    result: Any = None  # the ShotResult of a shot or lag shot (noise applied)
    shots: int = 0  # shots played in the frame after this step, lag shots included
    view: GameView | None = None  # what the agent saw (``act``/``play`` only)
    refused: Any = None  # the agent's own action when refused (None: not refused)
    reason: str | None = None  # why it was refused

    @property
    def is_shot(self) -> bool:
        return self.kind != "choice"

    @property
    def is_break(self) -> bool:
        """A break (the position's break flag; a lag shot is not one)."""
        return self.kind == "shot" and self.position.is_break


class FrameDriver:
    """Frames of one variant under one noise preset.

    ``reset(seed, pair, position)`` starts a frame; ``view()`` is what the
    player to act sees; ``apply(action)`` plays an action (strict);
    ``take(action)`` plays an agent's action (an illegal one replaced, see
    the module docstring); ``act(agent)`` asks an agent and takes its
    action; ``play(agents, ...)`` plays the frame out. ``noise`` is a preset name, a path, a ``Noise`` or None
    ("none" too) for exact strokes. ``physics`` replaces the simulator
    (a benchmark's timer, a test's stub).
    """

    def __init__(
        self,
        variant: str,
        noise: Any = None,
        options: Mapping[str, Any] | None = None,
        *,
        physics: Physics | None = None,
    ) -> None:
        from piramida.env.physics import load_noise

        self.variant = variant
        self.options = dict(options or {})
        self.noise = load_noise(None if noise == "none" else noise)
        if physics is None:
            from piramida.env.physics import simulate

            physics = simulate
        self.physics: Physics = physics
        self.seed = 0
        self.pair = 0
        self._game: Game | None = None
        self.strokes = [0, 0]  # strokes simulated so far per seat
        self.actions = 0  # actions applied (shots and choices)
        self.last_result: Any = None
        self._fallback = fallback_rng(0, 0)

    # ------------------------------------------------------------- frame
    def reset(self, seed: int = 0, pair: int = 0, position: Position | None = None) -> Game:
        """A new frame: the rack of (seed, pair), or ``position`` (the
        player to act is its ``to_move``)."""
        self.seed, self.pair = int(seed), int(pair)
        self.strokes = [0, 0]
        self.actions = 0
        self.last_result = None
        self._fallback = fallback_rng(self.seed, self.pair)
        self._game = Game.new(
            self.variant,
            seed=rack_seed(self.seed, self.pair),
            options=self.options,
            simulate=self._simulate,
            position=position,
        )
        return self._game

    def resume(self, game: Game, seed: int = 0, pair: int = 0) -> Game:
        """Go on with ``game`` (a loaded save, or a frame in progress): its
        strokes from now on are simulated here under this driver's noise,
        the ``n``-th stroke of a seat keyed as in a frame of (seed, pair),
        counting the strokes each seat has already played."""
        self.seed, self.pair = int(seed), int(pair)
        self._fallback = fallback_rng(self.seed, self.pair)
        self.last_result = None
        self.actions = len(game.history)
        self.strokes = [0, 0]
        for seat, entry in zip(seats_of(game), game.history, strict=True):
            if entry["type"] == "shot":
                self.strokes[seat] += 1
        game.simulate = self._simulate
        self._game = game
        return game

    @property
    def game(self) -> Game:
        if self._game is None:
            raise RuntimeError("no frame: call reset() first")
        return self._game

    @property
    def started(self) -> bool:
        return self._game is not None

    @property
    def noise_name(self) -> str:
        return "none" if self.noise is None else self.noise.name

    def agent_seed(self, seat: int) -> int:
        return agent_seed(self.seed, self.pair, seat)

    def seat_to_act(self) -> int:
        state = self.game.state
        nxt = state.next
        return int(nxt.player) if nxt.player is not None else state.position.to_move

    def view(self) -> GameView:
        return GameView.of(self.game)

    def _simulate(self, position: Position, shot: Shot) -> tuple[Sequence[Event], Position]:
        # Game.play calls this after its checks and before the state moves
        # on, so the seat to act is the shooter.
        seat = self.seat_to_act()
        n = self.strokes[seat]
        self.strokes[seat] += 1
        if self.noise is not None:
            shot = self.noise.perturb(shot, noise_rng(self.seed, self.pair, seat, n))
        res = self.physics(position, shot)
        self.last_result = res
        return res.events, res.final

    # ------------------------------------------------------------- actions
    def apply(self, action: Shot | str, view: GameView | None = None) -> Step:
        """Play ``action`` for the player to act: a choice name or a shot.
        An illegal action raises the game's ``PiramidaError`` and changes
        nothing."""
        g = self.game
        state = g.state
        seat = self.seat_to_act()
        kind = state.next.kind
        before = state.position
        if isinstance(action, str):
            g.choose(action)
            self.actions += 1
            return Step(seat, "choice", before, action, None, None, g.shots, view)
        self.last_result = None
        ruling = g.play(action)
        self.actions += 1
        return Step(seat, kind, before, action, ruling, self.last_result, g.shots, view)

    def refusal(self, action: Any) -> str | None:
        """Why ``action`` does not fit the decision pending now (the module
        docstring's list), or None when it does."""
        nxt = self.game.state.next
        if nxt.kind == "choice":
            if isinstance(action, str) and action in nxt.choices:
                return None
            return f"{_show(action)} is not among the choices ({', '.join(nxt.choices)})"
        if not isinstance(action, Shot):
            return f"a shot is due, got {_show(action)}"
        try:
            self.game.check_shot(action)
        except PiramidaError as exc:
            return str(exc)
        return None

    def fallback(self, view: GameView) -> Shot | str:
        """The action played in place of a refused one: the first choice
        offered, or a random legal stroke from the fallback stream."""
        if view.kind == "choice":
            return view.choices[0]
        rng = random.Random(int(self._fallback.integers(1 << 62)))
        if view.kind == "lag":
            return random_lag_shot(self.variant, view.player, view.position.table, rng)
        return random_shot(self.variant, view.position, view.in_hand, view.cue_balls, rng)

    def take(self, action: Any, view: GameView | None = None) -> Step:
        """Play an agent's ``action`` for the player to act; an illegal one
        is replaced (module docstring). ``view``: what the agent saw, if
        known."""
        reason = self.refusal(action)
        if reason is None:
            return self.apply(action, view)
        view = view if view is not None else self.view()
        step = self.apply(self.fallback(view), view)
        return dataclasses.replace(step, refused=action, reason=reason)

    def act(self, agent: Any, view: GameView | None = None) -> Step:
        """Ask ``agent`` for the action of the player to act and play it
        (``take``)."""
        view = view if view is not None else self.view()
        return self.take(agent.act(view), view)

    def play(
        self,
        agents: Sequence[Any],
        *,
        max_shots: int | None = None,
        max_actions: int | None = None,
        on_step: Callable[[Step], Any] | None = None,
        until: Callable[[GameView], bool] | None = None,
        reset_agents: bool = True,
    ) -> Game:
        """Play the frame on between ``agents[0]`` (seat 0) and
        ``agents[1]`` (seat 1), each reset first with its seat's seed.
        Stops when the frame is over, after ``max_shots`` shots (lag shots
        included), after ``max_actions`` actions (4 * ``max_shots`` when
        only that is given), or before the first decision ``until(view)``
        accepts. ``on_step(step)`` is called after every action."""
        if reset_agents:
            for seat, agent in enumerate(agents):
                reset = getattr(agent, "reset", None)
                if callable(reset):
                    reset(self.agent_seed(seat))
        if max_actions is None and max_shots is not None:
            max_actions = 4 * max_shots
        g = self.game
        done = 0
        while not g.over:
            if max_shots is not None and g.shots >= max_shots:
                break
            if max_actions is not None and done >= max_actions:
                break
            view = self.view()
            if until is not None and until(view):
                break
            done += 1
            step = self.act(agents[view.player], view)
            if on_step is not None:
                on_step(step)
        return g


def seats_of(game: Game) -> list[int]:
    """The seat that took each action of ``game.history``: the history is
    judged again on a fresh copy of the game (the recorded outcomes, no
    physics)."""
    saved = game.to_dict()
    history = saved["history"]
    copy = Game.from_dict(saved | {"history": []}, simulate=_no_physics, table=game.referee.table)
    seats = []
    for entry in history:
        nxt = copy.state.next
        seats.append(int(nxt.player) if nxt.player is not None else copy.position.to_move)
        if entry["type"] == "choice":
            copy.choose(str(entry["choice"]))
            continue
        copy.play_recorded(
            Shot.from_dict(entry["shot"]),
            events_from_list(entry["events"]),
            Position.from_dict(entry["after"], copy.referee.table),
            entry.get("think_s"),
        )
        for kind in entry.get("reported", []):
            copy.report_foul(str(kind))
    return seats


def _no_physics(position: Position, shot: Shot) -> tuple[Sequence[Event], Position]:
    raise PiramidaError("replaying a recorded game simulates nothing")


def _show(action: Any) -> str:
    if isinstance(action, Shot):
        return f"shot {action.to_text()}"
    text = repr(action)
    return text if len(text) <= 60 else text[:57] + "..."


__all__ = [
    "FrameDriver",
    "Physics",
    "Step",
    "agent_seed",
    "fallback_rng",
    "noise_rng",
    "rack_seed",
    "seats_of",
]
