// The shot form (Shot and Play tabs): its fields, its text form, where the
// ball in hand is placed, and its preview on the table (the aim, the cue
// while it is pulled back, the noise-free paths, the tolerance's aim window).
// The spin picker and the tolerance button are wired here, when the module
// loads (the page's markup is parsed before any module runs).
import {cancelPath, drawPath, onPathAnswer, schedulePath} from "./aimpath.js";
import {drawCue, paceText, pullOfPace} from "./cue.js";
import {$} from "./dom.js";
import {cueHeld, dragged} from "./pointer.js";
import {inHandBall, snap, tidySpot} from "./position.js";
import {requestRender} from "./render.js";
import {showSpin, wireSpin} from "./spin.js";
import {cueOf, debug, frame, geo, shownPosition, tab} from "./state.js";
import {arrow, drawBall, table2css} from "./table.js";
import {askTolerance, drawAimWindow, markToleranceStale} from "./tolerance.js";
import {fixed} from "./words.js";

let place = null;  // where a ball in hand is put for the shot

export function currentPlace() { return place; }
export function resetPlace() { place = null; }

// Where the struck ball starts: on the table, or where the ball in hand is put.
export function struckAt(pos, ball) {
  if (ball in pos.balls) return pos.balls[ball];
  if (ball === inHandBall(pos)) {
    if (!place) place = defaultPlace(pos);
    return place;
  }
  return null;
}

function defaultPlace(pos) {
  let y = geo.lines.house - 0.25;
  if (pos.in_hand === "rear_house") y = geo.lines.rear + 0.25;
  return snap(geo.width / 2, y, null, pos, pos.in_hand);
}

// The ball in hand dropped at a spot on the table.
export function placeAt(spot) {
  place = spot;
  syncShotText();
}

// Whether the table shows a shot being set up: the Shot tab, or the Play
// tab when a shot is the player's to play.
export function shotOnTable() {
  return tab === "shot" || (tab === "play" && frame && frame.to_act === "you" && frame.next.kind !== "choice");
}

// The shot being set up: its noise-free paths and the tolerance's aim
// window, the ball in hand where it will be placed, and a dashed line
// along the cue direction (or the cue itself while it is pulled back).
export function drawShotPreview(ctx, pos) {
  debug.aimPaths = 0;
  debug.aimWindowLines = 0;
  if (!shotOnTable()) return;
  const ball = $("shot-ball").value;
  const start = struckAt(pos, ball);
  if (!start) return;
  const text = $("shot-text").value;
  drawPath(ctx, pos, text);
  debug.aimWindowLines = drawAimWindow(ctx, pos, text);
  if (!(ball in pos.balls)) {
    const [px, py] = table2css(start[0], start[1]);
    const drag = dragged();
    drawBall(ctx, px, py, ball, drag && drag.id === ball ? 0 : 0.9);
  }
  const phi = parseFloat($("shot-phi").value) * Math.PI / 180;
  if (!Number.isFinite(phi)) return;
  const held = cueHeld();
  if (held) {
    const v = parseFloat($("shot-v").value);
    drawCue(ctx, start, phi * 180 / Math.PI, held.pull !== undefined ? held.pull : pullOfPace(v), v);
    return;
  }
  const len = 0.25 + 0.12 * Math.min(12, parseFloat($("shot-v").value) || 1);
  arrow(ctx, start, [start[0] + len * Math.cos(phi), start[1] + len * Math.sin(phi)], "#ffffff", 0.9);
}

export function fillShotBalls() {
  const pos = shownPosition();
  if (!pos) return;
  const sel = $("shot-ball"), keep = sel.value;
  let ids = Object.keys(pos.balls);
  const hand = inHandBall(pos);
  if (hand) ids = [hand, ...ids];
  if (tab === "play" && frame && frame.cue_balls.length) ids = frame.cue_balls.slice();
  sel.innerHTML = ids.map((b) => `<option value="${b}">${b}</option>`).join("");
  const cue = cueOf(pos.variant, pos.to_move);
  sel.value = ids.includes(keep) ? keep : (ids.includes(cue) ? cue : ids[0] || "");
  syncShotText();
}

