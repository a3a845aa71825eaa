// piramida's page: plain JavaScript, no build step, nothing from the network.
// The table is drawn from the server's geometry (GET /api/table, the same
// numbers env/render.py draws with), turned as in the pictures: the house end
// on the left, the left cushion on top.
"use strict";

const $ = (id) => document.getElementById(id);
const COLOURS = ["#ffd84a", "#7fd3ff", "#ff9ecb"];
const OBJECT_DOT = "#4aa3ff";

const S = {
  geo: null, meta: null,
  pos: null,          // the edited position (JSON form)
  text: "",           // its text form (from the server)
  tab: "edit",
  plans: null,        // the last suggestion: {shots, draw, position}
  chosen: 0,
  cloud: null,
  anim: null,         // {sim, t, playing, ...}
  drag: null,
  hint: null,         // a hint's drawing in play
  play: null,         // the frame in play: the server's state
  stored: null,       // the stored games listed: {dbs, total, games}
  storedAsked: false,
  playBusy: false,
  place: null,        // where a ball in hand is put for the shot
  view: {s: 1, m: 0, tableH: 0, rowH: 28, cssW: 0, cssH: 0},
  debug: {ready: false, readyMs: null, arrows: 0, frames: 0, fps: 0, animFrames: 0, lastError: null},
};
window.piramida = S;

// ------------------------------------------------------------------ API
async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  const res = await fetch(path, opts);
  let data;
  try { data = await res.json(); } catch (e) { data = {error: `${res.status} ${res.statusText}`}; }
  if (!res.ok) throw new Error(data.error || `${res.status} ${res.statusText}`);
  return data;
}

let errorTimer = null;
function showError(msg) {
  const el = $("error");
  el.textContent = msg;
  el.hidden = false;
  S.debug.lastError = msg;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => { el.hidden = true; }, 8000);
}
function status(msg) { $("status").textContent = msg; }

// ------------------------------------------------------------------ geometry
function table2css(x, y) {
  const {s, m} = S.view;
  return [(y + m) * s, (x + m) * s];
}
function css2table(px, py) {
  const {s, m} = S.view;
  return [py / s - m, px / s - m];
}
function cueOf(variant, player) { return S.meta.cue[variant][player]; }

