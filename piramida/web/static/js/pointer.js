// The pointer on the canvas: drag a ball between the table, the shelves
// and the tray (Position and Suggest tabs), drag the ball in hand to place
// it, or click to aim from the struck ball (Shot and Play tabs).
import {current as currentAnimation} from "./animate.js";
import {$} from "./dom.js";
import {moveBall} from "./editor.js";
import {ballsOf, inHandBall, snap} from "./position.js";
import {requestRender} from "./render.js";
import {placeAt, struckAt, syncShotText} from "./shot.js";
import {geo, pos, shownPosition, tab} from "./state.js";
import {css2table, panelSlots, table2css, view, zoneAt} from "./table.js";

let drag = null;  // {id, from, px, py, x0, y0, moved}: the pointer held down

export function dragged() { return drag; }

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

export function onPointerDown(ev) {
  if (!pos || currentAnimation()) return;
  const [px, py] = pointerXY(ev);
  const hit = hitBall(px, py);
  drag = hit ? {...hit, px, py, x0: px, y0: py, moved: false} : {id: null, from: null, px, py, x0: px, y0: py, moved: false};
  $("table").setPointerCapture(ev.pointerId);
}

export function onPointerMove(ev) {
  if (!drag) return;
  const [px, py] = pointerXY(ev);
  drag.px = px; drag.py = py;
  if (Math.hypot(px - drag.x0, py - drag.y0) > 3) drag.moved = true;
  if (drag.id && drag.moved) requestRender();
}

export function onPointerUp(ev) {
  const d = drag;
  drag = null;
  if (!d) return;
  const [px, py] = pointerXY(ev);
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
  // A click: aim from the struck ball (Shot and Play tabs).
  if ((tab === "shot" || tab === "play") && zoneAt(px, py) === "table") {
    const shown = shownPosition();
    const start = struckAt(shown, $("shot-ball").value);
    if (!start) return;
    const [x, y] = css2table(px, py);
    let phi = Math.atan2(y - start[1], x - start[0]) * 180 / Math.PI;
    if (phi < 0) phi += 360;
    $("shot-phi").value = phi.toFixed(2);
    syncShotText();
    requestRender();
  }
}
