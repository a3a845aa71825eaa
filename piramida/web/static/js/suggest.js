// Suggestions (Suggest tab): the best shots for the edited position, drawn
// as arrows and paths, and where the chosen one's balls come to rest under
// noise (the cloud).
import {simulateAndWatch} from "./animate.js";
import {api} from "./api.js";
import {$, showError, status} from "./dom.js";
import {render, requestRender} from "./render.js";
import {useShot} from "./shot.js";
import {debug, pos, tab} from "./state.js";
import {COLOURS, OBJECT_DOT, arrow, drawBall, ghost, pathLine, table2css} from "./table.js";
import {switchTab} from "./tabs.js";
import {POCKETS} from "./words.js";

let plans = null;  // the last suggestion: {value_meaning, shots, search, draw, position}
let chosen = 0;    // the index of the chosen shot
let cloud = null;  // the chosen shot under noise (POST /api/cloud)
let cloudSeq = 0;
// A suggestion is drawn only for the position it was asked for: each
// request takes a number, and clearing (the position edited or replaced)
// takes one too, so an answer that is not the latest request's is dropped,
// as is one whose position no longer matches the edited one.
let suggestSeq = 0;

export function suggestions() { return {plans, chosen, cloud}; }

export function clearSuggestions() {
  plans = null; cloud = null; chosen = 0;
  suggestSeq++; cloudSeq++;
  $("suggestions").innerHTML = "";
  $("cloud-info").textContent = "";
}

function budgetBody() {
  const [kind, value] = $("budget").value.split(":");
  return kind === "sims" ? {sims: parseInt(value, 10)} : {budget: value};
}

const positionKey = (p) => JSON.stringify(p);

export async function suggest() {
  const btn = $("suggest-go");
  btn.disabled = true;
  status("thinking…");
  const t0 = performance.now();
  const seq = ++suggestSeq;
  const asked = positionKey(pos);
  try {
    const res = await api("/api/suggest", {position: pos, noise: $("skill").value, top: 3, ...budgetBody()});
    if (seq !== suggestSeq || positionKey(pos) !== asked) {
      status("the position changed meanwhile: its suggestion was dropped");
      return;
    }
    plans = res; chosen = 0; cloud = null;
    showSuggestions();
    debug.suggestMs = performance.now() - t0;
    render();
    status(`suggested in ${(debug.suggestMs / 1000).toFixed(2)} s`);
    chooseSuggestion(0);
  } catch (e) {
    if (seq === suggestSeq) { showError(e.message); status(""); }
  } finally {
    btn.disabled = false;
  }
}

function pct(x) { return `${Math.round(100 * x)}%`; }

// A rate's 95% interval in whole percent, as piramida suggest prints it.
function interval(iv) { return `[${Math.floor(100 * iv[0] + 1e-9)}, ${Math.ceil(100 * iv[1] - 1e-9)}]`; }

function oddsText(shot) {
  const ep = shot.expected_points;
  const signed = `${ep >= 0 ? "+" : ""}${ep.toFixed(2)}`;
  // A policy ranks by its network's probabilities, not by samples.
  if (shot.basis === "policy") {
    return `policy ${pct(shot.policy_probability)}; pot estimate ${pct(shot.p_pot)}, noise-free stroke ${shot.p_foul ? "fouls" : "legal"}, points ${signed}`;
  }
  const pts = `expected points ${signed}`;
  const value = `value ${shot.value_text}`;
  if (!shot.p_pot_interval) return `${value}: pot ${pct(shot.p_pot)}, foul ${pct(shot.p_foul)}, ${pts} (one noise-free stroke)`;
  return `${value}: pot ${pct(shot.p_pot)} ${interval(shot.p_pot_interval)} of ${shot.samples}, ` +
    `foul ${pct(shot.p_foul)} ${interval(shot.p_foul_interval)}, ${pts}`;
}

function searchText(s) {
  return `${s.candidates} candidates, ${s.strokes} simulated strokes, ${s.time_s.toFixed(2)} s: ${s.stopped}`;
}

