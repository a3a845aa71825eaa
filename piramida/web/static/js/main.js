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
import * as animation from "./animate.js";
import {api} from "./api.js";
import {$, options, showError, status} from "./dom.js";
import * as editor from "./editor.js";
import * as play from "./play.js";
import * as pointer from "./pointer.js";
import {render} from "./render.js";
import * as shot from "./shot.js";
import * as state from "./state.js";
import * as stored from "./stored.js";
import {suggest, suggestions} from "./suggest.js";
import {bg, layout, table2css, view} from "./table.js";
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
  get playBusy() { return play.isBusy(); },
  get hint() { return play.currentHint(); },
  get plans() { return suggestions().plans; },
  get chosen() { return suggestions().chosen; },
  get cloud() { return suggestions().cloud; },
  get anim() { return animation.current(); },
  get drag() { return pointer.dragged(); },
  get place() { return shot.currentPlace(); },
  get stored() { return stored.storedGames(); },
  get storedAsked() { return stored.wasAsked(); },
  get view() { return view; },
  get bg() { return bg; },
  get debug() { return state.debug; },
});
window.table2css = table2css;
window.piramidaLoadGame = play.loadGameText;

function wire() {
  window.addEventListener("hashchange", editor.positionFromHash);
  window.addEventListener("resize", () => { layout(); render(); });
  const c = $("table");
  c.addEventListener("pointerdown", pointer.onPointerDown);
  c.addEventListener("pointermove", pointer.onPointerMove);
  c.addEventListener("pointerup", pointer.onPointerUp);
  document.querySelectorAll("#tabs button").forEach((b) => b.addEventListener("click", () => switchTab(b.dataset.tab)));
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
  render();
  state.debug.ready = true;
  state.debug.readyMs = performance.now();
  state.debug.initMs = performance.now() - t0;
  status("ready");
}

init().catch((e) => showError(`the page could not start: ${e.message}`));
