// The table on the canvas: its scale (view), the background drawn once per
// size, balls, arrows, paths, and the three rows under the table (each
// player's shelf, then the tray with the ball in hand). The table is turned
// as in the pictures: the house end on the left, the left cushion on top.
import {$} from "./dom.js";
import {inHandBall, missingIds} from "./position.js";
import {debug, geo, meta} from "./state.js";
import {POCKETS} from "./words.js";

export const COLOURS = ["#ffd84a", "#7fd3ff", "#ff9ecb"];
export const OBJECT_DOT = "#4aa3ff";

// The canvas's scale and layout in CSS pixels (set by layout()). `upright`:
// the table stands with its long axis up the screen, the house end at the
// bottom and the left cushion on the left (a narrow portrait window).
export const view = {s: 1, m: 0, tableH: 0, rowH: 28, cssW: 0, cssH: 0, x0: 150, upright: false};
export let bg = null;  // the table without balls, in device pixels

export function table2css(x, y) {
  const {s, m} = view;
  if (view.upright) return [(x + m) * s, (geo.length + m - y) * s];
  return [(y + m) * s, (x + m) * s];
}
export function css2table(px, py) {
  const {s, m} = view;
  if (view.upright) return [px / s - m, geo.length + m - py / s];
  return [py / s - m, px / s - m];
}

// The canvas as large as the page allows: as wide as its column and no
// taller than the window (the three rows included), lying or standing,
// whichever draws it larger. Beside the panel (a wide window) the height
// is what is left below the canvas's top, so that the whole table is in
// view; above it (the page scrolls) the window's whole height.
export function layout() {
  const g = geo, c = $("table"), board = c.parentElement;
  const m = g.cushion_width + g.rail_width, r = g.ball_radius;
  const spanL = g.length + 2 * m, spanW = g.width + 2 * m;
  const beside = getComputedStyle(board.parentElement).display === "grid";
  const top = beside ? c.getBoundingClientRect().top + board.scrollTop : 0;
  const availH = window.innerHeight - top - 8;
  // cssH = down s + 3 max(26, 2 r s + 10) + 12 grows with s: both branches capped.
  const fit = (across, down) => Math.min(board.clientWidth / across,
    (availH - 90) / down, (availH - 42) / (down + 6 * r));
  const flat = fit(spanL, spanW), up = fit(spanW, spanL);
  const upright = up > 1.25 * flat;  // standing only where it is clearly larger
  const s = Math.max(180 / spanL, upright ? up : flat);
  const cssW = (upright ? spanW : spanL) * s;
  const tableH = (upright ? spanL : spanW) * s;
  const rowH = Math.max(26, 2 * r * s + 10);
  const cssH = tableH + 3 * rowH + 12;
  const x0 = cssW < 520 ? 112 : 150;
  Object.assign(view, {s, m, tableH, rowH, cssW, cssH, x0, upright});
  c.style.width = `${cssW}px`;
  const dpr = window.devicePixelRatio || 1;
  c.style.height = `${cssH}px`;
  c.width = Math.round(cssW * dpr);
  c.height = Math.round(cssH * dpr);
  view.dpr = dpr;
  bg = drawBackground(dpr);
}

function poly(ctx, pts) {
  ctx.beginPath();
  pts.forEach(([x, y], i) => {
    const [px, py] = table2css(x, y);
    if (i === 0) ctx.moveTo(px, py); else ctx.lineTo(px, py);
  });
  ctx.closePath();
}

