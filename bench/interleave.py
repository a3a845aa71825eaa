"""Two versions of the candidate search in one process, position by
position: an older commit's ``agents.shots.candidates`` and the working
tree's, called one after the other on each reference position, the order
swapped every position and every round.

Run from the repository root::

    .venv/bin/python -m bench.interleave OLD [--rounds N] [--limit N] [--search planner] [--noise pro] [--json]

Why: ``bench.ab`` runs two processes at once, one per CPU, and one round's
ratio can still move by +-10% on a shared machine, more than most single
changes gain. Here both versions run on one CPU, each call next to the other's
on the same position, so the machine's drift over minutes and a
difference between CPUs cancel; what is left is the spread between
positions. Each call is timed by the thread's CPU time.

How: a worker process imports ``OLD``'s code (``git archive``, laid out as
``bench.ab`` does), keeps its modules aside, imports the working tree's,
and before each call puts that version's modules in ``sys.modules`` (code
that imports inside a function finds its own version). Both search the
same positions with the same search and noise, after an untimed round
(the old tree's kernels compile, each when its path is first taken). Prints the total CPU time
of each, their ratio (old / new: above 1 the working tree is faster),
each round's ratio, and the ratio per variant; ``--json`` as one object
with both code versions and the command.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.ab import ROOT, ABError, import_layout, signed, summary, unpack
from piramida.env.position_sets import SETS


def _ours(name: str) -> bool:
    return name == "piramida" or name.startswith("piramida.")


class Modules:
    """A version of the code whose modules are kept aside while the other
    version runs (``enter`` before each call, ``leave`` after)."""

    #: The module whose file says which tree a version was imported from.
    probe = "piramida.agents.shots"

    def __init__(self) -> None:
        self.file = sys.modules[self.probe].__file__
        self.modules = {k: m for k, m in sys.modules.items() if _ours(k)}

    def enter(self) -> None:
        """Its modules in ``sys.modules``, the other version's out."""
        for k in [k for k in sys.modules if _ours(k) and k not in self.modules]:
            del sys.modules[k]
        sys.modules.update(self.modules)

    def leave(self) -> None:
        """Keep what it imported while it ran."""
        self.modules.update((k, m) for k, m in sys.modules.items() if _ours(k))


class Version(Modules):
    """One version's candidate search, with its modules kept aside."""

    def __init__(self, search: str) -> None:
        import numba

        from piramida.agents.shots import GREEDY, PLANNER, candidates
        from piramida.env.position import Position
        from piramida.env.view import GameView

        numba.set_num_threads(1)
        self.candidates = candidates
        self.search = {"planner": PLANNER, "greedy": GREEDY}[search]
        self.GameView = GameView
        self.Position = Position
        super().__init__()

    def call(self, position: dict[str, Any], noise: str) -> tuple[float, int]:
        """One search on a fresh copy of ``position`` (a JSON object):
        (CPU seconds, candidates), the feature vectors read."""
        self.enter()
        try:
            view = self.GameView.for_position(self.Position.from_dict(position))
            t0 = time.thread_time()
            got = self.candidates(view, noise, self.search)
            for c in got:
                c.features  # noqa: B018 - made when read: part of the call timed
            dt = time.thread_time() - t0
        finally:
            self.leave()
        return dt, len(got)


def worker(
    layout: str, limit: int | None, rounds: int, search: str, noise: str, positions: str = "reference"
) -> dict[str, Any]:
    """The comparison, in a process of its own (it swaps modules)."""
    old, new = both(layout, lambda: Version(search))
    refs = [json.loads(line) for line in SETS[positions].read_text(encoding="utf-8").splitlines() if line.strip()]
    refs = refs[:limit]
    if not refs:
        raise ABError("no positions to compare on")
    # Warm-up, untimed: every position once with each version. The old
    # tree is unpacked afresh, so its kernels compile, each when its code
    # path is first taken.
    for ref in refs:
        for v in (old, new):
            v.call(ref["position"], noise)
    # Two versions' modules and kernels make a heap twice the usual: a full
    # collection of it (a quarter of a second here) would land on one
    # call. What is there now is kept out of the collections; what the
    # searches make is collected as usual.
    gc.collect()
    gc.freeze()
    totals = {"old": 0.0, "new": 0.0}
    by_variant: dict[str, dict[str, float]] = {}
    by_kind: dict[str, dict[str, float]] = {}
    round_ratios: list[float] = []
    counts_differ = 0
    for r in range(rounds):
        this = {"old": 0.0, "new": 0.0}
        for i, ref in enumerate(refs):
            order = (("old", old), ("new", new)) if (i + r) % 2 == 0 else (("new", new), ("old", old))
            n: dict[str, int] = {}
            for name, v in order:
                dt, n[name] = v.call(ref["position"], noise)
                this[name] += dt
                var = by_variant.setdefault(str(ref["position"].get("variant")), {"old": 0.0, "new": 0.0})
                var[name] += dt
                group = by_kind.setdefault(kind_of(ref["position"]), {"old": 0.0, "new": 0.0, "calls": 0})
                group[name] += dt
                group["calls"] += name == "new"
            counts_differ += n["old"] != n["new"]

        totals["old"] += this["old"]
        totals["new"] += this["new"]
        round_ratios.append(this["old"] / this["new"])
        print(f"round {r + 1}/{rounds}: old {this['old'] * 1000 / len(refs):.3f} ms  "
              f"new {this['new'] * 1000 / len(refs):.3f} ms  ratio {round_ratios[-1]:.3f}",
              file=sys.stderr, flush=True)
    calls = rounds * len(refs)
    return {
        "positions": len(refs), "position_set": positions, "rounds": rounds, "search": search, "noise": noise,
        "old_mean_ms": totals["old"] * 1000 / calls, "new_mean_ms": totals["new"] * 1000 / calls,
        "ratio": totals["old"] / totals["new"], "round_ratios": round_ratios,
        **{f"round_{k}": v for k, v in summary(round_ratios).items()},
        "by_variant_ratio": {k: v["old"] / v["new"] for k, v in sorted(by_variant.items())},
        # Where the mean comes from: a decision's milliseconds by kind of
        # position (the break, a ball in hand, free pyramid's any ball,
        # the rest), each version.
        "by_kind_ms": {
            k: {"positions": int(v["calls"]) // rounds, "old_ms": v["old"] * 1000 / v["calls"],
                "new_ms": v["new"] * 1000 / v["calls"]}
            for k, v in sorted(by_kind.items())
        },
        "positions_whose_candidate_counts_differ": counts_differ // max(rounds, 1),
    }


