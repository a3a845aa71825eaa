// The position editor: the edited position changes here only, is checked
// by the server (POST /api/position), and lives in the URL (#pos=TEXT).
import {api} from "./api.js";
import {$, showError} from "./dom.js";
import {clone, snap} from "./position.js";
import {requestRender} from "./render.js";
import {fillShotBalls, resetPlace} from "./shot.js";
import {cueOf, pos, setPos, setText, text} from "./state.js";
import {clearSuggestions} from "./suggest.js";

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
  setPos(info.position);
  setText(info.text);
  resetPlace();
  $("text").value = info.text;
  const url = `${location.pathname}${location.search}#pos=${encodeURIComponent(info.text)}`;
  history.replaceState(null, "", url);
  fillEditor();
  fillShotBalls();
  requestRender();
}

function fillEditor() {
  const p = pos;
  $("variant").value = p.variant;
  for (const k of [0, 1]) {
    $(`score${k}`).value = p.score[k];
    $(`owed${k}`).value = p.owed[k];
    $(`move${k}`).checked = p.to_move === k;
  }
  $("in_hand").value = p.in_hand || "";
  $("break").checked = p.break;
}

// The frame-state fields (score, owed, to move, ball in hand, break) changed.
export function editorChanged() {
  const p = clone(pos);
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

// The position in the URL (#pos=TEXT), if there is one: true once set.
export async function positionFromHash() {
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
