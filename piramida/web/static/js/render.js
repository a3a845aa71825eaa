// One frame of the canvas: the table (or the animation's tracks), the
// overlays of the open tab, the balls, the shot being set up, the rows
// under the table and the ball being dragged. Requests are folded into
// one frame per animation frame.
import {current as currentAnimation, drawAnimationFrame, trails} from "./animate.js";
import {$} from "./dom.js";
import {drawHint} from "./play.js";
import {selectedBall} from "./keys.js";
import {dragged} from "./pointer.js";
import {ballsOf} from "./position.js";
import {drawShotPreview} from "./shot.js";
import {debug, geo, pos, shownPosition} from "./state.js";
import {drawSuggestions} from "./suggest.js";
import {bg, drawBall, drawBallFast, drawPanel, inHandZone, table2css, view} from "./table.js";

let renderQueued = false;
export function requestRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => { renderQueued = false; render(); });
}

export function render() {
  if (!geo || !pos) return;
  const c = $("table"), ctx = c.getContext("2d");
  const dpr = view.dpr;
  const a = currentAnimation(), drag = dragged();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.drawImage(a ? trails(a) : bg, 0, 0);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  debug.arrows = 0;
  debug.frames += 1;
  const shown = shownPosition();
  inHandZone(ctx, a ? null : shown);
  if (a) {
    drawAnimationFrame(ctx, a);
  } else {
    drawSuggestions(ctx, shown);
    drawHint(ctx);
    const hidden = drag ? drag.id : null;
    for (const [b, [x, y]] of ballsOf(shown)) {
      if (b === hidden) continue;
      const [px, py] = table2css(x, y);
      drawBallFast(ctx, px, py, b);
    }
    drawShotPreview(ctx, shown);
    drawSelected(ctx, shown);
  }
  drawPanel(ctx, shown, drag ? drag.id : null);
  if (drag && drag.moved) drawBall(ctx, drag.px, drag.py, drag.id, 0.85);
}

// The ball the keys move (the table focused): a ring around it.
function drawSelected(ctx, shown) {
  const id = selectedBall();
  if (!id || !(id in shown.balls)) return;
  const [px, py] = table2css(...shown.balls[id]);
  ctx.beginPath(); ctx.arc(px, py, geo.ball_radius * view.s + 3, 0, 2 * Math.PI);
  ctx.lineWidth = 2.5; ctx.strokeStyle = "#ffd84a"; ctx.stroke();
  ctx.beginPath(); ctx.arc(px, py, geo.ball_radius * view.s + 5, 0, 2 * Math.PI);
  ctx.lineWidth = 1.5; ctx.strokeStyle = "#1a5fb4"; ctx.stroke();
}
