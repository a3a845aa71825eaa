"""``piramida bench physics``: registered, and (slow) a quick run whose JSON
has the promised keys with values that are null or positive.
``piramida bench candidates``: registered, a two-position run, and the
compiled strokes against Python side by side."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from piramida.cli import app

runner = CliRunner()


def test_bench_physics_is_registered_with_its_options() -> None:
    result = runner.invoke(app, ["bench", "physics", "--help"])
    assert result.exit_code == 0, result.output
    for opt in ("--json", "--quick", "--seed", "--out"):
        assert opt in result.stdout


def test_bench_physics_rejects_an_unknown_option() -> None:
    result = runner.invoke(app, ["bench", "physics", "--fast"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


@pytest.mark.slow
def test_bench_physics_quick_json_report() -> None:
    result = runner.invoke(app, ["bench", "physics", "--quick", "--json"])
    assert result.exit_code == 0, result.output
    rep = json.loads(result.stdout.strip().splitlines()[-1])
    for suite in ("break", "midgame", "two_ball"):
        row = rep[suite]
        for key in ("piramida_per_s", "piramida_batch_per_s", "pooltool_per_s", "ratio"):
            assert key in row
            assert row[key] is None or row[key] > 0
        if row["piramida_per_s"] and row["pooltool_per_s"]:
            assert row["ratio"] == pytest.approx(
                row["piramida_per_s"] / row["pooltool_per_s"], rel=0.01
            )
    for key in ("cold_start_s", "warm_start_s"):
        assert rep[key] is None or rep[key] > 0


def test_bench_candidates_is_registered_with_its_options() -> None:
    result = runner.invoke(app, ["bench", "candidates", "--help"])
    assert result.exit_code == 0, result.output
    for opt in ("--json", "--limit", "--noise", "--search", "--compare-python", "--positions"):
        assert opt in result.stdout


def test_bench_candidates_json_report() -> None:
    result = runner.invoke(app, ["bench", "candidates", "--json", "--limit", "2"])
    assert result.exit_code == 0, result.output
    rep = json.loads(result.stdout.strip().splitlines()[-1])
    assert rep["positions"] == 2
    assert rep["mean_ms"] > 0 and rep["p95_ms"] >= 0 and rep["mean_candidates"] >= 1
    assert rep["warm_up_mean_cpu_ms"] > 0
    assert rep["version"] and "--limit 2" in rep["command"] and rep["search"] == "planner"


def test_bench_candidates_times_greedys_search_and_refuses_an_unknown_one() -> None:
    """Greedy's lazy search lists fewer candidates than the planner's on the
    same positions; an unknown search is a one-line error."""
    got = {}
    for search in ("planner", "greedy"):
        result = runner.invoke(app, ["bench", "candidates", "--json", "--limit", "3", "--search", search])
        assert result.exit_code == 0, result.output
        got[search] = json.loads(result.stdout.strip().splitlines()[-1])
        assert got[search]["search"] == search
    assert got["greedy"]["mean_candidates"] < got["planner"]["mean_candidates"]
    result = runner.invoke(app, ["bench", "candidates", "--limit", "1", "--search", "lazy"])
    assert result.exit_code == 2 and "unknown search 'lazy'" in result.output
    assert "Traceback" not in result.output


def test_bench_candidates_refuses_an_unknown_preset_in_one_line() -> None:
    result = runner.invoke(app, ["bench", "candidates", "--limit", "1", "--noise", "wizard"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def test_bench_candidates_compare_python_report() -> None:
    # Both ways list the same candidates (tests/agents/test_probe.py); this
    # checks the report's arithmetic and that the switch is put back.
    from piramida.agents.shots import probe

    result = runner.invoke(app, ["bench", "candidates", "--compare-python", "1", "--limit", "2"])
    assert result.exit_code == 0, result.output
    rep = json.loads(result.stdout.strip().splitlines()[-1])
    assert rep["positions"] == 2 and rep["rounds"] == 1
    assert rep["compiled_mean_ms"] > 0 and rep["python_mean_ms"] > 0
    assert rep["ratio"] == pytest.approx(rep["python_mean_ms"] / rep["compiled_mean_ms"], rel=0.01)
    assert probe.COMPILED is True


def test_bench_candidates_on_the_played_positions_and_an_unknown_set_in_one_line() -> None:
    result = runner.invoke(app, ["bench", "candidates", "--json", "--limit", "2", "--positions", "played"])
    assert result.exit_code == 0, result.output
    rep = json.loads(result.stdout.strip().splitlines()[-1])
    assert rep["positions"] == 2 and rep["position_set"] == "played" and rep["mean_candidates"] >= 1
    result = runner.invoke(app, ["bench", "candidates", "--limit", "1", "--positions", "random"])
    assert result.exit_code == 2 and "unknown positions 'random'" in result.output
    assert "Traceback" not in result.output


def test_the_digest_names_its_positions_code_version_and_command(capsys: pytest.CaptureFixture[str]) -> None:
    from bench.candidates import main

    for argv in (["--digest", "--limit", "1"], ["--digest", "--limit", "1", "--positions", "played"]):
        assert main(argv) == 0
        rep = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        assert rep["candidates"] > 0 and len(rep["sha256"]) == 16
        assert rep["version"] and rep["command"] == "python -m bench.candidates " + " ".join(argv)
        # The reference set is the default and goes unnamed.
        assert rep.get("positions") == ("played" if "--positions" in argv else None)


def test_bench_lists_every_benchmark() -> None:
    from piramida.commands.bench import BENCHMARKS

    result = runner.invoke(app, ["bench"])
    assert result.exit_code == 0, result.output
    for name in BENCHMARKS:
        assert name in result.stdout


def test_a_named_benchmark_runs_with_its_own_options(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "throw.json"
    result = runner.invoke(app, ["bench", "throw", "--json", "--out", str(out)])
    assert result.exit_code == 0, result.output
    got = json.loads(out.read_text(encoding="utf-8"))
    assert got["benchmark"] == "throw" and got["command"] == f"python -m bench.throw --json --out {out}"
    result = runner.invoke(app, ["bench", "throw", "--fast"])
    assert result.exit_code == 2


def test_bench_candidates_digest_is_a_flag() -> None:
    result = runner.invoke(app, ["bench", "candidates", "--digest", "--limit", "1"])
    assert result.exit_code == 0, result.output
    rep = json.loads(result.stdout.strip().splitlines()[-1])
    assert rep["candidates"] > 0 and len(rep["sha256"]) == 16
