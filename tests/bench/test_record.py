"""bench/record.py: the result file every benchmark writes - its envelope,
the sections of a benchmark with subcommands, and a run that must leave
bench/results/ alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import record


def test_the_envelope_names_the_benchmark_command_code_date_and_machine(tmp_path: Path) -> None:
    out = record.write("throw", {"mae": 1.5}, ["--json"], out=tmp_path / "t.json")
    got = json.loads(out.read_text(encoding="utf-8"))
    assert set(got) == {"benchmark", "command", "code_version", "date", "machine", "results"}
    assert got["benchmark"] == "throw" and got["command"] == "python -m bench.throw --json"
    assert got["results"] == {"mae": 1.5} and got["code_version"].startswith("0.")
    for key in ("cpu", "cores", "memory_gib", "os", "python", "numpy", "numba"):
        assert key in got["machine"]


def test_a_section_replaces_its_own_and_keeps_the_others(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    record.write("planner", {"n": 1}, ["match"], out=path, section="match")
    record.write("planner", {"n": 2}, ["decisions"], out=path, section="decisions")
    record.write("planner", {"n": 3}, ["match", "--games", "4"], out=path, section="match")
    got = json.loads(path.read_text(encoding="utf-8"))
    assert set(got["results"]) == {"match", "decisions"}
    assert got["results"]["match"]["results"] == {"n": 3}
    assert got["results"]["match"]["command"] == "python -m bench.planner match --games 4"
    assert got["results"]["decisions"]["results"] == {"n": 2}


def test_the_default_file_is_left_alone_when_asked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(record, "RESULTS", tmp_path)
    monkeypatch.setenv("PIRAMIDA_BENCH_NO_RECORD", "1")
    record.write("web", {"x": 1}, [])
    assert not (tmp_path / "web.json").exists()
    monkeypatch.delenv("PIRAMIDA_BENCH_NO_RECORD")
    assert record.write("web", {"x": 1}, []) == tmp_path / "web.json"
    assert json.loads((tmp_path / "web.json").read_text(encoding="utf-8"))["results"] == {"x": 1}


def test_every_tracked_result_file_has_the_envelope() -> None:
    for path in sorted(record.RESULTS.glob("*.json")):
        got = json.loads(path.read_text(encoding="utf-8"))
        assert {"benchmark", "command", "code_version", "date", "machine", "results"} <= set(got), path
        assert got["benchmark"] == path.stem, path