function layout() {
  const g = S.geo, c = $("table");
  const m = g.cushion_width + g.rail_width;
  const cssW = Math.max(320, c.clientWidth || c.parentElement.clientWidth);
  const s = cssW / (g.length + 2 * m);
  const tableH = (g.width + 2 * m) * s;
  const rowH = Math.max(26, 2 * g.ball_radius * s + 10);
  const cssH = tableH + 3 * rowH + 12;
  Object.assign(S.view, {s, m, tableH, rowH, cssW, cssH});
  const dpr = window.devicePixelRatio || 1;
  c.style.height = `${cssH}px`;
  c.width = Math.round(cssW * dpr);
  c.height = Math.round(cssH * dpr);
  S.view.dpr = dpr;
  S.bg = drawBackground(dpr);
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
  const g = S.geo, col = g.colours, {s, m, cssW, cssH, tableH} = S.view;
  const off = document.createElement("canvas");
  off.width = Math.round(cssW * dpr);
  off.height = Math.round(cssH * dpr);
  const ctx = off.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = "#f4f1ea";
  ctx.fillRect(0, 0, cssW, cssH);
  // rail, cloth
  ctx.fillStyle = col.rail; ctx.strokeStyle = col.rail_edge; ctx.lineWidth = 1.2;
  ctx.fillRect(0, 0, (g.length + 2 * m) * s, tableH);
  ctx.strokeRect(0.5, 0.5, (g.length + 2 * m) * s - 1, tableH - 1);
  ctx.fillStyle = col.cloth;
  const [cx0, cy0] = table2css(0, 0);
  ctx.fillRect(cx0, cy0, g.length * s, g.width * s);
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

function drawBall(ctx, px, py, id, alpha = 1) {
  const st = S.meta.styles[id] || {face: "#f7f3e6", ink: "#111", label: id};
  const r = S.geo.ball_radius * S.view.s;
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
function drawBallFast(ctx, px, py, id) {
  const dpr = S.view.dpr, r = S.geo.ball_radius * S.view.s;
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

function arrow(ctx, a, b, colour, alpha) {
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
  S.debug.arrows += 1;
}

function pathLine(ctx, pts, colour, alpha, width = 1.6) {
  if (pts.length < 2) return;
  ctx.globalAlpha = alpha; ctx.strokeStyle = colour; ctx.lineWidth = width; ctx.lineJoin = "round";
  ctx.beginPath();
  pts.forEach(([x, y], i) => {
    const [px, py] = table2css(x, y);
    if (i === 0) ctx.moveTo(px, py); else ctx.lineTo(px, py);
  });
  ctx.stroke(); ctx.globalAlpha = 1;
}

function ghost(ctx, at, colour, alpha) {
  const [px, py] = table2css(at[0], at[1]);
  ctx.globalAlpha = alpha; ctx.strokeStyle = colour; ctx.lineWidth = 1.4; ctx.setLineDash([3, 3]);
  ctx.beginPath(); ctx.arc(px, py, S.geo.ball_radius * S.view.s, 0, 2 * Math.PI); ctx.stroke();
  ctx.setLineDash([]); ctx.globalAlpha = 1;
}

// ------------------------------------------------------------------ what is shown
function shownPosition() {
  if (S.tab === "play" && S.play) return S.play.position;
  return S.pos;
}
function ballsOf(pos) { return pos ? Object.entries(pos.balls) : []; }
function inHandBall(pos) {
  return pos && pos.in_hand ? cueOf(pos.variant, pos.to_move) : null;
}
function missingIds(pos) {
  const present = new Set(Object.keys(pos.balls));
  pos.shelves[0].forEach((b) => present.add(b));
  pos.shelves[1].forEach((b) => present.add(b));
  const hand = inHandBall(pos);
  if (hand) present.add(hand);
  return S.meta.ids[pos.variant].filter((b) => !present.has(b));
}

function panelSlots(pos) {
  // Three rows under the table: each player's shelf, then the tray (balls
  // off the table) with the ball in hand.
  const {tableH, rowH, s} = S.view, r = S.geo.ball_radius * s;
  const out = [];
  const x0 = 150, step = 2 * r + 5;
  const row = (k) => tableH + 6 + rowH * k + rowH / 2;
  pos.shelves.forEach((shelf, p) => shelf.forEach((b, i) => out.push({id: b, zone: `shelf${p}`, px: x0 + i * step, py: row(p)})));
  const hand = inHandBall(pos);
  let i = 0;
  if (hand) out.push({id: hand, zone: "hand", px: x0 + (i++) * step, py: row(2)});
  missingIds(pos).forEach((b) => out.push({id: b, zone: "tray", px: x0 + (i++) * step + (hand ? 10 : 0), py: row(2)}));
  return out;
}

function zoneAt(px, py) {
  const {tableH, rowH, s, m} = S.view;
  if (py < tableH) {
    const [x, y] = css2table(px, py);
    const g = S.geo;
    if (x > -0.02 && x < g.width + 0.02 && y > -0.02 && y < g.length + 0.02) return "table";
    return null;
  }
  const k = Math.floor((py - tableH - 6) / rowH);
  return ["shelf0", "shelf1", "tray"][k] || null;
}

function drawPanel(ctx, pos, hidden) {
  const {tableH, rowH, cssW} = S.view;
  ctx.font = "13px sans-serif"; ctx.textAlign = "left"; ctx.textBaseline = "middle";
  for (let k = 0; k < 3; k++) {
    const y = tableH + 6 + rowH * k;
    ctx.fillStyle = k % 2 ? "#ebe6da" : "#efebe1";
    ctx.fillRect(0, y, cssW, rowH);
    ctx.fillStyle = "#1d1d1b";
    let label;
    if (k < 2) {
      const mark = pos.to_move === k ? "\u25B6 " : "   ";
      label = `${mark}player ${k + 1}: ${pos.score[k]}` + (pos.owed[k] ? ` (owes ${pos.owed[k]})` : "");
      ctx.font = pos.to_move === k ? "bold 13px sans-serif" : "13px sans-serif";
    } else {
      label = pos.in_hand ? `in hand (${pos.in_hand}) / off` : "off the table";
      ctx.font = "13px sans-serif";
    }
    ctx.fillText(label, 6, y + rowH / 2);
    if (k < 2 && pos.shelves[k].length === 0) {
      ctx.fillStyle = "#8a8478"; ctx.font = "italic 12px sans-serif";
      ctx.fillText("shelf empty", 150, y + rowH / 2);
    }
  }
  for (const slot of panelSlots(pos)) {
    if (hidden && hidden === slot.id) continue;
    drawBall(ctx, slot.px, slot.py, slot.id);
  }
}

function inHandZone(ctx, pos) {
  if (!pos || !pos.in_hand) return;
  const g = S.geo;
  let y0 = 0, y1 = g.length;
  if (pos.in_hand === "house") y1 = g.lines.house;
  else if (pos.in_hand === "rear_house") y0 = g.lines.rear;
  const [ax, ay] = table2css(0, y0), [bx, by] = table2css(g.width, y1);
  ctx.fillStyle = "rgba(255,255,255,0.08)";
  ctx.fillRect(ax, ay, bx - ax, by - ay);
}

// ------------------------------------------------------------------ render
let renderQueued = false;
function requestRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => { renderQueued = false; render(); });
}

function render() {
  if (!S.geo || !S.pos) return;
  const c = $("table"), ctx = c.getContext("2d");
  const dpr = S.view.dpr;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.drawImage(S.anim ? trails(S.anim) : S.bg, 0, 0);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  S.debug.arrows = 0;
  S.debug.frames += 1;
  const pos = shownPosition();
  const a = S.anim;
  inHandZone(ctx, a ? null : pos);
  if (a) {
    drawAnimationFrame(ctx, a);
  } else {
    drawOverlays(ctx, pos);
    const hidden = S.drag ? S.drag.id : null;
    for (const [b, [x, y]] of ballsOf(pos)) {
      if (b === hidden) continue;
      const [px, py] = table2css(x, y);
      drawBallFast(ctx, px, py, b);
    }
    drawShotPreview(ctx, pos);
  }
  drawPanel(ctx, pos, S.drag ? S.drag.id : null);
  if (S.drag && S.drag.moved) drawBall(ctx, S.drag.px, S.drag.py, S.drag.id, 0.85);
}

function drawOverlays(ctx, pos) {
  if (S.tab === "suggest" && S.plans) {
    const order = S.plans.draw.map((_, i) => i).filter((i) => i !== S.chosen).concat([S.chosen]);
    for (const i of order) {
      const d = S.plans.draw[i], colour = COLOURS[i % COLOURS.length];
      const alpha = i === S.chosen ? 1 : 0.45;
      for (const [b, pts] of Object.entries(d.paths)) {
        pathLine(ctx, pts, b === d.struck ? colour : "#ffffff", alpha * (b === d.struck ? 0.95 : 0.7));
      }
      if (d.ghost) ghost(ctx, d.ghost, colour, alpha);
      arrow(ctx, d.aim[0], d.aim[1], colour, alpha);
      if (!(d.struck in pos.balls)) {
        const [px, py] = table2css(d.start[0], d.start[1]);
        drawBall(ctx, px, py, d.struck, 0.55);
      }
      const [lx, ly] = table2css(d.aim[1][0], d.aim[1][1]);
      ctx.globalAlpha = alpha; ctx.fillStyle = colour; ctx.font = "bold 13px sans-serif";
      ctx.fillText(String(i + 1), lx + 9, ly - 9); ctx.globalAlpha = 1;
    }
    if (S.cloud) drawCloud(ctx, S.cloud, COLOURS[S.chosen % COLOURS.length]);
  }
  if (S.tab === "play" && S.hint) {
    const d = S.hint;
    for (const [b, pts] of Object.entries(d.paths)) pathLine(ctx, pts, b === d.struck ? COLOURS[0] : "#ffffff", 0.7);
    if (d.ghost) ghost(ctx, d.ghost, COLOURS[0], 0.9);
  }
}

function drawCloud(ctx, cloud, colour) {
  const dot = (pts, fill) => {
    ctx.fillStyle = fill; ctx.strokeStyle = "#00000088"; ctx.lineWidth = 0.5;
    for (const [x, y] of pts) {
      const [px, py] = table2css(x, y);
      ctx.beginPath(); ctx.arc(px, py, 2.4, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
    }
  };
  if (cloud.object && cloud.rest[cloud.object]) dot(cloud.rest[cloud.object], OBJECT_DOT);
  dot(cloud.rest[cloud.struck] || [], colour);
}

// The shot being set up (Shot and Play tabs): the ball in hand where it
// will be placed, and a dashed line along the cue direction.
function drawShotPreview(ctx, pos) {
  if (!(S.tab === "shot" || (S.tab === "play" && S.play && S.play.to_act === "you" && S.play.next.kind !== "choice"))) return;
  const ball = $("shot-ball").value;
  const start = struckAt(pos, ball);
  if (!start) return;
  if (!(ball in pos.balls)) {
    const [px, py] = table2css(start[0], start[1]);
    drawBall(ctx, px, py, ball, S.drag && S.drag.id === ball ? 0 : 0.9);
  }
  const phi = parseFloat($("shot-phi").value) * Math.PI / 180;
  if (!Number.isFinite(phi)) return;
  const len = 0.25 + 0.12 * Math.min(12, parseFloat($("shot-v").value) || 1);
  arrow(ctx, start, [start[0] + len * Math.cos(phi), start[1] + len * Math.sin(phi)], "#ffffff", 0.9);
}

function struckAt(pos, ball) {
  if (ball in pos.balls) return pos.balls[ball];
  if (ball === inHandBall(pos)) {
    if (!S.place) S.place = defaultPlace(pos);
    return S.place;
  }
  return null;
}

function defaultPlace(pos) {
  const g = S.geo;
  let y = g.lines.house - 0.25;
  if (pos.in_hand === "rear_house") y = g.lines.rear + 0.25;
  return snap(g.width / 2, y, null, pos, pos.in_hand);
}

// ------------------------------------------------------------------ snapping
function free(pos, id, x, y, zone) {
  const g = S.geo, r = g.ball_radius, eps = 2e-4;
  if (x < r + eps || x > g.width - r - eps || y < r + eps || y > g.length - r - eps) return false;
  if (zone === "house" && y >= g.lines.house - eps) return false;
  if (zone === "rear_house" && y <= g.lines.rear + eps) return false;
  for (const [b, [bx, by]] of Object.entries(pos.balls)) {
    if (b === id) continue;
    if (Math.hypot(bx - x, by - y) < 2 * r + eps) return false;
  }
  return true;
}
const round4 = (v) => Math.round(v * 1e4) / 1e4;

// The nearest free spot to (x, y) on the table (in ``zone`` when given):
// rings of growing radius around the point, 2 mm apart.
function snap(x, y, id, pos, zone) {
  const g = S.geo, r = g.ball_radius;
  x = Math.min(Math.max(x, r + 3e-4), g.width - r - 3e-4);
  y = Math.min(Math.max(y, r + 3e-4), g.length - r - 3e-4);
  if (zone === "house") y = Math.min(y, g.lines.house - 3e-4);
  if (zone === "rear_house") y = Math.max(y, g.lines.rear + 3e-4);
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

// ------------------------------------------------------------------ editing
function clone(p) { return JSON.parse(JSON.stringify(p)); }

let commitSeq = 0;
async function commit(newPos) {
  const before = S.pos;
  S.pos = newPos;
  clearSuggestions();
  fillEditor();
  requestRender();
  const seq = ++commitSeq;
  try {
    const info = await api("/api/position", {position: newPos});
    if (seq !== commitSeq) return;
    setPosition(info);
  } catch (e) {
    if (seq !== commitSeq) return;
    S.pos = before;
    fillEditor();
    requestRender();
    showError(e.message);
  }
}

function setPosition(info) {
  S.pos = info.position;
  S.text = info.text;
  S.place = null;
  $("text").value = info.text;
  const url = `${location.pathname}${location.search}#pos=${encodeURIComponent(info.text)}`;
  history.replaceState(null, "", url);
  fillEditor();
  fillShotBalls();
  requestRender();
}

function fillEditor() {
  const p = S.pos;
  $("variant").value = p.variant;
  for (const k of [0, 1]) {
    $(`score${k}`).value = p.score[k];
    $(`owed${k}`).value = p.owed[k];
    $(`move${k}`).checked = p.to_move === k;
  }
  $("in_hand").value = p.in_hand || "";
  $("break").checked = p.break;
}

function editorChanged() {
  const p = clone(S.pos);
  for (const k of [0, 1]) {
    p.score[k] = parseInt($(`score${k}`).value || "0", 10);
    p.owed[k] = parseInt($(`owed${k}`).value || "0", 10);
  }
  p.to_move = $("move1").checked ? 1 : 0;
  const hand = $("in_hand").value || null;
  if (hand && !p.in_hand) {
    // The ball in hand leaves the table (and the shelves).
    const cue = cueOf(p.variant, p.to_move);
    delete p.balls[cue];
    p.shelves = p.shelves.map((sh) => sh.filter((b) => b !== cue));
  }
  p.in_hand = hand;
  p.break = $("break").checked;
  commit(p);
}

function moveBall(id, from, zone, xy) {
  const p = clone(S.pos);
  const wasHand = from === "hand";
  delete p.balls[id];
  p.shelves = p.shelves.map((sh) => sh.filter((b) => b !== id));
  if (zone === "table") {
    const spot = snap(xy[0], xy[1], id, p);
    if (!spot) { showError("no free spot on the table for that ball"); requestRender(); return; }
    p.balls[id] = spot;
    if (wasHand) p.in_hand = null;
  } else if (zone === "shelf0" || zone === "shelf1") {
    p.shelves[zone === "shelf0" ? 0 : 1].push(id);
    if (wasHand) p.in_hand = null;
  } else if (zone === "tray") {
    if (!wasHand && id === cueOf(p.variant, p.to_move) && !p.in_hand) p.in_hand = "house";
  }
  commit(p);
}

async function loadVariant(variant) {
  try { setPosition(await api("/api/start", {variant, seed: 0})); }
  catch (e) { showError(e.message); }
}

function clearTable() {
  const p = clone(S.pos);
  p.balls = {}; p.in_hand = null; p.break = false;
  commit(p);
}

// ------------------------------------------------------------------ pointer
function pointerXY(ev) {
  const rect = $("table").getBoundingClientRect();
  return [ev.clientX - rect.left, ev.clientY - rect.top];
}

function hitBall(px, py) {
  const pos = shownPosition(), r = S.geo.ball_radius * S.view.s + 3;
  if (S.tab === "edit" || S.tab === "suggest") {
    for (const slot of panelSlots(pos)) {
      if (Math.hypot(slot.px - px, slot.py - py) <= r) return {id: slot.id, from: slot.zone};
    }
    for (const [b, [x, y]] of ballsOf(pos)) {
      const [bx, by] = table2css(x, y);
      if (Math.hypot(bx - px, by - py) <= r) return {id: b, from: "table"};
    }
  } else if (S.tab === "shot" || S.tab === "play") {
    // Only the ball in hand moves here: it is placed for the shot.
    const hand = inHandBall(pos);
    if (hand && $("shot-ball").value === hand) {
      const at = struckAt(pos, hand);
      const [bx, by] = table2css(at[0], at[1]);
      if (Math.hypot(bx - px, by - py) <= r) return {id: hand, from: "place"};
    }
  }
  return null;
}

function onPointerDown(ev) {
  if (!S.pos || S.anim) return;
  const [px, py] = pointerXY(ev);
  const hit = hitBall(px, py);
  S.drag = hit ? {...hit, px, py, x0: px, y0: py, moved: false} : {id: null, from: null, px, py, x0: px, y0: py, moved: false};
  $("table").setPointerCapture(ev.pointerId);
}

function onPointerMove(ev) {
  if (!S.drag) return;
  const [px, py] = pointerXY(ev);
  S.drag.px = px; S.drag.py = py;
  if (Math.hypot(px - S.drag.x0, py - S.drag.y0) > 3) S.drag.moved = true;
  if (S.drag.id && S.drag.moved) requestRender();
}

function onPointerUp(ev) {
  const d = S.drag;
  S.drag = null;
  if (!d) return;
  const [px, py] = pointerXY(ev);
  if (d.id && d.moved) {
    const zone = zoneAt(px, py);
    if (d.from === "place") {
      const pos = shownPosition();
      const [x, y] = css2table(px, py);
      const spot = snap(x, y, d.id, pos, pos.in_hand);
      if (spot) { S.place = spot; syncShotText(); }
      requestRender();
    } else if (zone) {
      moveBall(d.id, d.from, zone, css2table(px, py));
    } else {
      requestRender();
    }
    return;
  }
  // A click: aim from the struck ball (Shot and Play tabs).
  if ((S.tab === "shot" || S.tab === "play") && zoneAt(px, py) === "table") {
    const pos = shownPosition();
    const start = struckAt(pos, $("shot-ball").value);
    if (!start) return;
    const [x, y] = css2table(px, py);
    let phi = Math.atan2(y - start[1], x - start[0]) * 180 / Math.PI;
    if (phi < 0) phi += 360;
    $("shot-phi").value = phi.toFixed(2);
    syncShotText();
    requestRender();
  }
}

// ------------------------------------------------------------------ suggestions
function clearSuggestions() {
  S.plans = null; S.cloud = null; S.chosen = 0;
  $("suggestions").innerHTML = "";
  $("cloud-info").textContent = "";
}

function budgetBody() {
  const [kind, value] = $("budget").value.split(":");
  return kind === "sims" ? {sims: parseInt(value, 10)} : {budget: value};
}

async function suggest() {
  const btn = $("suggest-go");
  btn.disabled = true;
  status("thinking…");
  const t0 = performance.now();
  try {
    const res = await api("/api/suggest", {position: S.pos, noise: $("skill").value, top: 3, ...budgetBody()});
    S.plans = res; S.chosen = 0; S.cloud = null;
    showSuggestions();
    S.debug.suggestMs = performance.now() - t0;
    render();
    status(`suggested in ${(S.debug.suggestMs / 1000).toFixed(2)} s`);
    chooseSuggestion(0);
  } catch (e) {
    showError(e.message); status("");
  } finally {
    btn.disabled = false;
  }
}

function pct(x) { return `${Math.round(100 * x)}%`; }

function showSuggestions() {
  const box = $("suggestions");
  box.innerHTML = "";
  S.plans.shots.forEach((shot, i) => {
    const d = S.plans.draw[i];
    const card = document.createElement("div");
    card.className = "suggestion" + (i === S.chosen ? " chosen" : "");
    card.style.setProperty("--c", COLOURS[i % COLOURS.length]);
    card.dataset.index = i;
    const ep = shot.expected_points;
    const pts = `${ep >= 0 ? "+" : ""}${ep.toFixed(2)}`;
    // A policy ranks by its network's probabilities, not by samples.
    const odds = shot.basis === "policy"
      ? `policy ${pct(shot.policy_probability)}; pot estimate ${pct(shot.p_pot)}, noise-free stroke ${shot.p_foul ? "fouls" : "legal"}, points ${pts}`
      : `pot ${pct(shot.p_pot)}, foul ${pct(shot.p_foul)}, expected points ${pts}`;
    const hint = shot.basis === "policy" ? "no samples: the policy's probability" : `${d.samples} samples`;
    card.innerHTML = `<div class="odds">${i + 1}. ${odds}</div>
      <div class="desc"></div><code></code><div>
      <button class="watch">watch</button><button class="use">edit as a shot</button>
      <span class="hint">${hint}</span></div>`;
    card.querySelector(".desc").textContent = shot.description;
    card.querySelector("code").textContent = shot.shot;
    card.addEventListener("click", () => chooseSuggestion(i));
    card.querySelector(".watch").addEventListener("click", (ev) => { ev.stopPropagation(); watchSuggestion(i); });
    card.querySelector(".use").addEventListener("click", (ev) => { ev.stopPropagation(); useShot(shot.shot); switchTab("shot"); });
    box.appendChild(card);
  });
}

let cloudSeq = 0;
async function chooseSuggestion(i) {
  S.chosen = i; S.cloud = null;
  document.querySelectorAll(".suggestion").forEach((el) => el.classList.toggle("chosen", +el.dataset.index === i));
  requestRender();
  const seq = ++cloudSeq;
  const d = S.plans.draw[i];
  $("cloud-info").textContent = "playing it 200 times under the noise…";
  try {
    const cloud = await api("/api/cloud", {position: S.plans.position, shot: S.plans.shots[i].shot,
      noise: $("skill").value === "none" ? "pro" : $("skill").value, n: 200, object: d.object});
    if (seq !== cloudSeq) return;
    S.cloud = cloud;
    $("cloud-info").textContent = cloudText(cloud);
    requestRender();
  } catch (e) {
    if (seq === cloudSeq) $("cloud-info").textContent = "";
    showError(e.message);
  }
}

function cloudText(c) {
  const one = (b, what) => {
    if (!b) return "";
    const rest = (c.rest[b] || []).length;
    const pots = Object.entries(c.pocketed[b] || {}).sort((a, b2) => b2[1] - a[1])
      .map(([p, k]) => `${pct(k / c.n)} in ${p}`);
    const off = c.off[b] ? [`${pct(c.off[b] / c.n)} off the table`] : [];
    return `${what} ${b}: ${[`${pct(rest / c.n)} rests on the table`, ...pots, ...off].join(", ")}`;
  };
  return `${c.n} noisy strokes (${c.noise}). ` + [one(c.struck, "struck ball"), one(c.object, "object ball")].filter(Boolean).join("; ") +
    ". Dots: where each comes to rest.";
}

async function watchSuggestion(i) {
  useShot(S.plans.shots[i].shot);
  await simulateAndWatch(S.plans.position, S.plans.shots[i].shot, "none", 0);
}

// ------------------------------------------------------------------ shot form
function fillShotBalls() {
  const pos = shownPosition();
  if (!pos) return;
  const sel = $("shot-ball"), keep = sel.value;
  let ids = Object.keys(pos.balls);
  const hand = inHandBall(pos);
  if (hand) ids = [hand, ...ids];
  if (S.tab === "play" && S.play && S.play.cue_balls.length) ids = S.play.cue_balls.slice();
  sel.innerHTML = ids.map((b) => `<option value="${b}">${b}</option>`).join("");
  const cue = cueOf(pos.variant, pos.to_move);
  sel.value = ids.includes(keep) ? keep : (ids.includes(cue) ? cue : ids[0] || "");
  syncShotText();
}

function shotText() {
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

function syncShotText() { $("shot-text").value = shotText(); }

function useShot(text) {
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
    S.place = [x, y];
  }
  syncShotText();
  requestRender();
}

function onShotTextEdited() {
  const text = $("shot-text").value;
  useShot(text);
  $("shot-text").value = text;
}

function placeFromFields() {
  const x = parseFloat($("shot-px").value), y = parseFloat($("shot-py").value);
  if (Number.isFinite(x) && Number.isFinite(y)) S.place = [x, y];
  syncShotText(); requestRender();
}

// ------------------------------------------------------------------ animation
async function simulateAndWatch(position, shot, noise, seed) {
  status("simulating…");
  try {
    const body = {position, shot, noise};
    if (noise !== "none") body.seed = seed;
    const sim = await api("/api/simulate", body);
    status(sim.played !== sim.intended ? `played: ${sim.played}` : "");
    await animate(sim);
  } catch (e) {
    showError(e.message); status("");
  }
}

function animate(sim, opts = {}) {
  stopAnimation();
  return new Promise((resolve) => {
    S.anim = {sim, t: 0, playing: true, last: null, resolve, shown: 0, stamps: [], keep: opts.keep !== false};
    $("anim-bar").hidden = false;
    $("anim-keep").hidden = S.tab === "play";
    $("events").innerHTML = "";
    S.debug.animFrames = 0;
    S.debug.animStart = performance.now();
    S.debug.animEndMs = null;
    $("anim-play").innerHTML = "&#10074;&#10074;";
    requestAnimationFrame(tick);
  });
}

function stopAnimation() {
  const a = S.anim;
  if (!a) return;
  S.anim = null;
  if (a.resolve) a.resolve();
  $("anim-bar").hidden = true;
}

function tick(ts) {
  const a = S.anim;
  if (!a) return;
  if (a.playing) {
    if (a.last !== null) a.t += (ts - a.last) / 1000 * parseFloat($("anim-speed").value);
    a.last = ts;
    if (a.t >= a.sim.duration) {
      a.t = a.sim.duration; a.playing = false; a.last = null;
      S.debug.animEndMs = performance.now();
    }
    a.stamps.push(ts);
    while (a.stamps.length && ts - a.stamps[0] > 1000) a.stamps.shift();
    S.debug.animFrames += 1;
    if (ts - a.stamps[0] >= 500) S.debug.fps = (a.stamps.length - 1) * 1000 / (ts - a.stamps[0]);
  }
  render();
  showAnimState();
  if (a.playing) requestAnimationFrame(tick);
  else {
    $("anim-play").innerHTML = "&#9654;";
    if (a.t >= a.sim.duration && a.resolve) { const r = a.resolve; a.resolve = null; r(); }
  }
}

function showAnimState() {
  const a = S.anim;
  $("anim-time").textContent = `${a.t.toFixed(2)} / ${a.sim.duration.toFixed(2)} s`;
  $("anim-fps").textContent = S.debug.fps ? `${Math.round(S.debug.fps)} fps` : "";
  const log = a.sim.log, list = $("events");
  while (a.shown < log.length && log[a.shown].t <= a.t + 1e-9) {
    const li = document.createElement("li");
    li.textContent = `${log[a.shown].t.toFixed(3)} s  ${log[a.shown].text}`;
    list.appendChild(li);
    a.shown += 1;
  }
  while (a.shown > 0 && log[a.shown - 1].t > a.t + 1e-9) { list.lastChild.remove(); a.shown -= 1; }
  [...list.children].forEach((li, i) => li.classList.toggle("now", i === a.shown - 1));
}

function sampleAt(tr, t) {
  const ts = tr.t, n = ts.length;
  if (n === 1 || t <= ts[0]) return [tr.x[0], tr.y[0]];
  if (t >= ts[n - 1]) return [tr.x[n - 1], tr.y[n - 1]];
  let lo = 0, hi = n - 1;
  while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (ts[mid] <= t) lo = mid; else hi = mid; }
  const f = (t - ts[lo]) / Math.max(1e-12, ts[hi] - ts[lo]);
  return [tr.x[lo] + f * (tr.x[hi] - tr.x[lo]), tr.y[lo] + f * (tr.y[hi] - tr.y[lo])];
}

// The balls' tracks so far, drawn onto a copy of the table a piece at a
// time (from the last frame's time to this one's), so that a frame costs
// one copy and the balls whatever the length of the shot.
function trails(a) {
  const dpr = S.view.dpr;
  if (!a.trail || a.t < a.trailT || a.trail.width !== S.bg.width) {
    a.trail = document.createElement("canvas");
    a.trail.width = S.bg.width; a.trail.height = S.bg.height;
    a.trail.getContext("2d").drawImage(S.bg, 0, 0);
    a.trailT = 0;
  }
  if (a.t > a.trailT) {
    const g = a.trail.getContext("2d");
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    for (const tr of Object.values(a.sim.trajectories)) {
      if (tr.t.length < 2 || a.trailT >= tr.t[tr.t.length - 1]) continue;
      const pts = [sampleAt(tr, a.trailT)];
      for (let k = 0; k < tr.t.length; k++) if (tr.t[k] > a.trailT && tr.t[k] < a.t) pts.push([tr.x[k], tr.y[k]]);
      pts.push(sampleAt(tr, a.t));
      pathLine(g, pts, "#ffffff", 0.3, 1.2);
    }
    a.trailT = a.t;
  }
  return a.trail;
}

function drawAnimationFrame(ctx, a) {
  for (const [b, tr] of Object.entries(a.sim.trajectories)) {
    if (tr.gone !== null && a.t >= tr.gone) continue;
    const [x, y] = sampleAt(tr, a.t);
    const [px, py] = table2css(x, y);
    drawBallFast(ctx, px, py, b);
  }
}

function animToggle() {
  const a = S.anim;
  if (!a) return;
  if (a.t >= a.sim.duration) { a.t = 0; a.shown = 0; $("events").innerHTML = ""; }
  a.playing = !a.playing; a.last = null;
  $("anim-play").innerHTML = a.playing ? "&#10074;&#10074;" : "&#9654;";
  if (a.playing) requestAnimationFrame(tick); else render();
}
function animStep() {
  const a = S.anim;
  if (!a) return;
  a.playing = false; a.last = null;
  a.t = Math.min(a.sim.duration, a.t + 1 / 60);
  requestAnimationFrame(tick);
}
function animReplay() {
  const a = S.anim;
  if (!a) return;
  a.t = 0; a.shown = 0; a.last = null; a.playing = true; a.stamps = [];
  $("events").innerHTML = "";
  $("anim-play").innerHTML = "&#10074;&#10074;";
  requestAnimationFrame(tick);
}
function animKeep() {
  const a = S.anim;
  if (!a) return;
  const fin = a.sim.final;
  stopAnimation();
  switchTab("edit");
  commit(fin);
}

// ------------------------------------------------------------------ play
function playSettings() {
  return {agent: $("play-agent").value.trim(), seat: parseInt($("play-seat").value, 10),
    noise: $("play-noise").value, seed: parseInt($("play-seed").value || "0", 10)};
}

async function playNew() {
  const body = {variant: S.pos.variant, ...playSettings()};
  if ($("play-from-position").checked) body.position = S.pos;
  stopAnimation();
  S.hint = null;
  try {
    const res = await api("/api/play/new", body);
    S.play = res.state;
    $("play-log").innerHTML = "";
    S.place = null;
    showPlay();
    await continuePlay();
  } catch (e) { showError(e.message); }
}

// One action in the log; `who` names the seat (a stored game's agents).
function logStep(step, who) {
  const li = document.createElement("li");
  who = who || (step.who === "you" ? "you" : S.play.agent);
  const what = step.kind === "choice" ? `chooses ${step.action}` : step.brief;
  li.textContent = `p${step.seat} (${who}) ${what}${step.summary && step.kind !== "choice" ? "  →  " + step.summary : ""}`;
  if (step.refused) li.textContent += `  (refused: ${step.reason})`;
  li.className = step.who + (step.foul ? " foul" : "");
  const log = $("play-log");
  log.appendChild(li);
  log.scrollTop = log.scrollHeight;
}

async function showStep(res) {
  S.hint = null;
  logStep(res.step);
  const sim = res.step.simulation;
  if (sim && $("play-animate").checked) {
    S.play = {...S.play, position: res.step.before};
    await animate(sim);
    stopAnimation();
  }
  S.play = res.state;
  S.place = null;
  showPlay();
}

async function continuePlay() {
  while (S.play && S.play.to_act === "agent" && S.tab === "play") {
    S.playBusy = true; showPlay();
    status(`${S.play.agent} is thinking…`);
    try {
      await showStep(await api(`/api/play/${S.play.id}/agent`, {}));
    } catch (e) { showError(e.message); break; } finally { S.playBusy = false; status(""); }
  }
  showPlay();
}

function showPlay() {
  const st = S.play, box = $("play-state"), choices = $("play-choices");
  if (!st) {
    box.textContent = "No frame yet: pick an agent and start one.";
    choices.innerHTML = "";
    ["play-shoot", "play-hint", "play-undo", "play-save"].forEach((id) => { $(id).disabled = true; });
    requestRender();
    return;
  }
  const you = st.seat, nxt = st.next;
  let turn;
  if (st.over) turn = st.winner === null ? "frame over: a draw" : (st.winner === you ? "frame over: you win" : "frame over: the agent wins");
  else if (st.to_act === "you") turn = nxt.kind === "choice" ? "your choice" : (nxt.kind === "lag" ? "your lag shot" : "your shot");
  else turn = "the agent's turn";
  box.innerHTML = `<div>${st.variant}: you are p${you} (player ${you + 1}) against <b></b>, noise ${st.noise}, seed ${st.seed}</div>
    <div>score ${st.score[0]} - ${st.score[1]}, ${st.shots} shots</div><div class="turn"></div><div class="ruling"></div>`;
  box.querySelector("b").textContent = st.agent;
  box.querySelector(".turn").textContent = turn + (nxt.in_hand && st.to_act === "you" ? ` (ball in hand: ${nxt.in_hand})` : "");
  box.querySelector(".ruling").textContent = st.last_ruling ? `last ruling: ${st.last_ruling}` : "";
  choices.innerHTML = "";
  if (st.to_act === "you" && nxt.kind === "choice") {
    for (const c of nxt.choices) {
      const b = document.createElement("button");
      b.textContent = c.startsWith("take_ball:") ? `take ball ${c.slice(10)}` : c.replace(/_/g, " ");
      b.dataset.choice = c;
      b.addEventListener("click", () => playChoose(c));
      choices.appendChild(b);
    }
  }
  const mine = st.to_act === "you" && !S.playBusy;
  $("play-shoot").disabled = !(mine && nxt.kind !== "choice");
  $("play-hint").disabled = !(mine && nxt.kind === "shot");
  $("play-undo").disabled = !st.can_undo || S.playBusy;
  $("play-save").disabled = false;
  fillShotBalls();
  requestRender();
}

async function playShoot() {
  if (!S.play) return;
  S.hint = null;
  S.playBusy = true; showPlay();
  try {
    const res = await api(`/api/play/${S.play.id}/shot`, {shot: shotText()});
    S.playBusy = false;
    await showStep(res);
    await continuePlay();
  } catch (e) { showError(e.message); } finally { S.playBusy = false; showPlay(); }
}

async function playChoose(choice) {
  try {
    const res = await api(`/api/play/${S.play.id}/choose`, {choice});
    await showStep(res);
    await continuePlay();
  } catch (e) { showError(e.message); }
}

async function playUndo() {
  stopAnimation();
  try {
    const res = await api(`/api/play/${S.play.id}/undo`, {});
    S.play = res.state;
    S.hint = null;
    const li = document.createElement("li");
    li.textContent = "(undone)";
    $("play-log").appendChild(li);
    showPlay();
  } catch (e) { showError(e.message); }
}

async function playHint() {
  status("thinking…");
  try {
    const res = await api("/api/suggest", {position: S.play.position, sims: 200, noise: "pro", top: 1});
    useShot(res.shots[0].shot);
    S.hint = res.draw[0];
    status(`hint: ${res.shots[0].description}`);
    requestRender();
  } catch (e) { showError(e.message); status(""); }
}

async function playSave() {
  try {
    const saved = await api(`/api/play/${S.play.id}/save`);
    const blob = new Blob([JSON.stringify(saved) + "\n"], {type: "application/json"});
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `piramida-${saved.variant}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  } catch (e) { showError(e.message); }
}

async function playLoad(ev) {
  const file = ev.target.files[0];
  if (!file) return;
  const text = await file.text();
  ev.target.value = "";
  await loadGameText(text);
}

// A saved game (its JSON text or object, as `piramida play --save` writes
// it): played on from where it ends, its actions listed in the log.
// `what` says where it came from; `names`, who sat in each seat.
async function loadGame(game, what, names) {
  stopAnimation();
  try {
    const res = await api("/api/play/load", {game, ...playSettings()});
    S.play = res.state;
    S.hint = null;
    S.place = null;
    $("play-log").innerHTML = "";
    const li = document.createElement("li");
    li.textContent = `(loaded ${what} ${S.play.variant} frame after ${S.play.shots} shots)`;
    $("play-log").appendChild(li);
    for (const step of res.history) logStep(step, names && names[step.seat]);
    $("play-log").scrollTop = 0;  // read from the first action
    showPlay();
    await continuePlay();
  } catch (e) { showError(e.message); }
}
const loadGameText = (text) => loadGame(text, "a saved");
window.piramidaLoadGame = loadGameText;

// ------------------------------------------------------------------ stored games
// The games of the results files `piramida serve --db` names (the control
// stays hidden when there are none).
async function storedList() {
  const q = new URLSearchParams();
  if ($("stored-db").value) q.set("db", $("stored-db").value);
  if ($("stored-variant").value) q.set("variant", $("stored-variant").value);
  try {
    const res = await api(`/api/games?${q}`);
    if (!S.stored) {
      for (const name of res.dbs) {  // names from the command line: text, not HTML
        const o = document.createElement("option");
        o.value = o.textContent = name;
        $("stored-db").appendChild(o);
      }
      $("stored-db-label").hidden = res.dbs.length < 2;
      options("stored-variant", ["", ...S.meta.variants]);
      $("stored-variant").options[0].textContent = "all";
      S.stored = res;
      if (res.dbs.length > 1) { await storedList(); return; }  // the first file's games only
    }
    S.stored = res;
    $("stored").hidden = res.dbs.length === 0;
    const sel = $("stored-game");
    sel.innerHTML = "";
    for (const g of res.games) {
      const o = document.createElement("option");
      o.value = g.id;
      o.dataset.db = g.db;
      o.textContent = `#${g.id} ${g.variant}, pair ${g.pair}: ${g.seats[0]} v ${g.seats[1]}, `
        + `${g.result} ${g.score[0]}-${g.score[1]}, ${g.shots} shots`;
      sel.appendChild(o);
    }
    $("stored-open").disabled = res.games.length === 0;
    $("stored-count").textContent = res.total > res.games.length ? `the first ${res.games.length} of ${res.total}`
      : `${res.total} game${res.total === 1 ? "" : "s"}`;
  } catch (e) { showError(e.message); }
}

async function storedOpen() {
  const o = $("stored-game").selectedOptions[0];
  if (!o) return;
  const g = S.stored.games.find((x) => String(x.id) === o.value && x.db === o.dataset.db);
  status(`rebuilding game ${o.value}…`);
  try {
    const saved = await api(`/api/games/${o.value}?db=${encodeURIComponent(o.dataset.db)}`);
    await loadGame(saved, `stored game ${o.value}, a`, g && g.seats);
  } catch (e) { showError(e.message); } finally { status(""); }
}

// ------------------------------------------------------------------ tabs
function switchTab(tab) {
  if (S.tab === tab) return;
  if (S.anim && tab !== "play") stopAnimation();
  S.tab = tab;
  document.querySelectorAll("#tabs button").forEach((b) => b.classList.toggle("active", b.dataset.tab === tab));
  for (const t of ["edit", "suggest", "shot", "play"]) $(`tab-${t}`).hidden = t !== tab;
  $("shot-panel").hidden = !(tab === "shot" || tab === "play");
  S.place = null;
  fillShotBalls();
  if (tab === "play") { showPlay(); continuePlay(); if (!S.storedAsked) { S.storedAsked = true; storedList(); } }
  requestRender();
}

// ------------------------------------------------------------------ start
function options(sel, values, selected) {
  $(sel).innerHTML = values.map((v) => `<option value="${v}">${v}</option>`).join("");
  if (selected !== undefined) $(sel).value = selected;
}

async function positionFromHash() {
  const m = /[#&]pos=([^&]*)/.exec(location.hash);
  if (!m) return false;
  try {
    setPosition(await api("/api/position", {position: decodeURIComponent(m[1])}));
    return true;
  } catch (e) {
    showError(e.message);
    return false;
  }
}

async function init() {
  const t0 = performance.now();
  [S.geo, S.meta] = await Promise.all([api("/api/table"), api("/api/meta")]);
  options("variant", S.meta.variants);
  options("skill", S.meta.noise, "pro");
  options("shot-noise", S.meta.noise, "none");
  options("play-noise", S.meta.noise, "none");
  $("play-seed").value = Math.floor(Math.random() * 1000);
  layout();
  if (!(await positionFromHash())) await loadVariant("free");
  window.addEventListener("hashchange", positionFromHash);
  window.addEventListener("resize", () => { layout(); render(); });
  const c = $("table");
  c.addEventListener("pointerdown", onPointerDown);
  c.addEventListener("pointermove", onPointerMove);
  c.addEventListener("pointerup", onPointerUp);
  document.querySelectorAll("#tabs button").forEach((b) => b.addEventListener("click", () => switchTab(b.dataset.tab)));
  $("variant").addEventListener("change", () => loadVariant($("variant").value));
  $("rack").addEventListener("click", () => loadVariant($("variant").value));
  $("clear").addEventListener("click", clearTable);
  for (const id of ["score0", "score1", "owed0", "owed1", "move0", "move1", "in_hand", "break"]) {
    $(id).addEventListener("change", editorChanged);
  }
  $("text-apply").addEventListener("click", async () => {
    try { setPosition(await api("/api/position", {position: $("text").value})); clearSuggestions(); }
    catch (e) { showError(e.message); }
  });
  $("text-copy").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText(S.text));
  $("link-copy").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText(location.href));
  $("suggest-go").addEventListener("click", suggest);
  for (const id of ["shot-ball", "shot-phi", "shot-v", "shot-a", "shot-b", "shot-theta", "shot-call"]) {
    $(id).addEventListener("input", () => { syncShotText(); requestRender(); });
  }
  $("shot-ball").addEventListener("change", () => { S.place = null; syncShotText(); requestRender(); });
  $("shot-px").addEventListener("change", placeFromFields);
  $("shot-py").addEventListener("change", placeFromFields);
  $("shot-text").addEventListener("change", onShotTextEdited);
  $("shot-go").addEventListener("click", () => simulateAndWatch(S.pos, $("shot-text").value, $("shot-noise").value,
    parseInt($("shot-seed").value || "0", 10)));
  $("anim-play").addEventListener("click", animToggle);
  $("anim-step").addEventListener("click", animStep);
  $("anim-replay").addEventListener("click", animReplay);
  $("anim-keep").addEventListener("click", animKeep);
  $("anim-close").addEventListener("click", () => { stopAnimation(); render(); });
  $("play-new").addEventListener("click", playNew);
  $("play-shoot").addEventListener("click", playShoot);
  $("play-hint").addEventListener("click", playHint);
  $("play-undo").addEventListener("click", playUndo);
  $("play-save").addEventListener("click", playSave);
  $("play-load").addEventListener("change", playLoad);
  $("stored-db").addEventListener("change", storedList);
  $("stored-variant").addEventListener("change", storedList);
  $("stored-open").addEventListener("click", storedOpen);
  showPlay();
  render();
  S.debug.ready = true;
  S.debug.readyMs = performance.now();
  S.debug.initMs = performance.now() - t0;
  status("ready");
}

init().catch((e) => showError(`the page could not start: ${e.message}`));
