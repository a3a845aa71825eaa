"""Physics cross-check: piramida and pooltool 0.6.0 on matched parameters.

Run from the repository root::

    .venv/bin/python -m bench.crosscheck            # side-by-side table
    .venv/bin/python -m bench.crosscheck --json     # the report as JSON

Writes ``bench/results/crosscheck.json`` (``--out FILE`` writes elsewhere);
pooltool runs in ``bench/.venv-pooltool`` (``make bench-deps``), and its
columns are null, with a note, where that venv is missing.

Three probes, each simulated by both engines from the same ``Position`` and
``Shot`` (pooltool through ``bench/pooltool_runner.py``, which documents how
the table, constants and shot convention are mapped):

- ``rolling``: a centre-ball hit (a = b = 0) at cue speed 1, 2, 3 m/s on a
  table made long enough (60 m) that no cushion intervenes. Reported: the
  ball's launch speed v0, sliding distance, rolling distance and total, and
  the closed forms of the standard sliding/rolling model (Alciatore, *The
  Illustrated Principles of Pool and Billiards*, TP 4.1; Leckie & Greenspan
  2005): sliding ends at 5/7 v0 after 12 v0^2 / (49 mu_s g), and the ball
  then rolls v^2 / (2 mu_r g).
- ``cut``: a 30 degree cut (object ball sent 30 degrees left of the cue
  ball's line) at cue speed 2 m/s, once with a stun cue ball (centre hit,
  2 cm of travel before contact) and once with a rolling one (b = 0.4, the
  natural-roll height, 1 m of travel), on a 20 x 60 m table. Reported:
  departure angles (signed, degrees from the cue ball's line, + to the left)
  of both balls just after contact and of the line from the contact spot to
  where each ball stops, and their speeds just after contact. Ideal
  frictionless values: object ball 30, stun cue ball -60, rolling cue ball
  finally -atan(sin t cos t / (sin^2 t + 2/5)) = -33.7 (Alciatore TP A-4):
  throw (ball-ball friction) lowers the object ball's angle.
- ``cushion``: a rolling ball (b = 0.4) into the left long cushion at 30,
  45, 60 degrees from the cushion normal, at 1 and 2 m/s at impact.
  Reported: measured incoming angle and speed, outgoing angle (from the
  normal) and speed just after impact, and the normal-velocity ratio. Two
  more shots into the same cushion at 45 degrees with side spin a = -0.3
  and +0.3 (b = 0.2, cue 1.5 m/s) check that both engines read the sign of
  ``a`` alike (the runner mirrors it for pooltool).

Velocities: pooltool's come from its event log (exact states before and
after each event); piramida's from ``ShotResult.states_at`` (closed forms),
or, failing that, from ``ShotResult.trajectories`` by a three-point
derivative within one motion segment (exact for the piecewise-quadratic
motion of the model). Any piramida column is null while
``piramida.env.physics.simulate`` does not exist or fails.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.pooltool_client import PooltoolUnavailable, run_pooltool
from bench.record import write as write_record
from piramida.configs import CONFIG_DIR
from piramida.env.position import Position
from piramida.env.shot import Shot
from piramida.env.table import Table, table_from_dict

CUT_ANGLE = 30.0
CUT_SPEED = 2.0
ROLL_SPEEDS = (1.0, 2.0, 3.0)
CUSHION_ANGLES = (30.0, 45.0, 60.0)
CUSHION_SPEEDS = (1.0, 2.0)
NATURAL_ROLL_B = 0.4  # tip height (ball radii) that launches a rolling ball (2R/5 above centre)

Vec = tuple[float, float]


def big_table(width: float, length: float) -> Table:
    """The default table's constants on a larger bed (pockets at its corners,
    far from the probes)."""
    data = tomllib.loads((CONFIG_DIR / "tables" / "russian_12ft.toml").read_text(encoding="utf-8"))
    data["table"]["width"] = width
    data["table"]["length"] = length
    data["table"]["name"] = f"crosscheck_{width:g}x{length:g}"
    return table_from_dict(data, source="<crosscheck>")


@dataclass(frozen=True)
class Probe:
    kind: str
    label: str
    params: dict[str, float]
    position: Position
    shot: Shot

    def case(self) -> dict[str, Any]:
        return {
            "balls": {b: [x, y] for b, x, y in self.position.balls},
            "shot": {k: getattr(self.shot, k) for k in ("ball", "phi", "v", "a", "b", "theta")},
        }


def _cue_speed_for_rolling(t: Table, v_ball: float) -> float:
    """Cue speed that launches a natural-roll ball (b = 0.4, no side) at
    ``v_ball`` under the point-impact model (Alciatore TP A-30):
    v_ball = (1 + e) V / (1 + m/M + (5/2) b^2)."""
    p = t.physics
    k = 1 + t.ball_mass / p.cue_mass + 2.5 * NATURAL_ROLL_B**2
    return v_ball * k / (1 + p.e_cue)


def probes() -> dict[str, list[Probe]]:
    """The probes, grouped by the table they run on."""
    std = Table.default()
    big = big_table(20.0, 60.0)
    r = std.ball_radius
    out: dict[str, list[Probe]] = {"big": [], "std": []}
    for v in ROLL_SPEEDS:
        pos = Position.from_balls("free", {"0": (10.0, 1.0)}, table=big)
        out["big"].append(Probe("rolling", f"v={v:g}", {"v": v}, pos, Shot("0", 90.0, v)))
    # Cut: cue ball travels +y; the object ball leaves along n, 30 deg left.
    d = (0.0, 1.0)
    n = (-math.sin(math.radians(CUT_ANGLE)), math.cos(math.radians(CUT_ANGLE)))
    ob = (10.0, 30.0)
    ghost = (ob[0] - 2 * r * n[0], ob[1] - 2 * r * n[1])
    for label, travel, b in (("stun", 0.02, 0.0), ("rolling", 1.0, NATURAL_ROLL_B)):
        cb = (ghost[0] - travel * d[0], ghost[1] - travel * d[1])
        pos = Position.from_balls("free", {"0": cb, "1": ob}, table=big)
        out["big"].append(
            Probe("cut", label, {"travel": travel, "b": b}, pos, Shot("0", 90.0, CUT_SPEED, b=b))
        )
    # Cushion: the left long cushion (x = 0), impact 1.2 m from the front.
    g, mu_r = std.physics.g, std.physics.mu_r
    run = 0.4
    for ang in CUSHION_ANGLES:
        for v in CUSHION_SPEEDS:
            a = math.radians(ang)
            hit = (r, 1.2)
            start = (hit[0] + run * math.cos(a), hit[1] - run * math.sin(a))
            v0 = math.sqrt(v * v + 2 * mu_r * g * run)
            phi = math.degrees(math.atan2(math.sin(a), -math.cos(a)))
            pos = Position.from_balls("free", {"0": start}, table=std)
            shot = Shot("0", phi, _cue_speed_for_rolling(std, v0), b=NATURAL_ROLL_B)
            out["std"].append(
                Probe("cushion", f"{ang:g}deg {v:g}m/s", {"angle": ang, "v": v}, pos, shot)
            )
    # Side spin checks the sign convention of ``a`` (pooltool's is mirrored).
    for side in (-0.3, 0.3):
        a = math.radians(45.0)
        start = (r + run * math.cos(a), 1.2 - run * math.sin(a))
        pos = Position.from_balls("free", {"0": start}, table=std)
        phi = math.degrees(math.atan2(math.sin(a), -math.cos(a)))
        shot = Shot("0", phi, 1.5, a=side, b=0.2)
        label = f"45deg a={side:+g}"
        out["std"].append(Probe("cushion", label, {"angle": 45.0, "v": float("nan")}, pos, shot))
    return out


# ----------------------------------------------------------- normalised runs
State = dict[str, Vec]  # {"r": (x, y), "v": (vx, vy)}


@dataclass
class Run:
    """One engine's answer to one probe: events with each involved ball's
    state before and after (None where unknown), and where balls stopped."""

    events: list[dict[str, Any]]
    final: dict[str, Vec]


_PT_TYPES = {
    "stick_ball": "cue",
    "ball_ball": "ball_ball",
    "ball_linear_cushion": "cushion",
    "ball_circular_cushion": "cushion",
    "ball_pocket": "pocket",
}


def _pt_state(s: dict[str, Any] | None) -> State | None:
    if s is None:
        return None
    return {"r": (s["r"][0], s["r"][1]), "v": (s["v"][0], s["v"][1])}


def pooltool_runs(groups: dict[str, list[Probe]]) -> tuple[dict[str, Run], dict[str, Any]]:
    runs: dict[str, Run] = {}
    meta: dict[str, Any] = {}
    for key, table in (("big", big_table(20.0, 60.0)), ("std", Table.default())):
        out = run_pooltool([p.case() for p in groups[key]], table, warmup=False, trace=True)
        meta = {"pooltool_version": out["pooltool_version"], "mapping": out["mapping"]}
        for p, res in zip(groups[key], out["results"], strict=True):
            evs = []
            for ev in res["trace"]:
                typ = ev["type"]
                e: dict[str, Any] = {"t": ev["t"], "type": _PT_TYPES.get(typ, "motion")}
                if e["type"] == "motion":
                    e["from"], e["to"] = typ.split("_", 1)
                e["balls"] = [i for i in ev["ids"] if i in ev["balls"]]
                e["state"] = {
                    b: {"before": _pt_state(s["before"]), "after": _pt_state(s["after"])}
                    for b, s in ev["balls"].items()
                }
                evs.append(e)
            final = {b: (xy[0], xy[1]) for b, xy in res["final"].items()}
            runs[f"{p.kind}/{p.label}"] = Run(evs, final)
    return runs, meta


def _deriv(ts: Sequence[float], xs: Sequence[float], i: Sequence[int], t: float) -> float:
    """d/dt at t of the quadratic through three samples (Lagrange)."""
    (t0, t1, t2), (x0, x1, x2) = [ts[k] for k in i], [xs[k] for k in i]
    return (
        x0 * ((t - t1) + (t - t2)) / ((t0 - t1) * (t0 - t2))
        + x1 * ((t - t0) + (t - t2)) / ((t1 - t0) * (t1 - t2))
        + x2 * ((t - t0) + (t - t1)) / ((t2 - t0) * (t2 - t1))
    )


def _traj_state(traj: Any, t: float, after: bool, eps: float = 1e-9) -> State | None:
    """Position and velocity just before/after ``t`` from sampled (t, x, y):
    three samples of one motion segment (a segment boundary repeats its time
    stamp, so three strictly increasing stamps lie in one segment)."""
    ts, xs, ys = (list(map(float, a)) for a in traj)
    n = len(ts)
    if after:
        same = [k for k in range(n) if abs(ts[k] - t) <= eps]
        if not same:
            return None
        k = same[-1]
        idx = [k, k + 1, k + 2]
    else:
        same = [k for k in range(n) if abs(ts[k] - t) <= eps]
        if not same:
            return None
        k = same[0]
        idx = [k - 2, k - 1, k]
    if idx[0] < 0 or idx[-1] >= n or not (ts[idx[0]] < ts[idx[1]] < ts[idx[2]]):
        return None
    j = idx[0] if after else idx[2]
    return {"r": (xs[j], ys[j]), "v": (_deriv(ts, xs, idx, t), _deriv(ts, ys, idx, t))}


def _piramida_state(res: Any, ball: str, t: float) -> dict[str, State | None]:
    """A ball's state just before and just after time ``t``: from
    ``ShotResult.states_at`` (closed forms; "after the events at t") where
    it exists, else from the sampled trajectories."""
    states_at = getattr(res, "states_at", None)
    if states_at is not None:
        out: dict[str, State | None] = {}
        for when, tt in (("before", t - 1e-9), ("after", t)):
            st = states_at(tt).get(ball)
            out[when] = None if st is None else {"r": (st[0], st[1]), "v": (st[2], st[3])}
        return out
    trajs = getattr(res, "trajectories", {}) or {}
    if ball not in trajs:
        return {"before": None, "after": None}
    return {
        "before": _traj_state(trajs[ball], t, False),
        "after": _traj_state(trajs[ball], t, True),
    }


def piramida_runs(groups: dict[str, list[Probe]]) -> tuple[dict[str, Run], str | None]:
    try:
        from piramida.env.physics import simulate
    except Exception as exc:  # not written yet, or broken
        return {}, f"piramida.env.physics.simulate unavailable: {exc!r}"
    runs: dict[str, Run] = {}
    try:
        for plist in groups.values():
            for p in plist:
                res = simulate(p.position, p.shot, table=p.position.table)
                evs = []
                for ev in res.events:
                    e: dict[str, Any] = {"t": ev.t, "type": ev.type, "balls": list(ev.balls)}
                    if ev.type == "motion":
                        e["from"], e["to"] = ev.from_, ev.to
                    e["state"] = {b: _piramida_state(res, b, ev.t) for b in ev.balls}
                    evs.append(e)
                runs[f"{p.kind}/{p.label}"] = Run(evs, dict(res.final.ball_map))
    except Exception as exc:  # physics still under construction
        return {}, f"piramida simulate failed: {exc!r}"
    return runs, None


# ------------------------------------------------------------------ metrics
def _first(run: Run, type_: str, ball: str, **kw: str) -> dict[str, Any] | None:
    for e in run.events:
        if e["type"] == type_ and ball in e["balls"] and all(e.get(k) == v for k, v in kw.items()):
            return e
    return None


def _get(e: dict[str, Any] | None, ball: str, when: str, what: str) -> Vec | None:
    if e is None:
        return None
    s = e["state"].get(ball, {}).get(when)
    return None if s is None else s[what]


def _speed(v: Vec | None) -> float | None:
    return None if v is None else math.hypot(*v)


def _signed(d: Vec, v: Vec | None) -> float | None:
    """Angle of v from d in degrees, + counterclockwise (to the left)."""
    if v is None or math.hypot(*v) < 1e-12:
        return None
    return math.degrees(math.atan2(d[0] * v[1] - d[1] * v[0], d[0] * v[0] + d[1] * v[1]))


def _sub(a: Vec | None, b: Vec | None) -> Vec | None:
    return None if a is None or b is None else (a[0] - b[0], a[1] - b[1])


def metrics(p: Probe, run: Run | None, table: Table) -> dict[str, float | None]:
    ph = table.physics
    if run is None:
        return {}
    m: dict[str, float | None] = {}
    if p.kind == "rolling":
        y0 = p.position.xy("0")[1]
        v0 = _speed(_get(_first(run, "cue", "0"), "0", "after", "v"))
        roll = _first(run, "motion", "0", **{"from": "sliding", "to": "rolling"})
        y_roll = _get(roll, "0", "after", "r")
        v_roll = _speed(_get(roll, "0", "after", "v"))
        total = run.final["0"][1] - y0 if "0" in run.final else None
        slide = None if y_roll is None else y_roll[1] - y0
        m["launch_speed"] = v0
        m["slide_distance"] = slide
        m["roll_distance"] = None if total is None or slide is None else total - slide
        m["total_distance"] = total
        m["speed_at_roll"] = v_roll
        m["closed_slide_distance"] = None if v0 is None else 12 * v0**2 / (49 * ph.mu_s * ph.g)
        m["closed_roll_distance"] = None if v_roll is None else v_roll**2 / (2 * ph.mu_r * ph.g)
    elif p.kind == "cut":
        d = (0.0, 1.0)
        hit = _first(run, "ball_ball", "0")
        m["ob_angle_after"] = _signed(d, _get(hit, "1", "after", "v"))
        m["cb_angle_after"] = _signed(d, _get(hit, "0", "after", "v"))
        m["ob_speed_after"] = _speed(_get(hit, "1", "after", "v"))
        m["cb_speed_after"] = _speed(_get(hit, "0", "after", "v"))
        m["ob_angle_final"] = _signed(d, _sub(run.final.get("1"), _get(hit, "1", "after", "r")))
        m["cb_angle_final"] = _signed(d, _sub(run.final.get("0"), _get(hit, "0", "after", "r")))
    elif p.kind == "cushion":
        hit = _first(run, "cushion", "0")
        vin, vout = _get(hit, "0", "before", "v"), _get(hit, "0", "after", "v")
        if vin is not None:
            m["in_angle"] = math.degrees(math.atan2(abs(vin[1]), -vin[0]))
            m["in_speed"] = _speed(vin)
        if vout is not None:
            m["out_angle"] = math.degrees(math.atan2(abs(vout[1]), vout[0]))
            m["out_speed"] = _speed(vout)
        if vin is not None and vout is not None and vin[0] != 0:
            m["normal_ratio"] = vout[0] / -vin[0]
    return m


def ideal(p: Probe) -> dict[str, float]:
    """Frictionless / closed-form expectations where there is one."""
    if p.kind == "cut":
        t = math.radians(CUT_ANGLE)
        out = {
            "ob_angle_after": CUT_ANGLE,
            "ob_angle_final": CUT_ANGLE,
            "cb_angle_after": -90 + CUT_ANGLE,
        }
        if p.label == "stun":
            out["cb_angle_final"] = -90 + CUT_ANGLE
        else:
            out["cb_angle_final"] = -math.degrees(
                math.atan(math.sin(t) * math.cos(t) / (math.sin(t) ** 2 + 0.4))
            )
        return out
    if p.kind == "cushion":
        out = {"in_angle": p.params["angle"], "in_speed": p.params["v"]}
        return {k: v for k, v in out.items() if not math.isnan(v)}
    return {}


def crosscheck() -> dict[str, Any]:
    groups = probes()
    tables = {"big": big_table(20.0, 60.0), "std": Table.default()}
    notes: list[str] = []
    try:
        pt_runs, meta = pooltool_runs(groups)
    except PooltoolUnavailable as exc:
        pt_runs, meta = {}, {}
        notes.append(str(exc).splitlines()[0])
    pr_runs, why = piramida_runs(groups)
    if why:
        notes.append(why)
    rows = []
    for key, plist in groups.items():
        for p in plist:
            name = f"{p.kind}/{p.label}"
            rows.append(
                {
                    "probe": name,
                    "params": p.params,
                    "position": p.position.to_text(),
                    "shot": p.shot.to_text(),
                    "ideal": ideal(p),
                    "pooltool": metrics(p, pt_runs.get(name), tables[key]) if pt_runs else None,
                    "piramida": metrics(p, pr_runs.get(name), tables[key]) if pr_runs else None,
                }
            )
    return {**meta, "table": Table.default().name, "probes": rows, "notes": notes}


def format_table(rep: dict[str, Any]) -> str:
    def f(x: Any) -> str:
        return "-" if x is None else f"{x:.4g}"

    lines = [
        f"{'probe':<22}{'quantity':<22}{'ideal':>11}{'pooltool':>12}{'piramida':>12}{'diff':>12}"
    ]
    for row in rep["probes"]:
        pt_m, pr_m = row["pooltool"] or {}, row["piramida"] or {}
        keys = list(dict.fromkeys([*pt_m, *pr_m]))
        for i, k in enumerate(keys):
            a, b = pt_m.get(k), pr_m.get(k)
            diff = None if a is None or b is None else b - a
            lines.append(
                f"{row['probe'] if i == 0 else '':<22}{k:<22}{f(row['ideal'].get(k)):>11}"
                f"{f(a):>12}{f(b):>12}{f(diff):>12}"
            )
    lines.extend(f"note: {n}" for n in rep["notes"])
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    ap.add_argument("--out", type=Path, default=None, help="write the result file here instead of bench/results/crosscheck.json")
    args = ap.parse_args(argv)
    rep = crosscheck()
    write_record("crosscheck", rep, argv, out=args.out)
    sys.stdout.write((json.dumps(rep) if args.json else format_table(rep)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
