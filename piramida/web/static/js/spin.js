// The spin picker: the struck ball as the player sees it from behind the
// cue (an SVG circle of radius 1, the ball's radius), where a click, a drag
// or the arrow keys put the tip's contact point: side a to the right, height
// b up, both in ball radii, kept inside the miscue limit (the dashed
// circle) and to two decimals, as the shot form holds them.
import {$} from "./dom.js";

export const MISCUE_LIMIT = 0.6;  // env/shot.py: sqrt(a^2 + b^2) at most this
const STEP = 0.05, FINE_STEP = 0.01;
const HALF_VIEW = 1.25;           // the SVG's viewBox runs from -1.25 to 1.25

const round2 = (x) => Math.round(x * 100) / 100 + 0;  // + 0: no "-0"

// (a, b) moved inside the miscue limit and rounded to two decimals, never
// rounded back outside it.
export function clampSpin(a, b) {
  const r = Math.hypot(a, b);
  if (r > MISCUE_LIMIT) { a *= MISCUE_LIMIT / r; b *= MISCUE_LIMIT / r; }
  a = round2(a); b = round2(b);
  while (Math.hypot(a, b) > MISCUE_LIMIT + 1e-12) {
    if (Math.abs(a) >= Math.abs(b)) a = round2(a - Math.sign(a) * 0.01);
    else b = round2(b - Math.sign(b) * 0.01);
  }
  return [a, b];
}

export const spinText = (a, b) => `side a ${a.toFixed(2)}, height b ${b.toFixed(2)}`;

let current = [0, 0];

// The point and the numbers drawn for (a, b).
export function showSpin(a, b) {
  current = [Number.isFinite(a) ? a : 0, Number.isFinite(b) ? b : 0];
  const dot = $("spin-dot");
  dot.setAttribute("cx", current[0]);
  dot.setAttribute("cy", -current[1]);
  $("spin-readout").textContent = spinText(current[0], current[1]);
}

// The picker's pointer and keys; `onPick(a, b)` gets every new point.
export function wireSpin(onPick) {
  const svg = $("spin");
  const pick = (a, b) => {
    const [ca, cb] = clampSpin(a, b);
    showSpin(ca, cb);
    onPick(ca, cb);
  };
  const fromPointer = (ev) => {
    const rect = svg.getBoundingClientRect();
    const u = ((ev.clientX - rect.left) / rect.width) * 2 * HALF_VIEW - HALF_VIEW;
    const w = ((ev.clientY - rect.top) / rect.height) * 2 * HALF_VIEW - HALF_VIEW;
    pick(u, -w);
  };
  let held = false;
  svg.addEventListener("pointerdown", (ev) => {
    held = true;
    svg.setPointerCapture(ev.pointerId);
    svg.focus();
    fromPointer(ev);
    ev.preventDefault();
  });
  svg.addEventListener("pointermove", (ev) => { if (held) fromPointer(ev); });
  const release = () => { held = false; };
  svg.addEventListener("pointerup", release);
  svg.addEventListener("pointercancel", release);
  svg.addEventListener("keydown", (ev) => {
    const step = ev.shiftKey ? FINE_STEP : STEP;
    const moves = {ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step]};
    let next = null;
    if (ev.key in moves) next = [current[0] + moves[ev.key][0], current[1] + moves[ev.key][1]];
    else if (ev.key === "Home" || ev.key === "0") next = [0, 0];
    if (!next) return;
    // The table's own keys (arrows turn the aim there) must not see these.
    ev.preventDefault();
    ev.stopPropagation();
    pick(next[0], next[1]);
  });
}
