// piramida's page: plain JavaScript modules, no build step, nothing from
// the network. This module starts the page: it loads the table's geometry
// (GET /api/table, the same numbers env/render/ draws with) and the
// server's metadata, fills the controls, opens the position in the URL (or
// the start of free pyramid), and wires the controls to the modules:
//
//   state.js     the state several modules read (geometry, tab, edited position, frame in play)
//   table.js     the canvas's scale and drawing; render.js draws one frame
//   editor.js    the position editor; pointer.js drags and aims on the canvas
//   suggest.js   suggestions and their cloud; shot.js the shot form
//   animate.js   a simulated shot played back; play.js a frame against an agent
//   stored.js    games stored by tournaments; tabs.js the tabs
//   board.js     the frame's move tree, win bar and analysis; link.js the position in the address
//   keys.js      the table from the keyboard; scoreboard.js the Play tab's score
//   words.js     numbers and names as a player reads them; rules.js each variant's rules
import * as animation from "./animate.js";
import * as board from "./board.js";
import {api} from "./api.js";
import {$, hideError, options, showError, status} from "./dom.js";
import * as editor from "./editor.js";
import * as keys from "./keys.js";
import * as play from "./play.js";
import * as pointer from "./pointer.js";
import {render} from "./render.js";
import * as shot from "./shot.js";
import * as state from "./state.js";
import * as stored from "./stored.js";
import {suggest, suggestions} from "./suggest.js";
import {bg, layout, pocketAt, table2css, view} from "./table.js";
import {switchTab} from "./tabs.js";

// A read-only view of the page's state for the browser tests, bench/web.py
// and the console (the modules themselves never read it).
window.piramida = Object.freeze({
  get geo() { return state.geo; },
  get meta() { return state.meta; },
  get tab() { return state.tab; },
  get pos() { return state.pos; },
  get text() { return state.text; },
  get play() { return state.frame; },
  get board() { return board.currentBoard(); },
  get playBusy() { return play.isBusy(); },
  get hint() { return play.currentHint(); },
  get plans() { return suggestions().plans; },
  get chosen() { return suggestions().chosen; },
  get cloud() { return suggestions().cloud; },
  get anim() { return animation.current(); },
  get drag() { return pointer.dragged(); },
  get selected() { return keys.selectedBall(); },
  get place() { return shot.currentPlace(); },
  get stored() { return stored.storedGames(); },
  get storedAsked() { return stored.wasAsked(); },
  get view() { return view; },
  get bg() { return bg; },
  get debug() { return state.debug; },
});
window.table2css = table2css;
window.piramidaLoadGame = play.loadGameText;

// The table laid out again when what it is sized by changes: the board's
// width, the window's height, or where the canvas starts (the scoreboard
// above it shown, hidden or wrapped).
let laidOut = "";
function relayout() {
  const c = $("table");
  const key = [c.parentElement.clientWidth, window.innerHeight, Math.round(c.getBoundingClientRect().top
    + c.parentElement.scrollTop + window.scrollY)].join(" ");
  if (key === laidOut) return;
  laidOut = key;
  layout();
  render();
}

// A pocket under the pointer is named in the canvas's tooltip.
function pocketTitle(ev) {
  const c = $("table"), rect = c.getBoundingClientRect();
  const p = pocketAt(ev.clientX - rect.left, ev.clientY - rect.top);
  const title = p ? `${p.words} pocket (${p.name})` : c.dataset.title;
  if (c.title !== title) c.title = title;
}

function wire() {
  window.addEventListener("hashchange", editor.positionFromHash);
  window.addEventListener("resize", relayout);
  const c = $("table");
  new ResizeObserver(relayout).observe(c.parentElement);
  new ResizeObserver(relayout).observe($("scoreboard"));
  c.dataset.title = c.title;
  c.addEventListener("pointerdown", pointer.onPointerDown);
  c.addEventListener("pointermove", pointer.onPointerMove);
  c.addEventListener("pointermove", pocketTitle);
  c.addEventListener("pointerup", pointer.onPointerUp);
  c.addEventListener("keydown", keys.onKeyDown);
  c.addEventListener("focus", keys.onFocus);
  c.addEventListener("blur", keys.onBlur);
  $("error-close").addEventListener("click", hideError);
  document.querySelectorAll("#tabs button").forEach((b) => {
    b.setAttribute("aria-pressed", String(b.classList.contains("active")));
    b.addEventListener("click", () => switchTab(b.dataset.tab));
  });
  // Position
  $("variant").addEventListener("change", () => editor.loadVariant($("variant").value));
  $("rack").addEventListener("click", () => editor.loadVariant($("variant").value));
  $("clear").addEventListener("click", editor.clearTable);
  for (const id of ["score0", "score1", "owed0", "owed1", "move0", "move1", "in_hand", "break"]) {
    $(id).addEventListener("change", editor.editorChanged);
  }
  $("text-apply").addEventListener("click", editor.applyText);
  $("text-copy").addEventListener("click", editor.copyText);
  $("link-copy").addEventListener("click", editor.copyLink);
  // Suggest
  $("suggest-go").addEventListener("click", suggest);
  // Shot
  for (const id of ["shot-ball", "shot-phi", "shot-v", "shot-a", "shot-b", "shot-theta", "shot-call"]) {
    $(id).addEventListener("input", shot.onShotFieldInput);
  }
  $("shot-ball").addEventListener("change", shot.onShotBallChanged);
  $("shot-px").addEventListener("change", shot.placeFromFields);
  $("shot-py").addEventListener("change", shot.placeFromFields);
  $("shot-text").addEventListener("change", shot.onShotTextEdited);
  $("shot-go").addEventListener("click", () => animation.simulateAndWatch(state.pos, $("shot-text").value,
    $("shot-noise").value, parseInt($("shot-seed").value || "0", 10)));
  // The animation bar
  $("anim-play").addEventListener("click", animation.animToggle);
  $("anim-step").addEventListener("click", animation.animStep);
  $("anim-replay").addEventListener("click", animation.animReplay);
  $("anim-keep").addEventListener("click", animation.animKeep);
  $("anim-close").addEventListener("click", animation.animClose);
  // Play
  board.wireBoard();
  $("play-new").addEventListener("click", play.playNew);
  $("play-shoot").addEventListener("click", play.playShoot);
  $("play-hint").addEventListener("click", play.playHint);
  $("play-undo").addEventListener("click", play.playUndo);
  $("play-save").addEventListener("click", play.playSave);
  $("play-load").addEventListener("change", play.playLoad);
  $("stored-db").addEventListener("change", stored.storedList);
  $("stored-variant").addEventListener("change", stored.storedList);
  $("stored-open").addEventListener("click", stored.storedOpen);
}

async function init() {
  const t0 = performance.now();
  const [geometry, metadata] = await Promise.all([api("/api/table"), api("/api/meta")]);
  state.setTable(geometry, metadata);
  options("variant", metadata.variants);
  options("skill", metadata.noise, "pro");
  options("shot-noise", metadata.noise, "none");
  options("play-noise", metadata.noise, "none");
  $("play-seed").value = Math.floor(Math.random() * 1000);
  layout();
  if (!(await editor.positionFromHash())) await editor.loadVariant("free");
  wire();
  play.showPlay();
  // A frame named in the address (?game=ID) opens in the Play tab.
  if (board.gameInUrl()) { await board.openGame(board.gameInUrl()); switchTab("play"); }
  relayout();
  render();
  state.debug.ready = true;
  state.debug.readyMs = performance.now();
  state.debug.initMs = performance.now() - t0;
  status("ready");
}

init().catch((e) => showError(`the page could not start: ${e.message}`));
