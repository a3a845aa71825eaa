"""Combined pyramid (docs/game_rules.md §5.2; seed 004 items 4.2, 6, 21, 25.3).

The coloured ball is always the cue ball. Object balls pocketed on a legal
shot score; the cue ball pocketed after a legal contact (свояк) scores an
object ball taken from the table (option ``svoyak_pick`` says who picks it)
and the shooter plays on from hand in the house (item 21). Penalty: the
non-offender takes a ball from the table; a foul with the cue ball pocketed
or jumped also puts it in hand in the house.
"""

from __future__ import annotations

from piramida.env.rules.base import register_game
from piramida.env.rules.options import COMMON_OPTIONS, GameType, Option
from piramida.env.rules.shelf import ShelfReferee

COMBINED_OPTIONS = COMMON_OPTIONS + (
    Option("target", int, "balls to win (§5.2: 8)"),
    Option(
        "svoyak_pick",
        ("opponent", "shooter"),
        "§5.2: who picks the object ball taken after a свояк (seed 003: the opponent; МКП: the shooter)",
    ),
)

_GAME_TYPE = GameType(
    variant="combined",
    long_name="Combined pyramid",
    cue_ball="coloured",
    called=False,
    rules="docs/game_rules.md §5.2",
    options=COMBINED_OPTIONS,
)


class CombinedReferee(ShelfReferee):
    game_type = _GAME_TYPE


register_game(_GAME_TYPE, CombinedReferee)
