// Each variant's rules in short, as the page shows them under the variant
// select and on the scoreboard: what is struck, what scores, the target
// with the default options (docs/rules.md, "Variants"; docs/game_rules.md §5).

export const RULES = {
  free: {target: 8, unit: "balls", text:
    "Free pyramid (американка): any ball may be struck (on the break the coloured ball, from the house). "
    + "Every ball pocketed on a legal shot scores, the struck one included. After a foul the opponent takes "
    + "a ball from the table onto his shelf."},
  combined: {target: 8, unit: "balls", text:
    "Combined pyramid: only the coloured ball is struck, no calls. The object balls a legal shot pockets "
    + "score; the cue ball dropping after a legal contact (свояк) scores a ball from the table and the shooter "
    + "plays on from hand in the house. After a foul the opponent takes a ball from the table."},
  moscow: {target: 8, unit: "balls", text:
    "Moscow pyramid: as combined, but after a foul the offender's last scored ball goes back on the table "
    + "(owed when his shelf is empty, and paid from his next scored ball); after a свояк the opponent names "
    + "the ball removed."},
  nevskaya: {target: 8, unit: "balls", text:
    "Nevskaya pyramid: as combined; after a foul the opponent takes a ball from the table, or declines it "
    + "and plays with the cue ball in hand anywhere."},
  dynamic: {target: 8, unit: "balls", text:
    "Dynamic pyramid: as combined; after a свояк the shooter picks the ball removed and plays from hand "
    + "anywhere, and after a foul that pockets or jumps the cue ball it is in hand anywhere."},
  classic71: {target: 71, unit: "points", text:
    "Classic pyramid: the coloured ball is the cue ball and every shot but the break is called "
    + "(call BALL:POCKET). A made call scores each pocketed ball at its number (ball 1: 11 points, the ball "
    + "that clears the table 10 more); a missed call passes the turn. A foul costs 5 points."},
  five_ball: {target: 60, unit: "points", text:
    "Five balls: player 1 strikes w1, player 2 w2; every shot is called. A pocketed ball scores only with a "
    + "carom (the cue ball meets the called ball, then others): 4 to 23 points by the carom table "
    + "(docs/game_rules.md §5.7)."},
};

// The target of a frame: the server's where it says, else the variant's default.
export function targetOf(variant, given) {
  const r = RULES[variant];
  const target = given ?? (r ? r.target : null);
  return target === null ? "" : `first to ${target} ${r ? r.unit : ""}`.trim();
}

// The short text for a variant: its rules and its target.
export function rulesText(variant) {
  const r = RULES[variant];
  return r ? `${r.text} First to ${r.target} ${r.unit}.` : "";
}
