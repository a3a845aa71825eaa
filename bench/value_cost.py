"""What the value network costs the planner per decision (docs/value.md).

Over the reference positions of one variant (``bench/positions``), the
planner at a fixed number of simulated strokes decides each position
twice: with its hand-made value and with the value file. Reported per
decision, in CPU time of the deciding thread (so that other jobs on the
machine do not count): both decisions, the time inside the network's
calls (encoding the tables and computing the prior are counted as the
planner's), the calls, and the network's share of the hybrid's decision.
One thread, after a warm-up decision::

    .venv/bin/python -m bench.value_cost --model models/free_value.pt [--sims 300] [--limit 30] [--prior models/free_policy.pt]

With ``--prior`` the hybrid also has that policy as its prior
(``planner:prior=FILE``), and the time of the policy's forward passes
(``PolicyAgent.shortlist``, one a decision) is reported beside the value
network's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any


def measure(model: str, sims: int, limit: int, prior: str | None = None) -> dict[str, Any]:
    import numba
    import torch

    from bench.planner import load_positions
    from piramida.agents.planner import PlannerAgent
    from piramida.agents.value_net import ValueModel
    from piramida.env.view import GameView

    numba.set_num_threads(1)
    torch.set_num_threads(1)
    variant = ValueModel(model).variant
    refs = [r for r in load_positions() if r["variant"] == variant][:limit]
    hand = PlannerAgent(budget_s=None, n_sims=sims, noise="pro")
    net = PlannerAgent(budget_s=None, n_sims=sims, noise="pro", value=model, prior=prior)
    spent = {"prior": 0.0}
    if net.prior is not None:
        shortlist = net.prior.shortlist

        def timed(*a: Any, **kw: Any) -> Any:
            t = time.thread_time()
            try:
                return shortlist(*a, **kw)
            finally:
                spent["prior"] += time.thread_time() - t

        net.prior.shortlist = timed
    views = [GameView.for_position(r["position"]) for r in refs]
    hand.act(views[0])
    net.act(views[0])
    vm = net.valuation.net  # type: ignore[attr-defined]
    # CPU time of this thread (the physics, numba and torch all run on it):
    # what a decision costs whatever else the machine is doing.
    t_hand, t_net, t_inf, calls = [], [], [], []
    spent["prior"] = 0.0
    for v in views:
        t = time.thread_time()
        hand.act(v)
        t_hand.append(time.thread_time() - t)
        s0, c0 = vm.cpu_seconds, vm.calls
        t = time.thread_time()
        net.act(v)
        t_net.append(time.thread_time() - t)
        t_inf.append(vm.cpu_seconds - s0)
        calls.append(vm.calls - c0)
    ms = lambda xs: round(1000 * statistics.fmean(xs), 2)  # noqa: E731
    return {
        "variant": variant,
        "sims": sims,
        "positions": len(views),
        "hand_cpu_ms": ms(t_hand),
        "hybrid_cpu_ms": ms(t_net),
        "inference_cpu_ms": ms(t_inf),
        "inference_share": round(sum(t_inf) / sum(t_net), 4),
        "calls_per_decision": round(statistics.fmean(calls), 2),
        "ms_per_call": round(1000 * sum(t_inf) / max(1, sum(calls)), 3),
        "prior": prior,
        "prior_cpu_ms": round(1000 * spent["prior"] / len(views), 2),
        "prior_share": round(spent["prior"] / sum(t_net), 4),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", required=True)
    ap.add_argument("--sims", type=int, default=300)
    ap.add_argument("--limit", type=int, default=30)
    ap.add_argument("--prior", help="a policy file: the hybrid's prior (planner:prior=FILE)")
    args = ap.parse_args(argv)
    sys.stdout.write(json.dumps(measure(args.model, args.sims, args.limit, args.prior)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
