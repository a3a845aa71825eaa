// The four tabs: Position, Suggest, Shot, Play. The shot form (the Shot
// and Play tabs') moves into the open tab, next to the buttons that play
// it, so that on a wide screen it is in view without scrolling.
import {current as currentAnimation, stopAnimation} from "./animate.js";
import {$, clearStale, status} from "./dom.js";
import {continuePlay, showPlay} from "./play.js";
import {requestRender} from "./render.js";
import {showScoreboard} from "./scoreboard.js";
import {fillShotBalls, resetPlace} from "./shot.js";
import {frame, setTab, tab} from "./state.js";
import {listStoredOnce} from "./stored.js";

function placeShotPanel(next) {
  const panel = $("shot-panel");
  if (next === "shot") $("tab-shot").append(panel);
  else if (next === "play") {
    const after = $("play-howto") || $("play-actions");
    if (after) after.after(panel); else $("tab-play").append(panel);
  }
}

export function switchTab(next) {
  if (tab === next) return;
  if (currentAnimation() && next !== "play") stopAnimation();
  setTab(next);
  document.querySelectorAll("#tabs button").forEach((b) => {
    b.classList.toggle("active", b.dataset.tab === next);
    b.setAttribute("aria-pressed", String(b.dataset.tab === next));
  });
  for (const t of ["edit", "suggest", "shot", "play"]) $(`tab-${t}`).hidden = t !== next;
  placeShotPanel(next);
  $("shot-panel").hidden = !(next === "shot" || next === "play");
  if (currentAnimation()) status("");
  else clearStale();
  showScoreboard(next === "play" ? frame : null);
  resetPlace();
  fillShotBalls();
  if (next === "play") { showPlay(); continuePlay(); listStoredOnce(); }
  requestRender();
}