function showSuggestions() {
  const box = $("suggestions");
  box.innerHTML = "";
  // What the value is, and what the search spent: the cards are in the
  // order of the value they show.
  for (const [cls, line] of [["meaning", `value: ${plans.value_meaning}`], ["search", searchText(plans.search)]]) {
    const p = document.createElement("p");
    p.className = `hint suggest-${cls}`;
    p.textContent = line;
    box.appendChild(p);
  }
  plans.shots.forEach((shot, i) => {
    const card = document.createElement("div");
    card.className = "suggestion" + (i === chosen ? " chosen" : "");
    card.style.setProperty("--c", COLOURS[i % COLOURS.length]);
    card.dataset.index = i;
    card.innerHTML = `<div class="odds"></div>
      <div class="desc"></div><code></code><div>
      <button class="watch">watch</button><button class="use">edit as a shot</button></div>`;
    card.querySelector(".odds").textContent = `${i + 1}. ${oddsText(shot)}`;
    card.querySelector(".desc").textContent = shot.description;
    const code = card.querySelector("code");
    code.textContent = shot.rounded;
    code.title = shot.shot;  // the exact stroke, which "edit as a shot" uses
    card.addEventListener("click", () => chooseSuggestion(i));
    card.querySelector(".watch").addEventListener("click", (ev) => { ev.stopPropagation(); watchSuggestion(i); });
    card.querySelector(".use").addEventListener("click", (ev) => { ev.stopPropagation(); useShot(shot.shot); switchTab("shot"); });
    box.appendChild(card);
  });
}

async function chooseSuggestion(i) {
  chosen = i; cloud = null;
  document.querySelectorAll(".suggestion").forEach((el) => el.classList.toggle("chosen", +el.dataset.index === i));
  requestRender();
  const seq = ++cloudSeq;
  const d = plans.draw[i];
  $("cloud-info").textContent = "playing it 200 times under the noise…";
  try {
    const res = await api("/api/cloud", {position: plans.position, shot: plans.shots[i].shot,
      noise: $("skill").value === "none" ? "pro" : $("skill").value, n: 200, object: d.object});
    if (seq !== cloudSeq || !plans) return;
    cloud = res;
    $("cloud-info").textContent = cloudText(res);
    requestRender();
  } catch (e) {
    if (seq === cloudSeq) $("cloud-info").textContent = "";
    showError(e.message);
  }
}

function cloudText(c) {
  const one = (b, what) => {
    if (!b) return "";
    const rest = (c.rest[b] || []).length;
    const pots = Object.entries(c.pocketed[b] || {}).sort((a, b2) => b2[1] - a[1])
      .map(([p, k]) => `${pct(k / c.n)} in ${POCKETS[p] || p} (${p})`);
    const off = c.off[b] ? [`${pct(c.off[b] / c.n)} off the table`] : [];
    return `${what} ${b}: ${[`${pct(rest / c.n)} rests on the table`, ...pots, ...off].join(", ")}`;
  };
  return `${c.n} noisy strokes (${c.noise}). ` + [one(c.struck, "struck ball"), one(c.object, "object ball")].filter(Boolean).join("; ") +
    ". Dots: where each comes to rest.";
}

async function watchSuggestion(i) {
  useShot(plans.shots[i].shot);
  await simulateAndWatch(plans.position, plans.shots[i].shot, "none", 0);
}

// The suggested shots on the table (Suggest tab), the chosen one on top.
export function drawSuggestions(ctx, shown) {
  if (!(tab === "suggest" && plans)) return;
  const order = plans.draw.map((_, i) => i).filter((i) => i !== chosen).concat([chosen]);
  for (const i of order) {
    const d = plans.draw[i], colour = COLOURS[i % COLOURS.length];
    const alpha = i === chosen ? 1 : 0.45;
    for (const [b, pts] of Object.entries(d.paths)) {
      pathLine(ctx, pts, b === d.struck ? colour : "#ffffff", alpha * (b === d.struck ? 0.95 : 0.7));
    }
    if (d.ghost) ghost(ctx, d.ghost, colour, alpha);
    arrow(ctx, d.aim[0], d.aim[1], colour, alpha);
    if (!(d.struck in shown.balls)) {
      const [px, py] = table2css(d.start[0], d.start[1]);
      drawBall(ctx, px, py, d.struck, 0.55);
    }
    const [lx, ly] = table2css(d.aim[1][0], d.aim[1][1]);
    ctx.globalAlpha = alpha; ctx.fillStyle = colour; ctx.font = "bold 13px sans-serif";
    ctx.fillText(String(i + 1), lx + 9, ly - 9); ctx.globalAlpha = 1;
  }
  if (cloud) drawCloud(ctx, cloud, COLOURS[chosen % COLOURS.length]);
}

function drawCloud(ctx, c, colour) {
  const dot = (pts, fill) => {
    ctx.fillStyle = fill; ctx.strokeStyle = "#00000088"; ctx.lineWidth = 0.5;
    for (const [x, y] of pts) {
      const [px, py] = table2css(x, y);
      ctx.beginPath(); ctx.arc(px, py, 2.4, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
    }
  };
  if (c.object && c.rest[c.object]) dot(c.rest[c.object], OBJECT_DOT);
  dot(c.rest[c.struck] || [], colour);
}
