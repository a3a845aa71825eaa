"""bench.interleave_env: both versions' environments play the same seeded
frames in one process, each with its own modules; one-line errors."""

from __future__ import annotations

import json
import re

import pytest

from bench.interleave_env import main


def test_the_set_ups_are_bench_shot_envs() -> None:
    # Kept as a copy there (importing bench.shot_env imports the environment).
    from bench import interleave_env, shot_env

    assert interleave_env.SETUPS == shot_env.SETUPS


def test_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # (A bad commit or round count: tests/bench/test_comparison_errors.py.)
    assert main(["HEAD", "--frames", "0"]) == 2
    assert "--frames must be at least 1" in capsys.readouterr().err
    assert main(["HEAD", "--max-steps", "0"]) == 2
    assert "--max-steps must be at least 1" in capsys.readouterr().err
    assert main(["HEAD", "--variant", "snooker"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown variant 'snooker'" in err and "combined" in err
    assert main([]) == 2
    assert "name the commit" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("setup", ["vs greedy", "two players"])
def test_head_against_itself_plays_the_same_frames(setup: str, capsys: pytest.CaptureFixture[str]) -> None:
    # The old tree is HEAD: both versions play the same frames, step for
    # step, each from its own files.
    args = ["HEAD", "--variant", "combined", "--search", "greedy", "--setup", setup, "--frames", "2",
            "--rounds", "1", "--max-steps", "4", "--json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["setup"] == setup
    assert re.fullmatch(r"[0-9a-f]{40}", out["old_commit"])
    assert out["frames_whose_steps_differ"] == 0
    assert out["old_steps_per_cpu_s"] > 0 and out["new_steps_per_cpu_s"] > 0
    assert out["ratio"] == pytest.approx(out["new_steps_per_cpu_s"] / out["old_steps_per_cpu_s"])
