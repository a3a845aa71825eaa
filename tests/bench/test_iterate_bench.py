"""``python -m bench.iterate``: a run folder's ladder, rebuilt from its
stage markers with files named relative to the working folder, and its
command become a section named after its variant; the other sections
stay; a folder without a run is one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import iterate
from piramida.training.iterate import IterateConfig


def _run(folder: Path, variant: str) -> None:
    (folder / "gen_000").mkdir(parents=True)
    (folder / "gen_001").mkdir()
    cfg = IterateConfig(variant).to_dict()
    (folder / "config.json").write_text(json.dumps({"config": cfg, "command": f"piramida iterate --variant {variant}"}))
    sp = {"player": 0, "frames": 4, "positions": 40, "searched": 40, "wall_s": 1.0, "cpu_s": 1.0}
    (folder / "gen_000" / "selfplay.done.json").write_text(json.dumps(sp))


def test_each_run_is_a_section_of_its_variant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _run(Path("a"), "free")
    _run(Path("b"), "moscow")
    assert iterate.main(["--run", "a", "--out", "iterate.json"]) == 0
    assert iterate.main(["--run", str(tmp_path / "b"), "--out", "iterate.json"]) == 0
    results = json.loads(Path("iterate.json").read_text())["results"]
    assert sorted(results) == ["free", "moscow"]
    got = results["moscow"]["results"]
    assert got["run_command"] == "piramida iterate --variant moscow" and got["ladder"]["champion"] == 0
    rows = got["ladder"]["generations"]
    assert rows[0]["selfplay"]["positions"] == 40
    # Generation 1's files named from the working folder, not the machine's root.
    assert rows[1]["agent"] == "planner:sims=200:value=b/gen_001/value.pt:prior=b/gen_001/policy.pt"
    assert "policy_vs_greedy" not in got


def test_a_folder_without_a_run_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        iterate.main(["--run", str(tmp_path), "--out", str(tmp_path / "x.json")])
    assert exc.value.code == 2
    assert "holds no readable iteration run" in capsys.readouterr().err.strip().splitlines()[-1]
    assert not (tmp_path / "x.json").exists()
