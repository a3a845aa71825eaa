"""Training end to end (training/run.py, piramida train / export, the
policy agent): the smoke config trains, checkpoints and exports; the
exported file plays the RLlib module's own choices without Ray; the
module never picks a masked candidate; bad configs and policy files are
one-line errors; a run resumes from its checkpoint; ``--address`` trains
on a real two-node Ray cluster."""

from __future__ import annotations

import csv
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch
from ray_cluster import two_node_cluster

from piramida.configs import CONFIG_DIR
from piramida.training.config import TrainConfigError, load_config, parse_config

SMOKE = CONFIG_DIR / "training" / "smoke.toml"


def _decisions(n: int) -> tuple[list, list]:
    """``n`` decisions of self-play frames with random options: their views
    and observations (the greedy search keeps each cheap)."""
    from piramida.training.shot_env import ShotCore

    core = ShotCore({"variant": "free", "search": "greedy", "max_shots": 40})
    rng = np.random.default_rng(5)
    views, obs_list = [], []
    obs, _ = core.reset(seed=5)
    while len(views) < n:
        (agent,) = obs
        views.append(core.view_of(agent))
        obs_list.append(obs[agent])
        obs, _, terms, truncs, _ = core.step({agent: int(rng.integers(len(core.opts)))})
        if terms["__all__"] or truncs["__all__"]:
            obs, _ = core.reset()
    return views, obs_list


def _batch(obs_list: list) -> dict:
    return {
        "observations": {k: torch.as_tensor(np.stack([o["observations"][k] for o in obs_list])) for k in
                         ("balls", "candidates", "globals")},
        "action_mask": torch.as_tensor(np.stack([o["action_mask"] for o in obs_list])),
    }


def test_smoke_trains_checkpoints_and_the_export_plays_the_modules_choices(tmp_path: Path, ray_temp: str) -> None:
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.rl_module import RLModule

    from piramida.agents.policy import PolicyFileError
    from piramida.agents.specs import parse_spec
    from piramida.training.run import export, train

    run = tmp_path / "run"
    rows = train(run, load_config(SMOKE), cpus=2, temp_dir=ray_temp)
    assert [r["iteration"] for r in rows] == [1, 2]
    assert rows[0]["env_steps"] >= 32 and rows[1]["env_steps"] > rows[0]["env_steps"]
    assert all(np.isfinite(r["total_loss"]) for r in rows)
    assert rows[1]["eval_frames"] == 2 and 0.0 <= rows[1]["win_vs_greedy_eval"] <= 1.0
    # The evaluation's one duplicate pair, at the pair level (eval/pairs.py).
    assert rows[1]["eval_pairs"] == 1 and sum(map(int, rows[1]["eval_pentanomial"].split("/"))) == 1
    assert rows[1]["eval_pair_score"] == rows[1]["win_vs_greedy_eval"]
    assert rows[1]["eval_pair_ci_low"] <= rows[1]["eval_pair_score"] <= rows[1]["eval_pair_ci_high"]
    with (run / "metrics.csv").open() as fh:
        assert [r["iteration"] for r in csv.DictReader(fh)] == ["1", "2"]
    assert (run / "latest").read_text() == "iter_00002"
    assert (run / "checkpoints" / "iter_00001").is_dir() and (run / "checkpoints" / "iter_00002").is_dir()

    pt = tmp_path / "p.pt"
    export(run, pt)
    data = torch.load(pt, weights_only=True)
    assert data["format"] == "piramida-policy" and data["variant"] == "free" and data["search"] == "greedy"

    # The RLlib module (from the checkpoint) and the policy agent (from the
    # file, no Ray) choose the same option in 100 decisions.
    module = RLModule.from_checkpoint(str(run / "checkpoints" / "iter_00002" / "learner_group" / "learner" / "rl_module" / "main"))
    views, obs_list = _decisions(100)
    with torch.no_grad():
        logits = module.forward_inference({Columns.OBS: _batch(obs_list)})[Columns.ACTION_DIST_INPUTS]
    agent = parse_spec(f"policy:path={pt}").build()
    from piramida.agents.policy_obs import options

    for view, row in zip(views, logits, strict=True):
        opts = options(view, "pro", "greedy")
        assert agent.act(view) == opts[int(row.argmax())].action

    # Sampling as in exploration: 10 draws from each of the 100 decisions'
    # distributions, none of them a masked candidate.
    masks = torch.stack([torch.as_tensor(o["action_mask"]) for o in obs_list])
    draws = torch.distributions.Categorical(logits=logits).sample((10,))
    assert draws.numel() == 1000 and bool((masks.gather(1, draws.T) == 1).all())

    # A truncated file and an edited one are one-line errors.
    bad = tmp_path / "cut.pt"
    bad.write_bytes(pt.read_bytes()[:2000])
    with pytest.raises(PolicyFileError, match="truncated"):
        parse_spec(f"policy:path={bad}").build()
    data["state_dict"]["score.2.bias"] += 1.0
    torch.save(data, tmp_path / "edited.pt")
    with pytest.raises(PolicyFileError, match="digest"):
        parse_spec(f"policy:path={tmp_path / 'edited.pt'}").build()


