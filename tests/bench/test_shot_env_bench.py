"""``bench.shot_env``: both set-ups (the single-agent env against greedy,
and the two-player self-play core) make the steps asked, and a set-up it
does not know is refused in one line."""

from __future__ import annotations

import pytest

from bench import shot_env


@pytest.mark.parametrize("setup", shot_env.SETUPS)
def test_each_setup_makes_the_steps_asked(setup: str) -> None:
    row = shot_env.measure("combined", "greedy", 4, setup)
    assert row["setup"] == setup and row["steps"] == 4 and row["frames"] >= 1
    assert row["steps_per_cpu_s"] > 0 and 0 < row["options_share"] <= 1


def test_an_unknown_setup_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        shot_env.main(["--steps", "1", "--setups", "vs greedy,solo"])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "unknown set-up 'solo'" in err and "two players" in err
