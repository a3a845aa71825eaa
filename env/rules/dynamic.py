"""Dynamic pyramid (docs/game_rules.md §5.5; МКП, named in seed 004).

Combined pyramid, except: after a свояк the shooter picks the object ball
and plays the cue ball from hand anywhere on the table; on that premium
shot only object balls may score (the cue ball pocketed is a foul,
``cue_ball_pocketed``). After a foul with the cue ball pocketed or jumped the
next shooter has it in hand anywhere (option ``foul_in_hand``).

Interpretation (docs/game_rules.md §5.5, §6; the МКП text for fouls was not
available): a Position does not record why the cue ball is in hand, so
every shot from hand anywhere is treated as a premium shot - also the one
after a foul. Pinned by golden cases.
"""

from __future__ import annotations

from piramida.env.rules.base import register_game
from piramida.env.rules.options import COMMON_OPTIONS, GameType, Option
from piramida.env.rules.shelf import ShelfReferee

_GAME_TYPE = GameType(
    variant="dynamic",
    long_name="Dynamic pyramid",
    cue_ball="coloured",
    called=False,
    rules="docs/game_rules.md §5.5",
    options=COMMON_OPTIONS
    + (
        Option("target", int, "balls to win (8)"),
        Option("svoyak_pick", ("opponent", "shooter"), "§5.5: the shooter picks the ball"),
        Option(
            "foul_in_hand",
            ("anywhere", "house"),
            "§5.5: where the cue ball is in hand after a foul that pocketed or jumped it",
        ),
    ),
)


class DynamicReferee(ShelfReferee):
    game_type = _GAME_TYPE
    svoyak_in_hand = "anywhere"
    premium_cue_foul = True


register_game(_GAME_TYPE, DynamicReferee)
