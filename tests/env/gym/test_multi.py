"""The ray-free two-player core and the PettingZoo AEC adapter."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

from piramida.env.gym import MultiAgentPyramidCore, PyramidAEC
from piramida.env.gym.encode import legal
from piramida.env.gym.multi import AGENTS
from piramida.env.gym.spaces import MASK_SLICES


def _random_frame(core: MultiAgentPyramidCore, seed: int) -> list[tuple]:
    obs, _ = core.reset(seed=seed)
    rng = np.random.default_rng(seed)
    space = core.action_spaces[AGENTS[0]]
    space.seed(int(rng.integers(2**31)))
    steps = [(obs, None, None, None)]
    while True:
        (agent,) = obs
        assert agent == core.actor()
        o = obs[agent]
        act = space.sample() if core.flat_action else space.sample(o["action_mask"])
        obs, rew, term, trunc, _ = core.step({agent: act})
        steps.append((obs, rew, term, trunc))
        if term["__all__"] or trunc["__all__"]:
            return steps


@pytest.mark.parametrize("variant", ["free", "five_ball"])
def test_only_the_player_to_act_observes_until_the_end(variant: str) -> None:
    core = MultiAgentPyramidCore({"variant": variant, "max_shots": 150})
    steps = _random_frame(core, seed=3)
    for obs, _, term, _ in steps[:-1]:
        assert len(obs) == 1
        (agent,) = obs
        assert obs[agent]["action_mask"].any()
        assert core.observation_spaces[agent].contains(obs[agent])
        if term is not None:
            assert term == {"__all__": False}
    obs, rew, term, trunc = steps[-1]
    assert set(obs) == set(AGENTS) and set(rew) >= set(AGENTS)
    assert term["__all__"] or trunc["__all__"]
    if term["__all__"]:
        assert all(not o["action_mask"].any() for o in obs.values())


def test_both_players_get_the_final_reward() -> None:
    ended = 0
    for seed in range(8):
        core = MultiAgentPyramidCore({"variant": "combined", "max_shots": 400, "noise": "none"})
        _, rew, term, trunc = _random_frame(core, seed)[-1]
        if term["__all__"]:
            ended += 1
            w = core.frame.g.winner
            assert rew[AGENTS[w]] == 1.0 and rew[AGENTS[1 - w]] == -1.0
            assert all(term[a] for a in AGENTS)
        else:
            assert rew[AGENTS[0]] == rew[AGENTS[1]] == 0.0 and trunc[AGENTS[0]]
    assert ended


def test_five_ball_slots_are_seen_from_the_observer() -> None:
    core = MultiAgentPyramidCore({"variant": "five_ball", "noise": "none"})
    core.reset(seed=0)
    g = core.frame.g
    p = legal(g).player
    pos = g.state.position
    o = core._obs(AGENTS[p])
    # The breaker's own white is in hand: slot 0 (own white) is absent;
    # slots 2..4 are r1, r2, y at their spots.
    assert o["balls"][0, 2] == 0.0
    assert o["balls"][2:5, 2].tolist() == [1.0, 1.0, 1.0]
    x, y = pos.xy("y")
    assert o["balls"][4, 0] == pytest.approx(x / pos.table.width)
    assert o["action_mask"][MASK_SLICES["ball"]].tolist()[:2] == [1, 0]


def test_same_seed_same_frame() -> None:
    def trace(seed: int) -> list[bytes]:
        core = MultiAgentPyramidCore({"variant": "dynamic", "max_shots": 40, "flat": True})
        return [next(iter(o.values())).tobytes() for o, *_ in _random_frame(core, seed)]

    assert trace(7) == trace(7)
    assert trace(7) != trace(8)


def test_flat_spaces_are_boxes() -> None:
    core = MultiAgentPyramidCore({"flat": True})
    obs, _ = core.reset(seed=0)
    (agent,) = obs
    assert core.observation_spaces[agent].contains(obs[agent])
    assert core.action_spaces[agent].shape == (96,)


def test_wrong_agent_and_unknown_config_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown env_config"):
        MultiAgentPyramidCore({"varient": "free"})
    core = MultiAgentPyramidCore()
    obs, _ = core.reset(seed=0)
    (agent,) = obs
    other = AGENTS[1 - AGENTS.index(agent)]
    with pytest.raises(ValueError, match="to act"):
        core.step({other: core.action_spaces[other].sample()})


# api_test warns that Dict spaces and Dict observations are not Box/ndarray:
# that is the documented design (the flat variant covers the Box case).
@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
@pytest.mark.filterwarnings("ignore:Action space:UserWarning")
@pytest.mark.filterwarnings("ignore:Action mask numpy array is all zeros:UserWarning")
@pytest.mark.parametrize(
    "kw",
    [{"variant": "free"}, {"variant": "five_ball"}, {"variant": "classic71", "flat": True}],
)
def test_pettingzoo_api_test_passes(kw: dict[str, Any]) -> None:
    env = PyramidAEC(max_shots=120, **kw)
    api_test(env, num_cycles=300)
    assert env.possible_agents == list(AGENTS)


def test_aec_final_rewards_sum_to_zero() -> None:
    env = PyramidAEC("nevskaya", max_shots=300, noise="none")
    env.reset(seed=2)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(10_000):
        obs, rew, term, trunc, _ = env.last()
        totals[agent] += rew
        if term or trunc:
            env.step(None)
        else:
            env.step(env.action_space(agent).sample(obs["action_mask"]))
    assert sum(totals.values()) == 0.0
    assert not env.agents


def test_importing_the_envs_loads_no_ray_but_the_rllib_class_does() -> None:
    code = (
        "import sys, piramida.env.gym as g\n"
        "print('ray' in sys.modules)\n"
        "try:\n"
        "    import ray  # noqa\n"
        "except ImportError:\n"
        "    print('noray'); raise SystemExit\n"
        "from piramida.training.rllib_env import MultiAgentPyramid as cls\n"
        "from ray.rllib.env.multi_agent_env import MultiAgentEnv\n"
        "print(issubclass(cls, MultiAgentEnv), cls({'variant': 'moscow'}).variant)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.split()
    assert lines[0] == "False"
    if lines[1] != "noray":
        assert lines[1:] == ["True", "moscow"]


def test_core_resets_from_a_given_position() -> None:
    text = (
        "variant=moscow balls=0:0.8875,1.0;5:0.8875,2.0 shelves=1,2|3 score=2,1 "
        "owed=0,0 to_move=1 in_hand=- break=0"
    )
    core = MultiAgentPyramidCore({"variant": "moscow", "noise": "none"})
    obs, _ = core.reset(seed=0, options={"position": text})
    assert list(obs) == ["player_1"]
    o = obs["player_1"]
    assert o["balls"][:, 2].nonzero()[0].tolist() == [0, 5]
    # Seen by player 1: his shelf holds 3, the opponent's 1 and 2.
    assert o["shelf"][[1, 2, 3]].tolist() == [-1.0, -1.0, 1.0]
    assert o["score"].tolist() == pytest.approx([1 / 8, 2 / 8])
