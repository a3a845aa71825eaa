"""Golden cases per variant: free pyramid penalties, свояк, Moscow, Nevskaya,
dynamic, classic pyramid and five balls. Expected rulings reasoned from
docs/game_rules.md §5 and the seed items named in each case."""

from make_cases import AFTER, CX, MID, RS, STD, Y0, Ev, after_of, case, nxt, pos, shot, takes

SH = [["8", "9", "10"], ["11", "12", "13", "14", "15"]]
A0 = {"0": (0.6, 1.5)}
T7 = takes("1234567")
TWOCUSH = Ev("0").hit("0", "1").cush("1", "left_rear").cush("1", "rear")


def v(variant, **kw):
    kw.setdefault("shelves", [list(s) for s in SH])
    return pos(variant, STD, **kw)


def simple(name, src, variant, before, ev, exp, gone=(), sh=None, moves=None, **kw):
    after = after_of(before, gone=gone, moves=moves if moves is not None else ({} if "0" in gone else A0))
    case(name, src, variant, before, sh or shot(), ev, after, exp, **kw)


# ------------------------------------------------------------ free pyramid
F = v("free")
T_FREE = takes("1234567")
simple("free_foul_take_ball_then_offender_shoots", "seed 004 item 6; docs/game_rules.md §5.1 default penalty", "free",
       F, Ev("0").cush("0", "rear"), {"legal": False, "fouls": ["no_contact"], "next": nxt(1, "choice", T_FREE)},
       choices=["take_ball:3", "make_offender_shoot"],
       after_choices={"score": [3, 6], "shelves": [SH[0], SH[1] + ["3"]], "next": nxt(0)})
simple("free_offender_returns_ball", "seed 003 Штрафы; docs/game_rules.md §5.1 option penalty", "free", F,
       Ev("0").cush("0", "rear"),
       {"legal": False, "fouls": ["no_contact"], "score": [2, 5], "respotted": {"10": RS},
        "next": nxt(1, "choice", AFTER)}, options={"penalty": "offender_returns"})
simple("free_offender_returns_owed_when_empty", "seed 003 Штрафы: owed", "free", v("free", shelves=[[], SH[1]]),
       Ev("0").cush("0", "rear"), {"legal": False, "score": [0, 5], "respotted": {}},
       options={"penalty": "offender_returns"}, after_choices={"owed": [1, 0]})
simple("free_owed_ball_collected_after_scoring", "seed 003 Штрафы: collected after the next scored ball",
       "free", v("free", shelves=[SH[0], SH[1]], owed=(1, 0)), Ev("0").hit("0", "1").pot("1", "rl").pot("3", "fl"),
       {"legal": True, "scored": {"0": ["1", "3"], "1": []}, "score": [4, 5], "respotted": {"3": RS},
        "next": nxt(0)}, gone=["1", "3"], options={"penalty": "offender_returns"}, after_choices={"owed": [0, 0]})
simple("free_struck_ball_scores", "seed 004 item 4.3; docs/game_rules.md §5.1: the struck ball included", "free", F,
       Ev("3").hit("3", "1").pot("1", "rl").pot("3", "ml"),
       {"legal": True, "scored": {"0": ["1", "3"], "1": []}, "score": [5, 5], "next": nxt(0)},
       gone=["1", "3"], sh=shot(ball="3"), moves={})
simple("free_points_scoring", "seed 004 (amateur play: by points); docs/game_rules.md §5.1 scoring = points", "free",
       v("free", score=(27, 65)), Ev("0").hit("0", "1").pot("2", "rr"),
       {"legal": True, "scored": {"0": ["2"], "1": []}, "score": [29, 65], "next": nxt(0)}, gone=["2"],
       options={"scoring": "points"})
simple("free_eighth_ball_wins", "seed 004: first to 8 balls; item 1.16", "free",
       v("free", shelves=[["10"], ["8", "9"] + SH[1]], to_move=1),
       Ev("0").hit("0", "1").pot("1", "rl"),
       {"legal": True, "score": [1, 8], "winner": 1, "next": nxt(None, "none")}, gone=["1"])
simple("free_penalty_ball_wins", "seed 004 item 6: the penalty ball scores for the non-offender", "free",
       v("free", shelves=[["10"], ["8", "9"] + SH[1]]), Ev("0").cush("0", "rear"),
       {"legal": False, "winner": None, "next": nxt(1, "choice", takes("1234567"))},
       choices=["take_ball:5"], after_choices={"score": [1, 8], "winner": 1, "next": nxt(None, "none")})

