"""Golden cases: the break, item 20, its notes, pocketing, re-spotting and the
push rule (docs/game_rules.md §3, §4). Expected rulings are reasoned from the rules."""

from make_cases import (
    AFTER,
    AFTER_BREAK,
    CX,
    MID,
    RS,
    STD,
    STEP,
    Y0,
    Ev,
    L,
    R,
    after_of,
    case,
    nxt,
    pos,
    rack15,
    shot,
    std,
    takes,
)

# ----------------------------------------------------------------- the break
BR = rack15()
ALL = [str(i) for i in range(1, 16)]
CLASSIC_ORDER = ["4", "5", "6", "7", "15", "8", "9", "14", "13", "10", "2", "1", "12", "11", "3"]


def brk(variant="combined", balls=None, **kw):
    return pos(variant, balls or BR, in_hand="house", brk=True, **kw)


BSHOT = shot(place=(CX, 0.5), v=8.0)


def bafter(before, gone=()):
    return after_of(before, gone=gone, place=("0", (CX, 1.5)))


LEGAL0 = {"legal": True, "fouls": [], "winner": None}
b = brk()
case("break_cond1_pocket", "seed 004 item 12.1(1); docs/game_rules.md §4.2 (1)", "combined", b, BSHOT,
     Ev("0").hit("0", "1").pot("7", "rl"), bafter(b, ["7"]),
     {**LEGAL0, "scored": {"0": ["7"], "1": []}, "score": [1, 0], "respotted": {}, "next": nxt(0)})
case("break_cond2_three_cushions", "seed 004 item 12.1(2)", "combined", b, BSHOT,
     Ev("0").hit("0", "1").cush("2", "rear").cush("3", "left_rear").cush("4", "right_rear"), bafter(b),
     {**LEGAL0, "score": [0, 0], "next": nxt(1)})
case("break_cond3_two_cushions_and_crossing", "seed 004 item 12.1(3)", "combined", b, BSHOT,
     Ev("0").hit("0", "1").cush("2", "rear").cush("3", "rear").cross("5", "front"), bafter(b),
     {**LEGAL0, "next": nxt(1)})
case("break_fail_two_cushions_no_crossing", "seed 004 item 12.1, 12.2 and its note (incomplete pyramid)",
     "combined", b, BSHOT, Ev("0").hit("0", "1").cush("2", "rear").cush("3", "rear"), bafter(b),
     {"legal": False, "fouls": ["illegal_break"], "score": [0, 0],
      "next": nxt(1, "choice", takes(ALL))},
     choices=["take_ball:15", "rerack_and_break"],
     after_choices={"score": [0, 1], "shelves": [[], ["15"]], "next": nxt(1, in_hand="house"),
                    "break": True, "n_balls": 14})
case("break_fail_only_cue_ball_crosses", "seed 004 item 12.1(3): object balls only", "combined", b, BSHOT,
     Ev("0").hit("0", "1").cush("2", "rear").cush("3", "rear").cross("0", "rear"), bafter(b),
     {"legal": False, "fouls": ["illegal_break"]})
case("break_fail_three_touches_two_balls", "seed 004 item 12.1(2): three different balls", "combined",
     b, BSHOT, Ev("0").hit("0", "1").cush("2", "rear").cush("3", "rear").cush("2", "left_rear"), bafter(b),
     {"legal": False, "fouls": ["illegal_break"]})
case("break_fail_one_cushion_and_crossing", "seed 004 item 12.1(3): two balls needed", "combined", b,
     BSHOT, Ev("0").hit("0", "1").cush("2", "rear").cross("3", "front"), bafter(b),
     {"legal": False, "fouls": ["illegal_break"]})
case("break_no_contact", "seed 004 items 5.3, 12.2", "combined", b, BSHOT, Ev("0").cush("0", "rear"),
     bafter(b), {"legal": False, "fouls": ["no_contact"], "next": nxt(1, "choice", takes(ALL))},
     choices=["take_ball:1"], after_choices={"next": nxt(1, "choice", AFTER_BREAK), "score": [0, 1]})
bf = brk("free")
case("free_break_fail_accept_offender_shoots", "seed 004 items 6, 12.2(2); docs/game_rules.md §5.1", "free", bf,
     BSHOT, Ev("0").hit("0", "1").cush("2", "rear"), bafter(bf),
     {"legal": False, "fouls": ["illegal_break"], "next": nxt(1, "choice", takes(ALL))},
     choices=["take_ball:3", "accept_and_make_offender_shoot"],
     after_choices={"score": [0, 1], "next": nxt(0), "break": False})
