"""Golden cases: seed 003's special cases (a ball stopping on the rail, the
cue ball returned by an outside cause, a ball falling from the jaws), ruled
as seed 003 rules them in Moscow pyramid and as seed 004 rules them in the
other variants (docs/rules.md "Special cases"). Expected rulings reasoned
from the seed items named in each case."""

from make_cases import CX, RS, STD, STEP, Y0, Ev, R, W, after_of, case, nxt, pos, shot, takes

SH = [["8", "9", "10"], ["11", "12", "13", "14", "15"]]
T7 = takes("1234567")
RAIL_AT = [W + 0.06, 2.3]  # ball 2 at rest on the rail beyond the right cushion
JAWS = (0.026, 3.524)  # ball 7 standing in the jaws of pocket rl, short of the mouth line


def v(variant, balls=STD):
    return pos(variant, balls, shelves=[list(s) for s in SH])


def on_rail(ev, b, cushion):
    return ev._add({"type": "on_rail", "balls": [b], "cushion": cushion})


def returned(ev, b):
    return ev._add({"type": "returned", "balls": [b]})


def hanging_drop(ev, b, pocket):
    return ev._add({"type": "hanging_drop", "balls": [b], "pocket": pocket})


def with_rail(after, rail):
    return {**after, "rail": {b: list(xy) for b, xy in rail.items()}}


A0 = {"0": (0.6, 1.5)}
RAIL_LOG = on_rail(Ev("0").hit("0", "1").pot("1", "rl").hit("0", "2"), "2", "right_rear")
RETURN_LOG = returned(Ev("0").hit("0", "1").pot("1", "rl"), "0")

# ------------------------------------------------------ a ball on the rail
M = v("moscow")
case("special_moscow_on_rail_placed_pot_counts_turn_passes",
     "seed 003, special cases: a ball stopping on the rail is placed against the cushion, the turn passes, "
     "the ball pocketed counts", "moscow", M, shot(), RAIL_LOG,
     with_rail(after_of(M, gone=["1", "2"], moves=A0), {"2": RAIL_AT}),
     {"legal": True, "fouls": [], "scored": {"0": ["1"], "1": []}, "score": [4, 5],
      "respotted": {"2": [W - R, 2.3]}, "next": nxt(1), "special": ["on_rail"]},
     after_choices={"on_table": ["2"], "shelves": [SH[0] + ["1"], SH[1]]})
case("special_moscow_on_rail_cue_ball",
     "seed 003, special cases: the cue ball stopping on the rail is placed against the cushion too",
     "moscow", M, shot(), on_rail(Ev("0").hit("0", "1").pot("1", "rl"), "0", "front"),
     with_rail(after_of(M, gone=["1", "0"]), {"0": (0.7, -0.05)}),
     {"legal": True, "fouls": [], "scored": {"0": ["1"], "1": []}, "score": [4, 5],
      "respotted": {"0": [0.7, R]}, "next": nxt(1), "special": ["on_rail"]},
     after_choices={"on_table": ["0"]})
SVOYAK_RAIL = on_rail(Ev("0").hit("0", "1").hit("1", "2").cush("1", "left_rear"), "2", "right_rear").pot("0", "ml")
case("special_moscow_on_rail_svoyak_counts_turn_passes",
     "seed 003, special cases (the turn passes, a ball pocketed counts) and Ведение игры (свояк)", "moscow", M,
     shot(), SVOYAK_RAIL, with_rail(after_of(M, gone=["0", "2"]), {"2": RAIL_AT}),
     {"legal": True, "fouls": [], "score": [3, 5], "respotted": {"2": [W - R, 2.3]},
      "next": nxt(1, "choice", takes("1234567", "remove_ball:")), "special": ["on_rail"]},
     choices=["remove_ball:4"],
     after_choices={"score": [4, 5], "shelves": [SH[0] + ["4"], SH[1]], "next": nxt(1, in_hand="house")})
C = v("combined")
case("special_combined_on_rail_is_jumped",
     "seed 004 item 24.1: a ball stopping on the rail has left the playing surface (jumped, item 24.3)",
     "combined", C, shot(), RAIL_LOG, with_rail(after_of(C, gone=["1", "2"], moves=A0), {"2": RAIL_AT}),
     {"legal": False, "fouls": ["jumped_ball"], "scored": {"0": [], "1": []}, "score": [3, 5],
      "respotted": {"1": RS, "2": [CX, Y0 + STEP]}, "next": nxt(1, "choice", T7), "special": []},
     after_choices={"on_table": ["1", "2"]})

# ------------------------------------------- the cue ball returned from off the table
case("special_moscow_returned_cue_ball_no_penalty",
     "seed 003, special cases: the cue ball comes back after striking someone: no penalty, the ball pocketed "
     "does not count, the turn passes", "moscow", M, shot(), RETURN_LOG, after_of(M, gone=["1"], moves=A0),
     {"legal": True, "fouls": [], "scored": {"0": [], "1": []}, "score": [3, 5], "respotted": {"1": RS},
      "next": nxt(1), "special": ["returned"]},
     after_choices={"shelves": SH, "owed": [0, 0]})
case("special_combined_returned_is_jumped",
     "seed 004 item 24.2: a ball that touched something off the table has jumped even if it came back",
     "combined", C, shot(), RETURN_LOG, after_of(C, gone=["1"], moves=A0),
     {"legal": False, "fouls": ["jumped_ball"], "scored": {"0": [], "1": []}, "score": [3, 5],
      "respotted": {"1": RS}, "next": nxt(1, "choice", T7), "special": []},
     choices=["take_ball:3", "shoot"], after_choices={"score": [3, 6], "next": nxt(1, in_hand="house")})

# ------------------------------------------------ a ball falling from the jaws
HANG = {**STD, "7": JAWS}
HANG_LOG = hanging_drop(Ev("0"), "7", "rl").cush("0", "rear")
MH = v("moscow", HANG)
case("special_moscow_hanging_drop_shot_from_house",
     "seed 003, special cases: a ball in the jaws falls before the cue ball reaches it: the shot stays with the "
     "player who missed, the ball goes on the third spot, the cue ball into the house", "moscow", MH, shot(),
     HANG_LOG, after_of(MH, gone=["7"], moves={"0": (CX, 3.0)}),
     {"legal": True, "fouls": [], "scored": {"0": [], "1": []}, "score": [3, 5], "respotted": {"7": RS},
      "next": nxt(0, in_hand="house"), "special": ["hanging_drop"]},
     after_choices={"on_table": ["7"], "on_table_not": ["0"], "n_balls": 7})
CH = v("combined", HANG)
case("special_combined_hanging_drop_replayed",
     "seed 004 items 23.2, 1.7: a hanging ball falling by itself that changes the shot: the balls are put "
     "back and the shot is played again", "combined", CH, shot(), HANG_LOG,
     after_of(CH, gone=["7"], moves={"0": (CX, 3.0)}),
     {"legal": True, "fouls": [], "scored": {"0": [], "1": []}, "score": [3, 5], "respotted": {},
      "next": nxt(0), "special": ["hanging_drop"]},
     after_choices={"on_table": ["0", "7"], "n_balls": 8})
