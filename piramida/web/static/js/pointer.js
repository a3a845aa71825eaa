// The pointer on the canvas (mouse, pen and touch alike): drag a ball
// between the table, the shelves and the tray (Position and Suggest tabs),
// drag the ball in hand to place it, press near the struck ball and pull
// the cue back to aim and set the pace, or click to aim from the struck
// ball (Shot and Play tabs).
import {current as currentAnimation} from "./animate.js";
import {strokeOfTip, withinReach} from "./cue.js";
import {$} from "./dom.js";
import {moveBall} from "./editor.js";
import {ballsOf, inHandBall, snap} from "./position.js";
import {requestRender} from "./render.js";
import {placeAt, setAim, setAimPace, shotOnTable, struckAt} from "./shot.js";
import {geo, pos, shownPosition, tab} from "./state.js";
import {css2table, panelSlots, table2css, view, zoneAt} from "./table.js";

let drag = null;  // {id, from, px, py, x0, y0, moved}: the pointer held down
let cue = null;   // {at, pull, x0, y0, moved}: the cue taken up behind the struck ball

// The ball being dragged (none while the pointer is held on empty cloth).
export function dragged() { return drag && drag.id ? drag : null; }

// The cue while it is pulled back (once the pointer has moved).
export function cueHeld() { return cue && cue.moved ? cue : null; }

function pointerXY(ev) {
  const rect = $("table").getBoundingClientRect();
  return [ev.clientX - rect.left, ev.clientY - rect.top];
}

function hitBall(px, py) {
  const shown = shownPosition(), r = geo.ball_radius * view.s + 3;
  if (tab === "edit" || tab === "suggest") {
    for (const slot of panelSlots(shown)) {
      if (Math.hypot(slot.px - px, slot.py - py) <= r) return {id: slot.id, from: slot.zone};
    }
    for (const [b, [x, y]] of ballsOf(shown)) {
      const [bx, by] = table2css(x, y);
      if (Math.hypot(bx - px, by - py) <= r) return {id: b, from: "table"};
    }
  } else if (tab === "shot" || tab === "play") {
    // Only the ball in hand moves here: it is placed for the shot.
    const hand = inHandBall(shown);
    if (hand && $("shot-ball").value === hand) {
      const at = struckAt(shown, hand);
      const [bx, by] = table2css(at[0], at[1]);
      if (Math.hypot(bx - px, by - py) <= r) return {id: hand, from: "place"};
    }
  }
  return null;
}

// A press near the struck ball (on it, unless it is the ball in hand,
// which a press on it moves) takes up the cue.
function takeCue(px, py) {
  if (!shotOnTable()) return null;
  const at = struckAt(shownPosition(), $("shot-ball").value);
  if (!at || !withinReach(at, px, py)) return null;
  return {at: [at[0], at[1]], pull: undefined, x0: px, y0: py, moved: false};
}

export function onPointerDown(ev) {
  if (!pos || currentAnimation()) return;
  const [px, py] = pointerXY(ev);
  const hit = hitBall(px, py);
  cue = hit ? null : takeCue(px, py);
  drag = hit ? {...hit, px, py, x0: px, y0: py, moved: false} : {id: null, from: null, px, py, x0: px, y0: py, moved: false};
  $("table").setPointerCapture(ev.pointerId);
}

export function onPointerMove(ev) {
  if (!drag) return;
  const [px, py] = pointerXY(ev);
  if (cue) {
    if (Math.hypot(px - cue.x0, py - cue.y0) > 3) cue.moved = true;
    if (!cue.moved) return;
    const tip = css2table(px, py), stroke = strokeOfTip(cue.at, tip);
    if (!stroke) return;
    cue.pull = Math.max(0, Math.hypot(cue.at[0] - tip[0], cue.at[1] - tip[1]) - geo.ball_radius);
    setAimPace(stroke.phi, stroke.v);
    return;
  }
  drag.px = px; drag.py = py;
  if (Math.hypot(px - drag.x0, py - drag.y0) > 3) drag.moved = true;
  if (drag.id && drag.moved) requestRender();
}

export function onPointerUp(ev) {
  const d = drag, c = cue;
  drag = null; cue = null;
  if (!d) return;
  const [px, py] = pointerXY(ev);
  if (c && c.moved) {
    // The stroke stays in the form as the cue last set it.
    requestRender();
    return;
  }
  if (d.id && d.moved) {
    const zone = zoneAt(px, py);
    if (d.from === "place") {
      const shown = shownPosition();
      const [x, y] = css2table(px, py);
      const spot = snap(x, y, d.id, shown, shown.in_hand);
      if (spot) placeAt(spot);
      requestRender();
    } else if (zone) {
      moveBall(d.id, d.from, zone, css2table(px, py));
    } else {
      requestRender();
    }
    return;
  }
  // A click: aim from the struck ball at the point (Shot and Play tabs).
  if ((tab === "shot" || tab === "play") && zoneAt(px, py) === "table") {
    const shown = shownPosition();
    const start = struckAt(shown, $("shot-ball").value);
    if (!start) return;
    const [x, y] = css2table(px, py);
    if (Math.hypot(x - start[0], y - start[1]) < 1e-6) return;
    setAim(Math.atan2(y - start[1], x - start[0]) * 180 / Math.PI);
  }
}
