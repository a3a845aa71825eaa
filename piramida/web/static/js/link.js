// The position in the address. A short text form goes as it is
// (#pos=TEXT, readable); one whose address would pass MAX_URL characters
// goes packed (#p=VARIANT.CODE): the frame state, the shelves and each ball
// on the table with its centre on a 0.01 mm grid, in base64url. A packed
// centre moves by at most 0.005 mm; where that would let two touching balls
// overlap, the pair is nudged apart by a grid step. Both forms are read.
const MAX_URL = 200;
const GRID = 1e5;  // grid steps per metre
const HAND = [null, "house", "rear_house", "anywhere"];
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function b64(bytes) {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] || 0) << 8) | (bytes[i + 2] || 0);
    const chars = Math.ceil(((Math.min(3, bytes.length - i)) * 8) / 6);
    for (let k = 0; k < chars; k++) out += B64[(n >> (18 - 6 * k)) & 63];
  }
  return out;
}

function unb64(text) {
  const bytes = [];
  for (let i = 0; i < text.length; i += 4) {
    const chunk = text.slice(i, i + 4);
    let n = 0;
    for (let k = 0; k < 4; k++) {
      const v = k < chunk.length ? B64.indexOf(chunk[k]) : 0;
      if (v < 0) throw new Error(`a packed position has no character ${JSON.stringify(chunk[k])}`);
      n = (n << 6) | v;
    }
    const count = Math.floor((chunk.length * 6) / 8);
    for (let k = 0; k < count; k++) bytes.push((n >> (16 - 8 * k)) & 255);
  }
  return bytes;
}

function putVarint(bytes, v) {  // zigzag, so that a negative score packs small
  let z = v < 0 ? -2 * v - 1 : 2 * v;
  do { let b = z & 127; z = Math.floor(z / 128); if (z) b |= 128; bytes.push(b); } while (z);
}

function reader(bytes) {
  let at = 0;
  const byte = () => {
    if (at >= bytes.length) throw new Error("a packed position ends early");
    return bytes[at++];
  };
  return {
    byte,
    varint() {
      let z = 0, mul = 1, b;
      do { b = byte(); z += (b & 127) * mul; mul *= 128; } while (b & 128 && mul < 2 ** 35);
      return z % 2 ? -(z + 1) / 2 : z / 2;
    },
    left: () => bytes.length - at,
  };
}

const metres = (q) => Number((q / GRID).toFixed(5));

// Grid centres no closer than a ball's diameter where the balls were not.
function onGrid(ids, balls, radius) {
  const q = ids.map((b) => balls[b].map((v) => Math.round(v * GRID)));
  const d = (a, b) => Math.hypot(metres(a[0]) - metres(b[0]), metres(a[1]) - metres(b[1]));
  const apart = (i, j) => Math.hypot(balls[ids[i]][0] - balls[ids[j]][0], balls[ids[i]][1] - balls[ids[j]][1]);
  for (let pass = 0; pass < 50; pass++) {
    let moved = false;
    for (let i = 0; i < q.length; i++) {
      for (let j = i + 1; j < q.length; j++) {
        if (d(q[i], q[j]) >= 2 * radius || apart(i, j) < 2 * radius - 1e-9) continue;
        const dx = balls[ids[j]][0] - balls[ids[i]][0], dy = balls[ids[j]][1] - balls[ids[i]][1];
        const n = Math.hypot(dx, dy) || 1;
        for (const [k, s] of [[j, 1], [i, -1]]) {
          q[k][0] += Math.round((s * dx) / n);
          q[k][1] += Math.round((s * dy) / n);
        }
        moved = true;
      }
    }
    if (!moved) return q;
  }
  return null;
}

// The packed form of a position (JSON form), or null where it has none (a
// ball on the rail, an unknown ball, a crowd the grid cannot keep apart).
export function pack(p, ids, radius) {
  if (p.rail && Object.keys(p.rail).length) return null;
  const bytes = [(p.to_move & 1) | (p.break ? 2 : 0) | (Math.max(0, HAND.indexOf(p.in_hand)) << 2)];
  for (const v of [...p.score, ...p.owed]) putVarint(bytes, v);
  for (const shelf of p.shelves) {
    bytes.push(shelf.length);
    for (const b of shelf) {
      if (ids.indexOf(b) < 0) return null;
      bytes.push(ids.indexOf(b));
    }
  }
  const on = ids.filter((b) => b in p.balls);
  if (on.length !== Object.keys(p.balls).length) return null;
  for (let k = 0; k < ids.length; k += 8) {
    let mask = 0;
    ids.slice(k, k + 8).forEach((b, i) => { if (b in p.balls) mask |= 1 << i; });
    bytes.push(mask);
  }
  const q = onGrid(on, p.balls, radius);
  if (!q) return null;
  for (const [x, y] of q) {
    for (const v of [x, y]) {
      if (v < 0 || v >= 2 ** 24) return null;
      bytes.push((v >> 16) & 255, (v >> 8) & 255, v & 255);
    }
  }
  return `${p.variant}.${b64(bytes)}`;
}

// The position (JSON form) of a packed one; an Error says what is wrong.
export function unpack(text, idsOf) {
  const dot = text.indexOf(".");
  const variant = text.slice(0, dot);
  const ids = dot > 0 ? idsOf[variant] : null;
  if (!ids) throw new Error(`a packed position names no known variant: ${JSON.stringify(text.slice(0, 20))}`);
  const r = reader(unb64(text.slice(dot + 1)));
  const flags = r.byte();
  const p = {variant, balls: {}, shelves: [[], []], score: [r.varint(), r.varint()], owed: [r.varint(), r.varint()],
    to_move: flags & 1, in_hand: HAND[(flags >> 2) & 3], break: Boolean(flags & 2)};
  for (const shelf of p.shelves) {
    const n = r.byte();
    for (let k = 0; k < n; k++) {
      const b = ids[r.byte()];
      if (b === undefined) throw new Error("a packed position names a ball its variant does not have");
      shelf.push(b);
    }
  }
  const on = [];
  for (let k = 0; k < ids.length; k += 8) {
    const mask = r.byte();
    ids.slice(k, k + 8).forEach((b, i) => { if (mask & (1 << i)) on.push(b); });
  }
  for (const b of on) {
    const xy = [0, 0].map(() => (r.byte() << 16) | (r.byte() << 8) | r.byte());
    p.balls[b] = xy.map(metres);
  }
  if (r.left()) throw new Error("a packed position has bytes left over");
  return p;
}

// The text form as the address carries it: escaped where a fragment must be.
function textParam(text) {
  return encodeURIComponent(text).replace(/%3B/g, ";").replace(/%3A/g, ":").replace(/%2C/g, ",").replace(/%3D/g, "=");
}

// The fragment for a position: #pos=TEXT while the address stays within
// MAX_URL characters, else #p=PACKED (when it packs).
export function positionHash(position, text, ids, radius) {
  const base = `${location.origin}${location.pathname}${location.search}#`;
  const plain = `pos=${textParam(text)}`;
  if (base.length + plain.length <= MAX_URL) return plain;
  const packed = pack(position, ids, radius);
  return packed ? `p=${packed}` : plain;
}

// The position in the address: {position} (its text form, or the JSON form
// of a packed one) or null when there is none.
export function positionInHash(idsOf) {
  const text = /[#&]pos=([^&]*)/.exec(location.hash);
  if (text) return {position: decodeURIComponent(text[1])};
  const packed = /[#&]p=([^&]*)/.exec(location.hash);
  if (packed) return {position: unpack(decodeURIComponent(packed[1]), idsOf)};
  return null;
}
