"""Run piramida-style shots through pooltool 0.6.0 and report what happened.

This script runs ONLY under the pooltool virtual environment
(``bench/.venv-pooltool``, made by ``make bench-deps``): pooltool pins
numba < 0.63 while piramida uses a newer numba, so the two engines never share
a process. It imports neither piramida nor anything else from this repository;
the caller (``bench/pooltool_client.py``) sends everything as JSON.

Usage::

    bench/.venv-pooltool/bin/python bench/pooltool_runner.py SPEC.json OUT.json
    bench/.venv-pooltool/bin/python bench/pooltool_runner.py - < SPEC.json > OUT.json

(A caller that reads the progress lines on stderr should pass OUT.json: a
large result written to a stdout pipe nobody drains would block.)

Input (JSON object)::

    {"table": {...},            # bench/pooltool_client.table_spec(Table)
     "cases": [{"balls": {"0": [x, y], ...},
                "shot": {"ball": "0", "phi": 90, "v": 2, "a": 0, "b": 0, "theta": 0}}],
     "warmup": true,            # throw-away shots first (JIT compile): a synthetic
                               # one (timed as cold_s), then the first case, untimed
     "max_events": 20000,       # pooltool stops a shot after this many events
     "trace": false}            # add every event with the balls' states before/after

Output (JSON object): ``pooltool_version``, ``import_s`` (importing pooltool),
``cold_s`` (the first simulation in this process, JIT compile included; with
an empty ``NUMBA_CACHE_DIR`` this is the full compile), ``mapping`` (the
parameters actually handed to pooltool) and ``results``, one per case:
``final`` (ball id -> [x, y] of balls still on the table), ``pocketed``
(ball id -> pooltool pocket id), ``n_events`` (all pooltool events but the
null one, transitions included), ``n_collisions`` (ball-ball, cushion, jaw,
pocket), ``sim_s`` (pooltool.simulate alone) and ``wall_s`` (building the
system, simulating and reading the result back; the benchmark's shots/s uses
this, as piramida's figure includes building its arrays too), and
``cpu_s`` (the same span in this thread's CPU time, which other load on the
machine inflates far less than wall time).

Shot convention mapping (piramida ``Shot`` -> ``pooltool.Cue``), checked
against pooltool 0.6.0's ``instantaneous_point.cue_strike``:

- Frame: both put the origin at a table corner with x across the table
  (0..width) and y along it (0..length), z up; no transform of positions.
- ``phi``: both are the direction of the cue (and of the struck ball when
  there is no squirt) in degrees counterclockwise from +x. Unchanged.
- ``theta``: both the cue elevation in degrees. Unchanged.
- ``b``: both + is above centre (topspin), in ball radii. Unchanged.
- ``a``: piramida + is right of centre as the shooter sees it (right
  english, the ball spins counterclockwise seen from above); pooltool + is
  LEFT of centre. So ``a_pooltool = -a``.
- ``v`` -> ``V0``: both the cue speed at impact. pooltool's point-impact
  model is perfectly elastic between tip and ball (ball speed
  ``2 V0 / (1 + m/M + ...)``); piramida's has the tip restitution ``e_cue``
  (``(1 + e_cue) V0 / (1 + m/M + ...)``, Alciatore TP A-30). With
  ``V0 = v * (1 + e_cue) / 2`` the ball leaves with the same velocity and
  spin in both. Cue mass ``M`` = the table's ``cue_mass``.
- Squirt (cue-ball deflection with side spin): pooltool's TP A-31 squirt
  with the table's ``cue_end_mass`` as the cue's ``end_mass``
  (``squirt_throttle = 1``), or off (``squirt_throttle = 0``) when the
  table has no end mass. Both engines then deflect the ball by the same
  angle at b = 0; piramida applies it as a lateral impulse (which also
  trims the side spin a little, and covers b != 0), pooltool by turning
  the ball's velocity.

Physical constants mapping (table TOML ``[physics]`` -> pooltool):
``mu_s -> u_s``, ``mu_r -> u_r``, ``g -> g``, ``e_ball -> e_b``,
ball-ball friction: ``ball_friction_model = "alciatore"`` (the default) ->
pooltool's ``AlciatoreBallBallFriction(a, b, c)`` with the table's
``mu_ball_a, mu_ball_b, mu_ball_c``; ``"constant"`` -> ``mu_ball -> u_b``
with the constant ("average") model. (``bench/results/crosscheck.json`` is
taken with the default table, so with the Alciatore model and squirt from
the 7 g end mass on both sides; its ``mapping`` records both.)
``e_cushion -> e_c``, ``mu_cushion -> f_c``; ``mu_sp`` is dimensionless in
piramida (spin decay ``5 mu_sp g / (2 R)``, Leckie & Greenspan), and pooltool
uses the same law with ``u_sp = u_sp_proportionality * R``, so
``u_sp_proportionality = mu_sp / R``. Cushion model: ``han2005`` ->
``Han2005Linear``/``Han2005Circular``; ``mathavan2010`` ->
``Mathavan2010Linear``/``Mathavan2010Circular``. pooltool has no airborne
balls, so ``launch_speed`` has no counterpart.

Table mapping (``PocketTableSpecs``): ``l``, ``w`` = length, width;
``cushion_height`` = ratio * 2R; pocket angles 0 so that the jaw facings run
along the pocket axis as in piramida's table; ``corner_pocket_width`` and
``side_pocket_width`` = the mouths (with angle 0 pooltool's jaw circles are
then exactly piramida's: same centres, same radius, same closest gap);
``*_jaw_radius`` = jaw radii. pooltool drops a ball when its centre enters a
pocket circle; piramida when the centre crosses the capture line
``capture_depth`` behind the mouth. The circle is given radius mouth/2 and is
centred on the pocket axis so that its nearest point lies on the capture
line; between the facings (|offset| <= mouth/2 - R) the two criteria differ
by under 0.1 mm at a corner pocket and 0.5 mm at a middle one.
"""

