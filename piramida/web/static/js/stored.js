// The games of the results files `piramida serve --db` names (Play tab;
// the control stays hidden when there are none), opened as saved games.
import {api} from "./api.js";
import {$, options, showError, status} from "./dom.js";
import {loadGame} from "./play.js";
import {meta} from "./state.js";
import {readable} from "./words.js";

let stored = null;   // the games listed: {dbs, total, games}
let asked = false;   // listed once, when the Play tab first opens

export function storedGames() { return stored; }
export function wasAsked() { return asked; }

export function listStoredOnce() {
  if (asked) return;
  asked = true;
  storedList();
}

export async function storedList() {
  const q = new URLSearchParams();
  if ($("stored-db").value) q.set("db", $("stored-db").value);
  if ($("stored-variant").value) q.set("variant", $("stored-variant").value);
  try {
    const res = await api(`/api/games?${q}`);
    if (!stored) {
      for (const name of res.dbs) {  // names from the command line: text, not HTML
        const o = document.createElement("option");
        o.value = o.textContent = name;
        $("stored-db").appendChild(o);
      }
      $("stored-db-label").hidden = res.dbs.length < 2;
      options("stored-variant", ["", ...meta.variants]);
      $("stored-variant").options[0].textContent = "all";
      stored = res;
      if (res.dbs.length > 1) { await storedList(); return; }  // the first file's games only
    }
    stored = res;
    $("stored").hidden = res.dbs.length === 0;
    const sel = $("stored-game");
    sel.innerHTML = "";
    for (const g of res.games) {
      const o = document.createElement("option");
      o.value = g.id;
      o.dataset.db = g.db;
      o.textContent = `#${g.id} ${g.variant}, pair ${g.pair}: ${g.seats[0]} v ${g.seats[1]}, `
        + `${readable(g.result)} ${g.score[0]}-${g.score[1]}, ${g.shots} shots`;
      sel.appendChild(o);
    }
    $("stored-open").disabled = res.games.length === 0;
    $("stored-count").textContent = res.total > res.games.length ? `the first ${res.games.length} of ${res.total}`
      : `${res.total} game${res.total === 1 ? "" : "s"}`;
  } catch (e) { showError(e.message); }
}

export async function storedOpen() {
  const o = $("stored-game").selectedOptions[0];
  if (!o) return;
  const g = stored.games.find((x) => String(x.id) === o.value && x.db === o.dataset.db);
  status(`rebuilding game ${o.value}…`);
  try {
    const saved = await api(`/api/games/${o.value}?db=${encodeURIComponent(o.dataset.db)}`);
    await loadGame(saved, `stored game ${o.value}, a`, g && g.seats);
  } catch (e) { showError(e.message); } finally { status(""); }
}