# ------------------------------------------------------------- свояк
C = v("combined")
SV = Ev("0").hit("0", "1").cush("1", "left_rear").pot("0", "ml")
simple("combined_svoyak_opponent_picks", "seed 003 Ведение игры; seed 004 item 21; docs/game_rules.md §5.2", "combined",
       C, SV, {"legal": True, "fouls": [], "scored": {"0": [], "1": []}, "score": [3, 5],
               "next": nxt(1, "choice", takes("1234567", "remove_ball:"))}, gone=["0"],
       choices=["remove_ball:4"],
       after_choices={"score": [4, 5], "shelves": [SH[0] + ["4"], SH[1]], "next": nxt(0, in_hand="house")})
simple("combined_svoyak_shooter_picks_option", "docs/game_rules.md §5.2 svoyak_pick = shooter (МКП)", "combined", C, SV,
       {"legal": True, "next": nxt(0, "choice", takes("1234567", "remove_ball:"))}, gone=["0"],
       options={"svoyak_pick": "shooter"})
simple("combined_svoyak_with_object_ball", "seed 003: any number of balls count", "combined", C,
       Ev("0").hit("0", "1").pot("1", "rl").pot("0", "ml"),
       {"legal": True, "scored": {"0": ["1"], "1": []}, "score": [4, 5],
        "next": nxt(1, "choice", takes("234567", "remove_ball:"))}, gone=["0", "1"])
simple("combined_foul_cue_pocketed_in_hand", "docs/game_rules.md §5.2: foul with the cue ball pocketed", "combined", C,
       Ev("0").pot("0", "ml"), {"legal": False, "fouls": ["no_contact"], "next": nxt(1, "choice", T7)},
       gone=["0"], choices=["take_ball:1", "shoot"],
       after_choices={"score": [3, 6], "next": nxt(1, in_hand="house")})
simple("combined_from_hand_first_contact_in_house", "seed 004 item 21.2", "combined",
       pos("combined", {k: xy for k, xy in STD.items() if k != "0"}, shelves=SH, in_hand="house"),
       Ev("0").hit("0", "6").cush("6", "front").cush("6", "right_front"),
       {"legal": False, "fouls": ["first_contact_in_house"]}, moves={"0": (1.3, 0.5)},
       sh=shot(phi=0, place=(1.0, 0.5)))
HOUSE_ONLY = {"1": (0.3, 0.3), "2": (1.4, 0.4)}
simple("combined_rear_house_when_all_in_house", "seed 004 item 21.2: temporary house", "combined",
       pos("combined", {**HOUSE_ONLY, "0": (CX, 2.0)}, shelves=[[str(i) for i in range(3, 10)],
                                                             [str(i) for i in range(10, 16)]]),
       Ev("0").pot("0", "rl"), {"legal": False, "fouls": ["no_contact"], "next": nxt(1, "choice", takes("12"))},
       gone=["0"], choices=["take_ball:1", "shoot"], after_choices={"next": nxt(1, in_hand="rear_house")})

M = v("moscow")
simple("moscow_svoyak_opponent_names_ball", "seed 003 Ведение игры", "moscow", M, SV,
       {"legal": True, "next": nxt(1, "choice", takes("1234567", "remove_ball:"))}, gone=["0"],
       choices=["remove_ball:2"], after_choices={"score": [4, 5], "next": nxt(0, in_hand="house")})
simple("moscow_svoyak_pays_owed_ball", "seed 003 Штрафы: owed ball collected after the next scored ball",
       "moscow", v("moscow", shelves=[[], SH[1]], owed=(1, 0)), SV, {"legal": True}, gone=["0"],
       choices=["remove_ball:2"],
       after_choices={"score": [0, 5], "owed": [0, 0], "next": nxt(0, in_hand="house"), "on_table": ["2"]})
simple("moscow_foul_ball_from_shelf", "seed 003 Штрафы", "moscow", M, Ev("0").cush("0", "rear"),
       {"legal": False, "score": [2, 5], "respotted": {"10": RS}, "next": nxt(1, "choice", AFTER)})
simple("moscow_foul_empty_shelf_owes", "seed 003 Штрафы: owed", "moscow", v("moscow", shelves=[[], SH[1]]),
       Ev("0").cush("0", "rear"), {"legal": False, "score": [0, 5]}, after_choices={"owed": [1, 0]})
