"""The frame driver (env/driver.py): one seeded-noise scheme, frames that a
seed reproduces, duplicate pairs that share the rack and the stroke errors
per seat, a callback per step, and an agent's illegal action replaced in the
one documented way."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from piramida.env.driver import FrameDriver, Step, agent_seed, noise_rng, rack_seed
from piramida.env.errors import PiramidaError
from piramida.env.game import Game
from piramida.env.physics import load_noise
from piramida.env.position import Position
from piramida.env.random_shots import random_lag_shot, random_shot
from piramida.env.shot import Shot
from piramida.env.view import GameView


class Rand:
    """A random agent (as agents/random_agent.py), reset by its seat's seed."""

    def __init__(self) -> None:
        import random

        self.rng = random.Random(0)
        self.seeds: list[int] = []

    def reset(self, seed: int | None = None) -> None:
        import random

        self.seeds.append(int(seed or 0))
        self.rng = random.Random(seed)

    def act(self, view: GameView) -> Shot | str:
        if view.kind == "choice":
            return self.rng.choice(list(view.choices))
        if view.kind == "lag":
            return random_lag_shot(view.variant, view.player, view.position.table, self.rng)
        return random_shot(view.variant, view.position, view.in_hand, view.cue_balls, self.rng)


class Fixed:
    """Always the same soft stroke of the allowed cue ball (no randomness of
    its own), and the first choice."""

    def act(self, view: GameView) -> Shot | str:
        if view.kind == "choice":
            return view.choices[0]
        if view.kind == "lag":
            return random_lag_shot(view.variant, view.player, view.position.table, _rng())
        place = None
        if view.in_hand:
            t = view.position.table
            place = (t.width / 2 + 0.3, t.house_line / 2)
        return Shot(ball=view.cue_balls[0], phi=80.0, v=3.0, place=place)


def _rng() -> Any:
    import random

    return random.Random(1)


def _frame(
    seed: int, pair: int = 0, agents: Any = None, noise: str = "pro", variant: str = "free"
) -> tuple[Game, list[Step]]:
    drv = FrameDriver(variant, noise)
    game = drv.reset(seed, pair)
    steps: list[Step] = []
    drv.play(agents or [Rand(), Rand()], max_shots=40, on_step=steps.append)
    return game, steps


def test_same_seed_same_frame_other_seed_other_frame() -> None:
    a, _ = _frame(3)
    b, _ = _frame(3)
    c, _ = _frame(4)
    assert a.to_dict() == b.to_dict()
    assert a.to_dict()["history"] != c.to_dict()["history"]
    assert a.initial == Game.new("free", seed=rack_seed(3, 0)).initial


def test_a_pair_shares_the_rack_and_the_noise_per_seat_and_stroke() -> None:
    # The same seed and pair, different agents in the two seats: the rack,
    # the breaking seat and the stroke errors of the n-th stroke of each
    # seat are the same in both games.
    sigma = load_noise("pro")
    assert sigma is not None
    errors: list[dict[tuple[int, int], float]] = []
    racks = []
    for agents in ([Rand(), Fixed()], [Fixed(), Rand()]):
        game, steps = _frame(9, pair=2, agents=agents)
        racks.append(game.initial)
        seen: dict[tuple[int, int], float] = {}
        count = [0, 0]
        for st in steps:
            if st.is_shot:
                assert isinstance(st.action, Shot) and st.result is not None
                seen[(st.seat, count[st.seat])] = st.result.shot.phi - st.action.phi
                count[st.seat] += 1
        errors.append(seen)
    assert racks[0] == racks[1]
    common = set(errors[0]) & set(errors[1])
    assert {(0, 0), (1, 0)} <= common and len(common) >= 4
    for key in common:
        assert errors[0][key] == pytest.approx(errors[1][key], abs=1e-12)
        seat, n = key
        want = noise_rng(9, 2, seat, n).standard_normal(5)[0] * sigma.phi
        assert errors[0][key] == pytest.approx(want, abs=1e-12)
    # Another pair: another rack and other errors.
    other, _ = _frame(9, pair=3)
    assert other.initial != racks[0]


def test_agents_are_reset_with_their_seats_seed() -> None:
    a, b = Rand(), Rand()
    drv = FrameDriver("free")
    drv.reset(5, 1)
    drv.play([a, b], max_shots=1)
    assert a.seeds == [agent_seed(5, 1, 0)] and b.seeds == [agent_seed(5, 1, 1)]
    assert agent_seed(5, 1, 0) != agent_seed(5, 1, 1) != agent_seed(5, 2, 1)


def test_the_callback_sees_every_step() -> None:
    game, steps = _frame(1, agents=[Rand(), Rand()])
    assert len(steps) == len(game.history) > 0
    for st, entry in zip(steps, game.history, strict=True):
        if st.is_shot:
            assert entry["type"] == "shot" and entry["shot"] == st.action.to_dict()  # type: ignore[union-attr]
            assert st.ruling is not None or st.kind == "lag"
        else:
            assert entry == {"type": "choice", "choice": st.action}
        assert st.refused is None and st.view is not None
    assert steps[-1].shots == game.shots
    assert sum(st.is_shot for st in steps) == game.shots


