"""Write the golden referee cases (one JSON file each) in this folder.

Boilerplate only: positions, event logs and shots are built by the small
helpers below; every expected ruling is written out by hand from the rules
(docs/game_rules.md and the seed item named in ``source``), not computed by the code
under test. Run: ``.venv/bin/python tests/golden/rulings/make_cases.py``
(or with a folder to write into instead of this one; ``test_golden_rulings``
regenerates the cases into a temporary folder and compares them with the
committed files).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

HERE = Path(__file__).resolve().parent
W, L, R = 1.775, 3.55, 0.034
CX = W / 2  # long axis
MID = L / 2  # centre line
Y0 = 3 * L / 4  # rear spot
STEP = 2 * R + 0.001  # re-spot spacing with the default 1 mm gap
RS = [CX, Y0]
CASES: list[dict] = []

STD = {"0": (CX, 1.0), "1": (0.5, 2.0), "2": (1.2, 2.2), "3": (0.3, 1.2), "4": (1.4, 3.0),
       "5": (0.6, 3.3), "6": (1.5, 0.5), "7": (0.2, 2.9)}
STD_SHELVES = [["8", "9", "10"], ["11", "12", "13", "14", "15"]]


def rack15(order=None):
    order = order or [str(i) for i in range(1, 16)]
    spots = []
    for k in range(5):
        for j in range(k + 1):
            spots.append((CX + (j - k / 2) * 2 * R, Y0 + k * math.sqrt(3) * R))
    return dict(zip(order, spots, strict=True))


def pos(variant, balls, shelves=None, score=None, owed=(0, 0), to_move=0, in_hand=None, brk=False):
    shelves = shelves if shelves is not None else [[], []]
    if score is None:
        score = [len(shelves[0]), len(shelves[1])]
    return {"variant": variant, "balls": {b: list(xy) for b, xy in balls.items()},
            "shelves": shelves, "score": list(score), "owed": list(owed), "to_move": to_move,
            "in_hand": in_hand, "break": brk}


class Ev:
    def __init__(self, cue):
        self.t = 0.0
        self.items = [{"t": 0.0, "type": "cue", "balls": [cue]}]

    def _add(self, d):
        self.t += 0.1
        d["t"] = round(self.t, 3)
        self.items.append(d)
        return self

    def hit(self, a, b):
        return self._add({"type": "ball_ball", "balls": [a, b]})

    def cush(self, b, c):
        return self._add({"type": "cushion", "balls": [b], "cushion": c})

    def pot(self, b, p):
        return self._add({"type": "pocket", "balls": [b], "pocket": p})

    def cross(self, b, to):
        return self._add({"type": "centre_line", "balls": [b], "to": to})

    def off(self, b):
        return self._add({"type": "off_table", "balls": [b]})


def after_of(before, gone=(), moves=None, place=None):
    balls = dict(before["balls"])
    if place is not None:
        balls[place[0]] = list(place[1])
    for b in gone:
        balls.pop(b, None)
    for b, xy in (moves or {}).items():
        balls[b] = list(xy)
    out = dict(before)
    out["balls"] = balls
    out["in_hand"] = None
    return out


def shot(ball="0", phi=90.0, v=3.0, place=None, call=None, declare=None):
    return {"ball": ball, "phi": phi, "v": v, "a": 0.0, "b": 0.0, "theta": 0.0,
            "place": list(place) if place else None, "call": list(call) if call else None,
            "declare_frozen": declare}


def nxt(player, kind="shot", choices=(), in_hand=None):
    return {"player": player, "kind": kind, "choices": list(choices), "in_hand": in_hand}


def takes(ids, prefix="take_ball:"):
    return [prefix + b for b in ids]


AFTER = ["shoot", "make_offender_shoot"]
AFTER_BREAK = ["accept_and_shoot", "accept_and_make_offender_shoot", "rerack_and_break",
               "rerack_and_make_offender_break"]


def case(name, source, variant, before, shot_, events, after, expected, options=None,
         choices=None, after_choices=None, extra_fouls=None):
    CASES.append({"name": name, "source": source, "variant": variant, "options": options or {},
                  "before": before, "shot": shot_, "events": events.items if isinstance(events, Ev) else events,
                  "after": after, "extra_fouls": extra_fouls or [], "expected": expected,
                  "choices": choices or [], "after_choices": after_choices or {}})


def std(variant="combined", **kw):
    kw.setdefault("shelves", [list(s) for s in STD_SHELVES])
    return pos(variant, STD, **kw)


def write(out: Path = HERE):
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.json"):
        old.unlink()
    names = set()
    for c in CASES:
        assert c["name"] not in names, c["name"]
        names.add(c["name"])
        (out / f"{c['name']}.json").write_text(json.dumps(c, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(CASES)} cases -> {out}")


if __name__ == "__main__":
    import sys

    import cases_pyramid  # noqa: F401  (registers cases)
    import cases_special  # noqa: F401
    import cases_variants  # noqa: F401
    import make_cases

    make_cases.write(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
