"""Environment steps per second for every variant, on one core.

Run from the repository root::

    .venv/bin/python -m bench.env_steps [--steps N] [--repeat R] [--quick] [--json] [--out FILE]

For each ``piramida/<Variant>-v0`` the learner plays uniformly random
masked actions (``opponents.random_action``; drawing them is timed too,
as any driver's would be) against the default random opponent with the default noise
("pro"), over as many seeded frames as it takes to make ``--steps`` learner
steps (after one warm-up frame that compiles/loads the numba kernels). An
env step includes the opponent's replies, so the table also gives the game
actions (shots and choices of both players) per second, the share of the
time spent inside ``physics.simulate``, and the same for the two-player
``MultiAgentPyramidCore`` (one action per step). Each measurement is
repeated ``--repeat`` times over the same seeds and actions and the fastest
round kept. Rates are per CPU second of this process (``time.process_time``),
which the other processes of a shared machine disturb far less than wall
time; the JSON also has ``wall_seconds``. The process is pinned to one CPU
where the OS allows it. Writes ``bench/results/env_steps.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

import piramida.env.gym as pg
from bench.record import write as write_record
from piramida.env.gym.multi import MultiAgentPyramidCore
from piramida.env.gym.opponents import random_action


def pin_one_core() -> str:
    """Pin this process to one CPU (a per-core figure); what was done, in words."""
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return "not pinned"


class _Timed:
    """Wraps a frame driver's physics to add up the time spent in it."""

    def __init__(self, frame: Any) -> None:
        self.inner = frame.driver.physics
        self.seconds = 0.0
        self.calls = 0
        frame.driver.physics = self

    def __call__(self, position: Any, shot: Any) -> Any:
        t = time.process_time()
        try:
            return self.inner(position, shot)
        finally:
            self.seconds += time.process_time() - t
            self.calls += 1


def _single(env_id: str, steps: int) -> dict[str, Any]:
    env = pg.PyramidEnv(pg.ENV_IDS[env_id])
    rng = np.random.default_rng(0)
    # Warm-up frame: numba compilation / cache load is not an env step.
    obs, _ = env.reset(seed=10_000)
    for _ in range(50):
        obs, _, term, trunc, _ = env.step(random_action(obs["action_mask"], rng))
        if term or trunc:
            break
    # The frame driver outlives its frames and calls its ``physics`` for
    # every stroke, so wrapping the attribute once sees every shot.
    timed = _Timed(env.frame)
    rng = np.random.default_rng(0)
    done_steps, actions, frames, seed = 0, 0, 0, 0
    t0, w0 = time.process_time(), time.perf_counter()
    while done_steps < steps:
        obs, _ = env.reset(seed=seed)
        seed += 1
        frames += 1
        start_actions = env.frame.shots
        term = trunc = False
        while not (term or trunc) and done_steps < steps:
            obs, _, term, trunc, _ = env.step(random_action(obs["action_mask"], rng))
            done_steps += 1
        actions += env.frame.shots - start_actions
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    return {
        "steps": done_steps,
        "frames": frames,
        "seconds": cpu,
        "wall_seconds": wall,
        "steps_per_s": done_steps / cpu,
        "actions_per_s": actions / cpu,
        "ms_per_step": 1000 * cpu / done_steps,
        "physics_share": timed.seconds / cpu,
    }


def _multi(variant: str, steps: int) -> dict[str, Any]:
    core = MultiAgentPyramidCore({"variant": variant})
    rng = np.random.default_rng(0)
    done, seed = 0, 0
    t0, w0 = time.process_time(), time.perf_counter()
    while done < steps:
        obs, _ = core.reset(seed=seed)
        seed += 1
        while done < steps:
            (agent,) = obs
            obs, _, term, trunc, _ = core.step(
                {agent: random_action(obs[agent]["action_mask"], rng)}
            )
            done += 1
            if term["__all__"] or trunc["__all__"]:
                break
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    return {"steps": done, "seconds": cpu, "wall_seconds": wall, "steps_per_s": done / cpu}


def _best(fn: Any, repeat: int) -> dict[str, Any]:
    # Every round replays the same seeds and actions, so the fastest round
    # is the one least disturbed by other processes (caches, frequency).
    return min((fn() for _ in range(repeat)), key=lambda r: r["seconds"])


def run(steps: int, repeat: int = 3) -> dict[str, Any]:
    pinned = pin_one_core()
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    rows = {}
    for env_id, variant in pg.ENV_IDS.items():
        row = _best(lambda e=env_id: _single(e, steps), repeat)
        multi = _best(lambda v=variant: _multi(v, steps), repeat)
        row["multi_steps_per_s"] = multi["steps_per_s"]
        rows[env_id] = row
    return {
        "pinned": pinned,
        "noise": pg.DEFAULT_NOISE,
        "opponent": "random",
        "steps_per_variant": steps,
        "repeat": repeat,
        # Other processes on the machine: 1-minute load average before and after.
        "load_avg_1m": [load_before, os.getloadavg()[0] if hasattr(os, "getloadavg") else None],
        "results": rows,
    }


def table(report: dict[str, Any]) -> str:
    head = (
        f"{'env':32} {'steps/s':>9} {'actions/s':>10} {'ms/step':>8} "
        f"{'physics':>8} {'frames':>7} {'MA steps/s':>11}"
    )
    lines = [head, "-" * len(head)]
    for env_id, r in report["results"].items():
        lines.append(
            f"{env_id:32} {r['steps_per_s']:9.0f} {r['actions_per_s']:10.0f} {r['ms_per_step']:8.2f} "
            f"{100 * r['physics_share']:7.0f}% {r['frames']:7d} {r['multi_steps_per_s']:11.0f}"
        )
    lines.append(
        f"({report.get('pinned')}; noise {report['noise']}; random learner vs random opponent; per CPU second; "
        f"{report['steps_per_variant']} learner steps per variant, best of {report['repeat']}; "
        f"load average {report.get('load_avg_1m')})"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="Environment steps per second for every variant, on one core."
    )
    ap.add_argument("--steps", type=int, default=2000, help="learner steps per variant (2000)")
    ap.add_argument("--repeat", type=int, default=3, help="rounds; the fastest is kept (3)")
    ap.add_argument("--quick", action="store_true", help="200 steps per variant, 1 round")
    ap.add_argument("--json", action="store_true", help="print JSON instead of the table")
    ap.add_argument("--out", type=Path, default=None, help="write the result file here instead of bench/results/env_steps.json")
    args = ap.parse_args(argv)
    report = run(200 if args.quick else args.steps, 1 if args.quick else args.repeat)
    report["quick"] = args.quick
    write_record("env_steps", report, argv, out=args.out)
    print(json.dumps(report, indent=2) if args.json else table(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