case("free_break_svoyak_scores_and_continues",
     "seed 004 items 4.3, 12.1(1) (any ball, the struck ball too); docs/game_rules.md §4.2 (1), §5.1",
     "free", bf, BSHOT, Ev("0").hit("0", "5").pot("0", "rr"), after_of(bf, gone=("0",)),
     {**LEGAL0, "scored": {"0": ["0"], "1": []}, "score": [1, 0], "next": nxt(0)})
bc = brk("classic71", rack15(CLASSIC_ORDER))
case("classic_break_fail_rerack_offender_breaks", "seed 004 items 12.2(4); docs/game_rules.md §5.6 foul points",
     "classic71", bc, BSHOT, Ev("0").hit("0", "4").cush("2", "rear").cush("3", "rear"), bafter(bc),
     {"legal": False, "fouls": ["illegal_break"], "score": [-5, 0], "next": nxt(1, "choice", AFTER_BREAK)},
     choices=["rerack_and_make_offender_break"],
     after_choices={"score": [-5, 0], "next": nxt(0, in_hand="house"), "break": True, "n_balls": 15})
bm = brk("moscow")
case("moscow_break_fail_owes_ball", "seed 003 Штрафы: no ball yet, owed", "moscow", bm, BSHOT,
     Ev("0").hit("0", "1").cush("2", "rear"), bafter(bm),
     {"legal": False, "fouls": ["illegal_break"], "score": [0, 0], "next": nxt(1, "choice", AFTER_BREAK)},
     after_choices={"owed": [1, 0]})
case("break_svoyak_counts_as_pocketed", "seed 004 items 12.1(1), 21; docs/game_rules.md §4.2 interpretation",
     "combined", b, BSHOT, Ev("0").hit("0", "1").pot("0", "ml"), after_of(b, place=None),
     {**LEGAL0, "scored": {"0": [], "1": []}, "next": nxt(1, "choice", takes(ALL, "remove_ball:"))},
     choices=["remove_ball:15"],
     after_choices={"shelves": [["15"], []], "score": [1, 0], "next": nxt(0, in_hand="house")})
case("classic_break_cue_ball_pocketed", "docs/game_rules.md §5.6: cue ball pocketed is a foul; item 12.2",
     "classic71", bc, BSHOT, Ev("0").hit("0", "4").pot("0", "ml"), after_of(bc),
     {"legal": False, "fouls": ["cue_ball_pocketed"], "score": [-5, 0], "next": nxt(1, "choice", AFTER_BREAK)},
     choices=["accept_and_shoot"], after_choices={"next": nxt(1, in_hand="house")})

# ------------------------------------------------------------- item 20
S = std()
SHOT = shot()
A = after_of(S, moves={"0": (0.6, 1.5)})
OK = {"legal": True, "fouls": [], "score": [3, 5], "scored": {"0": [], "1": []}, "next": nxt(1),
      "winner": None, "respotted": {}}
BAD = {"legal": False, "fouls": ["illegal_completion"], "score": [3, 5],
       "next": nxt(1, "choice", takes("1234567"))}
T7 = takes("1234567")


def c20(name, src, ev, exp, before=S, after=None, **kw):
    case(name, "seed 004 item 20" + src, "combined", before, kw.pop("shot_", SHOT), ev,
         after or after_of(before, moves={"0": (0.6, 1.5)}), exp, **kw)


c20("item20_cond1_pocket", "(1)", Ev("0").hit("0", "1").pot("1", "rl"),
    {**OK, "scored": {"0": ["1"], "1": []}, "score": [4, 5], "next": nxt(0)},
    after=after_of(S, gone=["1"], moves={"0": (0.6, 1.5)}))
c20("item20_cond2a_two_cushions", "(2a)", Ev("0").hit("0", "1").cush("1", "left_rear").cush("1", "rear"), OK)
c20("item20_cond2a_fail_same_cushion", "(2a): another cushion", Ev("0").hit("0", "1").cush("1", "left_rear")
    .cush("1", "left_rear"), BAD)
c20("item20_cond2b_drives_to_another", "(2b)", Ev("0").hit("0", "1").cush("1", "left_rear").hit("1", "7")
    .cush("7", "rear"), OK)
c20("item20_cond2b_fail_same_cushion", "(2b): another cushion", Ev("0").hit("0", "1").cush("1", "left_rear")
    .hit("1", "7").cush("7", "left_rear"), BAD)
