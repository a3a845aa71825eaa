// The analysis board (Play tab): the frame kept by the server as a move
// tree. The move list shows every line played, variations indented under
// the move they branch from; a click on a move, or left / right (Home /
// End) while the list has the focus, moves the server's cursor there
// (POST /api/play/{id}/goto) and the table shows that position. Over the
// list, the win bar: player 1's chance of winning at the cursor, and the
// line's chances drawn along it. "analyse" asks for each shot's loss
// against the best suggestion (POST /api/play/{id}/analyse), a few shots a
// request, until the line is done. The frame's id lives in the address
// (?game=ID, beside the position's #pos=), so a reload opens it again.
import {stopAnimation} from "./animate.js";
import {api} from "./api.js";
import {$, showError, status} from "./dom.js";
import {clearHint, continuePlay, isBusy, showPlay} from "./play.js";
import {requestRender} from "./render.js";
import {resetPlace} from "./shot.js";
import {frame, setFrame} from "./state.js";
import {choiceText, playerName, readable} from "./words.js";

let board = null;     // the server's board: nodes, cursor, line, win, labels, thresholds, readonly, names
let missing = null;   // why the frame named in the address is not shown (the server's one line)
let want = null;      // the node a goto is under way to (keys pressed meanwhile count from it)
let moving = false;
let analysing = false;

const MARKS = {inaccuracy: "?!", mistake: "?", blunder: "??"};

export function currentBoard() { return board; }
export function missingLine() { return missing; }

// ------------------------------------------------------------------ the address
export function gameInUrl() { return new URLSearchParams(location.search).get("game"); }

function putGameInUrl(id) {
  const q = new URLSearchParams(location.search);
  if (id) q.set("game", id); else q.delete("game");
  const search = q.toString();
  history.replaceState(null, "", `${location.pathname}${search ? "?" + search : ""}${location.hash}`);
}

// A board from the server (with the frame's state set by the caller).
export function setBoard(b) {
  board = b || null;
  if (board) {
    missing = null;
    if (frame) putGameInUrl(frame.id);
  }
  renderBoard();
}

// The frame of an id (the address's, on load): shown, or the server's one
// line in its place with nothing to press.
export async function openGame(id) {
  try {
    const res = await api(`/api/play/${encodeURIComponent(id)}`);
    const {board: b, ...st} = res;
    setFrame(st);
    setBoard(b);
    return true;
  } catch (e) {
    setFrame(null);
    board = null;
    missing = e.message;
    renderBoard();
    showPlay();
    return false;
  }
}

// ------------------------------------------------------------------ stepping
function target() { return want !== null ? want : board.cursor; }

export function gotoNode(n) {
  if (!board || !frame || n === null || n === undefined || !board.nodes[n]) return;
  want = n;
  if (!moving) drain();
}

async function drain() {
  moving = true;
  try {
    while (want !== null && board && frame) {
      const n = want;
      if (n === board.cursor) { want = null; break; }
      if (isBusy()) { await new Promise((r) => setTimeout(r, 50)); continue; }
      stopAnimation();
      try {
        const res = await api(`/api/play/${frame.id}/goto`, {node: n});
        if (want === n) want = null;
        setFrame(res.state);
        clearHint();
        resetPlace();
        setBoard(res.board);
        showPlay();
      } catch (e) { want = null; showError(e.message); }
    }
  } finally { moving = false; }
  if (frame && frame.leaf) continuePlay();
}

export function stepBack() {
  if (!board) return;
  const parent = board.nodes[target()].parent;
  if (parent !== null) gotoNode(parent);
}

export function stepOn() {
  if (!board) return;
  const n = board.nodes[target()];
  if (n.children.length) gotoNode(n.next !== null ? n.next : n.children[0]);
}

function onKey(ev) {
  if (ev.altKey || ev.ctrlKey || ev.metaKey || !board) return;
  const keys = {ArrowLeft: stepBack, ArrowRight: stepOn,
    Home: () => gotoNode(0), End: () => gotoNode(board.line[board.line.length - 1])};
  const fn = keys[ev.key];
  if (!fn) return;
  ev.preventDefault();
  fn();
}

// ------------------------------------------------------------------ analysis
export async function analyse() {
  if (!frame || !board || analysing) return;
  analysing = true;
  renderBoard();
  const id = frame.id;
  try {
    for (;;) {
      const left = board.line.filter((k) => board.nodes[k].kind === "shot" && !board.nodes[k].analysis).length;
      status(`analysing: ${left} shot${left === 1 ? "" : "s"} to go…`);
      const res = await api(`/api/play/${id}/analyse`, {});
      if (!frame || frame.id !== id) break;
      setBoard(res.board);
      if (!res.pending || !res.analysed.length) break;
    }
    status("");
  } catch (e) { showError(e.message); status(""); } finally { analysing = false; renderBoard(); }
}

// ------------------------------------------------------------------ drawing
const pct = (p) => `${Math.round(100 * p)}%`;

function who(n) { return `${playerName(n.seat)} (${n.who})`; }

// The labels' thresholds in words, for the analyse button's tooltip.
function thresholdsText() {
  const t = board.thresholds;
  const say = (unit, f) => board.labels.map((l, i) => `${l} ${f(t[unit][i])}`).join(", ");
  return `a shot's loss against the best suggestion: ${say("win", (x) => `from ${pct(x)} of win probability`)}; `
    + `without a value network ${say("pots", (x) => `from ${x} pots`)}`;
}

function lossText(a) {
  if (!a) return "";
  if (a.error) return `not analysed: ${readable(a.error)}`;
  const unit = a.unit === "win" ? (x) => pct(x) : (x) => `${x.toFixed(2)} pots`;
  const best = `best: ${readable(a.best_description)} (${unit(a.best_value)}); played: ${unit(a.played_value)}`;
  return `${a.label ? a.label + ", " : ""}loses ${unit(a.loss)}; ${best}`;
}