from __future__ import annotations

import json
import math
import sys
import time
from typing import Any

t_import = time.perf_counter()
import numpy as np  # noqa: E402
import pooltool as pt  # noqa: E402
from pooltool.physics.engine import PhysicsEngine  # noqa: E402
from pooltool.physics.resolve.ball_ball.friction import (  # noqa: E402
    AlciatoreBallBallFriction,
    AverageBallBallFriction,
)
from pooltool.physics.resolve.ball_ball.frictional_inelastic import (  # noqa: E402
    FrictionalInelastic,
)
from pooltool.physics.resolve.ball_cushion.han_2005.model import (  # noqa: E402
    Han2005Circular,
    Han2005Linear,
)
from pooltool.physics.resolve.ball_cushion.mathavan_2010.model import (  # noqa: E402
    Mathavan2010Circular,
    Mathavan2010Linear,
)
from pooltool.physics.resolve.ball_pocket import CanonicalBallPocket  # noqa: E402
from pooltool.physics.resolve.resolver import Resolver  # noqa: E402
from pooltool.physics.resolve.stick_ball.instantaneous_point import (  # noqa: E402
    InstantaneousPoint,
)
from pooltool.physics.resolve.transition import CanonicalTransition  # noqa: E402

IMPORT_S = time.perf_counter() - t_import

COLLISIONS = {
    pt.EventType.BALL_BALL,
    pt.EventType.BALL_LINEAR_CUSHION,
    pt.EventType.BALL_CIRCULAR_CUSHION,
    pt.EventType.BALL_POCKET,
}


