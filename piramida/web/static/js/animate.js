// The animation of a simulated shot (POST /api/simulate): the balls along
// their trajectories, their tracks, the event log in step with the clock,
// and the bar's controls (play/pause, one frame on, replay, speed, keep
// the final position, close).
import {api} from "./api.js";
import {$, showError, status} from "./dom.js";
import {commit} from "./editor.js";
import {render} from "./render.js";
import {debug, tab} from "./state.js";
import {bg, drawBallFast, pathLine, table2css, view} from "./table.js";
import {switchTab} from "./tabs.js";
import {readable} from "./words.js";

let anim = null;  // {sim, t, playing, last, resolve, shown, stamps, trail, trailT}

export function current() { return anim; }

export async function simulateAndWatch(position, shot, noise, seed) {
  status("simulating…");
  try {
    const body = {position, shot, noise};
    if (noise !== "none") body.seed = seed;
    const sim = await api("/api/simulate", body);
    status(sim.played !== sim.intended ? `played: ${sim.played}` : "");
    await animate(sim);
  } catch (e) {
    showError(e.message); status("");
  }
}

// Play a simulation's answer; resolves when it ends or is stopped.
export function animate(sim, opts = {}) {
  stopAnimation();
  return new Promise((resolve) => {
    anim = {sim, t: 0, playing: true, last: null, resolve, shown: 0, stamps: [], keep: opts.keep !== false};
    $("anim-bar").hidden = false;
    $("anim-keep").hidden = tab === "play";
    $("events").innerHTML = "";
    debug.animFrames = 0;
    debug.animStart = performance.now();
    debug.animEndMs = null;
    $("anim-play").innerHTML = "&#10074;&#10074;";
    requestAnimationFrame(tick);
  });
}

export function stopAnimation() {
  const a = anim;
  if (!a) return;
  anim = null;
  if (a.resolve) a.resolve();
  $("anim-bar").hidden = true;
}

function tick(ts) {
  const a = anim;
  if (!a) return;
  if (a.playing) {
    if (a.last !== null) a.t += (ts - a.last) / 1000 * parseFloat($("anim-speed").value);
    a.last = ts;
    if (a.t >= a.sim.duration) {
      a.t = a.sim.duration; a.playing = false; a.last = null;
      debug.animEndMs = performance.now();
    }
    a.stamps.push(ts);
    while (a.stamps.length && ts - a.stamps[0] > 1000) a.stamps.shift();
    debug.animFrames += 1;
    if (ts - a.stamps[0] >= 500) debug.fps = (a.stamps.length - 1) * 1000 / (ts - a.stamps[0]);
  }
  render();
  showAnimState();
  if (a.playing) requestAnimationFrame(tick);
  else {
    $("anim-play").innerHTML = "&#9654;";
    if (a.t >= a.sim.duration && a.resolve) { const r = a.resolve; a.resolve = null; r(); }
  }
}

function showAnimState() {
  const a = anim;
  $("anim-time").textContent = `${a.t.toFixed(2)} / ${a.sim.duration.toFixed(2)} s`;
  $("anim-fps").textContent = debug.fps ? `${Math.round(debug.fps)} fps` : "";
  const log = a.sim.log, list = $("events");
  while (a.shown < log.length && log[a.shown].t <= a.t + 1e-9) {
    const li = document.createElement("li");
    li.textContent = `${log[a.shown].t.toFixed(3)} s  ${readable(log[a.shown].text)}`;
    list.appendChild(li);
    a.shown += 1;
  }
  while (a.shown > 0 && log[a.shown - 1].t > a.t + 1e-9) { list.lastChild.remove(); a.shown -= 1; }
  [...list.children].forEach((li, i) => li.classList.toggle("now", i === a.shown - 1));
}

function sampleAt(tr, t) {
  const ts = tr.t, n = ts.length;
  if (n === 1 || t <= ts[0]) return [tr.x[0], tr.y[0]];
  if (t >= ts[n - 1]) return [tr.x[n - 1], tr.y[n - 1]];
  let lo = 0, hi = n - 1;
  while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (ts[mid] <= t) lo = mid; else hi = mid; }
  const f = (t - ts[lo]) / Math.max(1e-12, ts[hi] - ts[lo]);
  return [tr.x[lo] + f * (tr.x[hi] - tr.x[lo]), tr.y[lo] + f * (tr.y[hi] - tr.y[lo])];
}

// The balls' tracks so far, drawn onto a copy of the table a piece at a
// time (from the last frame's time to this one's), so that a frame costs
// one copy and the balls whatever the length of the shot.
export function trails(a) {
  const dpr = view.dpr;
  if (!a.trail || a.t < a.trailT || a.trail.width !== bg.width) {
    a.trail = document.createElement("canvas");
    a.trail.width = bg.width; a.trail.height = bg.height;
    a.trail.getContext("2d").drawImage(bg, 0, 0);
    a.trailT = 0;
  }
  if (a.t > a.trailT) {
    const g = a.trail.getContext("2d");
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    for (const tr of Object.values(a.sim.trajectories)) {
      if (tr.t.length < 2 || a.trailT >= tr.t[tr.t.length - 1]) continue;
      const pts = [sampleAt(tr, a.trailT)];
      for (let k = 0; k < tr.t.length; k++) if (tr.t[k] > a.trailT && tr.t[k] < a.t) pts.push([tr.x[k], tr.y[k]]);
      pts.push(sampleAt(tr, a.t));
      pathLine(g, pts, "#ffffff", 0.3, 1.2);
    }
    a.trailT = a.t;
  }
  return a.trail;
}

export function drawAnimationFrame(ctx, a) {
  for (const [b, tr] of Object.entries(a.sim.trajectories)) {
    if (tr.gone !== null && a.t >= tr.gone) continue;
    const [x, y] = sampleAt(tr, a.t);
    const [px, py] = table2css(x, y);
    drawBallFast(ctx, px, py, b);
  }
}

export function animToggle() {
  const a = anim;
  if (!a) return;
  if (a.t >= a.sim.duration) { a.t = 0; a.shown = 0; $("events").innerHTML = ""; }
  a.playing = !a.playing; a.last = null;
  $("anim-play").innerHTML = a.playing ? "&#10074;&#10074;" : "&#9654;";
  if (a.playing) requestAnimationFrame(tick); else render();
}

export function animStep() {
  const a = anim;
  if (!a) return;
  a.playing = false; a.last = null;
  a.t = Math.min(a.sim.duration, a.t + 1 / 60);
  requestAnimationFrame(tick);
}

export function animReplay() {
  const a = anim;
  if (!a) return;
  a.t = 0; a.shown = 0; a.last = null; a.playing = true; a.stamps = [];
  $("events").innerHTML = "";
  $("anim-play").innerHTML = "&#10074;&#10074;";
  requestAnimationFrame(tick);
}

// The position the shot leaves, into the editor.
export function animKeep() {
  const a = anim;
  if (!a) return;
  const fin = a.sim.final;
  stopAnimation();
  switchTab("edit");
  commit(fin);
}

export function animClose() { stopAnimation(); render(); }
