"""What a narrower candidate search buys: ``agents.shots.candidates`` with
the planner's search (``shots.PLANNER``) and narrower settings of it,
side by side in one process.

The speed target of the candidate benchmark (5 ms a decision) is about
the planner's search, every kind of candidate. This answers whether
trimming that search (fewer position variants, fewer lines, no banks)
would reach it, or whether the pot lines themselves are the floor. Each
setting is a ``Search`` of the planner's with some fields replaced
(``WIDTHS``, or ``--width NAME:FIELD=VALUE,...``); greedy's search is the
narrowest there is.

Over the 200 reference positions (``--positions played``: the positions
from played frames), one call per position and setting, the settings in
a rotating order per position so that the machine's drift falls on all
alike, after a warm-up pass; features read as ``bench.candidates`` reads
them. Per setting: the mean wall milliseconds a decision, its ratio to
the planner's search, the mean number of candidates, and free pyramid's
mean apart (its decisions cost twice the others'). Nothing here is
timed against a limit: the figures describe the search, they do not
test it.

Run from the repository root::

    .venv/bin/python -m bench.search_widths [--limit N] [--positions played] [--json]
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import sys
import time
from dataclasses import fields, replace
from typing import Any

from bench.positions import SETS

#: (name, fields replaced in the planner's search); "greedy" is greedy's
#: own search, not a replacement.
WIDTHS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("planner", {}),
    ("spin_lines=4", {"spin_lines": 4}),
    ("spins=3", {"spins": 3}),
    ("no variants", {"spin_lines": 0}),
    ("max_lines=10,keep_pots=8", {"max_lines": 10, "keep_pots": 8}),
    ("sure_enough=4", {"sure_enough": 4}),
    ("no banks", {"banks": 0}),
    ("no variants, no banks, 8 lines", {"spin_lines": 0, "banks": 0, "max_lines": 8, "keep_pots": 8}),
    ("greedy", {}),
)


def search_of(name: str, changes: dict[str, Any]) -> Any:
    """The ``Search`` of a width: greedy's, or the planner's with
    ``changes`` (``spins``: the first N of the planner's variants)."""
    from piramida.agents.shots import GREEDY, PLANNER

    if name == "greedy":
        return GREEDY
    # The fields a number sets: counts and thresholds (not the flags).
    known = {
        f.name for f in fields(PLANNER)
        if f.name == "spins" or (type(getattr(PLANNER, f.name)) in (int, float, type(None)))
    }
    unknown = sorted(set(changes) - known)
    if unknown:
        raise ValueError(f"unknown Search field(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    got = dict(changes)
    if "spins" in got:
        got["spins"] = PLANNER.spins[: int(got["spins"])]
    return replace(PLANNER, **got)


def parse_width(text: str) -> tuple[str, dict[str, Any]]:
    """``NAME:FIELD=VALUE,FIELD=VALUE`` (integers, or floats with a dot)."""
    name, _, rest = text.partition(":")
    changes: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"--width {text!r}: expected FIELD=VALUE, got {item!r}")
        try:
            changes[key.strip()] = float(value) if "." in value else int(value)
        except ValueError:
            raise ValueError(f"--width {text!r}: {key.strip()} must be a number, got {value!r}") from None
    if not name:
        raise ValueError(f"--width {text!r}: a name is needed before the colon")
    return name, changes


def measure(
    widths: tuple[tuple[str, dict[str, Any]], ...] = WIDTHS,
    limit: int | None = None,
    noise: str = "pro",
    positions: str = "reference",
) -> dict[str, Any]:
    import numba

    from bench.planner import load_positions
    from piramida.agents.shots import candidates
    from piramida.env.view import GameView

    numba.set_num_threads(1)
    searches = [(name, search_of(name, ch)) for name, ch in widths]
    views = [GameView.for_position(r["position"]) for r in load_positions(SETS[positions])[:limit]]

    def call(view: GameView, search: Any) -> tuple[float, int]:
        fresh = GameView.for_position(view.position.replace())
        t0 = time.perf_counter()
        got = candidates(fresh, noise, search)
        for c in got:
            _ = c.features
        return (time.perf_counter() - t0) * 1000.0, len(got)

    for view in views:  # warm-up: kernels loaded, every search once
        for _, s in searches:
            call(view, s)
    ms: dict[str, list[float]] = {name: [] for name, _ in searches}
    counts: dict[str, list[int]] = {name: [] for name, _ in searches}
    free: dict[str, list[float]] = {name: [] for name, _ in searches}
    for i, view in enumerate(views):
        k = i % len(searches)
        for name, s in searches[k:] + searches[:k]:
            t, n = call(view, s)
            ms[name].append(t)
            counts[name].append(n)
            if view.variant == "free":
                free[name].append(t)
    base = statistics.fmean(ms[searches[0][0]])
    rows = [
        {
            "width": name,
            "changes": dict(ch),
            "mean_ms": round(statistics.fmean(ms[name]), 3),
            "ratio_to_first": round(statistics.fmean(ms[name]) / base, 3),
            "mean_candidates": round(statistics.fmean(counts[name]), 2),
            "free_mean_ms": round(statistics.fmean(free[name]), 3) if free[name] else None,
        }
        for name, ch in widths
    ]
    return {"positions": len(views), "position_set": positions, "noise": noise, "widths": rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.search_widths", description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--limit", type=int, default=None, help="the first N positions only")
    ap.add_argument("--noise", default="pro")
    ap.add_argument("--positions", choices=tuple(SETS), default="reference")
    ap.add_argument(
        "--width", action="append", default=None, metavar="NAME:FIELD=VALUE,...",
        help="a setting of the planner's search to time (repeatable; replaces the built-in list; "
             "the first is the one the ratios are to); NAME greedy is greedy's search",
    )
    ap.add_argument("--json", action="store_true", help="print the JSON object only")
    a = ap.parse_args(argv)
    try:
        widths = tuple(parse_width(w) for w in a.width) if a.width else WIDTHS
        for name, ch in widths:
            search_of(name, ch)
    except ValueError as e:
        ap.error(str(e))
    from piramida.eval.version import code_version

    out = measure(widths, a.limit, a.noise, a.positions)
    out["version"] = code_version()
    out["command"] = shlex.join(["python", "-m", "bench.search_widths", *(argv if argv is not None else sys.argv[1:])])
    if a.json:
        print(json.dumps(out))
        return 0
    print(f"{'search':34} {'ms':>7} {'ratio':>6} {'cands':>6} {'free ms':>8}")
    for r in out["widths"]:
        free = f"{r['free_mean_ms']:8.2f}" if r["free_mean_ms"] is not None else f"{'-':>8}"
        print(f"{r['width']:34} {r['mean_ms']:7.2f} {r['ratio_to_first']:6.3f} {r['mean_candidates']:6.1f} {free}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
