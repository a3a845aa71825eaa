// The four tabs: Position, Suggest, Shot, Play.
import {current as currentAnimation, stopAnimation} from "./animate.js";
import {$} from "./dom.js";
import {continuePlay, showPlay} from "./play.js";
import {requestRender} from "./render.js";
import {fillShotBalls, resetPlace} from "./shot.js";
import {setTab, tab} from "./state.js";
import {listStoredOnce} from "./stored.js";

export function switchTab(next) {
  if (tab === next) return;
  if (currentAnimation() && next !== "play") stopAnimation();
  setTab(next);
  document.querySelectorAll("#tabs button").forEach((b) => b.classList.toggle("active", b.dataset.tab === next));
  for (const t of ["edit", "suggest", "shot", "play"]) $(`tab-${t}`).hidden = t !== next;
  $("shot-panel").hidden = !(next === "shot" || next === "play");
  resetPlace();
  fillShotBalls();
  if (next === "play") { showPlay(); continuePlay(); listStoredOnce(); }
  requestRender();
}
