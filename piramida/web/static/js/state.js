// The state that several modules read: the table's geometry and the
// server's metadata, the open tab, the edited position, the frame in play
// and the page's counters. Each is written only through its setter here;
// importers see the current value through ES live bindings.

export let geo = null;    // the table's geometry (GET /api/table)
export let meta = null;   // variants, noise presets, agents, ball ids and styles (GET /api/meta)
export let tab = "edit";  // the open tab: edit, suggest, shot or play
export let pos = null;    // the edited position (JSON form)
export let text = "";     // its text form (from the server)
export let frame = null;  // the frame in play: the server's state

// Counters for the browser tests and bench/web.py.
export const debug = {ready: false, readyMs: null, arrows: 0, frames: 0, fps: 0, animFrames: 0, lastError: null};

export function setTable(geometry, metadata) { geo = geometry; meta = metadata; }
export function setTab(name) { tab = name; }
export function setPos(position) { pos = position; }
export function setText(value) { text = value; }
export function setFrame(state) { frame = state; }

export function cueOf(variant, player) { return meta.cue[variant][player]; }

// The position on the table: the frame's in the Play tab, else the edited one.
export function shownPosition() {
  if (tab === "play" && frame) return frame.position;
  return pos;
}
