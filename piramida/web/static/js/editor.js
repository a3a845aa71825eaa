// The position editor: the edited position changes here only, is checked
// by the server (POST /api/position), and lives in the URL (#pos=TEXT, or
// packed as #p=... where the text would make the address long: link.js).
import {api} from "./api.js";
import {$, clearStale, showError} from "./dom.js";
import {positionHash, positionInHash} from "./link.js";
import {clone, snap} from "./position.js";
import {requestRender} from "./render.js";
import {rulesText} from "./rules.js";
import {fillShotBalls, resetPlace} from "./shot.js";
import {cueOf, geo, meta, pos, setPos, setText, text} from "./state.js";
import {clearSuggestions} from "./suggest.js";
import {playerName} from "./words.js";

// A new edited position: shown at once, then replaced by the server's
// answer (or put back, with the error, when the server refuses it). Only
// the latest edit's answer counts.
let commitSeq = 0;
export async function commit(newPos) {
  const before = pos;
  setPos(newPos);
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
    setPos(before);
    fillEditor();
    requestRender();
    showError(e.message);
  }
}

// The server's answer for a position: its JSON and text forms.
export function setPosition(info) {
  if (info.text !== text) clearStale();
  setPos(info.position);
  setText(info.text);
  resetPlace();
  $("text").value = info.text;
  const hash = positionHash(info.position, info.text, meta.ids[info.position.variant], geo.ball_radius);
  const url = `${location.pathname}${location.search}#${hash}`;
  history.replaceState(null, "", url);
  fillEditor();
  fillShotBalls();
  requestRender();
}

function fillEditor() {
  const p = pos;
  $("variant").value = p.variant;
  $("variant-rules").textContent = rulesText(p.variant);
  for (const k of [0, 1]) {
    $(`score${k}`).value = p.score[k];
    $(`owed${k}`).value = p.owed[k];
    $(`move${k}`).checked = p.to_move === k;
  }
  $("in_hand").value = p.in_hand || "";
  $("break").checked = p.break;
}

// A score or owed field as a whole number, or the one line that refuses
// it (2.7 is refused, never read as 2). An empty field is 0.
function wholeNumber(id, what, min) {
  const el = $(id);
  const raw = el.value.trim();
  if (el.validity && el.validity.badInput) return {error: `${what} must be a whole number`};
  if (raw === "") return {value: 0};
  if (!/^[-+]?\d+$/.test(raw)) return {error: `${what} must be a whole number, got ${raw}`};
  const value = Number(raw);
  if (min !== undefined && value < min) return {error: `${what} must be at least ${min}, got ${raw}`};
  return {value};
}

// The frame-state fields (score, owed, to move, ball in hand, break) changed.
export function editorChanged() {
  const p = clone(pos);
  for (const k of [0, 1]) {
    const score = wholeNumber(`score${k}`, `${playerName(k)}'s score`);
    const owed = wholeNumber(`owed${k}`, `the balls ${playerName(k)} owes`, 0);
    const bad = score.error || owed.error;
    if (bad) { showError(bad, true); fillEditor(); return; }
    p.score[k] = score.value;
    p.owed[k] = owed.value;
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

// A ball dragged from `from` (table, shelf0, shelf1, tray, hand) to `zone`.
export function moveBall(id, from, zone, xy) {
  const p = clone(pos);
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

export async function loadVariant(variant) {
  try { setPosition(await api("/api/start", {variant, seed: 0})); }
  catch (e) { showError(e.message); }
}

export function clearTable() {
  const p = clone(pos);
  p.balls = {}; p.in_hand = null; p.break = false;
  commit(p);
}

export async function applyText() {
  try { setPosition(await api("/api/position", {position: $("text").value})); clearSuggestions(); }
  catch (e) { showError(e.message); }
}

export function copyText() { return navigator.clipboard && navigator.clipboard.writeText(text); }
export function copyLink() { return navigator.clipboard && navigator.clipboard.writeText(location.href); }

// The position in the URL (#pos=TEXT or #p=PACKED), if there is one: true once set.
export async function positionFromHash() {
  try {
    const m = positionInHash(meta.ids);
    if (!m) return false;
    setPosition(await api("/api/position", m));
    return true;
  } catch (e) {
    showError(e.message);
    return false;
  }
}
