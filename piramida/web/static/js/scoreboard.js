// The scoreboard over the table (Play tab): each player's score, who acts,
// the target, and a banner with the winner once the frame is over. play.js
// calls showScoreboard with the frame's state whenever it shows it; the
// table is laid out again by main.js when the board's height changes.
import {$} from "./dom.js";
import {rulesText, targetOf} from "./rules.js";
import {tab} from "./state.js";
import {playerName} from "./words.js";

function seatName(st, seat, names) {
  const who = names ? names[seat] : (seat === st.seat ? "you" : st.agent);
  return `${playerName(seat)} (${who})`;
}

function banner(st, names) {
  const [a, b] = st.score;
  if (st.winner === null || st.winner === undefined) return `Frame over: a draw at ${a}-${b}`;
  const w = st.winner, l = 1 - w;
  return `Frame over: ${seatName(st, w, names)} wins, ${st.score[w]}-${st.score[l]}`;
}

// `st`: the frame's state (GET /api/play/{id}), or null for none; `names`:
// who sat in each seat when that is not "you" and the agent (a stored game).
export function showScoreboard(st, names) {
  const box = $("scoreboard");
  const shown = tab === "play" && !!st;
  box.hidden = !shown;
  if (!shown) { box.replaceChildren(); return; }
  const acting = st.over ? null : st.next && st.next.player;
  const seats = [0, 1].map((k) => {
    const el = document.createElement("span");
    el.className = "seat" + (acting === k ? " to-act" : "");
    el.append(seatName(st, k, names));
    const pts = document.createElement("span");
    pts.className = "points";
    pts.textContent = String(st.score[k]);
    el.append(pts);
    if (acting === k) el.title = "to act";
    return el;
  });
  const target = document.createElement("span");
  target.className = "target";
  target.textContent = targetOf(st.variant, st.target);
  target.title = rulesText(st.variant);
  box.replaceChildren(...seats, target);
  if (st.over) {
    const b = document.createElement("div");
    b.className = "banner" + (st.winner !== null && st.winner !== st.seat && !names ? " lost" : "");
    b.setAttribute("role", "status");
    b.textContent = banner(st, names);
    box.append(b);
  }
}
