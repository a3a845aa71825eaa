"""The race model behind the planner's frame-winning chances
(agents/planner_value.py), checked against its closed form and against a
plain simulation of the race it describes."""

from __future__ import annotations

import numpy as np
import pytest

from piramida.agents.planner_value import RaceModel, race_table, race_tables


def _simulate_race(a: int, b: int, q: float, n: int, seed: int, q_other: float | None = None) -> float:
    """Share of ``n`` races the player at the table wins: his shots pot
    with chance ``q``, the other's with ``q_other`` (``q``), a miss hands
    the table over, first to need 0 wins."""
    rng = np.random.default_rng(seed)
    qs = (q, q if q_other is None else q_other)
    wins = 0
    for _ in range(n):
        need = [a, b]
        who = 0
        while need[0] > 0 and need[1] > 0:
            if rng.random() < qs[who]:
                need[who] -= 1
            else:
                who = 1 - who
        wins += need[0] == 0
    return wins / n


def test_one_ball_each_has_the_closed_form() -> None:
    # x = q + (1 - q)(1 - x)  =>  x = 1 / (2 - q)
    for q in (0.3, 0.7, 0.9):
        G = race_table(8, q)
        assert G[1, 1] == pytest.approx(1.0 / (2.0 - q), abs=1e-12)


@pytest.mark.parametrize(("a", "b", "q"), [(8, 8, 0.7), (3, 6, 0.55), (6, 2, 0.8)])
def test_table_matches_a_simulated_race(a: int, b: int, q: float) -> None:
    n = 6000
    got = _simulate_race(a, b, q, n, seed=a * 100 + b)
    want = race_table(8, q)[a, b]
    se = (want * (1 - want) / n) ** 0.5
    assert abs(got - want) < 4 * se, (got, want)


def test_unequal_players_one_ball_each_has_the_closed_form() -> None:
    # A = qA + (1 - qA)(1 - B), B = qB + (1 - qB)(1 - A)
    #   =>  A = qA / (1 - (1 - qA)(1 - qB))
    for qa, qb in ((0.9, 0.6), (0.5, 0.8)):
        A, B = race_tables(8, qa, qb)
        assert A[1, 1] == pytest.approx(qa / (1 - (1 - qa) * (1 - qb)), abs=1e-12)
        assert B[1, 1] == pytest.approx(qb / (1 - (1 - qa) * (1 - qb)), abs=1e-12)


@pytest.mark.parametrize(("a", "b", "qa", "qb"), [(8, 8, 0.89, 0.8), (3, 6, 0.6, 0.85)])
def test_unequal_tables_match_a_simulated_race(a: int, b: int, qa: float, qb: float) -> None:
    n = 6000
    A, B = race_tables(8, qa, qb)
    for got, want in (
        (_simulate_race(a, b, qa, n, seed=a + 10 * b, q_other=qb), A[a, b]),
        (_simulate_race(b, a, qb, n, seed=b + 10 * a, q_other=qa), B[b, a]),
    ):
        se = (want * (1 - want) / n) ** 0.5
        assert abs(got - want) < 4 * se, (got, want)


def test_equal_players_give_one_table() -> None:
    A, B = race_tables(8, 0.7)
    np.testing.assert_allclose(A, B, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(A, race_table(8, 0.7))


def test_at_table_reads_the_shooters_own_table() -> None:
    m = RaceModel(8, 0.9, 0.6)
    # The stronger player is worth more at the same score and shot ...
    assert m.at_table(3, 3, 0.8, me=True) > m.at_table(3, 3, 0.8, me=False)
    # ... and each side's value is its own table's recursion.
    assert m.at_table(2, 5, 0.9, me=True) == pytest.approx(m.A[6, 3])
    assert m.at_table(2, 5, 0.6, me=False) == pytest.approx(m.B[6, 3])


def test_table_is_monotone_and_decided_frames_are_certain() -> None:
    G = race_table(8, 0.7)
    assert np.all(G[0, 1:] == 1.0) and np.all(G[1:, 0] == 0.0)
    inner = G[1:, 1:]
    assert np.all((inner > 0) & (inner < 1))
    assert np.all(np.diff(inner, axis=0) < 0)  # needing more balls is worse
    assert np.all(np.diff(inner, axis=1) > 0)  # the other needing more is better
    # At the table with q > 1/2 is an advantage at equal scores.
    assert np.all(np.diag(inner) > 0.5)


def test_at_table_uses_the_shot_faced() -> None:
    m = RaceModel(8, 0.7)
    assert m.at_table(8, 3, 0.1) == 1.0 and m.at_table(3, 8, 0.9) == 0.0
    assert m.at_table(0, 0, 0.95) > m.at_table(0, 0, 0.7) > m.at_table(0, 0, 0.2)
    # With the typical chance it is the table's value.
    assert m.at_table(2, 5, 0.7) == pytest.approx(m.G[6, 3])
    # One ball from the frame, an easy pot is nearly the frame.
    assert m.at_table(7, 7, 0.97) > 0.95


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="target"):
        race_table(0, 0.7)
    with pytest.raises(ValueError, match="q must"):
        race_table(8, 1.0)
    with pytest.raises(ValueError, match="q_other must"):
        race_tables(8, 0.7, 0.0)
