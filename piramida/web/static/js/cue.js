// The cue, held like a player holds it: the pointer is the cue's tip, so
// the aim φ points from the tip through the struck ball's centre, and the
// pull (the tip's distance from the ball's edge, in metres of table) sets
// the pace, linearly from V_MIN at the ball to V_MAX at PULL_MAX.
import {geo} from "./state.js";
import {table2css, view} from "./table.js";

export const V_MIN = 0.3;     // m/s with the tip at the ball
export const V_MAX = 8;       // m/s at the longest pull
export const PULL_MAX = 0.5;  // m of pull for V_MAX
// How near the struck ball's centre a press takes up the cue (m of table;
// never less than a few ball radii on screen).
export const CUE_REACH = 0.2;
const CUE_LENGTH = 1.45;      // m drawn behind the tip

export function paceOfPull(pull) {
  const f = Math.min(1, Math.max(0, pull / PULL_MAX));
  return V_MIN + f * (V_MAX - V_MIN);
}

export function pullOfPace(v) {
  return Math.min(1, Math.max(0, (v - V_MIN) / (V_MAX - V_MIN))) * PULL_MAX;
}

// Whether a press at CSS pixel (px, py) takes up the cue of a ball at `at`.
export function withinReach(at, px, py) {
  const [bx, by] = table2css(at[0], at[1]);
  const reach = Math.max(CUE_REACH * view.s, 4 * geo.ball_radius * view.s + 8);
  return Math.hypot(px - bx, py - by) <= reach;
}

// The stroke of a tip held at `tip` behind a ball at `at` (table
// coordinates): {phi (degrees in [0, 360)), v}, or null while the tip is
// too near the centre to give a direction.
export function strokeOfTip(at, tip) {
  const dx = at[0] - tip[0], dy = at[1] - tip[1], dist = Math.hypot(dx, dy);
  if (dist < 0.5 * geo.ball_radius) return null;
  let phi = Math.atan2(dy, dx) * 180 / Math.PI;
  if (phi < 0) phi += 360;
  return {phi, v: paceOfPull(dist - geo.ball_radius)};
}

export const paceText = (v) => `v ${v.toFixed(2)} m/s`;

// The cue stick behind the ball along φ (degrees), its tip `pull` metres
// from the ball's edge, tapering from the tip to the butt, with the pace
// written beside the tip.
export function drawCue(ctx, at, phi, pull, v) {
  const r = geo.ball_radius, rad = phi * Math.PI / 180;
  const ux = Math.cos(rad), uy = Math.sin(rad);
  const gap = r + Math.max(0.004, pull);
  const tip = [at[0] - ux * gap, at[1] - uy * gap];
  const butt = [tip[0] - ux * CUE_LENGTH, tip[1] - uy * CUE_LENGTH];
  const [tx, ty] = table2css(tip[0], tip[1]), [bx, by] = table2css(butt[0], butt[1]);
  const len = Math.hypot(bx - tx, by - ty) || 1;
  const nx = -(by - ty) / len, ny = (bx - tx) / len;  // across the stick, on screen
  const wTip = Math.max(2, 0.0065 * view.s), wButt = Math.max(5, 0.016 * view.s);  // half widths, px
  const band = (f0, f1, colour) => {
    const w0 = wTip + (wButt - wTip) * f0, w1 = wTip + (wButt - wTip) * f1;
    const x0 = tx + (bx - tx) * f0, y0 = ty + (by - ty) * f0;
    const x1 = tx + (bx - tx) * f1, y1 = ty + (by - ty) * f1;
    ctx.beginPath();
    ctx.moveTo(x0 + nx * w0, y0 + ny * w0); ctx.lineTo(x1 + nx * w1, y1 + ny * w1);
    ctx.lineTo(x1 - nx * w1, y1 - ny * w1); ctx.lineTo(x0 - nx * w0, y0 - ny * w0);
    ctx.closePath(); ctx.fillStyle = colour; ctx.fill();
  };
  ctx.globalAlpha = 0.95;
  band(0, 0.012, "#3d6fb6");   // the chalked tip
  band(0.012, 0.03, "#f4f1ea");  // the ferrule
  band(0.03, 0.62, "#e3c98f");   // the shaft
  band(0.62, 1, "#5b3a1e");      // the butt
  ctx.globalAlpha = 1;
  ctx.font = "bold 12px sans-serif"; ctx.textAlign = "left"; ctx.textBaseline = "bottom";
  ctx.lineWidth = 3; ctx.strokeStyle = "rgba(0,0,0,0.6)"; ctx.fillStyle = "#ffffff";
  const label = paceText(v);
  ctx.strokeText(label, tx + 10, ty - 8); ctx.fillText(label, tx + 10, ty - 8);
}
