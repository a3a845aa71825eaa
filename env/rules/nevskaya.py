"""Nevskaya pyramid (docs/game_rules.md §5.4; seed 004, variant descriptions).

Combined pyramid, except that after the opponent's foul the non-offender
either takes the penalty ball (``take_ball:<id>``, then shoots or makes the
offender shoot) or declines it (``ball_in_hand_anywhere``): he takes the
cue ball up, places it anywhere on the table and shoots.
"""

from __future__ import annotations

from piramida.env.rules.base import register_game
from piramida.env.rules.combined import COMBINED_OPTIONS
from piramida.env.rules.options import GameType
from piramida.env.rules.shelf import ShelfReferee

_GAME_TYPE = GameType(
    variant="nevskaya",
    long_name="Nevskaya pyramid",
    cue_ball="coloured",
    called=False,
    rules="docs/game_rules.md §5.4",
    options=COMBINED_OPTIONS,
)


class NevskayaReferee(ShelfReferee):
    game_type = _GAME_TYPE
    nevskaya = True


register_game(_GAME_TYPE, NevskayaReferee)
