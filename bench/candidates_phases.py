"""Where ``agents.shots.candidates`` spends a decision: time, strokes and
rulings per phase of the search.

Over the 200 reference positions (``bench/positions/reference.jsonl``),
one call each, at ``pro`` noise, on one core, after a warm-up call. The
toolbox's phases are timed by wrapping the functions the candidate search
calls (its module's names, so nothing else is touched) for the run and
restoring them after:

- ``lines``: the open pot lines (``lines.candidate_lines``);
- ``pots``: making each line pot (``aim.pot_line``), of which ``refine``
  (the throw-corrected aim) and ``edge`` (the potting range's edges);
- ``variants``: the position variants re-refined (``refine`` called by
  the search itself);
- ``banks``, ``safeties``, ``breaks``, ``describe`` (judging what the
  search did not: safeties, breaks) and ``features`` (reading the
  feature vectors, as ``bench.candidates`` does);
- ``rest``: everything else (the context, legality checks, bookkeeping).

Per phase it prints the wall milliseconds a decision (inclusive: ``pots``
includes its ``refine`` and ``edge``), the noise-free strokes simulated
and the referee's full rulings and outcome keys. The timing wrappers cost
a little (a few hundred calls a decision), so the total is a few percent
above ``bench.candidates``.

Then the referee's time (its full rulings and its outcome keys, through
``Context``) and the compiled kernels (``KERNELS``, wrapped where Python
calls them): milliseconds a decision, calls and microseconds a call, and
their shares of the total, and what is left (``python_ms``: the
search's own Python, which a faster physics would not touch). Wrapping
each call costs under a microsecond, against tens for most kernels.

Run from the repository root::

    .venv/bin/python -m bench.candidates_phases [--limit N] [--search greedy] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import shlex
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

#: (phase, module, function name): each call of the function, from that
#: module's code, counts to the phase. Nested phases (``refine`` and
#: ``edge`` inside ``pots``) count to both.
PHASES: tuple[tuple[str, str, str], ...] = (
    ("lines", "piramida.agents.shots.candidates", "candidate_lines"),
    ("pots", "piramida.agents.shots.candidates", "pot_line"),
    ("refine", "piramida.agents.shots.aim", "refine"),
    ("edge", "piramida.agents.shots.aim", "edge"),
    ("variants", "piramida.agents.shots.candidates", "refine"),
    ("banks", "piramida.agents.shots.candidates", "refine_bank"),
    ("banks", "piramida.agents.shots.candidates", "lines_for"),
    ("safeties", "piramida.agents.shots.candidates", "safety_pairs"),
    ("safeties", "piramida.agents.shots.candidates", "safety_shots"),
    ("breaks", "piramida.agents.shots.candidates", "book_shots"),
    ("breaks", "piramida.agents.shots.candidates", "best_break"),
    ("breaks", "piramida.agents.shots.candidates", "break_family"),
    ("describe", "piramida.agents.shots.candidates", "describe"),
)
#: (module, name): the compiled kernels, as the Python code that calls them
#: names them. Not those another kernel of their own module calls
#: (``easiest_difficulty``'s three, inside ``_easiest_each``; ``state_at``,
#: inside ``states_at``): a kernel compiled while they are wrapped would
#: find a Python function.
KERNELS: tuple[tuple[str, str], ...] = (
    ("piramida.agents.shots.probe", "secant_search"),
    ("piramida.agents.shots.probe", "edge_search"),
    ("piramida.agents.shots.probe", "play"),
    ("piramida.agents.shots.probe", "stroke"),
    ("piramida.agents.shots.probe", "verdict"),
    ("piramida.env.physics.simulate", "run"),
    ("piramida.env.physics.result", "first_contact"),
    ("piramida.env.physics.result", "states_at"),
    ("piramida.agents.shots.ghost", "path_clear_of"),
    ("piramida.agents.shots.probability", "_easiest_each"),
)
#: Phases that are part of another (not added into the total of the top level).
NESTED = {"refine": "pots", "edge": "pots"}


class Tally:
    """Time, strokes, rulings and keys per phase; the innermost open phase
    gets the strokes and rulings."""

    def __init__(self) -> None:
        self.ms: Counter[str] = Counter()
        self.strokes: Counter[str] = Counter()
        self.rulings: Counter[str] = Counter()
        self.keys: Counter[str] = Counter()
        self.stack: list[str] = ["rest"]
        self.kernel_ms: Counter[str] = Counter()
        self.kernel_calls: Counter[str] = Counter()
        self.referee_ms: Counter[str] = Counter()

    def kernel(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*a: Any, **kw: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                self.kernel_ms[name] += (time.perf_counter() - t0) * 1000.0
                self.kernel_calls[name] += 1

        return wrapper

    def timed(self, phase: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*a: Any, **kw: Any) -> Any:
            # A phase re-entered from inside itself (banks: lines_for then
            # refine_bank) is timed once, by its outer call.
            if phase in self.stack:
                return fn(*a, **kw)
            self.stack.append(phase)
            t0 = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                self.ms[phase] += (time.perf_counter() - t0) * 1000.0
                self.stack.pop()

        return wrapper

    def counted(self, counter: Counter[str], fn: Callable[..., Any], timer: str | None = None) -> Callable[..., Any]:
        def wrapper(*a: Any, **kw: Any) -> Any:
            counter[self.stack[-1]] += 1
            if timer is None:
                return fn(*a, **kw)
            t0 = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                self.referee_ms[timer] += (time.perf_counter() - t0) * 1000.0

        return wrapper


@contextlib.contextmanager
def instrumented(tally: Tally) -> Iterator[None]:
    """The phases' functions wrapped (and the simulator and referee calls
    counted) while inside; restored after."""
    from piramida.agents.shots.context import Context
    from piramida.env.physics import Simulator

    saved: list[tuple[Any, str, Any]] = []

    def patch(owner: Any, name: str, new: Any) -> None:
        saved.append((owner, name, getattr(owner, name)))
        setattr(owner, name, new)

    try:
        for phase, module, name in PHASES:
            mod = importlib.import_module(module)
            patch(mod, name, tally.timed(phase, getattr(mod, name)))
        patch(Simulator, "__call__", tally.counted(tally.strokes, Simulator.__call__))
        patch(Context, "ruling", tally.counted(tally.rulings, Context.ruling, "rulings"))
        patch(Context, "outcome_key", tally.counted(tally.keys, Context.outcome_key, "keys"))
        for module, name in KERNELS:
            mod = importlib.import_module(module)
            patch(mod, name, tally.kernel(name, getattr(mod, name)))
        yield
    finally:
        for owner, name, old in reversed(saved):
            setattr(owner, name, old)


def measure(
    limit: int | None = None, noise: str = "pro", search: str = "planner", variant: str | None = None
) -> dict[str, Any]:
    import numba

    from bench.planner import load_positions
    from piramida.agents.shots import GREEDY, PLANNER, candidates
    from piramida.env.view import GameView

    how = {"planner": PLANNER, "greedy": GREEDY}[search]
    numba.set_num_threads(1)
    refs = [r for r in load_positions() if variant is None or r["position"].variant == variant]
    views = [GameView.for_position(r["position"]) for r in refs[:limit]]
    # Warm-up: every position once, so that every kernel (ball-in-hand
    # placements, banks, breaks: not all of them serve every position) is
    # compiled or loaded before any is wrapped; a kernel compiled while
    # another it calls is wrapped would find a Python function.
    for view in views:
        for c in candidates(GameView.for_position(view.position.replace()), noise, how):
            _ = c.features
    tally = Tally()
    total = 0.0
    with instrumented(tally):
        for view in views:
            fresh = GameView.for_position(view.position.replace())
            t0 = time.perf_counter()
            got = candidates(fresh, noise, how)
            t1 = time.perf_counter()
            for c in got:
                _ = c.features
            t2 = time.perf_counter()
            total += (t2 - t0) * 1000.0
            tally.ms["features"] += (t2 - t1) * 1000.0
    n = max(len(views), 1)
    top = sum(v for k, v in tally.ms.items() if k not in NESTED)
    tally.ms["rest"] = total - top
    names = sorted({p for p, _, _ in PHASES} | {"features", "rest"}, key=lambda p: -tally.ms[p])
    return {
        "positions": len(views),
        "variant": variant,
        "search": search,
        "noise": noise,
        "mean_ms": round(total / n, 3),
        "phases": {
            p: {
                "ms": round(tally.ms[p] / n, 3),
                "strokes": round(tally.strokes[p] / n, 2),
                "rulings": round(tally.rulings[p] / n, 2),
                "keys": round(tally.keys[p] / n, 2),
                **({"part_of": NESTED[p]} if p in NESTED else {}),
            }
            for p in names
        },
        "kernels": {
            k: {
                "ms": round(tally.kernel_ms[k] / n, 3),
                "calls": round(tally.kernel_calls[k] / n, 2),
                "us_per_call": round(1000.0 * tally.kernel_ms[k] / max(tally.kernel_calls[k], 1), 1),
            }
            for k in sorted(tally.kernel_ms, key=lambda k: -tally.kernel_ms[k])
        },
        "kernels_share": round(sum(tally.kernel_ms.values()) / total, 3) if total else None,
        "referee_ms": {k: round(tally.referee_ms[k] / n, 3) for k in ("rulings", "keys")},
        "referee_share": round(sum(tally.referee_ms.values()) / total, 3) if total else None,
        # What neither the kernels nor the referee take: the search's own
        # Python, the floor a faster physics leaves.
        "python_ms": round((total - sum(tally.kernel_ms.values()) - sum(tally.referee_ms.values())) / n, 3),
        "strokes": round(sum(tally.strokes.values()) / n, 2),
        "rulings": round(sum(tally.rulings.values()) / n, 2),
        "keys": round(sum(tally.keys.values()) / n, 2),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.candidates_phases", description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--limit", type=int, default=None, help="the first N positions only")
    ap.add_argument("--noise", default="pro")
    ap.add_argument("--search", choices=("planner", "greedy"), default="planner")
    ap.add_argument("--variant", default=None, help="the positions of this variant only")
    ap.add_argument("--json", action="store_true", help="print the JSON object only")
    a = ap.parse_args(argv)
    out = measure(a.limit, a.noise, a.search, a.variant)
    from piramida.eval.version import code_version

    out["version"] = code_version()
    out["command"] = shlex.join(["python", "-m", "bench.candidates_phases", *(argv if argv is not None else sys.argv[1:])])
    if a.json:
        print(json.dumps(out))
        return 0
    print(
        f"candidates ({out['search']} search, {out['positions']}{' ' + a.variant if a.variant else ''} positions): {out['mean_ms']} ms, "
        f"{out['strokes']} strokes, {out['rulings']} rulings, {out['keys']} keys a decision"
    )
    print(f"{'phase':10s} {'ms':>7s} {'strokes':>8s} {'rulings':>8s} {'keys':>6s}")
    for p, v in out["phases"].items():
        label = f"  {p}" if p in NESTED else p
        print(f"{label:10s} {v['ms']:7.2f} {v['strokes']:8.1f} {v['rulings']:8.2f} {v['keys']:6.1f}")
    r = out["referee_ms"]
    print(f"\nthe referee: {r['rulings']:.2f} ms in full rulings, {r['keys']:.2f} ms in outcome keys a decision "
          f"({100 * (out['referee_share'] or 0):.0f}% of the time)")
    print(f"compiled kernels: {100 * (out['kernels_share'] or 0):.0f}% of the time; the rest, the search's own "
          f"Python: {out['python_ms']:.2f} ms a decision")
    print(f"{'kernel':18s} {'ms':>7s} {'calls':>7s} {'us/call':>8s}")
    for k, v in out["kernels"].items():
        print(f"{k:18s} {v['ms']:7.3f} {v['calls']:7.1f} {v['us_per_call']:8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
