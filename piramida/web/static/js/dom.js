// Small page helpers: elements by id, the status line, the error banner,
// the options of a select.
import {debug} from "./state.js";

export const $ = (id) => document.getElementById(id);

let errorTimer = null;
export function showError(msg) {
  const el = $("error");
  el.textContent = msg;
  el.hidden = false;
  debug.lastError = msg;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => { el.hidden = true; }, 8000);
}

export function status(msg) { $("status").textContent = msg; }

export function options(sel, values, selected) {
  $(sel).innerHTML = values.map((v) => `<option value="${v}">${v}</option>`).join("");
  if (selected !== undefined) $(sel).value = selected;
}
