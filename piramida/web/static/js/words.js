// Numbers and names as a player reads them: rounded numbers, "player 1"
// and "player 2" for the seats the API calls p0 and p1, pockets and
// cushions in words, the decisions after a foul in words. The API and the
// text forms keep their short names; only what the page shows is changed.

// A number with at most `digits` decimals, trailing zeros dropped ("0.054",
// "90", never "0.054000000000000006" or "-0").
export function fixed(x, digits) {
  const v = Number(x);
  if (!Number.isFinite(v)) return String(x);
  const s = String(Number(v.toFixed(digits)));
  return s === "-0" ? "0" : s;
}

// The decimals each key of a shot's text form keeps.
const SHOT_DECIMALS = {phi: 2, v: 2, a: 2, b: 2, theta: 2, place: 3};

// A shot's text form with its numbers rounded (the keys and the order kept).
export function tidyShot(text) {
  return String(text).replace(/\b(phi|v|a|b|theta|place)=([-0-9.eE,+]+)/g,
    (_, key, value) => `${key}=${value.split(",").map((p) => fixed(p, SHOT_DECIMALS[key])).join(",")}`);
}

// Any long decimal in a line (a quoted shot, a played shot under noise)
// rounded: a shot's keys as tidyShot does, other numbers to 4 decimals.
export function tidyNumbers(text) {
  return tidyShot(text).replace(/-?\d+\.\d{5,}/g, (m) => fixed(m, 4));
}

export const playerName = (seat) => `player ${Number(seat) + 1}`;

// The server names the seats from 0 ("p0", "player 0" in the rules' texts):
// the page names them from 1.
export function seatNames(text) {
  return String(text).replace(/\b(?:p|player )([01])\b/g, (_, k) => playerName(k));
}

export const POCKETS = {
  fl: "left front", fr: "right front", ml: "left middle", mr: "right middle", rl: "left rear", rr: "right rear",
};

export const IN_HAND = {house: "in the house", rear_house: "beyond the rear line", anywhere: "anywhere"};

// A decision after a foul (`take_ball:5`, `make_offender_shoot`) in words.
export function choiceText(choice) {
  const m = /^(take|remove)_ball:(.+)$/.exec(choice);
  if (m) return `${m[1]} ball ${m[2]}`;
  if (choice === "ball_in_hand_anywhere") return "decline: ball in hand anywhere";
  return choice.replace(/_/g, " ");
}

// One line from the server (a ruling's summary, a result) as a player
// reads it: p0/p1 as player 1/2, the decisions, pockets and cushions in
// words, numbers rounded.
export function readable(text) {
  return seatNames(tidyNumbers(String(text)))
    .replace(/\b(?:take|remove)_ball:\S+/g, (c) => choiceText(c))
    .replace(/\bin hand \((house|rear_house|anywhere)\)/g, (_, z) => `in hand ${IN_HAND[z]}`)
    .replace(/\bWINNER\b/g, "winner")
    .replace(/\bDRAW\b/g, "draw")
    .replace(/(?<![:=,\w])(fl|fr|ml|mr|rl|rr)\b(?!\))/g, (p) => `${POCKETS[p]} (${p})`)
    .replace(/\b([a-z]+)_([a-z_]+)\b/g, (w) => w.replace(/_/g, " "));
}