simple("moscow_foul_pocketed_balls_not_scored", "seed 003 Штрафы (д): cue ball jumped", "moscow", M,
       Ev("0").hit("0", "1").pot("1", "rl").off("0"),
       {"legal": False, "fouls": ["jumped_ball"], "score": [2, 5], "scored": {"0": [], "1": []},
        "respotted": {"1": RS, "10": [CX, Y0 + 0.069]}}, gone=["0", "1"],
       choices=["shoot"], after_choices={"next": nxt(1, in_hand="house")})

N = v("nevskaya")
simple("nevskaya_svoyak_as_combined", "seed 004 variant descriptions; docs/game_rules.md §5.4", "nevskaya", N, SV,
       {"legal": True, "next": nxt(1, "choice", takes("1234567", "remove_ball:"))}, gone=["0"])
simple("nevskaya_decline_ball_in_hand_anywhere", "seed 004: Невская пирамида", "nevskaya", N,
       Ev("0").cush("0", "rear"),
       {"legal": False, "next": nxt(1, "choice", T7 + ["ball_in_hand_anywhere"])},
       choices=["ball_in_hand_anywhere"],
       after_choices={"score": [3, 5], "next": nxt(1, in_hand="anywhere"), "on_table_not": ["0"]})
simple("nevskaya_take_penalty_ball", "seed 004: Невская пирамида", "nevskaya", N, Ev("0").cush("0", "rear"),
       {"legal": False}, choices=["take_ball:7"],
       after_choices={"score": [3, 6], "next": nxt(1, "choice", AFTER)})

D = v("dynamic")
simple("dynamic_svoyak_shooter_picks_in_hand_anywhere", "docs/game_rules.md §5.5", "dynamic", D, SV,
       {"legal": True, "next": nxt(0, "choice", takes("1234567", "remove_ball:"))}, gone=["0"],
       choices=["remove_ball:5"], after_choices={"score": [4, 5], "next": nxt(0, in_hand="anywhere")})
DH = pos("dynamic", {k: xy for k, xy in STD.items() if k != "0"}, shelves=SH, in_hand="anywhere")
simple("dynamic_premium_shot_cue_pocketed_is_foul", "docs/game_rules.md §5.5 (interpretation: every shot from hand "
       "anywhere)", "dynamic", DH, Ev("0").hit("0", "1").pot("1", "rl").pot("0", "ml"),
       {"legal": False, "fouls": ["cue_ball_pocketed"], "respotted": {"1": RS}, "next": nxt(1, "choice", T7)},
       gone=["0", "1"], sh=shot(place=(0.5, 1.8)), choices=["take_ball:2", "shoot"],
       after_choices={"next": nxt(1, in_hand="anywhere"), "score": [3, 6]})
simple("dynamic_foul_in_hand_house_option", "docs/game_rules.md §5.5 foul_in_hand = house", "dynamic", D,
       Ev("0").hit("0", "1").cush("1", "left_rear").cush("1", "rear").off("0"),
       {"legal": False, "fouls": ["jumped_ball"]},
       gone=["0"], options={"foul_in_hand": "house"}, choices=["take_ball:2", "make_offender_shoot"],
       after_choices={"next": nxt(0, in_hand="house")})

# ----------------------------------------------------------- classic pyramid
K = v("classic71", score=(20, 30))


def kc(name, src, before, call, ev, exp, gone=(), **kw):
    simple(name, "seed 004 Классическая пирамида; docs/game_rules.md §5.6" + src, "classic71", before, ev, exp,
           gone=gone, sh=shot(call=call), **kw)


kc("classic_call_success", ": called ball in called pocket", K, ("5", "rr"),
   Ev("0").hit("0", "5").pot("5", "rr"), {"legal": True, "scored": {"0": ["5"], "1": []}, "score": [25, 30],
                                          "next": nxt(0)}, gone=["5"])
kc("classic_call_success_all_pocketed_score", ": every ball pocketed scores", K, ("5", "rr"),
   Ev("0").hit("0", "5").pot("5", "rr").pot("7", "rl"),
   {"legal": True, "scored": {"0": ["5", "7"], "1": []}, "score": [32, 30]}, gone=["5", "7"])
