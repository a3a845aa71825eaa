"""Moscow pyramid as seed 003 has it (docs/game_rules.md §5.3).

Combined pyramid, except: the opponent names the ball removed after a
свояк; the penalty is a ball from the offender's shelf, re-spotted, owed
until his next scored ball when the shelf is empty (seed 003 "Штрафы").

Interpretations (docs/game_rules.md §5.3, §6):
- balls pocketed on fouls (а), (д), (е) are "re-spotted near the rear
  cushion (the third spot)": the third spot is the rear spot, so they go
  through the ordinary re-spotting of §4.7 like every illegally pocketed
  ball; on fouls (б) a stroke with the cue's butt or side (``cue_misuse``)
  and (в) a stroke while balls still move (``balls_moving``) what the shot
  pocketed counts, and the penalty is taken as on any foul;
- the special cases of seed 003 are ruled as seed 003 rules them
  (``seed003_special``; docs/rules.md "Special cases"): a ball on the rail
  (``on_rail``) goes back against the cushion, the turn passes, what was
  pocketed counts; the cue ball returned by an outside cause
  (``returned``) costs no penalty, nothing pocketed counts, the turn
  passes; a ball falling from the jaws (``hanging_drop``) leaves the shot
  with the player who missed, from the house. The simulation never writes
  these events; a recorded match holds them.
"""

from __future__ import annotations

from piramida.env.rules.base import register_game
from piramida.env.rules.options import COMMON_OPTIONS, GameType, Option
from piramida.env.rules.shelf import RETURN, ShelfReferee

_GAME_TYPE = GameType(
    variant="moscow",
    long_name="Moscow pyramid (seed 003)",
    cue_ball="coloured",
    called=False,
    rules="docs/game_rules.md §5.3",
    options=COMMON_OPTIONS
    + (
        Option("target", int, "balls to win (seed 003: 8)"),
        Option("svoyak_pick", ("opponent", "shooter"), "§5.3: the opponent names the ball (seed 003)"),
    ),
)


class MoscowReferee(ShelfReferee):
    game_type = _GAME_TYPE
    seed003_special = True
    fouls_keeping_pots = frozenset({"cue_misuse", "balls_moving"})

    def penalty_mode(self) -> str:
        return RETURN


register_game(_GAME_TYPE, MoscowReferee)
