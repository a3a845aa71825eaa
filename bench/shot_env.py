"""Shot-selection environment steps per CPU second (training/shot_env.py).

Run from the repository root::

    .venv/bin/python -m bench.shot_env [--steps N] [--quick] [--variants free,combined] [--json] [--out FILE]

For each variant and candidate search ("planner", the env's default,
"wide", the shipped policies', "lean", the policies' fast one, and
"greedy", what the training configs use from scratch), in two set-ups as
``bench.env_steps`` has them:

- ``vs greedy`` (``ShotSelectionEnv``, the single-agent env): the learner
  picks uniformly among the options offered (the mask) against the greedy
  opponent. A step lists the next decision's options (``candidates``: most
  of its cost) and plays the opponent's replies, whose own candidate
  search is timed too.
- ``two players`` (``ShotCore`` with ``opponents = {"self": 1}``, the
  RLlib env's self-play frames): both seats pick uniformly among their
  options, one decision a step, no agent inside the env.

With the "pro" noise, over as many seeded frames as it takes to make
``--steps`` steps, after a few warm-up steps (numba's kernels) and the
starts of four more frames (the break's values, which a process makes
once per breaker and keeps, stay out of the measured steps).
``options_share`` is the part spent listing the learner's options. Rates
are per CPU second of this process (``time.process_time``); the process is
pinned to one CPU where the OS allows it. The target is 200 steps per CPU
second. Writes ``bench/results/shot_env.json``; ``--quick`` measures 20
steps of each.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

import piramida.training.shot_env as se
from bench.env_steps import pin_one_core
from bench.record import write as write_record

SETUPS = ("vs greedy", "two players")


def measure(variant: str, search: str, steps: int, setup: str = "vs greedy") -> dict[str, Any]:
    rng = np.random.default_rng(0)
    listed = {"s": 0.0}
    inner = se.options

    def timed(*a: Any, **kw: Any) -> Any:
        t = time.process_time()
        try:
            return inner(*a, **kw)
        finally:
            listed["s"] += time.process_time() - t

    # Both set-ups as one interface: reset(seed) and step(actor, action)
    # give {actor to act: observation}; step also whether the frame ended.
    if setup == "vs greedy":
        env = se.ShotSelectionEnv(variant, opponent="greedy", search=search)

        def reset(seed: int) -> dict[str, Any]:
            return {"learner": env.reset(seed=seed)[0]}

        def step(actor: str, action: int) -> tuple[dict[str, Any], bool]:
            obs, _, term, trunc, _ = env.step(action)
            return {actor: obs}, bool(term or trunc)

    elif setup == "two players":
        core = se.ShotCore({"variant": variant, "search": search, "opponents": {se.SELF: 1.0}})

        def reset(seed: int) -> dict[str, Any]:
            return core.reset(seed=seed)[0]

        def step(actor: str, action: int) -> tuple[dict[str, Any], bool]:
            obs, _, term, trunc, _ = core.step({actor: action})
            return obs, bool(term["__all__"] or trunc["__all__"])

    else:
        raise ValueError(f"setup must be one of {', '.join(SETUPS)}, got {setup!r}")

    def run(n: int, seed: int) -> tuple[int, int]:
        done, frames = 0, 0
        while done < n:
            obs = reset(seed + frames)
            frames += 1
            while done < n:
                actor = next(iter(obs))
                legal = np.flatnonzero(obs[actor]["action_mask"])
                obs, over = step(actor, int(rng.choice(legal)))
                done += 1
                if over:
                    break
        return done, frames

    # Warm-up: the kernels compiled or loaded, and the break's values kept
    # for each breaker (``strokes.best_break``'s memo, made once a process:
    # a training run's env runner makes them in its first frames and keeps
    # them for millions of steps, so a measured frame should not pay them).
    run(5, 10_000)
    for k in range(1, 5):
        reset(10_000 + k)
    se.options = timed
    try:
        t0, w0 = time.process_time(), time.perf_counter()
        done, frames = run(steps, 0)
        cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    finally:
        se.options = inner
    return {
        "variant": variant,
        "search": search,
        "setup": setup,
        "steps": done,
        "frames": frames,
        "cpu_seconds": cpu,
        "wall_seconds": wall,
        "steps_per_cpu_s": done / cpu,
        "ms_per_step": 1000 * cpu / done,
        "options_share": listed["s"] / cpu,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--quick", action="store_true", help="20 steps of each (a smoke run)")
    ap.add_argument("--variants", default="free,combined")
    ap.add_argument("--searches", default="planner,wide,lean,greedy")
    ap.add_argument("--setups", default=",".join(SETUPS), help="vs greedy, two players (comma-separated)")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    ap.add_argument("--out", type=Path, default=None, help="write the result file here instead of bench/results/shot_env.json")
    a = ap.parse_args(argv)
    setups = [x.strip() for x in a.setups.split(",")]
    for x in setups:
        if x not in SETUPS:
            ap.error(f"--setups: unknown set-up {x!r} (known: {', '.join(SETUPS)})")
    for x in a.searches.split(","):
        if x not in se.SEARCHES:
            ap.error(f"--searches: unknown search {x!r} (known: {', '.join(se.SEARCHES)})")
    steps = 20 if a.quick else a.steps
    pinned = pin_one_core()
    rows = [
        measure(v, s, steps, u) for u in setups for v in a.variants.split(",") for s in a.searches.split(",")
    ]
    out = {"pinned": pinned, "steps": steps, "results": rows}
    write_record("shot_env", out, argv, out=a.out)
    if a.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"{'set-up':12} {'variant':10} {'search':8} {'steps/CPU s':>11} {'ms/step':>8} {'options':>8} {'frames':>7}")
    for r in rows:
        print(f"{r['setup']:12} {r['variant']:10} {r['search']:8} {r['steps_per_cpu_s']:11.1f} "
              f"{r['ms_per_step']:8.1f} {r['options_share']:8.0%} {r['frames']:7d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