class Model:
    """pooltool objects for one table spec, built once and reused per shot."""

    def __init__(self, spec: dict[str, Any]) -> None:
        t = spec
        ph = t["physics"]
        r = float(t["ball_radius"])
        self.R = r
        # Pocket circles: radius mouth/2, nearest point on the capture line.
        # Corner: the mouth centre lies s_m = (setback - rj)/sqrt(2) inside the
        # table corner along the diagonal (see piramida.env.table).
        c_mouth, c_rj, c_cap = t["corner_mouth"], t["corner_jaw_radius"], t["corner_capture_depth"]
        setback = (c_mouth + 2 * c_rj) / math.sqrt(2) - c_rj
        s_mouth = (setback - c_rj) / math.sqrt(2)
        c_radius = c_mouth / 2
        c_depth = c_radius - (s_mouth - c_cap)
        m_mouth, m_rj, m_cap = t["middle_mouth"], t["middle_jaw_radius"], t["middle_capture_depth"]
        m_radius = m_mouth / 2
        m_depth = m_rj + m_cap + m_radius
        self.specs = pt.objects.PocketTableSpecs(
            l=float(t["length"]),
            w=float(t["width"]),
            cushion_height=float(t["cushion_height"]),
            corner_pocket_width=c_mouth,
            corner_pocket_angle=0.0,
            corner_pocket_depth=c_depth,
            corner_pocket_radius=c_radius,
            corner_jaw_radius=c_rj,
            side_pocket_width=m_mouth,
            side_pocket_angle=0.0,
            side_pocket_depth=m_depth,
            side_pocket_radius=m_radius,
            side_jaw_radius=m_rj,
        )
        self.table = pt.Table.from_table_specs(self.specs)
        self.ball_kw = {
            "m": float(t["ball_mass"]),
            "R": r,
            "u_s": float(ph["mu_s"]),
            "u_r": float(ph["mu_r"]),
            "u_sp_proportionality": float(ph["mu_sp"]) / r,
            "u_b": float(ph["mu_ball"]),
            "e_b": float(ph["e_ball"]),
            "e_c": float(ph["e_cushion"]),
            "f_c": float(ph["mu_cushion"]),
            "g": float(ph["g"]),
        }
        end_mass = float(ph.get("cue_end_mass", 0.0))
        self.cue_specs = (
            pt.objects.CueSpecs(M=float(ph["cue_mass"]), end_mass=end_mass)
            if end_mass > 0
            else pt.objects.CueSpecs(M=float(ph["cue_mass"]))
        )
        self.speed_scale = (1.0 + float(ph["e_cue"])) / 2.0
        model = ph.get("cushion_model", "han2005")
        if model == "han2005":
            lin, circ = Han2005Linear(), Han2005Circular()
        elif model == "mathavan2010":
            lin, circ = Mathavan2010Linear(), Mathavan2010Circular()
        else:
            raise SystemExit(f"pooltool_runner: unknown cushion_model {model!r}")
        if ph.get("ball_friction_model", "constant") == "alciatore":
            friction = AlciatoreBallBallFriction(
                a=float(ph["mu_ball_a"]), b=float(ph["mu_ball_b"]), c=float(ph["mu_ball_c"])
            )
        else:
            friction = AverageBallBallFriction()
        self.engine = PhysicsEngine(
            resolver=Resolver(
                ball_ball=FrictionalInelastic(friction=friction),
                ball_linear_cushion=lin,
                ball_circular_cushion=circ,
                ball_pocket=CanonicalBallPocket(),
                stick_ball=InstantaneousPoint(english_throttle=1.0, squirt_throttle=1.0 if end_mass > 0 else 0.0),
                transition=CanonicalTransition(),
            )
        )
        self.mapping = {
            "PocketTableSpecs": {
                k: getattr(self.specs, k)
                for k in (
                    "l",
                    "w",
                    "cushion_height",
                    "corner_pocket_width",
                    "corner_pocket_angle",
                    "corner_pocket_depth",
                    "corner_pocket_radius",
                    "corner_jaw_radius",
                    "side_pocket_width",
                    "side_pocket_angle",
                    "side_pocket_depth",
                    "side_pocket_radius",
                    "side_jaw_radius",
                )
            },
            "BallParams": dict(self.ball_kw),
            "cue_M": self.cue_specs.M,
            "V0_per_v": self.speed_scale,
            "a_sign": -1,
            "cue_end_mass": end_mass,
            "squirt_throttle": 1.0 if end_mass > 0 else 0.0,
            "ball_ball": (
                f"frictional_inelastic + alciatore (a={friction.a}, b={friction.b}, c={friction.c})"
                if isinstance(friction, AlciatoreBallBallFriction)
                else "frictional_inelastic + average (constant u_b)"
            ),
            "cushion": model,
        }

    def system(self, balls: dict[str, list[float]], shot: dict[str, Any]) -> pt.System:
        pt_balls = {
            bid: pt.Ball.create(bid, xy=(float(x), float(y)), **self.ball_kw)
            for bid, (x, y) in balls.items()
        }
        cue = pt.Cue(
            cue_ball_id=str(shot["ball"]),
            V0=float(shot["v"]) * self.speed_scale,
            phi=float(shot["phi"]),
            theta=float(shot.get("theta", 0.0)),
            a=-float(shot.get("a", 0.0)),
            b=float(shot.get("b", 0.0)),
            specs=self.cue_specs,
        )
        return pt.System(cue=cue, table=self.table.copy(), balls=pt_balls)