function drawBackground(dpr) {
  const g = geo, col = g.colours, {s, m, cssW, cssH} = view;
  const off = document.createElement("canvas");
  off.width = Math.round(cssW * dpr);
  off.height = Math.round(cssH * dpr);
  const ctx = off.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = "#f4f1ea";
  ctx.fillRect(0, 0, cssW, cssH);
  // rail, cloth
  const box = (x0, y0, x1, y1) => {
    const [ax, ay] = table2css(x0, y0), [bx, by] = table2css(x1, y1);
    return [Math.min(ax, bx), Math.min(ay, by), Math.abs(bx - ax), Math.abs(by - ay)];
  };
  const [rx, ry, rw, rh] = box(-m, -m, g.width + m, g.length + m);
  ctx.fillStyle = col.rail; ctx.strokeStyle = col.rail_edge; ctx.lineWidth = 1.2;
  ctx.fillRect(rx, ry, rw, rh);
  ctx.strokeRect(rx + 0.5, ry + 0.5, rw - 1, rh - 1);
  ctx.fillStyle = col.cloth;
  ctx.fillRect(...box(0, 0, g.width, g.length));
  for (const p of Object.values(g.pockets)) {
    ctx.fillStyle = col.cloth; poly(ctx, p.opening); ctx.fill();
    ctx.fillStyle = col.hole; poly(ctx, p.hole); ctx.fill();
  }
  for (const pts of Object.values(g.cushions)) {
    ctx.fillStyle = col.cushion; ctx.strokeStyle = col.cushion_edge; ctx.lineWidth = 0.8;
    poly(ctx, pts); ctx.fill(); ctx.stroke();
  }
  ctx.fillStyle = "#e8dcc0";
  for (const [x, y] of g.sights) {
    const [px, py] = table2css(x, y);
    ctx.beginPath(); ctx.arc(px, py, Math.max(1.5, 0.012 * s), 0, 2 * Math.PI); ctx.fill();
  }
  ctx.font = `${Math.max(9, 0.05 * s)}px sans-serif`;
  ctx.textAlign = "center"; ctx.textBaseline = "middle";
  for (const [name, p] of Object.entries(g.pockets)) {
    const [px, py] = table2css(p.label[0], p.label[1]);
    ctx.fillText(name, px, py);
  }
  // markings
  ctx.strokeStyle = col.marking; ctx.globalAlpha = 0.8; ctx.lineWidth = 0.9;
  for (const y of [g.lines.centre, g.lines.house]) {
    const [ax, ay] = table2css(0, y), [bx, by] = table2css(g.width, y);
    ctx.beginPath(); ctx.moveTo(ax, ay); ctx.lineTo(bx, by); ctx.stroke();
  }
  const [[sx, sy], [ex, ey]] = g.lines.spot_line;
  ctx.setLineDash([4, 3]);
  ctx.beginPath(); ctx.moveTo(...table2css(sx, sy)); ctx.lineTo(...table2css(ex, ey)); ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = col.marking;
  for (const [x, y] of Object.values(g.spots)) {
    const [px, py] = table2css(x, y);
    ctx.beginPath(); ctx.arc(px, py, Math.max(1.5, 0.009 * s), 0, 2 * Math.PI); ctx.fill();
  }
  ctx.globalAlpha = 1;
  return off;
}

export function drawBall(ctx, px, py, id, alpha = 1) {
  const st = meta.styles[id] || {face: "#f7f3e6", ink: "#111", label: id};
  const r = geo.ball_radius * view.s;
  ctx.globalAlpha = alpha;
  ctx.beginPath(); ctx.arc(px, py, r, 0, 2 * Math.PI);
  ctx.fillStyle = st.face; ctx.fill();
  ctx.lineWidth = 0.8; ctx.strokeStyle = "#222"; ctx.stroke();
  if (id === "w2") {
    ctx.beginPath(); ctx.arc(px, py - r * 0.55, r * 0.18, 0, 2 * Math.PI);
    ctx.fillStyle = "#c8202a"; ctx.fill();
  }
  ctx.fillStyle = st.ink;
  ctx.font = `bold ${Math.max(7, r * (st.label.length > 1 ? 0.95 : 1.1))}px sans-serif`;
  ctx.textAlign = "center"; ctx.textBaseline = "middle";
  ctx.fillText(st.label, px, py + (id === "w2" ? r * 0.15 : 0.5));
  ctx.globalAlpha = 1;
}

// Balls as sprites: drawn once per id and scale, then copied (the
// animation draws every ball every frame).
const sprites = new Map();
export function drawBallFast(ctx, px, py, id) {
  const dpr = view.dpr, r = geo.ball_radius * view.s;
  const key = `${id}@${r}@${dpr}`;
  let sp = sprites.get(key);
  if (!sp) {
    const size = Math.ceil(2 * r + 4);
    const c = document.createElement("canvas");
    c.width = Math.ceil(size * dpr); c.height = Math.ceil(size * dpr);
    const g = c.getContext("2d");
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawBall(g, size / 2, size / 2, id);
    sp = {c, size};
    sprites.set(key, sp);
  }
  ctx.drawImage(sp.c, px - sp.size / 2, py - sp.size / 2, sp.size, sp.size);
}

export function arrow(ctx, a, b, colour, alpha) {
  const [ax, ay] = table2css(a[0], a[1]), [bx, by] = table2css(b[0], b[1]);
  ctx.globalAlpha = alpha; ctx.strokeStyle = colour; ctx.fillStyle = colour; ctx.lineWidth = 2;
  ctx.setLineDash([6, 4]);
  ctx.beginPath(); ctx.moveTo(ax, ay); ctx.lineTo(bx, by); ctx.stroke();
  ctx.setLineDash([]);
  const ang = Math.atan2(by - ay, bx - ax), h = 10;
  ctx.beginPath(); ctx.moveTo(bx, by);
  ctx.lineTo(bx - h * Math.cos(ang - 0.4), by - h * Math.sin(ang - 0.4));
  ctx.lineTo(bx - h * Math.cos(ang + 0.4), by - h * Math.sin(ang + 0.4));
  ctx.closePath(); ctx.fill();
  ctx.globalAlpha = 1;
  debug.arrows += 1;
}

export function pathLine(ctx, pts, colour, alpha, width = 1.6) {
  if (pts.length < 2) return;
  ctx.globalAlpha = alpha; ctx.strokeStyle = colour; ctx.lineWidth = width; ctx.lineJoin = "round";
  ctx.beginPath();
  pts.forEach(([x, y], i) => {
    const [px, py] = table2css(x, y);
    if (i === 0) ctx.moveTo(px, py); else ctx.lineTo(px, py);
  });
  ctx.stroke(); ctx.globalAlpha = 1;
}

