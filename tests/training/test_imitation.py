"""Imitation of the planner (training/imitation.py): the labels are the
planner's own ranking of the policy's options, collection writes shards and
resumes, fitting learns and writes a file ``policy:path=`` plays, and bad
input is one line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from piramida.agents.policy_obs import CAND_F, K
from piramida.cli import app
from piramida.env.position import Position
from piramida.env.view import GameView
from piramida.training.imitation import (
    SEARCH,
    FitConfig,
    ImitationConfig,
    ImitationError,
    expert,
    fit,
    labeller,
    load_data,
    mirror,
    run_imitation,
)
from piramida.training.selfplay import shard_name

runner = CliRunner()
POS = Position.from_balls(
    "free", {"1": (0.5, 1.0), "2": (0.9, 2.6), "3": (0.3, 2.2), "4": (1.2, 0.8), "5": (0.7, 1.8)}
)
#: Short frames: a capped frame is a draw, and labels with few samples.
TINY = ImitationConfig("free", 4, sims=24, max_shots=4, seed=5)


def test_the_label_is_the_planners_own_ranking_of_the_policys_options() -> None:
    from piramida.agents.planner import Arm
    from piramida.agents.policy_obs import options
    from piramida.agents.shots.context import Budget, Context

    view = GameView.for_position(POS)
    label = expert(view, labeller("pro", 120, seed=1), "pro")
    assert label is not None and len(label.options) >= 2
    # The planner's own plan_ctx over the same arms with the same budget.
    planner = labeller("pro", 120, seed=1)
    opts = options(view, "pro", SEARCH)
    planner.candidates = lambda ctx: [Arm(o.candidate) for o in opts]
    plans = planner.plan_ctx(Context(view, Budget(None, 120), planner.model), top=len(opts))
    assert [o.action.to_text() for o in label.options] == [o.action.to_text() for o in opts]
    assert label.options[label.best].action.to_text() == plans[0].shot.to_text()
    # The soft targets are the arms' means and rounds: the best is a
    # survivor of the last round, and none there has a higher mean.
    by_shot = {p.shot.to_text(): p.value for p in plans}
    for i, o in enumerate(opts):
        assert label.values[i] == pytest.approx(by_shot[o.action.to_text()], abs=1e-6)
    top = label.rounds[: len(opts)].max()
    assert label.rounds[label.best] == top
    assert label.values[label.best] == np.nanmax(np.where(label.rounds == top, label.values, np.nan))
    assert label.rounds[len(opts):].sum() == 0 and np.isnan(label.values[len(opts):]).all()


def test_mirror_is_an_involution_that_swaps_left_and_right_pockets() -> None:
    from piramida.agents.policy_obs import CAND_COLUMNS, observe, options

    view = GameView.for_position(POS)
    obs = observe(view, options(view, "pro", SEARCH))["observations"]
    b, c = obs["balls"][None], obs["candidates"][None]
    mb, mc = mirror(b, c)
    assert not np.array_equal(mb, b)
    back_b, back_c = mirror(mb, mc)
    assert np.allclose(back_b, b, atol=1e-6) and np.allclose(back_c, c, atol=1e-6)  # x -> 1 - x rounds
    col = {n: i for i, n in enumerate(CAND_COLUMNS)}
    assert np.array_equal(mc[..., col["pocket_fl"]], c[..., col["pocket_fr"]])
    assert (mb[0, len(POS.ids):] == 0).all()  # padding stays zero


@pytest.fixture(scope="module")
def tiny_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("imitation") / "free"
    first = run_imitation(ImitationConfig("free", 2, TINY.sims, TINY.noise, TINY.seed, TINY.max_shots), out)
    assert [p.name for p in first] == [shard_name(0, 1)]
    return out


def test_collection_writes_shards_and_resumes_without_redoing_them(tiny_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "d"
    out.mkdir()
    # A run of 4 frames whose first shard is already there plays only the second.
    cfg2 = ImitationConfig("free", 2, TINY.sims, TINY.noise, TINY.seed, TINY.max_shots)
    run_imitation(cfg2, out)
    stamp = (out / shard_name(0, 1)).stat().st_mtime_ns
    (out / "meta.json").unlink()  # the 2-frame run's config; the 4-frame run writes its own
    new = run_imitation(TINY, out)
    assert [p.name for p in new] == [shard_name(2, 3)]
    assert (out / shard_name(0, 1)).stat().st_mtime_ns == stamp
    assert run_imitation(TINY, out) == []
    data, metas = load_data([out])
    assert metas[0]["sims"] == TINY.sims and set(np.unique(data["frame"])) <= {0, 1, 2, 3}
    n = len(data["label"])
    assert n > 0 and data["candidates"].shape == (n, K, CAND_F)
    assert (data["action_mask"][np.arange(n), data["label"]] == 1).all()  # a label is a real option
    assert (data["action_mask"].sum(1) >= 2).all()
    assert set(np.unique(data["agent"])) == {0, 1}  # both players' decisions
    # The same frames again give the same arrays (deterministic labels).
    with np.load(out / shard_name(0, 1)) as a, np.load(tiny_data / shard_name(0, 1)) as b:
        assert np.array_equal(a["label"], b["label"]) and np.array_equal(a["candidates"], b["candidates"])
    with pytest.raises(ImitationError, match="another config"):
        run_imitation(ImitationConfig("free", 4, 25, TINY.noise, TINY.seed, TINY.max_shots), out)


def test_fitting_lowers_the_loss_and_writes_a_policy_that_plays(tiny_data: Path, tmp_path: Path) -> None:
    from piramida.agents.specs import parse_spec

    losses: list[float] = []
    pt = tmp_path / "m" / "bc.pt"
    report = fit(FitConfig(epochs=30, hidden=16, lr=1e-2, mirror=False), [tiny_data], pt,
                 on_epoch=lambda _e, row: losses.append(row["train_loss"]))
    assert losses[-1] < 0.7 * losses[0]
    assert report["train"]["agreement"] > 0.5
    assert report["train"]["shot_regret"] < report["train"]["shot_regret_uniform"]
    data = torch.load(pt, weights_only=True)
    assert data["search"] == SEARCH and data["variant"] == "free" and data["noise"] == "pro"
    assert json.loads(data["config"])["imitation"]["epochs"] == 30
    agent = parse_spec(f"policy:path={pt}").build()
    view = GameView.for_position(POS)
    shot = agent.act(view)
    opts, _ = agent.scores(view)
    assert shot.to_text() in {o.action.to_text() for o in opts}


def test_bad_input_is_one_line(tiny_data: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "meta.json").write_text((tiny_data / "meta.json").read_text())
    (bad / shard_name(0, 1)).write_bytes(b"not a zip")
    with pytest.raises(ImitationError, match="not a readable imitation shard"):
        load_data([bad])
    res = runner.invoke(app, ["train-imitation", "--data", str(bad), "--out", str(tmp_path / "x.pt"), "--no-progress"])
    assert res.exit_code == 2 and res.stderr.count("\n") == 1 and "not a readable" in res.stderr
    # A self-play folder (another kind of run) is refused.
    other = tmp_path / "sp"
    other.mkdir()
    (other / "meta.json").write_text(json.dumps({"config": {"agents": ["greedy", "greedy"]}}))
    res = runner.invoke(app, ["train-imitation", "--data", str(other), "--out", str(tmp_path / "x.pt")])
    assert res.exit_code == 2 and res.stderr.count("\n") == 1 and "imitation" in res.stderr
    for args in (["--variant", "nosuch"], ["--frames", "0"], ["--noise", "nosuch"]):
        res = runner.invoke(app, ["imitate", "--out", str(tmp_path / "o"), "--no-progress", *args])
        assert res.exit_code == 2 and res.stderr.count("\n") == 1, (args, res.output)
    # A folder of another config.
    res = runner.invoke(app, ["imitate", "--out", str(tiny_data), "--frames", "2", "--sims", "99", "--no-progress"])
    assert res.exit_code == 2 and res.stderr.count("\n") == 1 and "another config" in res.stderr