FROZEN_REAR = std(balls=None) if False else pos("combined", {**STD, "4": (1.4, L - R)},
                                               shelves=[["8", "9", "10"], ["11", "12", "13", "14", "15"]])
FROZEN_SIDE = pos("combined", {**STD, "4": (1.775 - R, 3.0)},
                  shelves=[["8", "9", "10"], ["11", "12", "13", "14", "15"]])
c20("item20_cond2c_frozen_other_cushion", "(2c)", Ev("0").hit("0", "2").cush("2", "right_rear")
    .hit("2", "4"), OK, before=FROZEN_REAR)
c20("item20_cond2c_fail_frozen_same_cushion", "(2c): another cushion", Ev("0").hit("0", "2")
    .cush("2", "right_rear").hit("2", "4"), BAD, before=FROZEN_SIDE)
c20("item20_crossing_before_contact_does_not_count", ": after the first contact",
    Ev("0").cross("0", "rear").hit("0", "1").cush("1", "left_rear"), BAD)
c20("item20_cond3a_cross_then_cushion", "(3a)", Ev("0").hit("0", "3").cross("3", "rear")
    .cush("3", "left_rear"), OK)
c20("item20_cond3b_cross_then_drive", "(3b)", Ev("0").hit("0", "3").cross("3", "rear").hit("3", "1")
    .cush("1", "left_rear"), OK)
c20("item20_cond3c_cross_then_frozen", "(3c)", Ev("0").hit("0", "3").cross("3", "rear").hit("3", "4"),
    OK, before=FROZEN_REAR)
c20("item20_cond4a_cushion_then_cross", "(4a)", Ev("0").hit("0", "3").cush("3", "left_front")
    .cross("3", "rear"), OK)
c20("item20_cond4b_cushion_then_roll_across", "(4b)", Ev("0").hit("0", "3").cush("3", "left_front")
    .hit("3", "6").cross("6", "rear"), OK)
c20("item20_order_2b_in_order", " note 1", Ev("0").hit("0", "3").cush("3", "left_front").hit("3", "6")
    .cush("6", "front"), OK)
c20("item20_order_2b_out_of_order", " note 1: the same events out of order", Ev("0").hit("0", "3")
    .hit("3", "6").cush("6", "front").cush("3", "left_front"), BAD)
c20("item20_order_4b_out_of_order", " note 1", Ev("0").hit("0", "3").hit("3", "6").cross("6", "rear")
    .cush("3", "left_front"), BAD)
c20("item20_cushion_before_contact_does_not_count", " and item 5.2", Ev("0").cush("0", "right_front")
    .hit("0", "3").cush("0", "front"), BAD)
c20("item20_cue_ball_counts_2a", "(2a): any ball, the cue ball included", Ev("0").hit("0", "3")
    .cush("0", "right_front").cush("0", "front"), OK)
c20("item20_cue_ball_counts_3a", "(3a): the cue ball", Ev("0").hit("0", "3").cross("0", "rear")
    .cush("0", "rear"), OK)
c20("no_contact_is_a_foul", " and item 5.3 (miss)", Ev("0").cush("0", "rear"),
    {**BAD, "fouls": ["no_contact"]})

# Note 2: the frozen ball.
N2 = pos("combined", {**STD, "0": (1.4, 3.3), "4": (1.4, L - R)},
         shelves=[["8", "9", "10"], ["11", "12", "13", "14", "15"]])
N2A = after_of(N2, moves={"0": (1.4, 1.5)})
c20("note2_two_contacts_legal", " note 2: two separate contacts", Ev("0").hit("0", "4").cush("4", "rear")
    .hit("4", "0").cross("0", "front"), OK, before=N2, after=N2A)
c20("note2_one_contact_undeclared_foul", " note 2: one contact, not declared", Ev("0").hit("0", "4")
    .cross("0", "front"), BAD, before=N2, after=N2A)
c20("note2_one_contact_declared_legal", " note 2: declared before the shot", Ev("0").hit("0", "4")
    .cross("0", "front"), OK, before=N2, after=N2A, shot_=shot(declare="4"))
c20("note2_declared_to_another_cushion", " note 2: sent to another cushion", Ev("0").hit("0", "4")
    .cush("0", "right_rear"), OK, before=N2, after=N2A, shot_=shot(declare="4"))

# Note 3: a ball starting exactly on the centre line.
N3 = pos("combined", {**STD, "1": (0.5, MID)}, shelves=[["8", "9", "10"], ["11", "12", "13", "14", "15"]])
c20("note3_moving_off_the_line_is_no_crossing", " note 3", Ev("0").hit("0", "1").cross("1", "rear")
    .cush("1", "left_rear"), BAD, before=N3)