def _state(ball: Any) -> dict[str, Any] | None:
    if ball is None or not hasattr(ball, "state"):
        return None
    rvw = ball.state.rvw
    return {
        "r": rvw[0].tolist(),
        "v": rvw[1].tolist(),
        "w": rvw[2].tolist(),
        "s": int(ball.state.s),
    }


def _trace(system: pt.System) -> list[dict[str, Any]]:
    """Every event with each ball agent's state just before and just after
    it: what the physics cross-check compares."""
    out: list[dict[str, Any]] = []
    for ev in system.events:
        if ev.event_type == pt.EventType.NONE:
            continue
        balls = {}
        for ag in ev.agents:
            if ag.agent_type == pt.events.AgentType.BALL:
                balls[ag.id] = {"before": _state(ag.initial), "after": _state(ag.final)}
        out.append({"t": ev.time, "type": str(ev.event_type), "ids": list(ev.ids), "balls": balls})
    return out


def run_case(model: Model, case: dict[str, Any], max_events: int, trace: bool) -> dict[str, Any]:
    c0 = time.thread_time()
    t0 = time.perf_counter()
    system = model.system(case["balls"], case["shot"])
    t1 = time.perf_counter()
    pt.simulate(system, engine=model.engine, inplace=True, max_events=max_events)
    t2 = time.perf_counter()
    final: dict[str, list[float]] = {}
    pocketed: dict[str, str] = {}
    for ev in system.events:
        if ev.event_type == pt.EventType.BALL_POCKET:
            pocketed[ev.ids[0]] = ev.ids[1]
    for bid, ball in system.balls.items():
        if bid not in pocketed:
            final[bid] = [float(ball.state.rvw[0][0]), float(ball.state.rvw[0][1])]
    n_events = sum(1 for ev in system.events if ev.event_type != pt.EventType.NONE)
    n_coll = sum(1 for ev in system.events if ev.event_type in COLLISIONS)
    t3 = time.perf_counter()
    c3 = time.thread_time()
    res: dict[str, Any] = {
        "final": final,
        "pocketed": pocketed,
        "n_events": n_events,
        "n_collisions": n_coll,
        "t_end": float(system.t),
        "truncated": bool(max_events and n_events >= max_events),
        "sim_s": t2 - t1,
        "wall_s": (t1 - t0) + (t3 - t1),
        "cpu_s": c3 - c0,
    }
    if trace:
        res["trace"] = _trace(system)
    return res


def _warmup_case(table: dict[str, Any]) -> dict[str, Any]:
    """A shot touching every kernel: ball-ball, cushion, jaw, pocket, every
    state transition, side spin."""
    w, length = float(table["width"]), float(table["length"])
    return {
        "balls": {"0": [w / 2, length / 4], "1": [w / 2 + 0.01, length / 2]},
        "shot": {"ball": "0", "phi": 95.0, "v": 4.0, "a": 0.2, "b": 0.2, "theta": 0.0},
    }


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2):
        sys.stderr.write("usage: pooltool_runner.py SPEC.json|- [OUT.json]\n")
        return 2
    raw = sys.stdin.read() if argv[0] == "-" else open(argv[0], encoding="utf-8").read()
    spec = json.loads(raw)
    model = Model(spec["table"])
    max_events = int(spec.get("max_events", 20000))
    trace = bool(spec.get("trace", False))
    cold_s = None
    if spec.get("warmup", True):
        t0 = time.perf_counter()
        run_case(model, _warmup_case(spec["table"]), max_events, False)
        cold_s = time.perf_counter() - t0
        # Some kernels compile on their first use only (many balls, jaws):
        # the first real case once more, untimed, keeps that out of the figures.
        if spec["cases"]:
            run_case(model, spec["cases"][0], max_events, False)
    results = []
    cases = spec["cases"]
    for i, case in enumerate(cases):
        results.append(run_case(model, case, max_events, trace))
        # The parent reads these lines to drive its progress bar.
        sys.stderr.write(f"progress {i + 1} {len(cases)}\n")
        sys.stderr.flush()
    out = {
        "pooltool_version": getattr(pt, "__version__", "unknown"),
        "numpy_version": np.__version__,
        "import_s": IMPORT_S,
        "cold_s": cold_s,
        "mapping": model.mapping,
        "results": results,
    }
    if len(argv) == 2:
        with open(argv[1], "w", encoding="utf-8") as fh:
            json.dump(out, fh)
    else:
        sys.stdout.write(json.dumps(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
