"""The shot-selection environments (training/shot_env.py): Gymnasium's and
PettingZoo's checkers, the options of a decision, duplicate pairs, and
both roles' final observations. The greedy search keeps each decision
cheap (about 30 ms)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import piramida.training  # noqa: F401 - registers the ids
from piramida.training import SHOT_ENV_IDS
from piramida.training.shot_aec import ShotsAEC
from piramida.training.shot_env import AGENTS, ShotCore, ShotSelectionEnv


def test_every_variant_has_a_registered_id() -> None:
    assert set(SHOT_ENV_IDS.values()) == {"free", "combined", "moscow", "nevskaya", "dynamic", "classic71", "five_ball"}
    env = gymnasium.make("piramida/CombinedPyramidShots-v0", search="greedy", max_shots=4)
    assert env.unwrapped.core.variant == "combined"


def test_gymnasium_check_env_passes() -> None:
    check_env(ShotSelectionEnv("free", search="greedy", max_shots=40))


def test_pettingzoo_api_test_passes() -> None:
    api_test(ShotsAEC(search="greedy", max_shots=30), num_cycles=20)


def test_options_are_the_candidates_or_the_choices_offered() -> None:
    core = ShotCore({"variant": "free", "search": "greedy", "max_shots": 120, "opponents": {"self": 1}})
    rng = np.random.default_rng(3)
    obs, _ = core.reset(seed=3)
    kinds = set()
    for _ in range(120):
        (agent,) = obs
        view = core.view_of(agent)
        mask = obs[agent]["action_mask"]
        assert mask.dtype == np.int8 and int(mask.sum()) == len(core.opts) >= 1
        assert np.all(mask[: len(core.opts)] == 1) and np.all(mask[len(core.opts):] == 0)
        if view.kind == "choice":
            assert [o.action for o in core.opts] == list(view.choices)[: len(core.opts)]
        else:
            assert all(o.candidate is not None for o in core.opts)
        kinds.add(view.kind)
        obs, rew, terms, truncs, infos = core.step({agent: int(rng.integers(len(core.opts)))})
        assert all(i["corrections"] == () for i in infos.values())
        if terms["__all__"] or truncs["__all__"]:
            obs, _ = core.reset()
    assert "shot" in kinds


def test_a_masked_index_is_replaced_and_reported() -> None:
    env = ShotSelectionEnv("free", search="greedy", max_shots=20)
    obs, _ = env.reset(seed=1)
    masked = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, _, _, _, info = env.step(masked)
    assert info["corrections"] and "masked" in info["corrections"][0]


def test_both_roles_get_the_final_observation_and_reward() -> None:
    core = ShotCore({"variant": "free", "search": "greedy", "max_shots": 400})
    obs, _ = core.reset(seed=0)
    while True:
        (agent,) = obs
        # Option 0 is the toolbox's best pot, so frames end within the cap.
        obs, rew, terms, truncs, infos = core.step({agent: 0})
        if terms["__all__"] or truncs["__all__"]:
            break
    assert set(obs) == set(AGENTS) == set(rew) == set(infos)
    assert all(int(o["action_mask"].sum()) == 0 for o in obs.values())
    assert terms["__all__"] and rew["player_0"] == -rew["player_1"] != 0
    assert {infos[a]["outcome"] for a in AGENTS} == {1.0, -1.0}


def test_duplicate_frames_share_the_rack_with_the_seats_swapped() -> None:
    core = ShotCore({"variant": "free", "search": "greedy", "max_shots": 6, "opponents": {"random": 1},
                     "duplicate": True, "seed": 11})
    seeds, seats, pairs = [], [], []
    for _ in range(4):
        _, info = core.reset()
        seeds.append(core.driver.seed)
        seats.append(core.seat_of["player_0"])
        pairs.append((info["player_0"]["pair"], info["player_0"]["game"]))
    # The frame driver's seed fixes the rack, the breaking seat and each
    # seat's stroke errors (env/driver.py).
    assert seeds == [11, 11, 12, 12] and seats == [0, 1, 0, 1]
    assert pairs == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_the_evaluation_plays_greedy_alone_after_rllib_merges_its_config() -> None:
    # RLlib merges evaluation_config's env_config into the training one key
    # by key: the training opponents must not survive into the evaluation.
    from piramida.training.config import parse_config
    from piramida.training.run import build_config

    cfg = parse_config("[training]\nsearch = 'greedy'\n[training.opponents]\nself = 0.5\nrandom = 0.5\n")
    env_config = build_config(cfg, []).get_evaluation_config_object().env_config
    assert env_config["duplicate"] and env_config["opponents"]["greedy"] == 1.0
    core = ShotCore(env_config)
    assert core.opponent_names == ["greedy"] and set(core.fixed) == {"greedy"}


@pytest.mark.parametrize("bad", [{"variant": "free", "colour": 1}, {"search": "widest"}, {"opponents": {"greedy": -1}}])
def test_bad_config_is_refused(bad: dict) -> None:
    with pytest.raises(ValueError):
        ShotCore(bad)
