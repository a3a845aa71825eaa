// The table from the keyboard, while the canvas has the focus.
//
// Position and Suggest tabs: n / Shift+n select the next / previous ball on
// the table, digits (and w, r, y in five balls) a ball by its id; the
// arrow keys move it 5 mm (Shift: 5 cm), Delete puts it in the tray,
// Escape lets it go. Shot and Play tabs: left / right turn the aim 1 degree
// anticlockwise / clockwise as drawn, up / down 0.1 degree (Shift: ten
// times as much), + and - change the pace by 0.1 m/s, n picks the next
// ball to strike, Enter plays the shot. Space pauses an animation.
//
// The keys change the same fields the mouse does and send the same events
// (`input`, `change`), so the form's own listeners keep everything in step.
import {animToggle, current as currentAnimation} from "./animate.js";
import {$} from "./dom.js";
import {moveBall} from "./editor.js";
import {requestRender} from "./render.js";
import {pos, shownPosition, tab} from "./state.js";
import {css2table} from "./table.js";
import {fixed} from "./words.js";

let selected = null;             // the ball the arrow keys move (Position and Suggest tabs)
let typed = "", typedAt = 0;     // a ball id typed a key at a time

const STEP_M = 0.005;            // a ball moves 5 mm a key (Shift: ten times)
const TYPE_GAP_MS = 800;         // keys further apart start a new id

const KEYS_TEXT = {
  edit: "n: next ball · digits: ball by number · arrows: move it (Shift: 5 cm) · Delete: to the tray",
  shot: "← →: aim 1° (↑ ↓ 0.1°, Shift ×10) · + −: pace · n: next ball · Enter: play",
};

export function selectedBall() {
  return focused() && editing() && pos && selected in pos.balls ? selected : null;
}

function focused() { return document.activeElement === $("table"); }

function editing() { return tab === "edit" || tab === "suggest"; }

// Ball ids in the order a player counts them: 0, 1, ..., 15, then w1, w2, ...
function tableBalls() {
  return Object.keys(pos ? pos.balls : {}).sort((a, b) => {
    const na = Number(a), nb = Number(b);
    if (Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
    if (Number.isFinite(na) !== Number.isFinite(nb)) return Number.isFinite(na) ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

function select(id) {
  selected = id;
  $("table-keys").textContent = id === null ? keysText() : `ball ${id} · ${keysText()}`;
  requestRender();
}

function cycle(step) {
  const ids = tableBalls();
  if (!ids.length) { select(null); return; }
  const at = ids.indexOf(selected);
  select(ids[(at + step + ids.length) % ids.length]);
}

function typeId(ch) {
  const now = performance.now();
  typed = now - typedAt > TYPE_GAP_MS ? ch : typed + ch;
  typedAt = now;
  const ids = tableBalls();
  if (ids.includes(typed)) select(typed);
  else if (ids.includes(ch)) { typed = ch; select(ch); }
}

// The selected ball moved `metres` along a direction on the screen
// (the table may lie or stand: the direction comes from the drawing).
function moveSelected(right, down, metres) {
  if (!(selected in pos.balls)) return;
  const [ax, ay] = css2table(0, 0), [bx, by] = css2table(right, down);
  const n = Math.hypot(bx - ax, by - ay);
  const [x, y] = pos.balls[selected];
  moveBall(selected, "table", "table", [x + (bx - ax) / n * metres, y + (by - ay) / n * metres]);
}

// A number field of the shot form set as a player would type it.
function setField(id, value, digits) {
  const el = $(id);
  el.value = fixed(value, digits);
  el.dispatchEvent(new Event("input", {bubbles: true}));
}

function turnAim(degrees) {
  const phi = parseFloat($("shot-phi").value) || 0;
  setField("shot-phi", ((phi + degrees) % 360 + 360) % 360, 2);
}

function changePace(dv) {
  const v = parseFloat($("shot-v").value) || 0;
  setField("shot-v", Math.min(12, Math.max(0.1, v + dv)), 2);
}

function nextStruck() {
  const sel = $("shot-ball"), n = sel.options.length;
  if (n < 2) return;
  sel.selectedIndex = (sel.selectedIndex + 1) % n;
  sel.dispatchEvent(new Event("change", {bubbles: true}));
}

function playShot() {
  const btn = tab === "shot" ? $("shot-go") : $("play-shoot");
  if (btn && !btn.disabled) btn.click();
}

function editorKey(ev) {
  const step = ev.shiftKey ? 10 * STEP_M : STEP_M;
  const ids = tableBalls();
  if (selected === null && ids.length && ev.key.startsWith("Arrow")) select(ids[0]);
  switch (ev.key) {
    case "ArrowRight": moveSelected(1, 0, step); return true;
    case "ArrowLeft": moveSelected(-1, 0, step); return true;
    case "ArrowDown": moveSelected(0, 1, step); return true;
    case "ArrowUp": moveSelected(0, -1, step); return true;
    case "Delete": case "Backspace":
      if (selected in pos.balls) { moveBall(selected, "table", "tray"); select(null); }
      return true;
    case "Escape": select(null); return true;
    default: break;
  }
  if (ev.key === "n" || ev.key === "N") { cycle(ev.shiftKey ? -1 : 1); return true; }
  if (/^[0-9wry]$/i.test(ev.key)) { typeId(ev.key.toLowerCase()); return true; }
  return false;
}

function shotKey(ev) {
  const big = ev.shiftKey ? 10 : 1;
  switch (ev.key) {
    case "ArrowLeft": turnAim(big); return true;  // anticlockwise as drawn: phi grows
    case "ArrowRight": turnAim(-big); return true;
    case "ArrowUp": turnAim(0.1 * big); return true;
    case "ArrowDown": turnAim(-0.1 * big); return true;
    case "+": case "=": changePace(0.1); return true;
    case "-": case "_": changePace(-0.1); return true;
    case "n": case "N": nextStruck(); return true;
    case "Enter": playShot(); return true;
    default: return false;
  }
}

export function onKeyDown(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (!shownPosition()) return;
  let used;
  if (currentAnimation()) used = ev.key === " " ? (animToggle(), true) : false;
  else if (editing()) used = editorKey(ev);
  else used = shotKey(ev);
  if (used) ev.preventDefault();
}

export function keysText() { return editing() ? KEYS_TEXT.edit : KEYS_TEXT.shot; }

// The table took or lost the focus: a ball is selected at once (the cue
// ball if it is on the table) so that the arrow keys work from the start.
export function onFocus() {
  if (editing() && !(selected in (pos ? pos.balls : {}))) {
    const ids = tableBalls();
    select(ids.includes("0") ? "0" : ids[0] || null);
  } else {
    select(editing() ? selected : null);
  }
}

export function onBlur() { requestRender(); }
