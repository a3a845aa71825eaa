// The noise-free path of the shot being set up, drawn thinly while aiming:
// each change of the shot asks POST /api/simulate (noise none) once the
// shot has been still for DELAY_MS, and only the latest request's answer
// is kept (an older one arriving late is dropped). The paths are drawn
// only for the position and shot text they were asked for.
import {api} from "./api.js";
import {debug} from "./state.js";
import {COLOURS, ghost, pathLine} from "./table.js";

const DELAY_MS = 120;

let timer = null;
let seq = 0;        // the latest request's number
let answer = null;  // {pos, shot, struck, paths: {ball: [[x, y], ...]}, rest}
let onAnswer = () => {};

// Who redraws the table when an answer comes (render.js, set by shot.js).
export function onPathAnswer(fn) { onAnswer = fn; }

export function schedulePath(pos, shotText, struck) {
  clearTimeout(timer);
  const mine = ++seq;
  if (!pos || !shotText || !String(shotText).trim()) return;  // nothing to ask for yet
  timer = setTimeout(() => askPath(mine, pos, shotText, struck), DELAY_MS);
}

// No path to ask for (another tab, a frame not the player's to shoot).
export function cancelPath() {
  clearTimeout(timer);
  seq += 1;
}

async function askPath(mine, pos, shotText, struck) {
  debug.pathAsked = (debug.pathAsked || 0) + 1;
  let got = null;
  try {
    const sim = await api("/api/simulate", {position: pos, shot: shotText, noise: "none"});
    got = {pos, shot: shotText, struck, paths: pathsOf(sim), rest: restOf(sim, struck)};
    debug.pathError = null;
  } catch (e) {
    // A shot being typed may be unfinished: no path, no error banner.
    debug.pathError = e.message;
  }
  if (mine !== seq) return;
  answer = got;
  debug.pathAnswered = (debug.pathAnswered || 0) + 1;
  onAnswer();
}

function pathsOf(sim) {
  const out = {};
  for (const [b, tr] of Object.entries(sim.trajectories)) {
    if (tr.t.length > 1) out[b] = tr.x.map((x, k) => [x, tr.y[k]]);
  }
  return out;
}

function restOf(sim, struck) {
  const tr = sim.trajectories[struck];
  if (!tr || tr.gone !== null) return null;
  return [tr.x[tr.x.length - 1], tr.y[tr.y.length - 1]];
}

// The paths over the table (the struck ball's in the first suggestion
// colour, ending in a ghost where it stops; the others white); the number
// drawn, also in debug.aimPaths.
export function drawPath(ctx, pos, shotText) {
  let n = 0;
  if (answer && answer.pos === pos && answer.shot === shotText) {
    for (const [b, pts] of Object.entries(answer.paths)) {
      pathLine(ctx, pts, b === answer.struck ? COLOURS[0] : "#ffffff", b === answer.struck ? 0.8 : 0.55, 1);
      n += 1;
    }
    if (answer.rest) ghost(ctx, answer.rest, COLOURS[0], 0.7);
  }
  debug.aimPaths = n;
  return n;
}
