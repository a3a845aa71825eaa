"""bench.referee_ceiling: the replayed search offers the candidates the
real one does without asking the referee; a replay that strays is caught;
bad arguments are one line."""

from __future__ import annotations

import pytest

import bench.referee_ceiling as rc


def test_the_replay_offers_the_same_candidates_without_the_referee() -> None:
    out = rc.measure(limit=4, rounds=1)
    assert out["positions"] == 4 and out["same_candidates"] is True
    assert out["judgements_a_decision"] > 0
    assert out["mean_ms"] > 0 and out["replayed_mean_ms"] > 0
    assert out["referee_ms"] == pytest.approx(out["mean_ms"] - out["replayed_mean_ms"], abs=2e-3)


def test_a_replay_that_leaves_the_recorded_path_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # The warm-up and recording passes see the planner's search, the timed
    # rounds greedy's: the judgements asked for are not the ones recorded.
    import piramida.agents.shots as shots
    from piramida.agents.shots import GREEDY, PLANNER

    original = shots.candidates
    calls = {"n": 0}

    def flipping(view, noise, how):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        return original(view, noise, PLANNER if calls["n"] <= 4 else GREEDY)

    monkeypatch.setattr(shots, "candidates", flipping)
    with pytest.raises(rc.ReplayError):
        rc.measure(limit=2, rounds=1)


def test_bad_arguments_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--limit", "0"], ["--rounds", "0"], ["--positions", "nowhere"]):
        with pytest.raises(SystemExit) as e:
            rc.main(argv)
        assert e.value.code == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert err[-1].startswith("python -m bench.referee_ceiling: error:")
