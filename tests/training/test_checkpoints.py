"""Damaged checkpoints: a file cut short is named in one line, ``--resume``
goes on from the newest whole checkpoint (dropping the metrics rows after
it), export refuses a damaged one. The checkpoints here are folders of
pickle, JSON and torch files as RLlib writes them, made by hand (no Ray);
the slow test damages a real one."""

from __future__ import annotations

import csv
import json
import pickle
from pathlib import Path

import pytest
import torch
from typer.testing import CliRunner

from piramida.cli import app
from piramida.configs import CONFIG_DIR
from piramida.training.config import load_config
from piramida.training.run import Run, TrainError, damaged_file, restore_main, resume_point

SMOKE = CONFIG_DIR / "training" / "smoke.toml"
runner = CliRunner()


def _checkpoint(run: Path, iteration: int) -> Path:
    ck = run / "checkpoints" / f"iter_{iteration:05d}"
    (ck / "learner_group").mkdir(parents=True)
    (ck / "algorithm_state.pkl").write_bytes(pickle.dumps({"iteration": iteration, "w": list(range(2000))}))
    (ck / "rllib_checkpoint.json").write_text(json.dumps({"type": "Algorithm"}))
    torch.save({"w": torch.arange(1000.0)}, ck / "learner_group" / "module.pt")
    (ck / "league.json").write_text(json.dumps({"frozen": [f"frozen_{iteration}"], "next": iteration}))
    (run / "latest").write_text(ck.name)
    return ck


def _cut(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _run(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    run.mkdir()
    (run / "config.toml").write_text(SMOKE.read_text())
    for i in (1, 2):
        _checkpoint(run, i)
    with (run / "metrics.csv").open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["iteration", "env_steps"])
        w.writerows([[1, 40], [2, 80]])
    return run


def test_every_kind_of_damage_is_found_and_named(tmp_path: Path) -> None:
    run = _run(tmp_path)
    ck = run / "checkpoints" / "iter_00002"
    assert damaged_file(ck) is None
    for name in ("algorithm_state.pkl", "rllib_checkpoint.json", "learner_group/module.pt"):
        f = ck / name
        whole = f.read_bytes()
        _cut(f)
        bad = damaged_file(ck)
        assert bad is not None and bad[0] == f and "\n" not in bad[1], name
        f.write_bytes(b"")
        assert damaged_file(ck) == (f, "empty")
        f.write_bytes(whole)
    assert damaged_file(ck) is None


def test_resume_falls_back_to_the_last_whole_checkpoint(tmp_path: Path) -> None:
    run = _run(tmp_path)
    _cut(run / "checkpoints" / "iter_00002" / "algorithm_state.pkl")
    notices: list[str] = []
    ck = resume_point(Run(run), notices.append)
    assert ck.name == "iter_00001" and Run(run).league_of(ck) == {"frozen": ["frozen_1"], "next": 1}
    assert len(notices) == 1 and "iter_00002/algorithm_state.pkl" in notices[0] and "damaged" in notices[0]
    # With the older one damaged too: one line naming the newest's file.
    (run / "checkpoints" / "iter_00001" / "rllib_checkpoint.json").write_text("{")
    with pytest.raises(TrainError) as err:
        resume_point(Run(run), notices.append)
    assert "iter_00002/algorithm_state.pkl" in str(err.value) and "\n" not in str(err.value)
    # The command: one line, exit 2, before any Ray is started.
    res = runner.invoke(app, ["train", "--resume", str(run)])
    assert res.exit_code == 2 and res.stderr.strip().splitlines()[-1].startswith("error: checkpoint iter_00002")


def test_export_refuses_a_damaged_checkpoint_naming_the_file(tmp_path: Path) -> None:
    run = _run(tmp_path)
    _cut(run / "checkpoints" / "iter_00002" / "learner_group" / "module.pt")
    with pytest.raises(TrainError, match=r"iter_00002 is damaged: .*module\.pt"):
        restore_main(run)


@pytest.mark.slow
def test_a_real_run_resumes_past_a_truncated_checkpoint(tmp_path: Path, ray_temp: str) -> None:
    from piramida.training.run import train

    run = tmp_path / "run"
    train(run, load_config(SMOKE), cpus=2, temp_dir=ray_temp)
    ck = run / "checkpoints" / "iter_00002"
    assert damaged_file(ck) is None and damaged_file(run / "checkpoints" / "iter_00001") is None
    biggest = max((p for p in ck.rglob("*") if p.is_file()), key=lambda p: p.stat().st_size)
    _cut(biggest)
    notices: list[str] = []
    rows = train(run, resume=True, iterations=2, cpus=2, temp_dir=ray_temp, on_notice=notices.append)
    assert len(notices) == 1 and str(biggest) in notices[0]
    assert [r["iteration"] for r in rows] == [2]
    with (run / "metrics.csv").open() as fh:
        assert [r["iteration"] for r in csv.DictReader(fh)] == ["1", "2"]
    assert damaged_file(run / "checkpoints" / "iter_00002") is None  # saved again, whole
    assert (run / "checkpoints" / "iter_00002.damaged").is_dir()  # the damaged one, set aside
    assert (run / "latest").read_text() == "iter_00002"