def test_max_shots_and_until_stop_the_loop() -> None:
    drv = FrameDriver("combined", "pro")
    game = drv.reset(2)
    drv.play([Rand(), Rand()], max_shots=3)
    assert game.shots == 3
    game = drv.reset(2)
    views: list[GameView] = []
    drv.play([Rand(), Rand()], until=lambda v: views.append(v) or game.shots >= 2)
    assert game.shots == 2 and views[-1].kind in ("shot", "choice")


class Cheat:
    """Illegal every time: a ball it may not strike, a choice not offered,
    a choice where a shot is due."""

    def __init__(self, how: str) -> None:
        self.how = how

    def act(self, view: GameView) -> Any:
        if view.kind == "choice":
            return "make_everyone_happy"
        if self.how == "string":
            return "shoot"
        # A ball on the table that it may not strike (combined pyramid: the
        # coloured ball is the only cue ball).
        ball = next(b for b in view.position.ids if b not in view.cue_balls)
        return Shot(ball=ball, phi=10.0, v=2.0)


@pytest.mark.parametrize("how", ["ball", "string"])
def test_an_illegal_action_is_replaced_and_recorded(how: str) -> None:
    def run() -> tuple[Game, list[Step]]:
        drv = FrameDriver("combined", "pro")
        game = drv.reset(0)
        steps: list[Step] = []
        drv.play([Cheat(how), Rand()], max_shots=12, on_step=steps.append)
        return game, steps

    game, steps = run()
    mine = [s for s in steps if s.seat == 0]
    assert mine and all(s.refused is not None and s.reason for s in mine)
    for s in mine:
        if s.kind == "choice":
            # The first choice offered.
            assert s.view is not None and s.action == s.view.choices[0]
        else:
            assert isinstance(s.action, Shot) and s.action != s.refused
    # The frame went on, and the replacements come from the frame's own
    # stream: the same seed replays it exactly.
    assert game.shots > 1
    again, _ = run()
    assert again.to_dict() == game.to_dict()


def test_apply_is_strict_and_changes_nothing() -> None:
    drv = FrameDriver("free", "pro")
    game = drv.reset(0)
    before = (game.to_dict(), list(drv.strokes), drv.actions)
    view = drv.view()
    with pytest.raises(PiramidaError):
        drv.apply(Shot(ball="15", phi=10.0, v=2.0) if view.kind == "shot" else "nope")
    assert (game.to_dict(), list(drv.strokes), drv.actions) == before
    assert drv.refusal("nope") is not None


def test_a_frame_from_a_position_and_exact_strokes() -> None:
    pos = Position.parse("variant=free balls=0:0.8875,1.0;5:0.8875,2.0")
    drv = FrameDriver("free", "none")
    game = drv.reset(0, position=pos)
    assert game.initial == pos and drv.noise is None
    step = drv.apply(Shot(ball="0", phi=90.0, v=2.0))
    assert step.result.shot == Shot(ball="0", phi=90.0, v=2.0) and step.ruling is not None


def test_for_position_is_the_view_of_a_position_given_by_hand() -> None:
    pos = Position.parse("variant=combined balls=0:0.8,1.0;5:0.5,2.0;9:1.2,2.5 to_move=1")
    v = GameView.for_position(pos)
    assert (v.variant, v.position, v.player, v.kind) == ("combined", pos, 1, "shot")
    assert v.cue_balls == tuple(v.referee.allowed_cue_balls(pos)) and v.state is not None
    assert GameView.of(Game.new("combined", position=pos)).cue_balls == v.cue_balls


def test_noise_streams_are_keyed_by_all_four() -> None:
    draws = {
        k: float(noise_rng(*k).standard_normal())
        for k in ((1, 0, 0, 0), (1, 0, 0, 1), (1, 0, 1, 0), (1, 1, 0, 0), (2, 0, 0, 0))
    }
    assert len(set(draws.values())) == len(draws)
    assert float(noise_rng(1, 0, 0, 0).standard_normal()) == draws[(1, 0, 0, 0)]
    assert np.uint32(rack_seed(1, 0)) == rack_seed(1, 0)


def test_seats_of_and_resume_go_on_with_a_saved_frame() -> None:
    # A frame with fouls and choices (random agents), saved half way: the
    # seats that acted are found again, and a driver that resumes the saved
    # game plays each seat's next stroke with the noise it would have had.
    from piramida.env.driver import seats_of

    drv = FrameDriver("free", "pro")
    game = drv.reset(6)
    steps: list[Step] = []
    drv.play([Rand(), Rand()], max_actions=12, on_step=steps.append)
    assert seats_of(game) == [st.seat for st in steps]
    assert any(st.kind == "choice" for st in steps) or len({st.seat for st in steps}) == 2
    saved = Game.from_dict(game.to_dict())
    other = FrameDriver("free", "pro")
    other.resume(saved, seed=6)
    assert other.strokes == drv.strokes and other.actions == len(game.history)
    shot = Fixed().act(other.view())
    a = drv.apply(shot) if isinstance(shot, str) else drv.apply(shot)
    b = other.apply(shot)
    assert a.ruling == b.ruling
    if a.result is not None:
        assert a.result.shot == b.result.shot  # the same stroke error
    assert game.to_dict() == saved.to_dict()
