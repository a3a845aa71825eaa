"""The single-agent environments ``piramida/<Variant>-v0`` (docs/design.md §5)."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import piramida.env.gym as pg
from piramida.env.gym.decode import InvalidActionError
from piramida.env.gym.encode import legal
from piramida.env.gym.spaces import CHOICES, MASK_SLICES, slot_ids

IDS = sorted(pg.ENV_IDS)


@pytest.mark.parametrize("env_id", IDS)
def test_check_env_passes(env_id: str) -> None:
    env: Any = gym.make(env_id, render_mode="ansi").unwrapped
    check_env(env)
    assert env.frame.variant == pg.ENV_IDS[env_id]


def _play(env: gym.Env, seed: int, n: int, action_seed: int = 0) -> list[dict]:
    obs, _ = env.reset(seed=seed)
    space = env.action_space
    space.seed(action_seed)
    out = [obs]
    for _ in range(n):
        obs, _, term, trunc, _ = env.step(space.sample(obs["action_mask"]))
        out.append(obs)
        if term or trunc:
            break
    return out


@pytest.mark.parametrize("env_id", ["piramida/FreePyramid-v0", "piramida/FiveBall-v0"])
def test_same_seed_same_actions_same_observations(env_id: str) -> None:
    a = _play(gym.make(env_id), seed=11, n=30)
    b = _play(gym.make(env_id), seed=11, n=30)
    assert len(a) == len(b)
    for oa, ob in zip(a, b, strict=True):
        for k in oa:
            np.testing.assert_array_equal(oa[k], ob[k])


def test_different_seeds_give_different_racks() -> None:
    env = gym.make("piramida/FreePyramid-v0")
    racks = {env.reset(seed=s)[0]["balls"].tobytes() for s in range(4)}
    # Random player 0 may be breaking or not, but the rack itself differs.
    assert len(racks) > 1


def test_noise_comes_from_the_reset_seed() -> None:
    # Same seed and actions with "pro" noise: identical; the noise stream
    # changes with the seed even when the rack is fixed (classic pyramid).
    def final(seed: int) -> np.ndarray:
        env = gym.make("piramida/ClassicPyramid-v0", noise="pro", opponent=_stubborn)
        obs, _ = env.reset(seed=seed)
        assert obs["decision"][0] == 1.0
        act = {
            "ball": 0,
            "call_ball": 1,
            "call_pocket": 0,
            "choice": 0,
            "shot": np.array([0.5, 0.2, 0, 0, -1, 0, -0.5], np.float32),
        }
        return env.step(act)[0]["balls"]

    # Seeds 4 and 6: the learner breaks (the rack seed picks the breaker).
    assert np.array_equal(final(4), final(4))
    assert not np.array_equal(final(4), final(6))


def _stubborn(game):  # an opponent that always makes the first legal choice or a soft shot
    from piramida.env.gym.decode import decode

    lg = legal(game)
    act = {
        "ball": 0,
        "call_ball": 0,
        "call_pocket": 0,
        "choice": 0,
        "shot": np.array([0.0, -0.9, 0, 0, -1, 0, -0.5], np.float32),
    }
    return decode(game, act, lg).action


def test_observations_stay_in_the_space_and_mask_matches_the_rules() -> None:
    env = gym.make("piramida/FreePyramid-v0", max_shots=80)
    base: Any = env.unwrapped
    obs, _ = env.reset(seed=2)
    env.action_space.seed(2)
    for _ in range(60):
        assert env.observation_space.contains(obs)
        lg = legal(base.frame.g)
        m = obs["action_mask"]
        if lg.kind == "shot":
            allowed = {b for k, b in enumerate(slot_ids("free", 0)) if m[MASK_SLICES["ball"]][k]}
            assert allowed == set(lg.balls)
            assert obs["decision"].tolist() == [1.0, 0.0]
        elif lg.kind == "choice":
            names = {CHOICES[i] for i in np.flatnonzero(m[MASK_SLICES["choice"]])}
            assert names == set(lg.choices)
            assert obs["decision"].tolist() == [0.0, 1.0]
        obs, _, term, trunc, _ = env.step(env.action_space.sample(m))
        if term or trunc:
            break


def test_masked_out_ball_is_corrected_and_reported() -> None:
    env = gym.make("piramida/MoscowPyramid-v0", opponent=_stubborn)
    obs, _ = env.reset(seed=0)
    assert obs["action_mask"][MASK_SLICES["ball"]].tolist() == [1] + [0] * 15
    base: Any = env.unwrapped
    at = len(base.frame.g.history)
    act = {
        "ball": 7,
        "call_ball": 0,
        "call_pocket": 0,
        "choice": 0,
        "shot": np.array([0.5, 0.3, 0, 0, -1, 0, -0.5], np.float32),
    }
    _, _, _, _, info = env.step(act)
    assert "ball" in info["corrections"]
    played = base.frame.g.history[at]
    assert played["type"] == "shot" and played["shot"]["ball"] == "0"


def test_nan_shot_is_a_clear_error() -> None:
    env = gym.make("piramida/FreePyramid-v0")
    env.reset(seed=0)
    act = env.action_space.sample()
    act["shot"] = np.full(7, np.nan, np.float32)
    base: Any = env.unwrapped
    while legal(base.frame.g).kind != "shot":
        env.step(env.action_space.sample())
    with pytest.raises(InvalidActionError, match="finite"):
        env.step(act)


def test_terminal_reward_follows_the_winner() -> None:
    env = gym.make("piramida/CombinedPyramid-v0", max_shots=400)
    seen = set()
    for seed in range(6):
        obs, _ = env.reset(seed=seed)
        env.action_space.seed(seed)
        total, term, trunc, info = 0.0, False, False, {}
        while not (term or trunc):
            obs, r, term, trunc, info = env.step(env.action_space.sample(obs["action_mask"]))
            total += float(r)
        if term:
            winner = info["winner"]
            assert total == (1.0 if winner == 0 else -1.0 if winner == 1 else 0.0)
            seen.add(total)
        else:
            assert total == 0.0
    assert seen, "no frame ended"


def test_shaping_telescopes_to_the_final_score_difference() -> None:
    w = 0.5
    env = gym.make("piramida/FreePyramid-v0", reward_shaping=w, max_shots=60)
    obs, _ = env.reset(seed=4)
    env.action_space.seed(4)
    total, term, trunc, info = 0.0, False, False, {}
    while not (term or trunc):
        obs, r, term, trunc, info = env.step(env.action_space.sample(obs["action_mask"]))
        total += float(r)
    base: Any = env.unwrapped
    final = base.frame.final_reward(0)
    # The potential before the learner's first action is that after reset.
    assert total == pytest.approx(final + w * base.frame.potential(0) - w * _start_potential(4))


def _start_potential(seed: int) -> float:
    env = gym.make("piramida/FreePyramid-v0")
    env.reset(seed=seed)
    base: Any = env.unwrapped
    return base.frame.potential(0)


def test_render_modes() -> None:
    env = gym.make("piramida/FreePyramid-v0", render_mode="rgb_array")
    env.reset(seed=0)
    img: Any = env.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    env = gym.make("piramida/FreePyramid-v0", render_mode="ansi")
    env.reset(seed=0)
    text: Any = env.render()
    assert "O" in text
    with pytest.raises(ValueError, match="render_mode"):
        pg.PyramidEnv(render_mode="human")


def test_agent_opponent_is_asked_with_a_view_and_reset() -> None:
    from piramida.agents.random_agent import RandomAgent

    class Recording(RandomAgent):
        def __init__(self) -> None:
            super().__init__(0)
            self.views: list = []
            self.seeds: list = []

        def reset(self, seed=None):
            self.seeds.append(seed)
            super().reset(seed)

        def act(self, view):
            self.views.append(view)
            return super().act(view)

    opp = Recording()
    env = gym.make("piramida/NevskayaPyramid-v0", opponent=opp)
    obs, _ = env.reset(seed=1)
    for _ in range(10):
        obs, _, term, trunc, _ = env.step(env.action_space.sample(obs["action_mask"]))
        if term or trunc:
            break
    assert len(opp.seeds) == 1
    assert opp.views and all(v.player == 1 for v in opp.views)


def test_flat_action_wrapper_picks_the_best_legal_option() -> None:
    env = pg.FlatActionWrapper(gym.make("piramida/MoscowPyramid-v0"))
    obs, _ = env.reset(seed=3)
    assert env.action_space.shape == (96,)
    base: Any = env.unwrapped
    while legal(base.frame.g).kind != "shot":
        obs, *_ = env.step(env.action_space.sample())
    vec = np.zeros(96, np.float32)
    vec[5] = 1.0  # prefers ball 5, which may not be struck in Moscow pyramid
    d = pg.unflatten_action(vec, obs["action_mask"])
    assert d["ball"] == 0
    _, _, _, _, info = env.step(vec)
    assert "ball" not in info["corrections"]


def test_stepping_after_the_end_is_refused() -> None:
    env = pg.PyramidEnv("free", max_shots=1)
    obs, _ = env.reset(seed=0)
    _, _, term, trunc, _ = env.step(env.action_space.sample(obs["action_mask"]))
    assert term or trunc
    with pytest.raises(RuntimeError, match="reset"):
        env.step(env.action_space.sample())


def test_module_colon_id_works_in_a_fresh_process() -> None:
    # RLlib's remote runners resolve "module:Id" without importing us first.
    import subprocess
    import sys

    code = (
        "import gymnasium as gym\n"
        "env = gym.make('piramida.env.gym:piramida/FiveBall-v0', noise='none')\n"
        "obs, _ = env.reset(seed=0)\n"
        "print(int(obs['balls'][:, 2].sum()))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "3"  # r1, r2, y on the table; the breaker's white in hand


def test_random_action_draws_only_and_all_legal_options() -> None:
    from piramida.env.gym.opponents import random_action
    from piramida.env.gym.spaces import MASK_SIZE, action_space

    mask = np.zeros(MASK_SIZE, np.int8)
    mask[MASK_SLICES["ball"]][[0, 3, 9]] = 1
    mask[MASK_SLICES["choice"]][[2]] = 1
    rng = np.random.default_rng(0)
    draws = [random_action(mask, rng) for _ in range(300)]
    assert {d["ball"] for d in draws} == {0, 3, 9}
    assert {d["choice"] for d in draws} == {2}
    assert {d["call_ball"] for d in draws} == {0}  # no legal option: 0
    assert all(action_space().contains(d) for d in draws[:20])


@pytest.mark.filterwarnings("ignore:.*different from the unwrapped:UserWarning")
@pytest.mark.filterwarnings("ignore:.*alternative render modes:UserWarning")
def test_fully_flat_env_passes_check_env() -> None:
    from gymnasium.wrappers import FlattenObservation

    env = FlattenObservation(pg.FlatActionWrapper(pg.PyramidEnv("combined")))
    check_env(env)
    assert isinstance(env.observation_space, gym.spaces.Box)
    assert env.action_space.shape == (96,)


def test_reset_from_a_given_position() -> None:
    from piramida.env.position import Position

    text = (
        "variant=moscow balls=0:0.8875,1.0;5:0.8875,2.0 shelves=1,2|3 score=2,1 "
        "owed=0,0 to_move=0 in_hand=- break=0"
    )
    env = gym.make("piramida/MoscowPyramid-v0", opponent=_stubborn)
    obs, _ = env.reset(seed=0, options={"position": text})
    assert obs["balls"][:, 2].nonzero()[0].tolist() == [0, 5]
    assert obs["shelf"][[1, 2, 3]].tolist() == [1.0, 1.0, -1.0]
    assert obs["balls"][5, 1] == pytest.approx(2.0 / Position.parse(text).table.length)
    with pytest.raises(ValueError, match="moscow"):
        pg.PyramidEnv("free").reset(seed=0, options={"position": text})


def test_greedy_agent_plays_as_the_opponent() -> None:
    # The real agent reads the GameView (referee and state included).
    greedy = pytest.importorskip("piramida.agents.greedy")
    from piramida.env.gym.opponents import random_action

    env = gym.make("piramida/CombinedPyramid-v0", opponent=greedy.GreedyAgent(), max_shots=120)
    mine = theirs = 0
    rng = np.random.default_rng(0)
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        term = trunc = False
        info: dict = {}
        while not (term or trunc):
            obs, _, term, trunc, info = env.step(random_action(obs["action_mask"], rng))
        mine, theirs = mine + info["score"][0], theirs + info["score"][1]
    assert theirs > mine