def test_the_planner_joins_the_league_at_a_small_budget(tmp_path: Path, ray_temp: str) -> None:
    from piramida.training.run import train
    from piramida.training.shot_env import OPPONENT_SIMS, ShotCore

    # The smoke config with every training frame against the planner.
    text = SMOKE.read_text()
    for name, w in (("self", "0.5"), ("greedy", "0.25"), ("random", "0.25")):
        text = text.replace(f"{name} = {w}\n", f"{name} = 0.0\n")
    text = text.replace("planner = 0.0", "planner = 1.0")
    cfg = parse_config(text)
    assert cfg.opponents == {"self": 0.0, "greedy": 0.0, "random": 0.0, "planner": 1.0}
    core = ShotCore(cfg.env_config())
    assert core.opponent_names == ["planner"] and core.fixed["planner"].n_sims == OPPONENT_SIMS
    rows = train(tmp_path / "run", cfg, iterations=1, cpus=2, temp_dir=ray_temp)
    # Training frames against the planner end and count as frames against the pool.
    assert rows[0]["env_steps"] >= 32 and rows[0]["win_vs_pool"] is not None


@pytest.mark.slow
def test_a_killed_run_resumes_from_its_latest_checkpoint(tmp_path: Path, ray_temp: str) -> None:
    from piramida.training.run import train

    run = tmp_path / "run"
    train(run, load_config(SMOKE), iterations=1, cpus=2, temp_dir=ray_temp)
    rows = train(run, resume=True, iterations=2, cpus=2, temp_dir=ray_temp)
    assert [r["iteration"] for r in rows] == [2]
    with (run / "metrics.csv").open() as fh:
        got = list(csv.DictReader(fh))
    assert [r["iteration"] for r in got] == ["1", "2"] and int(got[1]["env_steps"]) > int(got[0]["env_steps"])


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("[training]\nbatchsize = 3\n", "unknown key training.batchsize"),
        ("[training]\nvariant = 'snooker'\n", "unknown variant"),
        ("[training.opponents]\nwizard = 1.0\n", "unknown agent"),
        ("[training]\nlr = 'fast'\n", "must be a number"),
        ("[training.net]\nlayers = 3\n", "unknown network key"),
        ("[other]\n", "one \\[training\\] table"),
    ],
)
def test_bad_training_configs_are_refused(text: str, match: str) -> None:
    with pytest.raises(Exception, match=match) as err:
        parse_config(text)
    assert isinstance(err.value, TrainConfigError) or "agent" in match


def test_shipped_configs_load() -> None:
    """Every shipped config loads, and one that starts from a policy file
    names a shipped file that fits it."""
    from piramida.training.run import init_state

    names = sorted(p.stem for p in (CONFIG_DIR / "training").glob("*.toml"))
    assert names == ["classic71", "combined", "combined_bc", "free", "free_bc", "free_lean", "smoke"]
    repo = Path(__file__).resolve().parents[2]
    for name in names:
        cfg = load_config(CONFIG_DIR / "training" / f"{name}.toml")
        if cfg.init:
            assert (repo / cfg.init).is_file(), cfg.init
            assert init_state(replace(cfg, init=str(repo / cfg.init)))


