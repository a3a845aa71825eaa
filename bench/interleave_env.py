"""Two versions of the shot-selection environment in one process, frame by
frame: an older commit's ``ShotSelectionEnv`` and the working tree's, each
playing the same seeded frames, the order swapped every frame and every
round (``bench.interleave``'s way, for ``bench.shot_env``'s benchmark).

Run from the repository root::

    .venv/bin/python -m bench.interleave_env OLD [--variant free] [--search planner] [--setup "vs greedy"]
        [--frames 10] [--rounds 3] [--json]

Why: on a shared machine ``bench.shot_env`` run twice on the same code
can differ by 1.6x (75 and 121 steps per CPU second, combined pyramid,
the planner's candidates), and ``bench.ab``'s side-by-side rounds by
0.88-1.59: the drift over minutes is larger than most changes. Here both versions play each frame
one after the other on one CPU, timed by the thread's CPU time.

What a frame is: ``reset(seed=k)`` (the rack, the seats and the noise of
frame ``k``), then the learner picks among the options offered (the mask)
with ``numpy.random.default_rng(k)`` against the greedy opponent at the
noise preset, until the frame ends or ``--max-steps``. With ``--setup
"two players"`` (``bench.shot_env``'s other set-up: ``ShotCore`` with
``opponents = {"self": 1}``, the RLlib env's self-play frames) both
seats pick that way, one decision a step, and every step counts. The same code picks
the same options, so two versions that list the same candidates play the
same frames; frames whose step counts differ are reported (a change that
changes candidates plays other frames, and its ratio compares other work).
Prints each version's steps per CPU second, their ratio (new / old: above
1 the working tree is faster), each round's ratio; ``--json`` as one
object with both code versions and the command.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from typing import Any

from bench.ab import ABError, signed, summary
from bench.interleave import Modules, both, launch

#: ``bench.shot_env``'s set-ups (not imported from it: it imports the
#: environment, which must be imported only once a version's modules are in
#: place).
SETUPS = ("vs greedy", "two players")


class EnvVersion(Modules):
    """One version's environment, with its modules kept aside."""

    probe = "piramida.training.shot_env"

    def __init__(self, variant: str, search: str, noise: str, setup: str = "vs greedy") -> None:
        import numba

        from piramida.training import shot_env as se

        numba.set_num_threads(1)
        self.two = setup == "two players"
        if self.two:
            self.core = se.ShotCore({"variant": variant, "search": search, "noise": noise, "opponents": {se.SELF: 1.0}})
        else:
            self.env = se.ShotSelectionEnv(variant, opponent="greedy", noise=noise, search=search)
        super().__init__()

    def frame(self, seed: int, max_steps: int) -> tuple[float, int]:
        """Frame ``seed`` (module docstring): (CPU seconds, learner steps)."""
        import numpy as np

        self.enter()
        try:
            rng = np.random.default_rng(seed)
            t0 = time.thread_time()
            steps = 0
            if self.two:
                seats, _ = self.core.reset(seed=seed)
                while steps < max_steps:
                    actor = next(iter(seats))
                    legal = np.flatnonzero(seats[actor]["action_mask"])
                    seats, _, term, trunc, _ = self.core.step({actor: int(rng.choice(legal))})
                    steps += 1
                    if term["__all__"] or trunc["__all__"]:
                        break
            else:
                obs, _ = self.env.reset(seed=seed)
                while steps < max_steps:
                    legal = np.flatnonzero(obs["action_mask"])
                    obs, _, term, trunc, _ = self.env.step(int(rng.choice(legal)))
                    steps += 1
                    if term or trunc:
                        break
            dt = time.thread_time() - t0
        finally:
            self.leave()
        return dt, steps


