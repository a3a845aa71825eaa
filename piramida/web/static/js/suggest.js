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

let plans = null;  // the last suggestion: {shots, draw, position}
let chosen = 0;    // the index of the chosen shot
let cloud = null;  // the chosen shot under noise (POST /api/cloud)
let cloudSeq = 0;

export function suggestions() { return {plans, chosen, cloud}; }

export function clearSuggestions() {
  plans = null; cloud = null; chosen = 0;
  $("suggestions").innerHTML = "";
  $("cloud-info").textContent = "";
}

function budgetBody() {
  const [kind, value] = $("budget").value.split(":");
  return kind === "sims" ? {sims: parseInt(value, 10)} : {budget: value};
}

export async function suggest() {
  const btn = $("suggest-go");
  btn.disabled = true;
  status("thinking…");
  const t0 = performance.now();
  try {
    const res = await api("/api/suggest", {position: pos, noise: $("skill").value, top: 3, ...budgetBody()});
    plans = res; chosen = 0; cloud = null;
    showSuggestions();
    debug.suggestMs = performance.now() - t0;
    render();
    status(`suggested in ${(debug.suggestMs / 1000).toFixed(2)} s`);
    chooseSuggestion(0);
  } catch (e) {
    showError(e.message); status("");
  } finally {
    btn.disabled = false;
  }
}

function pct(x) { return `${Math.round(100 * x)}%`; }

function showSuggestions() {
  const box = $("suggestions");
  box.innerHTML = "";
  plans.shots.forEach((shot, i) => {
    const d = plans.draw[i];
    const card = document.createElement("div");
    card.className = "suggestion" + (i === chosen ? " chosen" : "");
    card.style.setProperty("--c", COLOURS[i % COLOURS.length]);
    card.dataset.index = i;
    const ep = shot.expected_points;
    const pts = `${ep >= 0 ? "+" : ""}${ep.toFixed(2)}`;
    // A policy ranks by its network's probabilities, not by samples.
    const odds = shot.basis === "policy"
      ? `policy ${pct(shot.policy_probability)}; pot estimate ${pct(shot.p_pot)}, noise-free stroke ${shot.p_foul ? "fouls" : "legal"}, points ${pts}`
      : `pot ${pct(shot.p_pot)}, foul ${pct(shot.p_foul)}, expected points ${pts}`;
    const hint = shot.basis === "policy" ? "no samples: the policy's probability" : `${d.samples} samples`;
    card.innerHTML = `<div class="odds">${i + 1}. ${odds}</div>
      <div class="desc"></div><code></code><div>
      <button class="watch">watch</button><button class="use">edit as a shot</button>
      <span class="hint">${hint}</span></div>`;
    card.querySelector(".desc").textContent = shot.description;
    card.querySelector("code").textContent = shot.shot;
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
    if (seq !== cloudSeq) return;
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
      .map(([p, k]) => `${pct(k / c.n)} in ${p}`);
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