def test_cli_errors_are_one_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from piramida.cli import app

    runner = CliRunner()
    for args in (["train"], ["train", "--resume", str(tmp_path)], ["export", str(tmp_path), "--out", str(tmp_path / "x.pt")],
                 ["match", "--agents", f"policy:path={tmp_path / 'none.pt'},greedy"]):
        res = runner.invoke(app, args)
        assert res.exit_code == 2 and res.stderr.count("\n") == 1, (args, res.output)


@pytest.mark.slow  # a two-node cluster and an RLlib run, about 40 s: make test-slow (the tournament's runs in make test)
def test_train_address_uses_a_real_two_node_ray_cluster(tmp_path: Path, ray_temp: str) -> None:
    port = 6392
    with two_node_cluster(port, ray_temp) as env:
        # One remote env runner (it needs a CPU of the cluster) and one iteration.
        cfg = tmp_path / "c.toml"
        cfg.write_text(SMOKE.read_text().replace("env_runners = 0", "env_runners = 1"))
        out = subprocess.run(
            # A relative --out (the run's cwd is tmp_path): checkpoints need absolute paths.
            [sys.executable, "-m", "piramida", "train", "--config", str(cfg), "--out", "run",
             "--iterations", "1", "--address", f"127.0.0.1:{port}"],
            capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path,
        )
        assert out.returncode == 0, out.stderr[-2000:]
        assert "iter 1/1" in out.stderr and (tmp_path / "run" / "checkpoints" / "iter_00001").is_dir()
        nodes = subprocess.run([sys.executable, "-c", f"import ray; ray.init(address='127.0.0.1:{port}', "
                                "logging_level='ERROR'); print(len([n for n in ray.nodes() if n['Alive']]))"],
                               capture_output=True, text=True, env=env, timeout=120)
        assert nodes.stdout.strip().splitlines()[-1] == "2", nodes.stderr[-1000:]


def test_a_run_starts_from_a_policy_file(tmp_path: Path, ray_temp: str) -> None:
    """``init = FILE``: main starts from the file's weights (with lr 0 they
    are still there after an iteration), also where the file was trained
    on another candidate search (the network scores options from their
    features); a file of another variant or network is a one-line error
    before Ray starts."""
    from piramida.agents.policy import load_policy, save_policy
    from piramida.agents.policy_net import build_net
    from piramida.training.run import TrainError, export, train

    torch.manual_seed(5)
    state = {k: v + 0.05 * torch.randn_like(v) for k, v in build_net({"hidden": 16}).state_dict().items()}
    init = tmp_path / "init.pt"
    meta = {"code_version": "test", "variant": "free", "noise": "pro", "search": "planner", "net": {"hidden": 16}, "config": ""}
    save_policy(init, state, meta)
    text = SMOKE.read_text().replace("epochs = 1\n", f'epochs = 1\nlr = 0.0\ninit = "{init}"\n').replace("every = 2", "every = 0")
    train(tmp_path / "run", parse_config(text), iterations=1, cpus=2, temp_dir=ray_temp)
    export(tmp_path / "run", tmp_path / "out.pt")
    got = load_policy(tmp_path / "out.pt")["state_dict"]
    assert set(got) == set(state) and all(torch.equal(got[k], state[k]) for k in state)

    assert parse_config(text).search == "greedy"  # the file's is the planner's
    for old, new, match in (("hidden = 16", "hidden = 32", "network"), ('variant = "free"', 'variant = "combined"', "variant")):
        with pytest.raises(TrainError, match=match) as err:
            train(tmp_path / f"bad-{match}", parse_config(text.replace(old, new)), iterations=1, cpus=2, temp_dir=ray_temp)
        assert "\n" not in str(err.value)
    missing = text.replace(str(init), str(tmp_path / "none.pt"))
    with pytest.raises(TrainError, match="training.init"):
        train(tmp_path / "bad-missing", parse_config(missing), iterations=1, cpus=2, temp_dir=ray_temp)
