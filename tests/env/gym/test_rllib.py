"""RLlib PPO trains on ``MultiAgentPyramid`` (self-play: one shared module).

RLlib's default PPO RLModule does not apply an action mask, so the main
test runs the env with ``flat=True``: the flat Box action of
``piramida.env.gym.wrappers`` (discrete parts as masked argmaxes, never an
illegal option) and the flattened observation.
Kept small: a 16-unit network, 64-step batches, 2 iterations, no remote
workers (Ray 2.60: ``local_mode`` raises; docs/references.md). The default PPO
module also samples the Dict action once the observation is flat (without
the mask); that case is the slow test below.
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("ray.rllib")
pytest.importorskip("torch")


@pytest.fixture
def ray_temp(tmp_path: Path) -> Iterator[str]:
    """Ray's session folder under tmp_path, reached by a short link: its
    socket paths must stay under the 107-byte AF_UNIX limit."""
    d = tmp_path / "r"
    d.mkdir()
    if len(str(d)) <= 40:
        yield str(d)
        return
    link = Path(tempfile.gettempdir()) / f"piramida-ray-{os.getpid()}"
    if link.is_symlink():
        link.unlink()
    link.symlink_to(d)
    try:
        yield str(link)
    finally:
        link.unlink()


def _train(
    env_config: dict, tmp_path: Path, ray_temp: str, monkeypatch: pytest.MonkeyPatch, iters: int
) -> list[dict]:
    import ray.tune.trainable.trainable as trainable
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig

    from piramida.training.rllib_env import MultiAgentPyramid

    temp = ray_temp
    # The algorithm's result folder (by default under ~/ray_results).
    monkeypatch.setattr(trainable, "DEFAULT_STORAGE_PATH", str(tmp_path / "results"))
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        _temp_dir=temp,
        ignore_reinit_error=True,
    )
    try:
        config = (
            PPOConfig()
            .environment(
                MultiAgentPyramid,
                env_config=env_config,
            )
            .env_runners(num_env_runners=0, rollout_fragment_length=64)
            .learners(num_learners=0)
            .multi_agent(
                policies={"shared"},
                policy_mapping_fn=lambda agent_id, episode, **kw: "shared",
            )
            .rl_module(model_config=DefaultModelConfig(fcnet_hiddens=[16], vf_share_layers=True))
            .training(train_batch_size_per_learner=64, minibatch_size=32, num_epochs=1)
            .debugging(seed=0)
        )
        algo = config.build_algo()
        try:
            results = [algo.train() for _ in range(iters)]
        finally:
            algo.stop()
    finally:
        ray.shutdown()
    return results


def test_ppo_trains_two_iterations_on_the_multi_agent_env(
    tmp_path: Path, ray_temp: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = {"variant": "free", "flat": True, "max_shots": 30, "noise": "none"}
    results = _train(cfg, tmp_path, ray_temp, monkeypatch, iters=2)
    steps = [r["num_env_steps_sampled_lifetime"] for r in results]
    assert steps[0] >= 64 and steps[1] > steps[0]
    stats = results[-1]["learners"]["shared"]
    assert math.isfinite(float(stats["total_loss"]))


@pytest.mark.slow
def test_ppo_samples_the_dict_action_with_a_flat_observation(
    tmp_path: Path, ray_temp: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # RLlib's default module takes the Dict action (one distribution per
    # part) but not the mask: masked-out parts are corrected by decode.
    cfg = {"variant": "five_ball", "flat_obs": True, "max_shots": 30, "noise": "none"}
    results = _train(cfg, tmp_path, ray_temp, monkeypatch, iters=1)
    assert results[0]["num_env_steps_sampled_lifetime"] >= 64
    assert math.isfinite(float(results[0]["learners"]["shared"]["total_loss"]))


def test_rllib_env_refuses_out_of_space_actions_before_changing_anything() -> None:
    # MultiAgentPyramid is the core mixed into RLlib's MultiAgentEnv: the
    # same check (decode.check_action / check_flat) guards its step.
    import numpy as np

    from piramida.env.gym.decode import InvalidActionError
    from piramida.training.rllib_env import MultiAgentPyramid

    for flat, bad in ((False, {"ball": np.inf}), (True, np.full(96, np.nan))):
        env = MultiAgentPyramid({"variant": "five_ball", "noise": "none", "flat": flat})
        obs, _ = env.reset(seed=0)
        (agent,) = obs
        good = env.action_spaces[agent].sample()
        act = good | bad if isinstance(bad, dict) else bad
        shots = env.frame.shots
        with pytest.raises(InvalidActionError):
            env.step({agent: act})
        assert env.frame.shots == shots and env.actor() == agent
        env.step({agent: good})
        assert env.frame.shots == shots + 1
