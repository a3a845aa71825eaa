// Small page helpers: elements by id, the status line, the error box, the
// options of a select.
import {debug} from "./state.js";
import {seatNames, tidyNumbers} from "./words.js";

export const $ = (id) => document.getElementById(id);

const QUOTE_MAX = 48;   // characters kept of a quoted position or shot
const ERROR_MAX = 240;  // characters kept of the whole line

// An error as one short line: its first line, numbers rounded, the
// server's seats named as the page names them (unless the page wrote the
// line itself), and any long quoted input (the server quotes the position
// it refused) cut short.
export function shortError(msg, ownLine = false) {
  let line = tidyNumbers(String(msg).split("\n")[0].trim());
  if (!ownLine) line = seatNames(line);
  line = line.replace(/\((position|shot|game): ([^()]*)\)/g, (whole, what, body) =>
    body.length > QUOTE_MAX ? `(${what}: ${body.slice(0, QUOTE_MAX)}…)` : whole);
  line = line.replace(/\S{61,}/g, (w) => `${w.slice(0, QUOTE_MAX)}…`);
  return line.length > ERROR_MAX ? `${line.slice(0, ERROR_MAX)}…` : line;
}

let errorTimer = null;
export function showError(msg, ownLine = false) {
  const el = $("error");
  $("error-text").textContent = shortError(msg, ownLine);
  el.title = String(msg);
  el.hidden = false;
  debug.lastError = msg;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(hideError, 12000);
}

export function hideError() {
  clearTimeout(errorTimer);
  $("error").hidden = true;
}

export function status(msg) { $("status").textContent = tidyNumbers(msg); }

// What belongs to the position or tab left behind: the status line, the
// animation's event list.
export function clearStale() {
  status("");
  $("events").innerHTML = "";
}

export function options(sel, values, selected) {
  $(sel).innerHTML = values.map((v) => `<option value="${v}">${v}</option>`).join("");
  if (selected !== undefined) $(sel).value = selected;
}
