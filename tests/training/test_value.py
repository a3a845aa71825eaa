"""The learned value (docs/training.md, "The learned value"): the observation, the network, value
files, self-play shards on one process and on Ray, training, and the
planner guided by a value file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from piramida.agents.value_net import ValueFileError, ValueModel, build_net, save_value
from piramida.agents.value_obs import encode, mirror
from piramida.cli import app
from piramida.env.driver import FrameDriver
from piramida.training.selfplay import (
    SelfPlayConfig,
    SelfPlayError,
    load_shards,
    run_selfplay,
    shard_name,
)

runner = CliRunner()


def _midgame(variant: str = "free", seed: int = 3) -> Any:
    """A position a few greedy shots into a frame."""
    from piramida.agents import make_agent

    drv = FrameDriver(variant, "pro")
    drv.reset(seed, 0)
    drv.play([make_agent("greedy"), make_agent("greedy")], max_shots=4)
    return drv.view()


def _value_file(path: Path, hidden: int = 16, seed: int = 0) -> Path:
    torch.manual_seed(seed)
    meta = {"variant": "free", "net": {"hidden": hidden}, "config": {"test": True}, "code_version": "test"}
    save_value(path, build_net({"hidden": hidden}), meta)
    return path


def test_the_network_ignores_the_order_of_the_balls_and_the_mirror_flips_x() -> None:
    view = _midgame()
    pos = view.position
    balls, g = encode(pos, view.player, view.cue_balls, 8, view.in_hand)
    # Relabel the numbered balls in reverse: the balls are listed in another
    # order, the table is the same.
    numbered = [b for b in pos.ids if b != "0"]
    names = dict(zip(numbered, reversed(numbered), strict=True))
    relabelled = pos.replace(balls=tuple((names.get(b, b), x, y) for b, x, y in pos.balls))
    cues = tuple(names.get(b, b) for b in view.cue_balls)
    balls2, g2 = encode(relabelled, view.player, cues, 8, view.in_hand)
    assert not np.array_equal(balls, balls2)  # another order ...
    assert sorted(map(tuple, balls.tolist())) == sorted(map(tuple, balls2.tolist()))  # ... of the same tokens
    net = build_net({"hidden": 16})
    with torch.no_grad():
        a = net(torch.as_tensor(balls[None]), torch.as_tensor(g[None]))[0]
        b = net(torch.as_tensor(balls2[None]), torch.as_tensor(g2[None]))[0]
    assert torch.allclose(a, b, atol=1e-6)
    # The mirror image of the table is the mirror of the tokens.
    w = pos.table.width
    flipped = pos.replace(balls=tuple((b, w - x, y) for b, x, y in pos.balls))
    mb, _ = encode(flipped, view.player, view.cue_balls, 8, view.in_hand)
    assert np.allclose(mb, mirror(balls), atol=1e-6)


def test_value_files_load_and_damaged_ones_are_one_line_errors(tmp_path: Path) -> None:
    path = _value_file(tmp_path / "v.pt")
    model = ValueModel(path)
    view = _midgame()
    b, g = encode(view.position, view.player, view.cue_balls, 8)
    p = model.win(b[None], g[None])
    assert p.shape == (1,) and 0.0 < p[0] < 1.0
    cut = tmp_path / "cut.pt"
    cut.write_bytes(path.read_bytes()[:1500])
    with pytest.raises(ValueFileError, match="truncated"):
        ValueModel(cut)
    data = torch.load(path, weights_only=True)
    data["state_dict"]["head.0.bias"] += 1.0
    torch.save(data, tmp_path / "edited.pt")
    with pytest.raises(ValueFileError, match="digest"):
        ValueModel(tmp_path / "edited.pt")
    # Through the planner's spec on the command line: one line, exit 2.
    res = runner.invoke(app, ["suggest", "--position", view.position.to_text(), "--agent",
                              f"planner:sims=20:value={cut}"])
    assert res.exit_code == 2 and res.stderr.count("\n") == 1 and "truncated" in res.stderr
    res = runner.invoke(app, ["match", "--agents", f"planner:sims=20:value={tmp_path / 'none.pt'},greedy", "--games", "2"])
    assert res.exit_code == 2 and res.stderr.count("\n") == 1 and "no file" in res.stderr


class CountingModel:
    """A stand-in network: the calls and batch sizes it was asked for, and
    a value that depends on the table (the shooter's share of the balls)."""

    def __init__(self) -> None:
        self.batches: list[int] = []

    def win(self, balls: np.ndarray, globals_: np.ndarray) -> np.ndarray:
        self.batches.append(len(balls))
        return 1.0 / (1.0 + np.exp(-4.0 * (globals_[:, 2] - globals_[:, 3]) - balls[:, :, 0].sum(1) * 0.01))


def test_the_planner_scores_a_round_in_one_call_and_its_choice_is_deterministic(tmp_path: Path) -> None:
    from piramida.agents.planner import Allowance, PlannerAgent
    from piramida.agents.planner_value import NetValuation
    from piramida.agents.shots.context import Budget, Context

    view = _midgame()
    agent = PlannerAgent(budget=Allowance(budget_s=None, n_sims=800), noise="pro")
    model = CountingModel()
    agent.valuation = NetValuation(model, agent.model)
    ctx = Context(view, Budget(None, 800), agent.model)
    arms = agent.candidates(ctx)
    agent.evaluate(ctx, arms)
    rounds = max(a.rounds for a in arms)
    assert rounds >= 2 and len(model.batches) == rounds  # one inference call a halving round
    assert sum(model.batches) >= sum(a.n for a in arms)  # every sample was scored (choices twice)
    assert all(0.0 <= v <= 1.0 for a in arms for v in a.values)

    path = _value_file(tmp_path / "v.pt")
    spec_agent = PlannerAgent(budget=Allowance(budget_s=None, n_sims=150), noise="pro", value=str(path))
    spec_agent.reset(7)
    a7 = spec_agent.act(view)
    spec_agent.reset(7)
    assert spec_agent.act(view) == a7 and spec_agent.last_value is not None
    assert spec_agent.valuation.net.calls > 0


def test_selfplay_records_outcomes_resumes_and_gives_the_same_shards_on_ray(tmp_path: Path, ray_temp: str) -> None:
    import ray

    cfg = SelfPlayConfig(("greedy", "greedy:noise=amateur"), "free", 12, seed=4)
    out = tmp_path / "sp"
    new = run_selfplay(cfg, out)
    assert [p.name for p in new] == [shard_name(0, 9), shard_name(10, 11)]
    d = load_shards([out])
    assert set(np.unique(d["frame"])) == set(range(12))
    assert set(np.unique(d["outcome"])) <= {0.0, 0.5, 1.0}
    # The two players of a frame have opposite outcomes.
    for f in range(12):
        rows = d["frame"] == f
        by_seat = {int(s): float(o) for s, o in zip(d["seat"][rows], d["outcome"][rows], strict=True)}
        if len(by_seat) == 2:
            assert by_seat[0] + by_seat[1] == 1.0
    # Odd frames swap the seats: each agent sits in both.
    assert {(int(a), int(s)) for a, s in zip(d["agent"], d["seat"], strict=True)} == {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert np.isnan(d["search_value"]).all()  # greedy has no value of its own

    # A rerun plays only what is missing, and the same frames again.
    (out / shard_name(10, 11)).unlink()
    again = run_selfplay(cfg, out)
    assert [p.name for p in again] == [shard_name(10, 11)]
    d2 = load_shards([out])
    assert np.array_equal(d["balls"], d2["balls"]) and np.array_equal(d["outcome"], d2["outcome"])
    with pytest.raises(SelfPlayError, match="another config"):
        run_selfplay(SelfPlayConfig(("greedy", "greedy"), "free", 12, seed=5), out)

    # On Ray, two workers: the same shards.
    ray.init(num_cpus=2, include_dashboard=False, _temp_dir=ray_temp, log_to_driver=False,
             configure_logging=False)
    try:
        run_selfplay(cfg, tmp_path / "ray", workers=2)
    finally:
        ray.shutdown()
    d3 = load_shards([tmp_path / "ray"])
    assert np.array_equal(d["balls"], d3["balls"]) and np.array_equal(d["outcome"], d3["outcome"])

    # A damaged shard is one line.
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / shard_name(0, 9)).write_bytes(b"not a zip")
    with pytest.raises(SelfPlayError, match="not a readable"):
        load_shards([bad])


def test_train_value_learns_from_the_shards_and_writes_a_file_the_planner_reads(tmp_path: Path) -> None:
    out = tmp_path / "sp"
    res = runner.invoke(app, ["selfplay", "--agents", "greedy,greedy", "--variant", "free", "--frames", "40",
                              "--seed", "2", "--out", str(out), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "4 new shards" in res.stdout
    pt = tmp_path / "m" / "v.pt"
    res = runner.invoke(app, ["train-value", "--data", str(out), "--variant", "free", "--out", str(pt),
                              "--epochs", "8", "--hidden", "16", "--json", "--no-progress"])
    assert res.exit_code == 0, res.output
    import json

    rep = json.loads(res.stdout)
    assert rep["frames"] == 40 and rep["holdout_positions"] > 0
    assert "holdout_margin_rmse" not in rep  # free pyramid has no margin to learn
    # Better than guessing the base rate on held-out frames.
    assert rep["holdout_brier"] < rep["holdout_base_rate_brier"]
    data = torch.load(pt, weights_only=True)
    assert data["format"] == "piramida-value" and data["variant"] == "free"
    assert data["config"]["train"]["epochs"] == 8
    view = _midgame()
    res = runner.invoke(app, ["suggest", "--position", view.position.to_text(), "--agent",
                              f"planner:sims=60:value={pt}", "--json"])
    assert res.exit_code == 0, res.output
    # Bad input: a file where the folder should be, a data folder without shards.
    res = runner.invoke(app, ["train-value", "--data", str(tmp_path / "m"), "--out", str(tmp_path / "x.pt")])
    assert res.exit_code == 2 and res.stderr.count("\n") == 1 and "no self-play shards" in res.stderr
    res = runner.invoke(app, ["selfplay", "--agents", "greedy", "--out", str(tmp_path / "y")])
    assert res.exit_code == 2 and res.stderr.count("\n") == 1


def test_in_a_points_game_the_margin_head_beats_the_mean_margin_on_held_out_frames(tmp_path: Path) -> None:
    """classic71: the network's second output, the shooter's final margin,
    is trained and reported on held-out frames against the train frames'
    mean margin."""
    from piramida.training.selfplay import SelfPlayConfig, run_selfplay
    from piramida.training.value_train import ValueTrainConfig, train_value

    out = tmp_path / "sp"
    run_selfplay(SelfPlayConfig(("greedy", "greedy"), "classic71", 20, seed=3), out)
    rep = train_value(ValueTrainConfig("classic71", epochs=30, hidden=16), [out], tmp_path / "v.pt")
    assert rep["holdout_positions"] > 0
    assert rep["holdout_margin_rmse"] < rep["holdout_margin_base_rmse"]
