"""The candidate token's ``value``: the stroke's points over the variant's
unit (``VALUE_UNITS``), clipped to [-3, 3], so that in the points games a
pot of the 12 does not look like a pot of the 3."""

from __future__ import annotations

import pytest

from piramida.agents.policy_obs import CAND_COLUMNS, VALUE_UNITS, cand_row
from piramida.agents.shots import candidates
from piramida.agents.shots.candidates import column
from piramida.env.position_sets import load_positions
from piramida.env.view import GameView

VALUE = CAND_COLUMNS.index("value")


@pytest.mark.parametrize("variant, unit", [("classic71", 5.0), ("five_ball", 8.0), ("free", 1.0)])
def test_the_value_token_is_the_points_over_the_variants_unit(variant: str, unit: float) -> None:
    assert VALUE_UNITS.get(variant, 1.0) == unit
    told = set()
    for r in load_positions():
        if r["variant"] != variant:
            continue
        view = GameView.for_position(r["position"])
        for c in candidates(view, "pro"):
            value = float(c.features[column("value")])
            token = float(cand_row(view, c)[VALUE])
            assert token == pytest.approx(min(max(value / unit, -3.0), 3.0), abs=1e-6)
            if 3.0 < value <= 3.0 * unit:
                told.add(round(token, 3))
    if unit > 1.0:
        # Not vacuous: strokes worth more than 3 points that the token
        # tells apart (a unit of 1 would show each as 3).
        assert len(told) >= 3, told
