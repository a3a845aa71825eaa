// A frame against an agent (Play tab): start one, play the player's shots
// and choices, let the agent act, hint, undo, save and load. The frame's
// state is the server's (state.js's `frame`); the log lists its actions,
// board.js its move tree (each answer's `board`).
import {animate, stopAnimation} from "./animate.js";
import {api} from "./api.js";
import {missingLine, setBoard} from "./board.js";
import {$, showError, status} from "./dom.js";
import {requestRender} from "./render.js";
import {showScoreboard} from "./scoreboard.js";
import {fillShotBalls, resetPlace, shotText, useShot} from "./shot.js";
import {frame, pos, setFrame, tab} from "./state.js";
import {COLOURS, ghost, pathLine} from "./table.js";
import {IN_HAND, choiceText, playerName, readable} from "./words.js";

let busy = false;  // a request for the frame is under way
let hint = null;   // a hint's drawing: {paths, struck, ghost}

export function isBusy() { return busy; }
export function currentHint() { return hint; }
export function clearHint() { hint = null; }

function playSettings() {
  return {agent: $("play-agent").value.trim(), seat: parseInt($("play-seat").value, 10),
    noise: $("play-noise").value, seed: parseInt($("play-seed").value || "0", 10)};
}

export async function playNew() {
  const body = {variant: pos.variant, ...playSettings()};
  if ($("play-from-position").checked) body.position = pos;
  stopAnimation();
  hint = null;
  try {
    const res = await api("/api/play/new", body);
    setFrame(res.state);
    setBoard(res.board);
    $("play-log").innerHTML = "";
    resetPlace();
    showPlay();
    await continuePlay();
  } catch (e) { showError(e.message); }
}

// One action in the log; `who` names the seat (a stored game's agents).
function logStep(step, who) {
  const li = document.createElement("li");
  who = who || (step.who === "you" ? "you" : frame.agent);
  const what = step.kind === "choice" ? `chooses ${choiceText(step.action)}` : readable(step.brief);
  li.textContent = `${playerName(step.seat)} (${who}) ${what}${step.summary && step.kind !== "choice" ? "  →  " + readable(step.summary) : ""}`;
  if (step.refused) li.textContent += `  (refused: ${readable(step.reason)})`;
  li.className = step.who + (step.foul ? " foul" : "");
  const log = $("play-log");
  log.appendChild(li);
  log.scrollTop = log.scrollHeight;
}

async function showStep(res) {
  hint = null;
  logStep(res.step);
  const sim = res.step.simulation;
  if (sim && $("play-animate").checked) {
    setFrame({...frame, position: res.step.before});
    await animate(sim);
    stopAnimation();
  }
  setFrame(res.state);
  setBoard(res.board);
  resetPlace();
  showPlay();
}

// The agent acts for as long as it is its turn and the Play tab is open,
// at the end of a line only (a move stepped back to is looked at, not played on).
export async function continuePlay() {
  while (frame && frame.to_act === "agent" && frame.leaf !== false && tab === "play") {
    busy = true; showPlay();
    status(`${frame.agent} is thinking…`);
    try {
      await showStep(await api(`/api/play/${frame.id}/agent`, {}));
    } catch (e) { showError(e.message); break; } finally { busy = false; status(""); }
  }
  showPlay();
}