function moveItem(n) {
  const li = document.createElement("li");
  li.className = "move" + (n.id === board.cursor ? " current" : "") + (n.foul ? " foul" : "")
    + (n.analysis && n.analysis.label ? ` ${n.analysis.label}` : "");
  li.dataset.node = n.id;
  const what = n.kind === "choice" ? choiceText(n.action) : (n.kind === "lag" ? "lag shot" : readable(n.brief));
  const ply = document.createElement("span");
  ply.className = "ply";
  ply.textContent = `${n.ply}.`;
  const text = document.createElement("span");
  text.className = "what";
  text.textContent = `${who(n)} ${what}`;
  li.append(ply, text);
  if (n.analysis && n.analysis.label) {
    const mark = document.createElement("span");
    mark.className = `mark ${n.analysis.label}`;
    mark.textContent = MARKS[n.analysis.label];
    mark.title = n.analysis.label;
    li.append(mark);
  }
  if (n.wp !== null && n.wp !== undefined) {
    const wp = document.createElement("span");
    wp.className = "wp";
    wp.textContent = pct(n.wp);
    wp.title = "player 1's chance of winning after this move";
    li.append(wp);
  }
  li.title = [n.kind === "choice" ? readable(n.summary) : `${n.action}\n${readable(n.summary)}`,
    lossText(n.analysis)].filter(Boolean).join("\n");
  li.addEventListener("click", () => gotoNode(n.id));
  return li;
}

// The moves that follow `id`: the first child's line at this level, each
// other child a variation, indented, before the line goes on.
function renderFrom(list, id) {
  let n = board.nodes[id];
  while (n.children.length) {
    const main = board.nodes[n.children[0]];
    list.append(moveItem(main));
    for (const v of n.children.slice(1)) {
      const holder = document.createElement("li");
      holder.className = "variation";
      const sub = document.createElement("ol");
      sub.append(moveItem(board.nodes[v]));
      renderFrom(sub, v);
      holder.append(sub);
      list.append(holder);
    }
    n = main;
  }
}

function renderWin() {
  const bar = $("win-bar"), fill = $("win-fill"), label = $("win-text"), chart = $("win-chart");
  const node = board.nodes[board.cursor];
  const wp = node.wp;
  if (!board.win.model) {
    bar.classList.add("none");
    fill.style.width = "0";
    label.textContent = "no win bar";
    bar.title = `${board.win.why} (the loss labels use the planner's points instead)`;
    chart.replaceChildren();
    return;
  }
  bar.classList.remove("none");
  bar.title = `player 1's chance of winning the frame at this move, by the value network ${board.win.model}`;
  fill.style.width = wp === null || wp === undefined ? "50%" : pct(wp);
  label.textContent = wp === null || wp === undefined ? "" : `${playerName(0)} ${pct(wp)} · ${playerName(1)} ${pct(1 - wp)}`;
  // The line's chances, move by move; the cursor marked.
  const pts = board.line.map((k, i) => [i, board.nodes[k].wp]).filter(([, p]) => p !== null && p !== undefined);
  const w = Math.max(1, board.line.length - 1);
  const ns = "http://www.w3.org/2000/svg";
  const poly = document.createElementNS(ns, "polyline");
  poly.setAttribute("points", pts.map(([i, p]) => `${(100 * i / w).toFixed(2)},${(100 * (1 - p)).toFixed(2)}`).join(" "));
  const mid = document.createElementNS(ns, "line");
  for (const [k, v] of Object.entries({x1: 0, x2: 100, y1: 50, y2: 50, class: "mid"})) mid.setAttribute(k, v);
  const at = board.line.indexOf(board.cursor);
  const cur = document.createElementNS(ns, "line");
  for (const [k, v] of Object.entries({x1: 100 * at / w, x2: 100 * at / w, y1: 0, y2: 100, class: "cursor"})) cur.setAttribute(k, v);
  chart.replaceChildren(mid, poly, cur);
}

export function renderBoard() {
  const panel = $("board-panel");
  if (!panel) return;
  panel.hidden = !board;
  if (!board) return;
  renderWin();
  const list = $("board-moves");
  const focused = document.activeElement === list;
  list.replaceChildren();
  const start = document.createElement("li");
  start.className = "move start" + (board.cursor === 0 ? " current" : "");
  start.dataset.node = "0";
  start.textContent = "start";
  start.addEventListener("click", () => gotoNode(0));
  list.append(start);
  renderFrom(list, 0);
  const cur = list.querySelector("li.current");
  if (cur && cur.scrollIntoView) cur.scrollIntoView({block: "nearest"});
  if (focused) list.focus();
  const shots = board.line.filter((k) => board.nodes[k].kind === "shot");
  const done = shots.filter((k) => board.nodes[k].analysis).length;
  $("board-analyse").disabled = analysing || !shots.length || done === shots.length;
  $("board-analyse").title = thresholdsText();
  const counts = {};
  for (const k of shots) {
    const a = board.nodes[k].analysis;
    if (a && a.label) counts[a.label] = (counts[a.label] || 0) + 1;
  }
  $("board-summary").textContent = done ? `${done} of ${shots.length} shots analysed`
    + (board.labels.filter((l) => counts[l]).map((l) => `, ${counts[l]} ${l}${counts[l] > 1 ? "s" : ""}`).join("")) : "";
  requestRender();
}

export function wireBoard() {
  $("board-moves").addEventListener("keydown", onKey);
  $("board-analyse").addEventListener("click", analyse);
}
