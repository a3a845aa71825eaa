// The shot form (Shot and Play tabs): its fields, its text form, where the
// ball in hand is placed, and its preview on the table.
import {$} from "./dom.js";
import {dragged} from "./pointer.js";
import {inHandBall, snap} from "./position.js";
import {requestRender} from "./render.js";
import {cueOf, frame, geo, shownPosition, tab} from "./state.js";
import {arrow, drawBall, table2css} from "./table.js";

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

// The shot being set up: the ball in hand where it will be placed, and a
// dashed line along the cue direction.
export function drawShotPreview(ctx, pos) {
  if (!(tab === "shot" || (tab === "play" && frame && frame.to_act === "you" && frame.next.kind !== "choice"))) return;
  const ball = $("shot-ball").value;
  const start = struckAt(pos, ball);
  if (!start) return;
  if (!(ball in pos.balls)) {
    const [px, py] = table2css(start[0], start[1]);
    const drag = dragged();
    drawBall(ctx, px, py, ball, drag && drag.id === ball ? 0 : 0.9);
  }
  const phi = parseFloat($("shot-phi").value) * Math.PI / 180;
  if (!Number.isFinite(phi)) return;
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
  const ball = f("shot-ball");
  const parts = [`ball=${ball}`, `phi=${f("shot-phi") || 0}`, `v=${f("shot-v") || 1}`, `a=${f("shot-a") || 0}`,
    `b=${f("shot-b") || 0}`, `theta=${f("shot-theta") || 0}`];
  if (pos && ball === inHandBall(pos)) {
    const at = struckAt(pos, ball);
    $("shot-px").value = at[0]; $("shot-py").value = at[1];
    parts.push(`place=${at[0]},${at[1]}`);
  }
  if (f("shot-call")) parts.push(`call=${f("shot-call")}`);
  return parts.join(" ");
}

export function syncShotText() { $("shot-text").value = shotText(); }

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
  set("shot-ball", kv.ball); set("shot-phi", kv.phi); set("shot-v", kv.v); set("shot-a", kv.a);
  set("shot-b", kv.b); set("shot-theta", kv.theta);
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
}

export function placeFromFields() {
  const x = parseFloat($("shot-px").value), y = parseFloat($("shot-py").value);
  if (Number.isFinite(x) && Number.isFinite(y)) place = [x, y];
  syncShotText(); requestRender();
}
