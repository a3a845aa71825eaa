"""Free pyramid, "американка" (docs/game_rules.md §5.1; seed 004 items 4.3, 6, 25.3).

Any ball on the table may be struck (the coloured ball from the house on
the break); every ball pocketed on a legal shot scores, the struck one
included. Penalty: one ball (option ``penalty``). Target 8 balls, or 71
points with ``scoring = "points"``.

Interpretation (docs/game_rules.md §5.1, pinned by a golden case): the coloured ball
scores like any other ball, but it is never taken as a penalty ball, so that
it is on the table for a re-rack after an illegal break.
"""

from __future__ import annotations

from piramida.env.rules.base import register_game
from piramida.env.rules.options import COMMON_OPTIONS, GameType, Option
from piramida.env.rules.shelf import ShelfReferee

_GAME_TYPE = GameType(
    variant="free",
    long_name="Free pyramid (американка)",
    cue_ball="any",
    called=False,
    rules="docs/game_rules.md §5.1",
    options=COMMON_OPTIONS
    + (
        Option("target", int, "balls to win (§5.1: 8)"),
        Option(
            "penalty",
            ("take_from_table", "offender_returns"),
            "§5.1: the non-offender takes a ball from the table (seed 004 item 6), or the "
            "offender returns one from his shelf, owed when it is empty (seed 003)",
        ),
        Option("scoring", ("balls", "points"), "§5.1: 1 per ball, or the ball's number (amateur play)"),
        Option("points_target", int, "§5.1: points to win with scoring = points (71 of 120)"),
    ),
)


class FreeReferee(ShelfReferee):
    game_type = _GAME_TYPE
    any_ball_scores = True
    svoyak = False


register_game(_GAME_TYPE, FreeReferee)