export function showPlay() {
  const st = frame, box = $("play-state"), choices = $("play-choices");
  if (!st) {
    box.textContent = missingLine() || "No frame yet: pick an agent and start one.";
    showScoreboard(null);
    choices.innerHTML = "";
    ["play-shoot", "play-hint", "play-undo", "play-save"].forEach((id) => { $(id).disabled = true; });
    requestRender();
    return;
  }
  const you = st.seat, nxt = st.next;
  let turn;
  if (st.over) turn = st.winner === null ? "frame over: a draw" : (st.winner === you ? "frame over: you win" : "frame over: the agent wins");
  else if (st.to_act === "you") turn = nxt.kind === "choice" ? "your choice" : (nxt.kind === "lag" ? "your lag shot" : "your shot");
  else turn = "the agent's turn";
  box.innerHTML = `<div>${st.variant}: you are ${playerName(you)} against <b></b>, noise ${st.noise}, seed ${st.seed}</div>
    <div>score ${st.score[0]} - ${st.score[1]}, ${st.shots} shots</div><div class="turn"></div><div class="ruling"></div>`;
  box.querySelector("b").textContent = st.agent;
  box.querySelector(".turn").textContent = turn + (nxt.in_hand && st.to_act === "you" ? ` (ball in hand ${IN_HAND[nxt.in_hand] || nxt.in_hand})` : "");
  box.querySelector(".ruling").textContent = st.last_ruling ? `last ruling: ${readable(st.last_ruling)}` : "";
  showScoreboard(st);
  choices.innerHTML = "";
  if (st.to_act === "you" && nxt.kind === "choice") {
    for (const c of nxt.choices) {
      const b = document.createElement("button");
      b.textContent = choiceText(c);
      b.dataset.choice = c;
      b.addEventListener("click", () => playChoose(c));
      choices.appendChild(b);
    }
  }
  const mine = st.to_act === "you" && !busy;
  $("play-shoot").disabled = !(mine && nxt.kind !== "choice");
  $("play-hint").disabled = !(mine && nxt.kind === "shot");
  $("play-undo").disabled = !st.can_undo || busy;
  $("play-save").disabled = false;
  fillShotBalls();
  requestRender();
}

export async function playShoot() {
  if (!frame) return;
  hint = null;
  busy = true; showPlay();
  try {
    const res = await api(`/api/play/${frame.id}/shot`, {shot: shotText()});
    busy = false;
    await showStep(res);
    await continuePlay();
  } catch (e) { showError(e.message); } finally { busy = false; showPlay(); }
}

async function playChoose(choice) {
  try {
    const res = await api(`/api/play/${frame.id}/choose`, {choice});
    await showStep(res);
    await continuePlay();
  } catch (e) { showError(e.message); }
}

export async function playUndo() {
  stopAnimation();
  try {
    const res = await api(`/api/play/${frame.id}/undo`, {});
    setFrame(res.state);
    setBoard(res.board);
    hint = null;
    const li = document.createElement("li");
    li.textContent = "(undone)";
    $("play-log").appendChild(li);
    showPlay();
  } catch (e) { showError(e.message); }
}

export async function playHint() {
  status("thinking…");
  try {
    const res = await api(`/api/play/${frame.id}/hint`, {sims: 200, noise: "pro", top: 1});
    useShot(res.shots[0].shot);
    hint = res.draw[0];
    status(`hint: ${res.shots[0].description}`);
    requestRender();
  } catch (e) { showError(e.message); status(""); }
}

export async function playSave() {
  try {
    const saved = await api(`/api/play/${frame.id}/save`);
    const blob = new Blob([JSON.stringify(saved) + "\n"], {type: "application/json"});
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `piramida-${saved.variant}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  } catch (e) { showError(e.message); }
}

export async function playLoad(ev) {
  const file = ev.target.files[0];
  if (!file) return;
  const text = await file.text();
  ev.target.value = "";
  await loadGameText(text);
}

// A saved game (its JSON text or object, as `piramida play --save` writes
// it): played on from where it ends, its actions listed in the log.
// `what` says where it came from; `names`, who sat in each seat.
export async function loadGame(game, what, names) {
  stopAnimation();
  try {
    const res = await api("/api/play/load", {game, ...playSettings()});
    setFrame(res.state);
    setBoard(res.board);
    hint = null;
    resetPlace();
    $("play-log").innerHTML = "";
    const li = document.createElement("li");
    li.textContent = `(loaded ${what} ${frame.variant} frame after ${frame.shots} shots)`;
    $("play-log").appendChild(li);
    for (const step of res.history) logStep(step, names && names[step.seat]);
    $("play-log").scrollTop = 0;  // read from the first action
    showPlay();
    await continuePlay();
  } catch (e) { showError(e.message); }
}
export const loadGameText = (text) => loadGame(text, "a saved");

// A hint's paths and ghost ball (Play tab).
export function drawHint(ctx) {
  if (!(tab === "play" && hint)) return;
  const d = hint;
  for (const [b, pts] of Object.entries(d.paths)) pathLine(ctx, pts, b === d.struck ? COLOURS[0] : "#ffffff", 0.7);
  if (d.ghost) ghost(ctx, d.ghost, COLOURS[0], 0.9);
}
