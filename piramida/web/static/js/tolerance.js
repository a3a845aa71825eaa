// The shot's error tolerance (POST /api/tolerance): how far the aim, the
// pace and the spin may be off before the shot's outcome changes, as one
// line under the shot form, and the aim window as two thin lines from the
// struck ball. Both are for the position and shot text they were asked
// for; once the shot changes the line is marked stale and the lines go.
import {api} from "./api.js";
import {$, showError, status} from "./dom.js";
import {debug, geo} from "./state.js";
import {table2css} from "./table.js";

let answer = null;  // {pos, shot, start, t: the API's answer}
let seq = 0;

const aimDeg = (x) => (x < 1 ? x.toFixed(3) : x.toFixed(2));  // a pyramid pocket's window is often a tenth of a degree
const pct = (x) => (100 * x < 10 ? (100 * x).toFixed(1) : (100 * x).toFixed(0));
const spin = (x) => x.toFixed(2);

// Where a search reached its parameter's limit the window is at least as
// wide as shown there: said after the numbers.
function limits(w) {
  const [lo, hi] = w.at_limit;
  if (lo && hi) return " (both to the limit)";
  if (lo) return " (− to the limit)";
  return hi ? " (+ to the limit)" : "";
}

// "±x" where both sides read the same once rounded, else "−x/+y".
function both(w, fmt, unit = "") {
  const lo = fmt(w.minus), hi = fmt(w.plus);
  return (lo === hi ? `±${lo}${unit}` : `−${lo}${unit}/+${hi}${unit}`) + limits(w);
}

// The answer in one line, e.g. "pots 1 in ml: aim ±0.137° (−0.137/+0.137),
// pace −59%/+500% (+ to the limit), side ±0.09, height ±0.60 (both to the limit)".
export function toleranceText(t) {
  if (!t.phi) return `${t.outcome.text}: no window`;
  const p = t.phi;
  const aim = `aim ±${aimDeg(Math.min(p.minus, p.plus))}° (−${aimDeg(p.minus)}/+${aimDeg(p.plus)})${limits(p)}`;
  const pace = `pace −${pct(t.v.minus)}%/+${pct(t.v.plus)}%${limits(t.v)}`;
  return `${t.outcome.text}: ${aim}, ${pace}, side ${both(t.a, spin)}, height ${both(t.b, spin)}`;
}

export async function askTolerance(pos, shotText, start) {
  const mine = ++seq;
  const button = $("shot-tolerance"), out = $("tolerance-text");
  button.disabled = true;
  status("tolerance…");
  try {
    const t = await api("/api/tolerance", {position: pos, shot: shotText});
    if (mine !== seq) return;
    answer = {pos, shot: shotText, start, t};
    out.textContent = toleranceText(t);
    out.title = `${t.method}; ${t.sims} strokes simulated` + (t.ruling ? `; the referee: ${t.ruling}` : "");
    out.classList.remove("stale");
    debug.tolerance = t;
    status("");
  } catch (e) {
    if (mine !== seq) return;
    showError(e.message); status("");
  } finally {
    if (mine === seq) button.disabled = false;
  }
}

// The line is for another shot or position now.
export function markToleranceStale(pos, shotText) {
  if (answer && (answer.pos !== pos || answer.shot !== shotText)) $("tolerance-text").classList.add("stale");
  else if (answer) $("tolerance-text").classList.remove("stale");
}

// Where a ball's centre leaving `at` along φ meets a cushion (one radius
// from its nose), so the window's lines stay on the cloth.
function toCushion(at, phi) {
  const r = geo.ball_radius, rad = phi * Math.PI / 180, ux = Math.cos(rad), uy = Math.sin(rad);
  let s = Infinity;
  if (ux > 1e-9) s = Math.min(s, (geo.width - r - at[0]) / ux);
  if (ux < -1e-9) s = Math.min(s, (r - at[0]) / ux);
  if (uy > 1e-9) s = Math.min(s, (geo.length - r - at[1]) / uy);
  if (uy < -1e-9) s = Math.min(s, (r - at[1]) / uy);
  s = Math.max(0, s);
  return [at[0] + ux * s, at[1] + uy * s];
}

// The aim window: two thin lines at φ − minus and φ + plus; the number drawn.
export function drawAimWindow(ctx, pos, shotText) {
  if (!answer || answer.pos !== pos || answer.shot !== shotText || !answer.t.phi || !answer.start) return 0;
  const at = answer.start, [ax, ay] = table2css(at[0], at[1]);
  ctx.globalAlpha = 0.9; ctx.strokeStyle = "#ff7a45"; ctx.lineWidth = 1;
  for (const phi of [answer.t.phi.lo, answer.t.phi.hi]) {
    const end = toCushion(at, phi), [ex, ey] = table2css(end[0], end[1]);
    ctx.beginPath(); ctx.moveTo(ax, ay); ctx.lineTo(ex, ey); ctx.stroke();
  }
  ctx.globalAlpha = 1;
  return 2;
}