export function shotText() {
  const pos = shownPosition();
  const f = (id) => $(id).value.trim();
  const n = (id, otherwise) => fixed(f(id) || otherwise, 2);  // numbers as the text shows them
  const ball = f("shot-ball");
  const parts = [`ball=${ball}`, `phi=${n("shot-phi", 0)}`, `v=${n("shot-v", 1)}`, `a=${n("shot-a", 0)}`,
    `b=${n("shot-b", 0)}`, `theta=${n("shot-theta", 0)}`];
  if (pos && ball === inHandBall(pos)) {
    const at = tidySpot(pos, ball, struckAt(pos, ball), pos.in_hand);
    $("shot-px").value = at[0]; $("shot-py").value = at[1];
    parts.push(`place=${at[0]},${at[1]}`);
  }
  if (f("shot-call")) parts.push(`call=${f("shot-call")}`);
  return parts.join(" ");
}

// The text form from the fields, and what follows it: the spin picker's
// point, the path asked for, the tolerance line marked stale.
export function syncShotText() {
  const text = shotText();
  $("shot-text").value = text;
  showSpin(parseFloat($("shot-a").value) || 0, parseFloat($("shot-b").value) || 0);
  followShot(text);
}

function followShot(text) {
  const pos = shownPosition();
  markToleranceStale(pos, text);
  const ball = $("shot-ball").value;
  if (pos && shotOnTable() && struckAt(pos, ball)) schedulePath(pos, text, ball);
  else cancelPath();
}

// Setters for the aiming controls (the cue, the keys, the spin picker):
// each writes its fields as the form shows them and redraws.
const norm360 = (phi) => ((phi % 360) + 360) % 360;

export function setAim(phi) {
  $("shot-phi").value = fixed(norm360(phi), 2);
  syncShotText(); requestRender();
}

export function setPace(v) {
  $("shot-v").value = fixed(Math.min(12, Math.max(0.01, v)), 2);
  $("cue-readout").textContent = paceText(parseFloat($("shot-v").value));
  syncShotText(); requestRender();
}

export function setAimPace(phi, v) {
  $("shot-phi").value = fixed(norm360(phi), 2);
  setPace(v);
}

export function setSpin(a, b) {
  $("shot-a").value = fixed(a, 2); $("shot-b").value = fixed(b, 2);
  syncShotText(); requestRender();
}

// A shot's text form into the fields.
export function useShot(text) {
  const kv = Object.fromEntries(text.split(/\s+/).filter(Boolean).map((t) => {
    const k = t.indexOf("=");
    return [t.slice(0, k), t.slice(k + 1)];
  }));
  const set = (id, v) => { if (v !== undefined) $(id).value = v; };
  if (kv.ball && ![...$("shot-ball").options].some((o) => o.value === kv.ball)) {
    $("shot-ball").insertAdjacentHTML("beforeend", `<option value="${kv.ball}">${kv.ball}</option>`);
  }
  const setNum = (id, v) => set(id, v === undefined ? v : fixed(v, 2));
  set("shot-ball", kv.ball); setNum("shot-phi", kv.phi); setNum("shot-v", kv.v); setNum("shot-a", kv.a);
  setNum("shot-b", kv.b); setNum("shot-theta", kv.theta);
  $("shot-call").value = kv.call || "";
  if (kv.place) {
    const [x, y] = kv.place.split(",").map(Number);
    place = [x, y];
  }
  syncShotText();
  requestRender();
}

export function onShotFieldInput() { syncShotText(); requestRender(); }

export function onShotBallChanged() { place = null; syncShotText(); requestRender(); }

export function onShotTextEdited() {
  const text = $("shot-text").value;
  useShot(text);
  $("shot-text").value = text;
  followShot(text);
}

export function placeFromFields() {
  const x = parseFloat($("shot-px").value), y = parseFloat($("shot-py").value);
  if (Number.isFinite(x) && Number.isFinite(y)) place = [x, y];
  syncShotText(); requestRender();
}

function wireAiming() {
  wireSpin(setSpin);
  onPathAnswer(requestRender);
  $("shot-tolerance").addEventListener("click", () => {
    const pos = shownPosition(), ball = $("shot-ball").value;
    if (!pos) return;
    const start = struckAt(pos, ball);
    askTolerance(pos, $("shot-text").value, start ? [start[0], start[1]] : null).then(requestRender);
  });
}

wireAiming();