kc("classic_ace_scores_eleven", ": ball 1 scores 11", K, ("1", "fl"), Ev("0").hit("0", "1").pot("1", "fl"),
   {"legal": True, "score": [31, 30]}, gone=["1"])
kc("classic_uncalled_ball_respotted", ": uncalled ball re-spotted, no foul, turn passes", K, ("5", "rr"),
   Ev("0").hit("0", "5").pot("7", "rl"),
   {"legal": True, "fouls": [], "scored": {"0": [], "1": []}, "score": [20, 30], "respotted": {"7": RS},
    "next": nxt(1)}, gone=["7"])
kc("classic_called_ball_wrong_pocket", ": the call fails", K, ("5", "rr"), Ev("0").hit("0", "5").pot("5", "rl"),
   {"legal": True, "score": [20, 30], "respotted": {"5": RS}, "next": nxt(1)}, gone=["5"])
kc("classic_foul_five_points", ": 5 points deducted", K, ("5", "rr"), Ev("0").cush("0", "rear"),
   {"legal": False, "fouls": ["no_contact"], "score": [15, 30], "next": nxt(1, "choice", AFTER)},
   choices=["shoot"], after_choices={"next": nxt(1)})
kc("classic_negative_score", ": scores may go negative", v("classic71", score=(3, 0)), ("5", "rr"),
   Ev("0").cush("0", "rear"), {"legal": False, "score": [-2, 0]})
kc("classic_foul_points_to_opponent_option", ": foul_points_to_opponent", K, ("5", "rr"),
   Ev("0").cush("0", "rear"), {"legal": False, "score": [20, 35]}, options={"foul_points_to_opponent": True})
kc("classic_cue_ball_pocketed_foul", ": cue ball pocketed, in hand from the house", K, ("5", "rr"),
   Ev("0").hit("0", "5").pot("5", "rr").pot("0", "ml"),
   {"legal": False, "fouls": ["cue_ball_pocketed"], "score": [15, 30], "respotted": {"5": RS}},
   gone=["0", "5"], choices=["make_offender_shoot"], after_choices={"next": nxt(0, in_hand="house")})
LAST = {"0": (CX, 1.0), "9": (0.5, 2.0)}
ALLBUT9 = [str(i) for i in range(1, 16) if i != 9]
kc("classic_last_ball_bonus_wins", ": the last ball scores 10 more", pos("classic71", LAST,
   shelves=[ALLBUT9[:7], ALLBUT9[7:]], score=(60, 40)), ("9", "rl"), Ev("0").hit("0", "9").pot("9", "rl"),
   {"legal": True, "score": [79, 40], "winner": 0, "next": nxt(None, "none")}, gone=["9"])
kc("classic_reaching_71_wins", ": target 71", v("classic71", score=(66, 10)), ("5", "rr"),
   Ev("0").hit("0", "5").pot("5", "rr"), {"legal": True, "score": [71, 10], "winner": 0}, gone=["5"])
kc("classic_cleared_at_70_70_replay", ": 70-70, one more frame", pos("classic71", LAST,
   shelves=[ALLBUT9[:7], ALLBUT9[7:]], score=(51, 70)), ("9", "rl"), Ev("0").hit("0", "9").pot("9", "rl"),
   {"legal": True, "winner": None, "next": nxt(1, in_hand="house")}, gone=["9"],
   after_choices={"score": [0, 0], "break": True, "n_balls": 15})
kc("classic_cleared_higher_score_wins", " (interpretation: nobody at 71, higher score wins)",
   pos("classic71", LAST, shelves=[ALLBUT9[:7], ALLBUT9[7:]], score=(40, 60)), ("9", "rl"),
   Ev("0").hit("0", "9").pot("9", "rl"), {"score": [59, 60], "winner": 1}, gone=["9"])
kc("classic_cleared_tie_draw_option", ": tie = draw", pos("classic71", LAST,
   shelves=[ALLBUT9[:7], ALLBUT9[7:]], score=(51, 70)), ("9", "rl"), Ev("0").hit("0", "9").pot("9", "rl"),
   {"winner": None, "next": nxt(None, "none")}, gone=["9"], options={"tie": "draw"})
