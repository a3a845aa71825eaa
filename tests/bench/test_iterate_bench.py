"""``python -m bench.iterate``: a run folder's ladder and command become a
section named after its variant, the other sections stay, and a folder
without a ladder is one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import iterate


def _run(folder: Path, variant: str) -> None:
    folder.mkdir(parents=True)
    ladder = {"variant": variant, "champion": 1, "generations": [{"generation": 0}, {"generation": 1, "accepted": True}]}
    (folder / "ladder.json").write_text(json.dumps(ladder))
    (folder / "config.json").write_text(json.dumps({"command": f"piramida iterate --variant {variant}", "code_version": "x"}))


def test_each_run_is_a_section_of_its_variant(tmp_path: Path) -> None:
    out = tmp_path / "iterate.json"
    _run(tmp_path / "a", "free")
    _run(tmp_path / "b", "moscow")
    assert iterate.main(["--run", str(tmp_path / "a"), "--out", str(out)]) == 0
    assert iterate.main(["--run", str(tmp_path / "b"), "--out", str(out)]) == 0
    results = json.loads(out.read_text())["results"]
    assert sorted(results) == ["free", "moscow"]
    got = results["moscow"]["results"]
    assert got["run_command"] == "piramida iterate --variant moscow" and got["ladder"]["champion"] == 1
    assert "policy_vs_greedy" not in got


def test_a_folder_without_a_ladder_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        iterate.main(["--run", str(tmp_path), "--out", str(tmp_path / "x.json")])
    assert exc.value.code == 2
    assert "holds no readable ladder.json" in capsys.readouterr().err.strip().splitlines()[-1]
    assert not (tmp_path / "x.json").exists()