c20("note3_later_crossing_counts", " note 3", Ev("0").hit("0", "1").cross("1", "rear").cush("1", "left_rear")
    .cross("1", "front"), OK, before=N3)
c20("note3_no_event_no_crossing", " note 3", Ev("0").hit("0", "1").cush("1", "left_rear"), BAD, before=N3)

# Note 4: middle-pocket jaw.
c20("note4_middle_jaw_of_other_half_is_a_crossing", " note 4", Ev("0").hit("0", "3").cush("3", "left_rear"),
    OK)
c20("note4_own_half_jaw_is_not", " note 4 (contrast)", Ev("0").hit("0", "3").cush("3", "left_front"), BAD)

# ------------------------------------------------------- pocketed balls, §4.4
c20("illegal_pocket_jumped_ball_respotted", " + items 22.3, 24.3, 25.2 (two balls)",
    Ev("0").hit("0", "1").pot("1", "rl").off("7"),
    {"legal": False, "fouls": ["jumped_ball"], "scored": {"0": [], "1": []}, "score": [3, 5],
     "respotted": {"1": RS, "7": [CX, Y0 + STEP]}, "next": nxt(1, "choice", T7)},
    after=after_of(S, gone=["1", "7"], moves={"0": (0.6, 1.5)}))
c20("jump_not_foul_option", " + item 1.9 (object_ball_jump_is_foul = false)",
    Ev("0").hit("0", "1").pot("1", "rl").off("7"),
    {**OK, "scored": {"0": ["1"], "1": []}, "score": [4, 5], "respotted": {"7": RS}, "next": nxt(0)},
    after=after_of(S, gone=["1", "7"], moves={"0": (0.6, 1.5)}), options={"object_ball_jump_is_foul": False})
c20("jump_option_cue_ball_still_foul", " + item 1.9: a jumped cue ball is a foul",
    Ev("0").hit("0", "1").cush("1", "left_rear").cush("1", "rear").off("0"),
    {"legal": False, "fouls": ["jumped_ball"], "respotted": {}, "next": nxt(1, "choice", T7)},
    after=after_of(S, gone=["0"]), options={"object_ball_jump_is_foul": False},
    choices=["take_ball:2", "shoot"], after_choices={"score": [3, 6], "next": nxt(1, in_hand="house")})
c20("reported_foul_pocketed_ball_respotted", " + items 22.3, 25.2 (one ball: rear spot)",
    Ev("0").hit("0", "1").pot("1", "rl"),
    {"legal": False, "fouls": ["reported"], "respotted": {"1": RS}, "scored": {"0": [], "1": []}},
    after=after_of(S, gone=["1"], moves={"0": (0.6, 1.5)}), extra_fouls=["reported"])

# ------------------------------------------------------------ re-spotting §4.7
def rs(name, src, gone, exp, balls=None, options=None, shelves=None):
    before = pos("combined", balls or STD, shelves=shelves if shelves is not None else
                 [["8", "9", "10"], ["11", "12", "13", "14", "15"]])
    ev = Ev("0").hit("0", gone[0])
    for i, g in enumerate(gone):
        ev.pot(g, ["rl", "rr", "fl", "fr", "ml", "mr"][i % 6])
    case(name, "seed 004 item 25.2" + src, "combined", before, SHOT, ev,
         after_of(before, gone=gone, moves={"0": (0.6, 1.5)}), {"legal": False, **exp},
         options=options, extra_fouls=["reported"])


rs("respot_three_balls", ": several balls, close, not touching", ["1", "2", "3"],
   {"respotted": {"1": RS, "2": [CX, Y0 + STEP], "3": [CX, Y0 + 2 * STEP]}})
rs("respot_six_balls", ": six balls toward the rear cushion", ["1", "2", "3", "4", "5", "6"],
   {"respotted": {str(k + 1): [CX, Y0 + k * STEP] for k in range(6)}})
rs("respot_rear_spot_taken", ": a ball on the spot", ["1"], {"respotted": {"1": [CX, Y0 + STEP]}},
   balls={**STD, "5": (CX, Y0)})
rs("respot_blocker_off_the_line", ": a ball near the line", ["1"],
   {"respotted": {"1": [CX, 2.70 + (STEP**2 - 0.04**2) ** 0.5]}}, balls={**STD, "5": (CX + 0.04, 2.70)})
rs("respot_two_around_blocker", ": as close as possible to the rear spot and to the blocker", ["1", "2"],
   {"respotted": {"1": RS, "2": [CX, Y0 + 2 * STEP]}}, balls={**STD, "5": (CX, Y0 + STEP)})
