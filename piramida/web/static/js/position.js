// A position's balls (JSON form): which are where, the ball in hand, and
// the nearest free spot for a ball.
import {cueOf, geo, meta} from "./state.js";

export function clone(p) { return JSON.parse(JSON.stringify(p)); }

export function ballsOf(pos) { return pos ? Object.entries(pos.balls) : []; }

export function inHandBall(pos) {
  return pos && pos.in_hand ? cueOf(pos.variant, pos.to_move) : null;
}

// The variant's balls that are neither on the table, on a shelf nor in hand.
export function missingIds(pos) {
  const present = new Set(Object.keys(pos.balls));
  pos.shelves[0].forEach((b) => present.add(b));
  pos.shelves[1].forEach((b) => present.add(b));
  const hand = inHandBall(pos);
  if (hand) present.add(hand);
  return meta.ids[pos.variant].filter((b) => !present.has(b));
}

function free(pos, id, x, y, zone) {
  const r = geo.ball_radius, eps = 2e-4;
  if (x < r + eps || x > geo.width - r - eps || y < r + eps || y > geo.length - r - eps) return false;
  if (zone === "house" && y >= geo.lines.house - eps) return false;
  if (zone === "rear_house" && y <= geo.lines.rear + eps) return false;
  for (const [b, [bx, by]] of Object.entries(pos.balls)) {
    if (b === id) continue;
    if (Math.hypot(bx - x, by - y) < 2 * r + eps) return false;
  }
  return true;
}
const round4 = (v) => Math.round(v * 1e4) / 1e4;

// A spot to 1 mm (three decimals, as the shot's text shows a place), or
// to 0.1 mm where the coarser spot would touch a ball or leave the zone.
export function tidySpot(pos, id, spot, zone) {
  const mm = spot.map((v) => Math.round(v * 1e3) / 1e3);
  return free(pos, id, mm[0], mm[1], zone) ? mm : spot.map(round4);
}

// The nearest free spot to (x, y) on the table (in ``zone`` when given):
// rings of growing radius around the point, 2 mm apart.
export function snap(x, y, id, pos, zone) {
  const r = geo.ball_radius;
  x = Math.min(Math.max(x, r + 3e-4), geo.width - r - 3e-4);
  y = Math.min(Math.max(y, r + 3e-4), geo.length - r - 3e-4);
  if (zone === "house") y = Math.min(y, geo.lines.house - 3e-4);
  if (zone === "rear_house") y = Math.max(y, geo.lines.rear + 3e-4);
  let [qx, qy] = [round4(x), round4(y)];
  if (free(pos, id, qx, qy, zone)) return [qx, qy];
  for (let d = 0.002; d < 4; d += 0.002) {
    const n = Math.max(12, Math.ceil(2 * Math.PI * d / 0.002));
    for (let k = 0; k < n; k++) {
      const t = 2 * Math.PI * k / n;
      qx = round4(x + d * Math.cos(t)); qy = round4(y + d * Math.sin(t));
      if (free(pos, id, qx, qy, zone)) return [qx, qy];
    }
  }
  return null;
}