KB = pos("classic71", {str(i): xy for i, xy in zip(range(1, 16), [(0.2 + 0.1 * (i % 14), 2.0 + 0.1 * (i // 14))
                                                               for i in range(15)], strict=True)},
         in_hand="house", brk=True)
simple("classic_break_pocket_scores", "docs/game_rules.md §5.6 interpretation: the break needs no call", "classic71", KB,
       Ev("0").hit("0", "3").pot("7", "rl"), {"legal": True, "score": [7, 0], "next": nxt(0)}, gone=["7"],
       sh=shot(place=(CX, 0.5)), moves={"0": (0.6, 1.5)})

# ----------------------------------------------------------------- five balls
FB = {"w1": (CX, 0.5), "w2": (0.4, 1.2), "r1": (CX, 3.55 / 4), "y": (CX, MID), "r2": (CX, Y0)}
START = {"r1": [CX, 3.55 / 4], "y": [CX, MID], "r2": [CX, Y0]}


def fb(score=(0, 0), to_move=0):
    return pos("five_ball", FB, score=score, to_move=to_move)


def five(name, src, called, pocket, onto, exp, score=(0, 0), extra_ev=None, **kw):
    ev = Ev("w1").hit("w1", called)
    for o in onto:
        ev.hit("w1", o)
    ev.pot(called, pocket)
    for e in extra_ev or []:
        getattr(ev, e[0])(*e[1:])
    gone = [called] + [e[1] for e in (extra_ev or []) if e[0] == "pot"]
    before = fb(score)
    moves = {"w1": (1.2, 1.5)} if "w1" not in gone else {}
    case(name, "seed 000 " + src, "five_ball", before, shot(ball="w1", call=(called, pocket)), ev,
         after_of(before, gone=gone, moves=moves), exp, **kw)


def line(name, src, called, pocket, onto, pts):
    exp = {"legal": True, "fouls": [], "score": [pts, 0], "scored": {"0": [called], "1": []}, "next": nxt(0)}
    if called != "w2":
        exp["respotted"] = {called: START[called]}
    five(name, src, called, pocket, onto, exp)


line("five_red_white_5", "1a", "r1", "fl", ["w2"], 5)
line("five_red_red_6", "1b", "r1", "fl", ["r2"], 6)
line("five_red_red_white_8", "1c", "r1", "fl", ["r2", "w2"], 8)
line("five_red_yellow_9", "1d", "r1", "fl", ["y"], 9)
line("five_red_white_yellow_11", "1e", "r1", "fl", ["w2", "y"], 11)
line("five_red_yellow_red_12", "1f", "r1", "fl", ["y", "r2"], 12)
line("five_red_yellow_red_white_14", "1g", "r1", "fl", ["y", "r2", "w2"], 14)
line("five_white_red_4", "2a", "w2", "ml", ["r1"], 4)
line("five_white_yellow_7", "2b", "w2", "ml", ["y"], 7)
line("five_white_two_reds_7", "2c", "w2", "ml", ["r1", "r2"], 7)
line("five_white_yellow_red_10", "2d", "w2", "ml", ["y", "r1"], 10)
line("five_white_yellow_two_reds_13", "2e", "w2", "ml", ["y", "r1", "r2"], 13)
line("five_yellow_corner_white_11", "3a", "y", "rr", ["w2"], 11)
line("five_yellow_corner_red_12", "3b", "y", "rr", ["r1"], 12)
line("five_yellow_corner_red_white_14", "3c", "y", "rr", ["r1", "w2"], 14)
line("five_yellow_corner_two_reds_15", "3d", "y", "rr", ["r1", "r2"], 15)
line("five_yellow_corner_two_reds_white_17", "3e", "y", "rr", ["r1", "r2", "w2"], 17)
line("five_yellow_middle_white_17", "4a", "y", "mr", ["w2"], 17)
line("five_yellow_middle_red_18", "4b", "y", "mr", ["r1"], 18)
line("five_yellow_middle_red_white_20", "4c", "y", "mr", ["r1", "w2"], 20)
line("five_yellow_middle_two_reds_21", "4d", "y", "mr", ["r1", "r2"], 21)
line("five_yellow_middle_white_two_reds_23", "4e", "y", "mr", ["w2", "r1", "r2"], 23)
five("five_no_carom_no_points", "(only balls pocketed with a carom count)", "r1", "fl", [],
     {"legal": True, "score": [0, 0], "scored": {"0": [], "1": []}, "respotted": {"r1": START["r1"]},
      "next": nxt(1)})
five("five_58_white_without_carom_shoots_again", "(58 points)", "w2", "ml", [],
     {"legal": True, "score": [58, 0], "winner": None, "next": nxt(0)}, score=(58, 0),
     after_choices={"on_table_not": ["w2"]})
five("five_59_white_without_carom_loses_turn", "(59 points)", "w2", "ml", [],
     {"legal": True, "score": [59, 0], "next": nxt(1, in_hand="house")}, score=(59, 0))
five("five_reaching_60_wins", "(60 points)", "r1", "fl", ["w2"],
     {"legal": True, "score": [60, 0], "winner": 0, "next": nxt(None, "none")}, score=(55, 0))
five("five_foul_points_go_to_opponent", "(a fault while pocketing: the points go to the opponent)", "r1", "fl",
     ["y"], {"legal": False, "fouls": ["cue_ball_pocketed"], "score": [0, 9], "scored": {"0": [], "1": ["r1"]},
             "next": nxt(1, "choice", AFTER)}, extra_ev=[("pot", "w1", "rr")],
     choices=["make_offender_shoot"], after_choices={"next": nxt(0, in_hand="house")})
before = fb()
case("five_start_spot_taken_respot", "docs/game_rules.md §5.7: start spot taken, §4.7 procedure", "five_ball", before,
     shot(ball="w1", call=("r1", "fl")), Ev("w1").hit("w1", "r1").pot("r1", "fl"),
     after_of(before, gone=["r1"], moves={"w1": (CX, 3.55 / 4)}),
     {"legal": True, "score": [0, 0], "respotted": {"r1": [CX, Y0 + 0.069]}, "next": nxt(1)})
case("five_miss_no_points", "seed 000: general rules, foul_points = 0", "five_ball", before,
     shot(ball="w1", call=("r1", "fl")), Ev("w1").cush("w1", "rear"), after_of(before, moves={"w1": (1.2, 1.5)}),
     {"legal": False, "fouls": ["no_contact"], "score": [0, 0], "next": nxt(1, "choice", AFTER)})

# ------------------------------------------------------------ more cases
simple("combined_svoyak_ball_wins", "seed 003 (eight balls); item 1.16: the win is recorded at once",
       "combined", v("combined", shelves=[["8", "9", "10", "11", "12", "13", "14"], ["15"]]), SV,
       {"legal": True, "score": [7, 1], "winner": None}, gone=["0"], choices=["remove_ball:3"],
       after_choices={"score": [8, 1], "winner": 0, "next": nxt(None, "none")})
simple("dynamic_premium_shot_object_ball_scores", "docs/game_rules.md §5.5: on the premium shot object balls score",
       "dynamic", DH, Ev("0").hit("0", "1").pot("1", "rl"),
       {"legal": True, "scored": {"0": ["1"], "1": []}, "score": [4, 5], "next": nxt(0)}, gone=["1"],
       sh=shot(place=(0.5, 1.8)), moves={"0": (0.6, 1.5)})
NB = pos("nevskaya", {k: xy for k, xy in STD.items() if k != "0"}, in_hand="house", brk=True,
         shelves=[[], []])
simple("nevskaya_break_foul_take_or_hand", "seed 004 item 12.2 and Невская пирамида", "nevskaya",
       {**NB, "balls": {**NB["balls"], **{str(i): [0.8 + 0.1 * (i - 8), 3.45] for i in range(8, 16)}}},
       Ev("0").hit("0", "1").cush("2", "rear"),
       {"legal": False, "fouls": ["illegal_break"],
        "next": nxt(1, "choice", takes([str(i) for i in range(1, 16)]) + ["ball_in_hand_anywhere"])},
       sh=shot(place=(1.0, 0.4)), moves={"0": (0.6, 1.5)}, choices=["take_ball:9"],
       after_choices={"next": nxt(1, "choice", ["accept_and_shoot", "accept_and_make_offender_shoot",
                                                "rerack_and_break", "rerack_and_make_offender_break"])})
before5 = pos("five_ball", FB)
case("five_jumped_ball_comes_back", "docs/game_rules.md §5.7 and §4.6: every jumped ball comes back", "five_ball",
     before5, shot(ball="w1", call=("r1", "fl")), Ev("w1").hit("w1", "r1").off("y"),
     after_of(before5, gone=["y"], moves={"w1": (1.2, 1.5)}),
     {"legal": False, "fouls": ["jumped_ball"], "score": [0, 0], "respotted": {"y": START["y"]},
      "next": nxt(1, "choice", AFTER)})