FULL_LINE = {"0": (CX, 1.0), "1": (0.5, 2.0), "2": (1.2, 2.2)}
FULL_LINE.update({str(k + 3): (CX, Y0 + k * 2 * R) for k in range(13)})
rs("respot_no_room_goes_toward_centre", ": no room, extension toward the centre", ["1", "2"],
   {"respotted": {"1": [CX, Y0 - STEP], "2": [CX, Y0 - 2 * STEP]},
    "next": nxt(1, "choice", takes([str(i) for i in range(1, 16)]))}, balls=FULL_LINE, shelves=[[], []])
rs("respot_touching_option", ": item 1.10 (respot_touching)", ["1", "2", "3"],
   {"respotted": {"1": RS, "2": [CX, Y0 + 2 * R], "3": [CX, Y0 + 4 * R]}}, options={"respot_touching": True})
rs("respot_gap_option", ": respot_gap = 5 mm", ["1", "2"],
   {"respotted": {"1": RS, "2": [CX, Y0 + 2 * R + 0.005]}}, options={"respot_gap": 0.005})

# ---------------------------------------------------------------- push §3
def push(name, src, ball3, phi, cue_end, ev, exp, variant="combined"):
    balls = {**STD, "3": ball3}
    before = pos(variant, balls, shelves=[["8", "9", "10"], ["11", "12", "13", "14", "15"]])
    gone = [e["balls"][0] for e in ev.items if e["type"] in ("pocket", "off_table")]
    after = after_of(before, gone=gone, moves={"0": cue_end} if "0" not in gone else {})
    call = ("3", "rr") if variant == "classic71" else None
    case(name, "seed 004 item 19.2; docs/game_rules.md §3" + src, variant, before, shot(phi=phi, call=call), ev, after,
         exp)


TOUCH = (CX, 1.0 + 2 * R)
push("push_frozen_straight_follow", ": follows the object ball", TOUCH, 90, (CX, 1.3),
     Ev("0").hit("0", "3").pot("3", "rr"),
     {"legal": False, "fouls": ["push"], "respotted": {"3": RS}, "next": nxt(1, "choice", T7)})
push("push_frozen_straight_stop_legal", ": the cue ball does not follow", TOUCH, 90, (CX, 1.0),
     Ev("0").hit("0", "3").pot("3", "rr"),
     {"legal": True, "fouls": [], "scored": {"0": ["3"], "1": []}, "score": [4, 5], "next": nxt(0)})
push("push_frozen_46_degrees_legal", ": at least 45 degrees off the line of centres", TOUCH, 136,
     (CX - 0.2, 1.3), Ev("0").hit("0", "3").pot("3", "rr"), {"legal": True, "fouls": []})
push("push_frozen_10_degrees_follow", ": less than 45 degrees, follows", TOUCH, 100, (CX - 0.05, 1.4),
     Ev("0").hit("0", "3").pot("3", "rr"), {"legal": False, "fouls": ["push"]})
push("push_gap_under_half_radius", ": within half a radius (16 mm)", (CX, 1.0 + 2 * R + 0.016), 90,
     (CX, 1.3), Ev("0").hit("0", "3").pot("3", "rr"), {"legal": False, "fouls": ["push"]})
push("push_gap_over_half_radius_legal", ": 18 mm is more than half a radius", (CX, 1.0 + 2 * R + 0.018),
     90, (CX, 1.3), Ev("0").hit("0", "3").pot("3", "rr"), {"legal": True, "fouls": []})
push("push_striking_away_is_no_contact", " note: striking away is no contact (5.3)", TOUCH, 270,
     (CX, 0.5), Ev("0").cush("0", "front"), {"legal": False, "fouls": ["no_contact"]})
push("several_fouls_penalised_once", ": and item 29.2", TOUCH, 90, (CX, 1.3),
     Ev("0").hit("0", "3").pot("3", "rr").off("7"),
     {"legal": False, "fouls": ["push", "jumped_ball"], "respotted": {"3": RS, "7": [CX, Y0 + STEP]},
      "next": nxt(1, "choice", T7)})
push("classic_several_fouls_five_points_once", ": item 29.2, 5 points once", TOUCH, 90, (CX, 1.3),
     Ev("0").hit("0", "3").pot("3", "rr").off("7"),
     {"legal": False, "fouls": ["push", "jumped_ball"], "score": [-2, 5], "next": nxt(1, "choice", AFTER)},
     variant="classic71")
