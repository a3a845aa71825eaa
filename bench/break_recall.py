"""What ``Simulator.recalled`` saves on a break decision.

Every frame's rack is the same spots with the labels shuffled, so the
noise-free strokes a break decision's search plays repeat from frame to
frame: ``Simulator.recalled`` (env/physics/simulate.py) plays each once a
process and renames it for another labelling. Here greedy decides the
break of ``--racks`` seeded racks of each variant twice, one rack after
the other: with the strokes recalled (as the toolbox does) and with
``Simulator.recalled`` replaced by a fresh stroke each time (as before
it existed), and both decisions are checked to be the same shot.

Run from the repository root::

    .venv/bin/python -m bench.break_recall [--racks 20] [--variants free,combined] [--json]

Prints CPU milliseconds a decision (mean over the racks, after one
warm-up rack that also fills the recall) both ways and their ratio, per
variant.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from piramida.agents.greedy import GreedyAgent
from piramida.env.game import Game
from piramida.env.physics import Simulator
from piramida.env.physics.simulate import recall_stats
from piramida.env.position import VARIANTS
from piramida.env.view import GameView

#: The variants whose frames open with a rack to break.
BREAK_VARIANTS = tuple(v for v in VARIANTS if v != "five_ball")


@contextmanager
def fresh_strokes() -> Iterator[None]:
    """``Simulator.recalled`` plays every stroke afresh while inside."""
    kept = Simulator.recalled

    def played(self: Simulator, shot: Any) -> Any:
        return self(shot)

    Simulator.recalled = played  # type: ignore[method-assign]
    try:
        yield
    finally:
        Simulator.recalled = kept  # type: ignore[method-assign]


def timed_decision(agent: GreedyAgent, view: GameView) -> tuple[float, Any]:
    t0 = time.process_time()
    action = agent.act(view)
    return (time.process_time() - t0) * 1000.0, action


def measure(variant: str, racks: int) -> dict[str, Any]:
    agent = GreedyAgent()
    views = [GameView.of(Game.new(variant, seed=s)) for s in range(racks + 1)]
    if not views[0].position.is_break:
        raise SystemExit(f"bench.break_recall: {variant}'s frame does not open with a break")
    timed_decision(agent, views[0])  # warm-up: compiles, fills the recall
    with fresh_strokes():
        timed_decision(agent, views[0])
    on: list[float] = []
    off: list[float] = []
    for view in views[1:]:
        ms_on, a_on = timed_decision(agent, view)
        with fresh_strokes():
            ms_off, a_off = timed_decision(agent, view)
        if a_on != a_off:
            raise SystemExit(f"bench.break_recall: {variant}: the recalled strokes chose another break")
        on.append(ms_on)
        off.append(ms_off)
    mean_on, mean_off = sum(on) / len(on), sum(off) / len(off)
    return {
        "variant": variant,
        "racks": racks,
        "fresh_ms": round(mean_off, 3),
        "recalled_ms": round(mean_on, 3),
        "fresh_over_recalled": round(mean_off / mean_on, 3),
    }


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.break_recall", description=__doc__.split("\n\n")[0])
    p.add_argument("--racks", type=int, default=20, help="seeded racks per variant (default 20)")
    p.add_argument("--variants", default="free,combined", help="comma-separated (default free,combined)")
    p.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    a = p.parse_args(argv)
    if a.racks < 1:
        p.error("--racks must be at least 1")
    variants = [v.strip() for v in a.variants.split(",") if v.strip()]
    bad = [v for v in variants if v not in BREAK_VARIANTS]
    if bad or not variants:
        p.error(f"--variants: {', '.join(bad) or 'none given'}; known: {', '.join(BREAK_VARIANTS)}")
    rows = [measure(v, a.racks) for v in variants]
    if a.json:
        from piramida.eval.version import code_version

        argv_text = shlex.join(sys.argv[1:] if argv is None else argv)
        print(json.dumps({
            "results": rows,
            "recall": recall_stats(),
            "version": code_version(),
            "command": f"python -m bench.break_recall {argv_text}".strip(),
        }))
        return
    print(f"{'variant':<10} {'fresh ms':>9} {'recalled ms':>12} {'ratio':>6}")
    for r in rows:
        print(f"{r['variant']:<10} {r['fresh_ms']:>9.2f} {r['recalled_ms']:>12.2f} {r['fresh_over_recalled']:>6.2f}")


if __name__ == "__main__":
    main()
