"""Write the golden decision cases (one JSON file each) in this folder.

A case is a recorded frame (a saved game: start position, options, the
history so far) and its next decision - a shot (a lag shot during the lag)
with the fouls reported on it, a choice, or fouls reported on the frame's
last shot - with the ruling expected by the rules (the seed item is named in
``source``), or the one-line error a refused decision gives.
``test_golden_decisions`` judges each through ``Game`` and through
``piramida referee --game ... --json``. Boilerplate comes from
``../rulings/make_cases.py``; every expectation is written out by hand.
Run: ``.venv/bin/python tests/golden/decisions/make_decisions.py [FOLDER]``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "rulings"))

from make_cases import (  # noqa: E402
    AFTER,
    AFTER_BREAK,
    CX,
    RS,
    STD,
    STD_SHELVES,
    Ev,
    after_of,
    nxt,
    pos,
    rack15,
    shot,
)

CASES: list[dict] = []
START = pos("combined", rack15(), to_move=0, in_hand="house", brk=True)
BREAKS = ["break", "make_opponent_break"]


def game(variant, initial, history=(), lag=False, options=None):
    return {"piramida_game": 1, "variant": variant, "seed": None, "options": options or {}, "lag": lag,
            "initial": initial, "history": list(history)}


def shot_entry(shot_, events, after, reported=()):
    return {"type": "shot", "shot": shot_, "events": events.items if isinstance(events, Ev) else events,
            "after": after, "think_s": None, "reported": list(reported)}


def lag_shot(player, x, y, events, ball="0", variant="combined", px=None):
    """A lag shot of ``player`` placed at (px or his side's x, 0.4) whose
    ball stops at (x, y)."""
    place = (px if px is not None else (0.5 if player == 0 else 1.3), 0.4)
    after = pos(variant, {ball: (x, y)}, to_move=player)
    return shot(ball, phi=90.0, v=2.5, place=place), events, after


def case(name, source, g, decision, expected=None, error=None):
    assert (expected is None) != (error is None)
    CASES.append({"name": name, "source": source, "game": g, "decision": decision,
                  "expected": expected, "error": error})


def shot_decision(s, events, after, reported=()):
    return {"shot": s, "events": events.items if isinstance(events, Ev) else events, "after": after,
            "reported": list(reported)}


LAG_OK = Ev("0").cush("0", "rear")  # to the rear cushion once and back
LAG_TWICE = Ev("0").cush("0", "rear").cush("0", "front").cush("0", "rear")
LAG_LONG = Ev("0").cush("0", "rear").cush("0", "right_front")
S0 = lag_shot(0, 0.5, 0.5, LAG_OK)
S0_ENTRY = shot_entry(*S0)

# ------------------------------------------------------------ the lag
case("lag_first_shot_then_opponent", "seed 004 item 7.1; docs/game_rules.md §4.1",
     game("combined", START, lag=True), shot_decision(*S0),
     {"legal": True, "fouls": [], "scored": {"0": [], "1": []}, "respotted": {},
      "penalty": "lag: p0 rests 0.500 m from the front cushion", "score": [0, 0], "next": nxt(1, "lag"),
      "winner": None, "owed": [0, 0], "phase": "lag"})
case("lag_nearer_front_cushion_wins", "seed 004 items 7.1, 7.4",
     game("combined", START, [S0_ENTRY], lag=True), shot_decision(*lag_shot(1, 1.3, 0.3, LAG_OK)),
     {"legal": True, "fouls": [],
      "penalty": "lag: p1 rests 0.300 m from the front cushion; p1 wins the lag, 0.300 m against 0.500 m (item 7.4)",
      "next": nxt(1, "choice", BREAKS), "winner": None, "phase": "choice"})
case("lag_farther_loses", "seed 004 items 7.1, 7.4",
     game("combined", START, [S0_ENTRY], lag=True), shot_decision(*lag_shot(1, 1.3, 0.7, LAG_OK)),
     {"penalty": "lag: p1 rests 0.700 m from the front cushion; p0 wins the lag, 0.500 m against 0.700 m (item 7.4)",
      "next": nxt(0, "choice", BREAKS), "phase": "choice"})
case("lag_long_cushion_loses", "seed 004 item 7.2 (5)",
     game("combined", START, [S0_ENTRY], lag=True), shot_decision(*lag_shot(1, 1.3, 0.2, LAG_LONG)),
     {"penalty": "lag: p1 loses the lag (item 7.2); p0 wins the lag and chooses who breaks (item 7.4)",
      "next": nxt(0, "choice", BREAKS), "phase": "choice"})
case("lag_rear_cushion_twice_loses", "seed 004 item 7.2 (6)",
     game("combined", START, lag=True), shot_decision(*lag_shot(0, 0.5, 0.2, LAG_TWICE)),
     {"legal": True, "penalty": "lag: p0 loses the lag (item 7.2)", "next": nxt(1, "lag"), "phase": "lag"})
case("lag_stops_on_opponents_side_loses", "seed 004 item 7.2 (1)",
     game("combined", START, [S0_ENTRY], lag=True), shot_decision(*lag_shot(1, 0.7, 0.2, LAG_OK)),
     {"penalty": "lag: p1 loses the lag (item 7.2); p0 wins the lag and chooses who breaks (item 7.4)",
      "next": nxt(0, "choice", BREAKS)})
case("lag_both_lost_replayed", "seed 004 items 7.2, 7.3",
     game("combined", START, [shot_entry(*lag_shot(0, 0.5, 0.2, LAG_TWICE))], lag=True),
     shot_decision(*lag_shot(1, 1.3, 0.3, LAG_LONG)),
     {"penalty": "lag: p1 loses the lag (item 7.2); lag replayed (item 7.3)", "next": nxt(0, "lag"),
      "phase": "lag"})
case("lag_equal_distances_replayed", "seed 004 item 7.3",
     game("combined", START, [S0_ENTRY], lag=True), shot_decision(*lag_shot(1, 1.3, 0.5, LAG_OK)),
     {"penalty": "lag: p1 rests 0.500 m from the front cushion; lag replayed (item 7.3)", "next": nxt(0, "lag")})
LAG_WON_BY_P1 = [S0_ENTRY, shot_entry(*lag_shot(1, 1.3, 0.3, LAG_OK))]
case("lag_winner_makes_opponent_break", "seed 004 item 7.4 (2)",
     game("combined", START, LAG_WON_BY_P1, lag=True), {"choice": "make_opponent_break"},
     {"legal": True, "fouls": [], "penalty": "p1 chooses make_opponent_break", "score": [0, 0],
      "next": nxt(0, "shot", in_hand="house"), "winner": None, "owed": [0, 0], "phase": "break"})
case("lag_winner_breaks", "seed 004 item 7.4 (1)",
     game("combined", START, LAG_WON_BY_P1, lag=True), {"choice": "break"},
     {"penalty": "p1 chooses break", "next": nxt(1, "shot", in_hand="house"), "phase": "break"})
case("lag_shot_during_the_choice_refused", "seed 004 item 7.4",
     game("combined", START, LAG_WON_BY_P1, lag=True), shot_decision(*lag_shot(0, 0.5, 0.5, LAG_OK)),
     error="must make a choice first")
case("lag_wrong_choice_refused", "seed 004 item 7.4",
     game("combined", START, LAG_WON_BY_P1, lag=True), {"choice": "shoot"}, error="not allowed now")
case("lag_ball_on_house_line_refused", "seed 004 items 7.1, 10.1-10.2: the house line is not in the house",
     game("combined", START, [S0_ENTRY], lag=True),
     shot_decision(shot("0", phi=90.0, v=2.5, place=(1.3, 0.8875)), LAG_OK, pos("combined", {"0": (1.3, 0.2)})),
     error="outside the house")
case("lag_ball_on_opponents_side_refused", "seed 004 item 7.1",
     game("combined", START, lag=True),
     shot_decision(shot("0", phi=90.0, v=2.5, place=(1.2, 0.4)), LAG_OK, pos("combined", {"0": (1.2, 0.2)})),
     error="side of the long axis")
case("lag_recorded_history_with_a_bad_lag_refused", "seed 004 item 7.1",
     game("combined", START, [shot_entry(shot("0", phi=90.0, v=2.5, place=(1.2, 1.5)), LAG_OK,
                                         pos("combined", {"0": (1.2, 0.2)}))], lag=True),
     shot_decision(*lag_shot(1, 1.3, 0.3, LAG_OK)), error="lag")
case("lag_shot_with_a_reported_foul_refused", "seed 004 item 7.2 (a lost lag is not a foul)",
     game("combined", START, lag=True), shot_decision(*S0, reported=["touched_ball"]),
     error="no fouls to report")
FIVE = pos("five_ball", {"r1": (CX, 0.8875), "y": (CX, 1.775), "r2": (CX, 2.6625)}, to_move=0,
           in_hand="house", brk=True)
case("five_ball_lag_must_come_back_to_the_house", "seed 000, the lag (last paragraph)",
     game("five_ball", FIVE, [shot_entry(*lag_shot(0, 0.5, 0.5, Ev("w1").cush("w1", "rear"), "w1", "five_ball"))],
          lag=True),
     shot_decision(*lag_shot(1, 1.3, 1.2, Ev("w2").cush("w2", "rear"), "w2", "five_ball")),
     {"penalty": "lag: p1 loses the lag (item 7.2); p0 wins the lag and chooses who breaks (item 7.4)",
      "next": nxt(0, "choice", BREAKS)})

# ------------------------------------------------------------ choices after a foul
FREE = pos("free", STD, shelves=[list(s) for s in STD_SHELVES])
NO_CONTACT = shot_entry(
    {"ball": "0", "phi": 90.0, "v": 3.0, "a": 0.0, "b": 0.0, "theta": 0.0, "place": None, "call": None,
     "declare_frozen": None},
    Ev("0").cush("0", "rear"), after_of(FREE, moves={"0": (0.6, 1.5)}))
TAKE = [f"take_ball:{b}" for b in "1234567"]
case("free_foul_opponent_takes_a_ball", "seed 004 item 6; docs/game_rules.md §5.1",
     game("free", FREE, [NO_CONTACT]), {"choice": "take_ball:3"},
     {"legal": True, "fouls": [], "scored": {"0": [], "1": ["3"]}, "respotted": {},
      "penalty": "p1 chooses take_ball:3", "score": [3, 6], "next": nxt(1, "choice", AFTER), "winner": None,
      "owed": [0, 0], "phase": "choice"})
case("free_foul_then_make_offender_shoot", "seed 004 item 6 (2)",
     game("free", FREE, [NO_CONTACT, {"type": "choice", "choice": "take_ball:3"}]),
     {"choice": "make_offender_shoot"},
     {"scored": {"0": [], "1": []}, "score": [3, 6], "penalty": "p1 chooses make_offender_shoot",
      "next": nxt(0), "phase": "shot"})
case("free_foul_take_a_ball_not_on_the_table_refused", "seed 004 item 6",
     game("free", FREE, [NO_CONTACT]), {"choice": "take_ball:9"}, error="not allowed")
case("free_shot_while_a_choice_is_due_refused", "seed 004 item 6",
     game("free", FREE, [NO_CONTACT]), shot_decision(NO_CONTACT["shot"], NO_CONTACT["events"], NO_CONTACT["after"]),
     error="must make a choice first")
BREAK_FOUL = shot_entry(
    {"ball": "0", "phi": 90.0, "v": 5.0, "a": 0.0, "b": 0.0, "theta": 0.0, "place": [CX, 0.5], "call": None,
     "declare_frozen": None},
    Ev("0").hit("0", "2").cush("0", "rear"),
    after_of(START, place=("0", (0.5, 1.5))) | {"in_hand": None})
TAKEN15 = [BREAK_FOUL, {"type": "choice", "choice": "take_ball:15"}]
case("break_foul_penalty_ball_first", "seed 004 items 6, 12.2; docs/game_rules.md §5.2",
     game("combined", START), shot_decision(BREAK_FOUL["shot"], BREAK_FOUL["events"], BREAK_FOUL["after"]),
     {"legal": False, "fouls": ["illegal_break"], "score": [0, 0],
      "next": nxt(1, "choice", [f"take_ball:{b}" for b in range(1, 16)]), "phase": "choice"})
case("break_foul_take_ball_then_the_four_choices", "seed 004 items 6, 12.2",
     game("combined", START, [BREAK_FOUL]), {"choice": "take_ball:15"},
     {"legal": True, "scored": {"0": [], "1": ["15"]}, "penalty": "p1 chooses take_ball:15", "score": [0, 1],
      "next": nxt(1, "choice", AFTER_BREAK), "phase": "choice"})
case("break_foul_rerack_and_make_offender_break", "seed 004 item 12.2 (4)",
     game("combined", START, TAKEN15), {"choice": "rerack_and_make_offender_break"},
     {"legal": True, "scored": {"0": [], "1": []}, "penalty": "p1 chooses rerack_and_make_offender_break",
      "score": [0, 1], "next": nxt(0, "shot", in_hand="house"), "phase": "break"})
case("break_foul_accept_and_shoot", "seed 004 item 12.2 (1)",
     game("combined", START, TAKEN15), {"choice": "accept_and_shoot"},
     {"penalty": "p1 chooses accept_and_shoot", "score": [0, 1], "next": nxt(1), "phase": "shot"})

# ------------------------------------------------------------ fouls reported from outside
COMB = pos("combined", STD, shelves=[list(s) for s in STD_SHELVES])
POT1 = {"shot": {"ball": "0", "phi": 90.0, "v": 3.0, "a": 0.0, "b": 0.0, "theta": 0.0, "place": None,
                 "call": None, "declare_frozen": None},
        "events": Ev("0").hit("0", "1").pot("1", "rl").items,
        "after": after_of(COMB, gone=["1"], moves={"0": (0.6, 1.5)}), "reported": []}
T_COMB = [f"take_ball:{b}" for b in "234567"]
for kind, src in (("feet_off_floor", "seed 004 items 16, 29.1 (5); seed 003 Штрафы"),
                  ("touched_ball", "seed 004 items 17, 29.1 (6); seed 003 Штрафы"),
                  ("cue_misuse", "seed 004 items 15, 29.1 (4); seed 003 Штрафы"),
                  ("balls_moving", "seed 004 items 14.2, 29.1 (3); seed 003 Штрафы"),
                  ("double_hit", "seed 004 items 18, 29.1 (7)")):
    case(f"reported_{kind}_pocketed_ball_respotted", src, game("combined", COMB), POT1 | {"reported": [kind]},
         {"legal": False, "fouls": [kind], "scored": {"0": [], "1": []}, "respotted": {"1": RS}, "score": [3, 5],
          "next": nxt(1, "choice", ["take_ball:1", *T_COMB]), "owed": [0, 0], "phase": "choice"})
case("reported_foul_on_the_last_shot", "seed 004 items 17, 29.1 (6): reported after the shot",
     game("combined", COMB, [shot_entry(POT1["shot"], POT1["events"], POT1["after"])]),
     {"report": ["touched_ball"]},
     {"legal": False, "fouls": ["touched_ball"], "respotted": {"1": RS}, "score": [3, 5],
      "next": nxt(1, "choice", ["take_ball:1", *T_COMB])})
case("reported_two_fouls_penalised_once", "seed 004 item 29.2", game("combined", COMB),
     POT1 | {"reported": ["feet_off_floor", "touched_ball"]},
     {"fouls": ["feet_off_floor", "touched_ball"], "score": [3, 5], "next": nxt(1, "choice", ["take_ball:1", *T_COMB])})
case("report_with_no_shot_refused", "seed 004 item 29.1", game("combined", COMB), {"report": ["touched_ball"]},
     error="no shot to report a foul on")

# ------------------------------------------------------------ the Moscow debt (owed)
MOS_EMPTY = pos("moscow", STD, shelves=[[], ["11", "12"]])
case("moscow_foul_with_empty_shelf_owes_a_ball", "seed 003 Штрафы: no ball on the shelf, collected later",
     game("moscow", MOS_EMPTY), POT1 | {"after": after_of(MOS_EMPTY, gone=["1"], moves={"0": (0.6, 1.5)}),
                                       "reported": ["touched_ball"]},
     {"legal": False, "fouls": ["touched_ball"], "scored": {"0": [], "1": []}, "respotted": {"1": RS},
      "score": [0, 2], "owed": [1, 0], "next": nxt(1, "choice", AFTER), "phase": "choice"})
for kind in ("balls_moving", "cue_misuse"):
    case(f"moscow_{kind}_pocketed_ball_counts_penalty_still_taken",
         "seed 003 Штрафы: balls pocketed on fouls (а), (д), (е) do not count, so on (б) and (в) they do",
         game("moscow", MOS_EMPTY), POT1 | {"after": after_of(MOS_EMPTY, gone=["1"], moves={"0": (0.6, 1.5)}),
                                           "reported": [kind]},
         {"legal": False, "fouls": [kind], "scored": {"0": ["1"], "1": []}, "score": [0, 2], "owed": [0, 0],
          "next": nxt(1, "choice", AFTER), "phase": "choice"})
MOS_OWES = pos("moscow", STD, shelves=[[], ["11", "12"]], owed=(1, 0))
case("moscow_debt_collected_from_the_next_pocketed_ball", "seed 003 Штрафы: collected after the next ball",
     game("moscow", MOS_OWES), POT1 | {"after": after_of(MOS_OWES, gone=["1"], moves={"0": (0.6, 1.5)})},
     {"legal": True, "fouls": [], "scored": {"0": ["1"], "1": []}, "respotted": {"1": RS},
      "penalty": "owed ball 1 re-spotted from player 0's shelf", "score": [0, 2], "owed": [0, 0], "next": nxt(0),
      "phase": "shot"})


def write(out: Path = HERE) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.json"):
        old.unlink()
    names = set()
    for c in CASES:
        assert c["name"] not in names, c["name"]
        names.add(c["name"])
        (out / f"{c['name']}.json").write_text(json.dumps(c, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(CASES)} cases -> {out}")


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