export function ghost(ctx, at, colour, alpha) {
  const [px, py] = table2css(at[0], at[1]);
  ctx.globalAlpha = alpha; ctx.strokeStyle = colour; ctx.lineWidth = 1.4; ctx.setLineDash([3, 3]);
  ctx.beginPath(); ctx.arc(px, py, geo.ball_radius * view.s, 0, 2 * Math.PI); ctx.stroke();
  ctx.setLineDash([]); ctx.globalAlpha = 1;
}

// The balls in the three rows under the table: where each is drawn.
export function panelSlots(pos) {
  const {tableH, rowH, s, cssW} = view, r = geo.ball_radius * s;
  const out = [];
  const x0 = view.x0;
  // Balls 5 px apart, closer where a row would run off the canvas.
  const stepFor = (n, extra = 0) => Math.min(2 * r + 5, n > 1 ? (cssW - x0 - r - 2 - extra) / (n - 1) : Infinity);
  const row = (k) => tableH + 6 + rowH * k + rowH / 2;
  pos.shelves.forEach((shelf, p) => {
    const step = stepFor(shelf.length);
    shelf.forEach((b, i) => out.push({id: b, zone: `shelf${p}`, px: x0 + i * step, py: row(p)}));
  });
  const hand = inHandBall(pos), tray = missingIds(pos);
  const step = stepFor(tray.length + (hand ? 1 : 0), hand ? 10 : 0);
  let i = 0;
  if (hand) out.push({id: hand, zone: "hand", px: x0 + (i++) * step, py: row(2)});
  tray.forEach((b) => out.push({id: b, zone: "tray", px: x0 + (i++) * step + (hand ? 10 : 0), py: row(2)}));
  return out;
}

// What is under a CSS pixel: the table, a shelf, the tray, or nothing.
export function zoneAt(px, py) {
  const {tableH, rowH} = view;
  if (py < tableH) {
    const [x, y] = css2table(px, py);
    if (x > -0.02 && x < geo.width + 0.02 && y > -0.02 && y < geo.length + 0.02) return "table";
    return null;
  }
  const k = Math.floor((py - tableH - 6) / rowH);
  return ["shelf0", "shelf1", "tray"][k] || null;
}

// The pocket under a CSS pixel (near its mouth or its label): its tooltip
// names it in words with the short form calls use, e.g. "right rear (rr)".
export function pocketAt(px, py) {
  const [x, y] = css2table(px, py), near = 0.09;
  for (const [name, p] of Object.entries(geo.pockets)) {
    const spots = [p.mouth_centre, p.label];
    if (spots.some(([qx, qy]) => Math.hypot(qx - x, qy - y) < near)) return {name, words: POCKETS[name] || name};
  }
  return null;
}

export function drawPanel(ctx, pos, hidden) {
  const {tableH, rowH, cssW, x0} = view;
  const size = x0 < 150 ? 12 : 13;
  ctx.font = `${size}px sans-serif`; ctx.textAlign = "left"; ctx.textBaseline = "middle";
  for (let k = 0; k < 3; k++) {
    const y = tableH + 6 + rowH * k;
    ctx.fillStyle = k % 2 ? "#ebe6da" : "#efebe1";
    ctx.fillRect(0, y, cssW, rowH);
    ctx.fillStyle = "#1d1d1b";
    let label;
    if (k < 2) {
      const mark = pos.to_move === k ? "\u25B6 " : "   ";
      label = `${mark}player ${k + 1}: ${pos.score[k]}` + (pos.owed[k] ? ` (owes ${pos.owed[k]})` : "");
      ctx.font = pos.to_move === k ? `bold ${size}px sans-serif` : `${size}px sans-serif`;
    } else {
      label = pos.in_hand ? "in hand / off" : "off the table";
      ctx.font = `${size}px sans-serif`;
    }
    ctx.fillText(label, 6, y + rowH / 2);
    if (k < 2 && pos.shelves[k].length === 0) {
      ctx.fillStyle = "#8a8478"; ctx.font = "italic 12px sans-serif";
      ctx.fillText("shelf empty", x0, y + rowH / 2);
    }
  }
  for (const slot of panelSlots(pos)) {
    if (hidden && hidden === slot.id) continue;
    drawBall(ctx, slot.px, slot.py, slot.id);
  }
}

// Where the ball in hand may be placed, lightly shaded.
export function inHandZone(ctx, pos) {
  if (!pos || !pos.in_hand) return;
  let y0 = 0, y1 = geo.length;
  if (pos.in_hand === "house") y1 = geo.lines.house;
  else if (pos.in_hand === "rear_house") y0 = geo.lines.rear;
  const [ax, ay] = table2css(0, y0), [bx, by] = table2css(geo.width, y1);
  ctx.fillStyle = "rgba(255,255,255,0.08)";
  ctx.fillRect(ax, ay, bx - ax, by - ay);
}
