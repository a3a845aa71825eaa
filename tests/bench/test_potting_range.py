"""bench/potting_range.py: the jaw window's arithmetic, and a short run
whose measured ranges lie inside what the edge search can return."""

from __future__ import annotations

import math

import pytest

from bench.potting_range import jaw_edges, measure
from piramida.env.table import Table


def _middle_pocket_straight_in() -> tuple[object, tuple[float, float], tuple[float, float], float]:
    table = Table.default()
    pocket = table.pockets["ml"]
    # The target 0.6 m in front of the mouth, on the pocket's axis.
    mx, my = pocket.mouth_centre
    ax, ay = pocket.axis
    target = (mx - 0.6 * ax, my - 0.6 * ay)
    aim = (mx + 0.01 * ax, my + 0.01 * ay)
    return pocket, target, aim, table.ball_radius


def test_a_straight_in_pot_has_a_symmetric_window_that_the_slope_scales() -> None:
    pocket, target, aim, R = _middle_pocket_straight_in()
    up, down = jaw_edges(pocket, target, aim, R, 0.0, 1.0)
    assert up > 0 and up == pytest.approx(down, rel=1e-6)
    # Twice the object ball's turn per degree of cue: half the cue's range,
    # and the other sign swaps which jaw bounds which side.
    up2, down2 = jaw_edges(pocket, target, aim, R, 0.0, -2.0)
    assert up2 == pytest.approx(down / 2) and down2 == pytest.approx(up / 2)
    # An aim already off to one side leaves less room that way.
    up3, down3 = jaw_edges(pocket, target, aim, R, 0.5 * up, 1.0)
    assert up3 == pytest.approx(0.5 * up) and down3 == pytest.approx(1.5 * down)


def test_a_short_run_measures_ranges_the_edge_search_can_return() -> None:
    rep = measure(limit=4)
    assert rep["lines"] == len(rep["per_line"]) > 0
    for line in rep["per_line"]:
        # aim.edge doubles from 0.02 up to 0.64 degrees each way.
        assert 0.0 <= line["up"] <= 0.64 and 0.0 <= line["down"] <= 0.64
        assert line["estimated_half"] > 0 and math.isfinite(line["slope"])
