"""bench/inputs.py: legal, non-overlapping, seeded inputs of the promised shape.

Needs neither the pooltool venv nor piramida's physics."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.inputs import (
    GAP,
    QUICK,
    SUITES,
    Case,
    break_cases,
    midgame_cases,
    suites,
    two_ball_cases,
)
from piramida.env.position import Position
from piramida.env.shot import MISCUE_LIMIT


def _min_gap(case: Case) -> float:
    balls = case.position.balls
    r = case.position.table.ball_radius
    gaps = [
        math.hypot(x1 - x2, y1 - y2) - 2 * r
        for i, (_, x1, y1) in enumerate(balls)
        for (_, x2, y2) in balls[i + 1 :]
    ]
    return min(gaps)


def _assert_legal(case: Case) -> None:
    pos = case.position
    # Re-validate through the public JSON round trip: on the surface, no overlaps.
    assert Position.from_json(pos.to_json(), pos.table) == pos
    assert case.shot.ball in pos.ids
    assert math.hypot(case.shot.a, case.shot.b) <= MISCUE_LIMIT
    t = pos.table
    for _, x, y in pos.balls:
        assert t.ball_radius <= x <= t.width - t.ball_radius
        assert t.ball_radius <= y <= t.length - t.ball_radius


@pytest.fixture(scope="module")
def quick() -> dict[str, list[Case]]:
    return suites(quick=True)


def test_quick_sizes(quick: dict[str, list[Case]]) -> None:
    assert tuple(quick) == SUITES
    assert len(quick["break"]) == QUICK["break"]
    assert len(quick["midgame"]) == QUICK["midgame_positions"] * QUICK["midgame_shots"]
    assert len(quick["two_ball"]) == QUICK["two_ball"]


def test_breaks_are_racks_with_the_coloured_ball_in_the_house(quick) -> None:
    for i, case in enumerate(quick["break"]):
        _assert_legal(case)
        pos, t = case.position, case.position.table
        assert len(pos.balls) == 16 and pos.is_break
        rack = Position.start("free", seed=2026 + i, table=t).ball_map
        assert {b: xy for b, xy in pos.ball_map.items() if b != "0"} == rack
        assert t.in_house(*pos.xy("0"))
        assert case.shot.ball == "0" and 8.0 <= case.shot.v <= 9.0
        # Aimed at the apex ball (on the rear spot) within the seeded error.
        cx, cy = pos.xy("0")
        ax, ay = t.rear_spot
        bearing = math.degrees(math.atan2(ay - cy, ax - cx))
        assert abs((case.shot.phi - bearing + 180) % 360 - 180) <= 0.5 + 1e-9


def test_midgame_positions(quick) -> None:
    for case in quick["midgame"]:
        _assert_legal(case)
        assert 7 <= len(case.position.balls) <= 10
        assert "0" in case.position.ids
        assert 1.0 <= case.shot.v <= 4.0
        assert _min_gap(case) >= GAP - 1e-12


def test_two_ball_positions(quick) -> None:
    for case in quick["two_ball"]:
        _assert_legal(case)
        assert len(case.position.balls) == 2 and "0" in case.position.ids
        assert _min_gap(case) >= GAP - 1e-12


def _hits(case: Case) -> bool:
    """Does the shot line pass within 2R of some other ball's centre?"""
    pos = case.position
    sx, sy = pos.xy(case.shot.ball)
    dx, dy = case.shot.direction
    for b, x, y in pos.balls:
        if b == case.shot.ball:
            continue
        along = (x - sx) * dx + (y - sy) * dy
        across = abs(-(x - sx) * dy + (y - sy) * dx)
        if along > 0 and across < 2 * pos.table.ball_radius:
            return True
    return False


def test_shots_head_for_a_ball(quick) -> None:
    for case in quick["midgame"] + quick["two_ball"]:
        assert _hits(case), case.shot.to_text()


def test_seeded_determinism() -> None:
    assert suites(quick=True, seed=7) == suites(quick=True, seed=7)
    a, b = two_ball_cases(5, seed=1), two_ball_cases(5, seed=2)
    assert [c.position for c in a] != [c.position for c in b]


def test_to_dict_carries_positions_and_shot(quick) -> None:
    case = quick["midgame"][0]
    d = case.to_dict()
    assert d["balls"] == {b: [x, y] for b, x, y in case.position.balls}
    assert d["shot"]["phi"] == case.shot.phi and d["shot"]["a"] == case.shot.a


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_any_seed_gives_legal_inputs(seed: int) -> None:
    for case in break_cases(1, seed) + midgame_cases(1, 3, seed) + two_ball_cases(2, seed):
        _assert_legal(case)
