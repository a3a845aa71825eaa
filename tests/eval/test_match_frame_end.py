"""The match runner with the lag and with frames the rules end without a
winner (docs/rules.md "How a frame ends"): lag shots are accepted, not
breaks or visits; a drawn frame (over, no winner) counts half a win each."""

from __future__ import annotations

import pytest

from piramida.env import game as game_module
from piramida.eval.match import run_match


def test_a_match_with_the_lag_plays_legal_lags() -> None:
    r = run_match("free", ["random", "greedy"], 2, seed=2, max_shots=12, options={"lag": True})
    for f in r.frames:
        assert f.refused == [0, 0]
        assert f.shots == 12 or not f.capped
        assert sum(f.breaks) == 1 and f.breaker is not None  # lag shots are not breaks
    five = run_match("five_ball", ["greedy", "random"], 2, seed=1, max_shots=6, options={"lag": True})
    assert all(f.refused == [0, 0] for f in five.frames)


def test_frames_the_game_ends_without_a_winner_are_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    # The game's own bound (lowered here) ends the frames: over, no winner,
    # not capped by the match.
    monkeypatch.setattr(game_module, "MAX_SHOTS_PER_FRAME", 4)
    r = run_match("combined", ["random", "random"], 2, seed=5, max_shots=300)
    assert r.draws == 2 and r.wins == [1.0, 1.0]
    assert all(f.winner is None and not f.capped and f.shots == 4 for f in r.frames)
    assert r.to_dict()["draws"] == 2