def both(layout: str, make: Callable[[], Modules]) -> tuple[Modules, Modules]:
    """``make()`` with the old tree's code (from ``layout``), then with the
    working tree's, each version's modules kept aside."""
    for k in [k for k in sys.modules if _ours(k)]:
        del sys.modules[k]
    sys.path.insert(0, layout)
    old = make()
    sys.path.remove(layout)
    if not str(old.file).startswith(layout):
        raise ABError(f"the old tree's code is not the one imported ({old.file})")
    for k in list(old.modules):
        del sys.modules[k]
    sys.path.insert(0, str(ROOT))
    new = make()
    if not str(new.file).startswith(str(ROOT)):
        raise ABError(f"the working tree's code is not the one imported ({new.file})")
    return old, new


def kind_of(position: dict[str, Any]) -> str:
    """A reference position's kind for ``by_kind_ms``."""
    if position.get("break"):
        return "break"
    if position.get("in_hand"):
        return "ball in hand"
    return "free pyramid" if position.get("variant") == "free" else "on the table"


def compare(
    old: str, limit: int | None, rounds: int, search: str, noise: str, positions: str = "reference"
) -> dict[str, Any]:
    if rounds < 1:
        raise ABError(f"--rounds must be at least 1, got {rounds}")
    args = ["--rounds", str(rounds), "--search", search, "--noise", noise, "--positions", positions]
    return launch("bench.interleave", old, args + (["--limit", str(limit)] if limit is not None else []))


def launch(module: str, old: str, args: list[str]) -> dict[str, Any]:
    """``old`` unpacked and laid out for import, and ``python -m module
    --worker LAYOUT *args`` run on one CPU thread: its last line's JSON
    object, with the old commit."""
    with tempfile.TemporaryDirectory(prefix="piramida-interleave-") as tmp:
        tree = Path(tmp) / "tree"
        tree.mkdir()
        full = unpack(old, tree)
        layout = import_layout(tree, Path(tmp) / "import")
        cmd = [sys.executable, "-m", module, "--worker", str(layout), *args]
        env = {**{k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, "PYTHONPATH": str(ROOT),
               "NUMBA_NUM_THREADS": "1"}
        proc = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        if proc.returncode != 0:
            raise ABError(f"the comparison failed (exit {proc.returncode}); its error is above")
        out = json.loads(proc.stdout.strip().splitlines()[-1])
    return {"old_commit": full, **out}


def main(argv: list[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(prog="python -m bench.interleave", description=(__doc__ or "").split("\n")[0])
    ap.add_argument("old", nargs="?", help="the commit to compare the working tree with")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--limit", type=int, default=None, help="the first N positions of the set only")
    ap.add_argument("--search", choices=("planner", "greedy"), default="planner")
    ap.add_argument("--noise", default="pro")
    ap.add_argument("--positions", choices=tuple(SETS), default="reference",
                    help="the reference positions (the default) or positions from played frames")
    ap.add_argument("--json", action="store_true", help="print the result as one JSON object")
    ap.add_argument("--worker", metavar="LAYOUT", help=argparse.SUPPRESS)
    a = ap.parse_args(given)
    try:
        if a.worker is not None:
            print(json.dumps(worker(a.worker, a.limit, a.rounds, a.search, a.noise, a.positions)))
            return 0
        if a.old is None:
            raise ABError("name the commit to compare the working tree with")
        if a.limit is not None and a.limit < 1:
            raise ABError(f"--limit must be at least 1, got {a.limit}")
        out = compare(a.old, a.limit, a.rounds, a.search, a.noise, a.positions)
    except ABError as exc:
        print(f"bench.interleave: {exc}", file=sys.stderr)
        return 2
    if signed(out, "bench.interleave", given, a.json):
        return 0
    print(f"old {out['old_mean_ms']:.3f} ms  new {out['new_mean_ms']:.3f} ms a decision (CPU, {out['positions']} "
          f"positions x {out['rounds']} rounds): old / new {out['ratio']:.3f}, rounds "
          f"{out['round_min_ratio']:.3f}-{out['round_max_ratio']:.3f}")
    print("by variant: " + ", ".join(f"{k} {v:.3f}" for k, v in out["by_variant_ratio"].items()))
    print("by kind of position (ms a decision, old -> new): " + ", ".join(
        f"{k} ({v['positions']}) {v['old_ms']:.2f} -> {v['new_ms']:.2f}" for k, v in out["by_kind_ms"].items()))
    if out["positions_whose_candidate_counts_differ"]:
        print(f"note: {out['positions_whose_candidate_counts_differ']} positions got a different number of "
              "candidates from the two versions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