def worker(layout: str, variant: str, search: str, noise: str, frames: int, rounds: int,
           max_steps: int, setup: str = "vs greedy") -> dict[str, Any]:
    """The comparison, in a process of its own (it swaps modules)."""
    old, new = both(layout, lambda: EnvVersion(variant, search, noise, setup))
    assert isinstance(old, EnvVersion) and isinstance(new, EnvVersion)
    # Warm-up, untimed: a frame of each (the old tree's kernels compile).
    for v in (old, new):
        v.frame(10_000, max_steps)
    gc.collect()
    gc.freeze()
    cpu = {"old": 0.0, "new": 0.0}
    steps = {"old": 0, "new": 0}
    round_ratios: list[float] = []
    differ = 0
    for r in range(rounds):
        this = {"old": 0.0, "new": 0.0}
        n = {"old": 0, "new": 0}
        for k in range(frames):
            order = (("old", old), ("new", new)) if (k + r) % 2 == 0 else (("new", new), ("old", old))
            got: dict[str, int] = {}
            for name, v in order:
                dt, got[name] = v.frame(k, max_steps)
                this[name] += dt
                n[name] += got[name]
            differ += got["old"] != got["new"]
        for name in cpu:
            cpu[name] += this[name]
            steps[name] += n[name]
        round_ratios.append((n["new"] / this["new"]) / (n["old"] / this["old"]))
        print(f"round {r + 1}/{rounds}: old {n['old'] / this['old']:.1f}  new {n['new'] / this['new']:.1f} "
              f"steps per CPU second  ratio {round_ratios[-1]:.3f}", file=sys.stderr, flush=True)
    old_rate, new_rate = steps["old"] / cpu["old"], steps["new"] / cpu["new"]
    return {
        "variant": variant, "search": search, "setup": setup, "noise": noise, "frames": frames, "rounds": rounds,
        "max_steps": max_steps, "old_steps_per_cpu_s": old_rate, "new_steps_per_cpu_s": new_rate,
        "ratio": new_rate / old_rate, "round_ratios": round_ratios,
        **{f"round_{k}": v for k, v in summary(round_ratios).items()},
        "frames_whose_steps_differ": differ // max(rounds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(prog="python -m bench.interleave_env", description=(__doc__ or "").split("\n")[0])
    ap.add_argument("old", nargs="?", help="the commit to compare the working tree with")
    ap.add_argument("--variant", default="free")
    ap.add_argument("--search", choices=("planner", "wide", "lean", "greedy"), default="planner")
    ap.add_argument("--noise", default="pro")
    ap.add_argument("--setup", choices=SETUPS, default="vs greedy", help="as bench.shot_env has them")
    ap.add_argument("--frames", type=int, default=10, help="seeded frames a round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--max-steps", type=int, default=200, help="learner steps a frame at most")
    ap.add_argument("--json", action="store_true", help="print the result as one JSON object")
    ap.add_argument("--worker", metavar="LAYOUT", help=argparse.SUPPRESS)
    a = ap.parse_args(given)
    try:
        for name, value in (("--frames", a.frames), ("--rounds", a.rounds), ("--max-steps", a.max_steps)):
            if value < 1:
                raise ABError(f"{name} must be at least 1, got {value}")
        if a.worker is not None:
            print(json.dumps(worker(a.worker, a.variant, a.search, a.noise, a.frames, a.rounds, a.max_steps,
                                    a.setup)))
            return 0
        if a.old is None:
            raise ABError("name the commit to compare the working tree with")
        from piramida.env.position import VARIANTS

        if a.variant not in VARIANTS:
            raise ABError(f"unknown variant {a.variant!r} (known: {', '.join(VARIANTS)})")
        out = launch("bench.interleave_env", a.old, [
            "--variant", a.variant, "--search", a.search, "--setup", a.setup, "--noise", a.noise,
            "--frames", str(a.frames),
            "--rounds", str(a.rounds), "--max-steps", str(a.max_steps),
        ])
    except ABError as exc:
        print(f"bench.interleave_env: {exc}", file=sys.stderr)
        return 2
    if signed(out, "bench.interleave_env", given, a.json):
        return 0
    print(f"old {out['old_steps_per_cpu_s']:.1f}  new {out['new_steps_per_cpu_s']:.1f} steps per CPU second "
          f"({out['variant']}, {out['search']}'s candidates, {out['setup']}, {out['frames']} frames x "
          f"{out['rounds']} rounds): "
          f"new / old {out['ratio']:.3f}, rounds {out['round_min_ratio']:.3f}-{out['round_max_ratio']:.3f}")
    if out["frames_whose_steps_differ"]:
        print(f"note: {out['frames_whose_steps_differ']} frames took a different number of steps in the two "
              "versions (they played differently)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
