"""The value network: how well it predicts frames it never saw, and what
it costs the planner per decision (docs/training.md).

Run from the repository root::

    .venv/bin/python -m bench.value calibration --model models/free_value.pt --data data/free-g1 \\
        [--data ...] [--png docs/value_reliability_free.png] [--json] [--out FILE]
    .venv/bin/python -m bench.value cost --model models/free_value.pt [--sims 300] [--limit 30] \\
        [--prior models/free_policy.pt] [--quick] [--json] [--out FILE]

Each run writes its section (``calibration_<variant>``, ``cost_<variant>``)
of ``bench/results/value.json`` (bench/record.py; the other sections stay).

``calibration``: the held-out positions are those of the frames the
training split keeps out (``training.value_train.split``: every 10th frame)
of the given self-play folders. On each, with the frame's outcome for the
shooter:

- ``net``: the value file's win chance;
- ``race``: the race model's win chance (``planner_value.RaceModel`` with
  the variant's typical later-shot chance and the leave's next-pot chance
  from ``PotModel``: what the planner uses in free pyramid);
- ``base``: the training frames' base rate, a constant;
- ``turn``: the turn value ``unit * (1.5 p - 0.5)`` of the table (the
  planner's value outside free pyramid). It is not a probability: its
  Brier score is that of the logistic map ``sigmoid(a * turn + b)`` fitted
  on (up to ``FIT_POSITIONS`` of) the training frames' positions, the best
  chance a monotone reading of it gives; its AUC needs no map.

It reports the Brier score, AUC and the reliability table per model, and
with ``--png`` draws the reliability diagram.

``cost``: over the reference positions of the model's variant
(``piramida.env.position_sets``), the planner at a fixed number of
simulated strokes decides each position twice: with its hand-made value
and with the value file. Reported per decision, in CPU time of the
deciding thread (so that other jobs on the machine do not count): both
decisions, the time inside the network's calls (encoding the tables and
computing the prior are counted as the planner's), the calls, and the
network's share of the hybrid's decision. One thread, after a warm-up
decision. With ``--prior`` the hybrid also has that policy as its prior
(``planner:prior=FILE``), and the time of the policy's forward passes
(``PolicyAgent.ranked``, one a decision) is reported beside the value
network's.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench.record import write as write_record

BINS = 10


def auc(score: np.ndarray, outcome: np.ndarray) -> float:
    """The chance that a won position scores above a lost one (ties half);
    drawn positions left out."""
    won = score[outcome == 1.0]
    lost = score[outcome == 0.0]
    if not len(won) or not len(lost):
        return math.nan
    order = np.argsort(np.concatenate([won, lost]), kind="mergesort")
    ranks = np.empty(len(order))
    allv = np.concatenate([won, lost])[order]
    # Average ranks over ties.
    i = 0
    while i < len(allv):
        j = i
        while j + 1 < len(allv) and allv[j + 1] == allv[i]:
            j += 1
        ranks[order[i : j + 1]] = 0.5 * (i + j) + 1.0
        i = j + 1
    r_won = ranks[: len(won)].sum()
    return float((r_won - len(won) * (len(won) + 1) / 2) / (len(won) * len(lost)))


def reliability(p: np.ndarray, outcome: np.ndarray) -> list[dict[str, Any]]:
    """Per tenth of predicted chance: how many, mean predicted, observed."""
    out = []
    for k in range(BINS):
        lo, hi = k / BINS, (k + 1) / BINS
        rows = (p >= lo) & ((p < hi) if k < BINS - 1 else (p <= hi))
        n = int(rows.sum())
        out.append({"bin": [lo, hi], "n": n,
                    "predicted": float(p[rows].mean()) if n else None,
                    "observed": float(outcome[rows].mean()) if n else None})
    return out


def hand_made(positions: np.ndarray, variant: str, noise: str) -> tuple[np.ndarray, np.ndarray]:
    """The race model's win chance and the turn value of each position."""
    from piramida.agents.planner_value import Valuation
    from piramida.agents.shots.context import Context
    from piramida.agents.shots.probability import PotModel
    from piramida.env.position import Position
    from piramida.env.view import GameView

    model = PotModel.of(noise)
    race_val = Valuation("race", model)
    turn_val = Valuation("turn", model)
    race, turn = [], []
    for text in positions:
        pos = Position.from_text(str(text))
        view = GameView.for_position(pos)
        ctx = Context(view, None, model)
        rm = race_val.race(ctx)
        assert rm is not None
        p = race_val.next_chance(ctx, pos, pos.in_hand)
        me = view.player
        race.append(rm.at_table(pos.score[me], pos.score[1 - me], p))
        turn.append(turn_val.turn_value(ctx, pos, pos.in_hand))
    return np.array(race), np.array(turn)


#: Training positions the turn value's logistic map is fitted on.
FIT_POSITIONS = 3000


def fit_logistic(x: np.ndarray, y: np.ndarray, iters: int = 50) -> tuple[float, float]:
    """(a, b) of ``sigmoid(a x + b)`` with the least log loss on (x, y), by
    Newton's method (a small ridge keeps it finite on separable data)."""
    w = np.zeros(2)
    X = np.column_stack([x, np.ones_like(x)])
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(X @ w)))
        grad = X.T @ (p - y) + 1e-6 * w
        hess = (X * (p * (1 - p))[:, None]).T @ X + 1e-6 * np.eye(2)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return float(w[0]), float(w[1])


def measure(model_path: str, data: list[str], noise: str = "pro") -> dict[str, Any]:
    from piramida.agents.value_net import ValueModel
    from piramida.training.selfplay import load_shards
    from piramida.training.value_train import brier, split

    model = ValueModel(model_path)
    d = load_shards(data)
    tr, ho = split(d["frame"])
    outcome = d["outcome"][ho].astype(float)
    net = model.win(d["balls"][ho], d["globals"][ho])
    race, turn = hand_made(d["position"][ho], model.variant, noise)
    base = np.full(len(outcome), float(d["outcome"][tr].mean()))
    rep: dict[str, Any] = {
        "model": model_path,
        "variant": model.variant,
        "data": data,
        "holdout_positions": int(ho.sum()),
        "holdout_frames": int(len(np.unique(d["frame"][ho]))),
        "noise": noise,
    }
    for name, p in (("net", net), ("race", race), ("base", base)):
        rep[name] = {"brier": brier(p, outcome), "auc": auc(p, outcome), "reliability": reliability(p, outcome)}
    fit_rows = np.flatnonzero(tr)
    if len(fit_rows) > FIT_POSITIONS:
        fit_rows = np.sort(np.random.default_rng(0).choice(fit_rows, FIT_POSITIONS, replace=False))
    _, turn_fit = hand_made(d["position"][fit_rows], model.variant, noise)
    a, b = fit_logistic(turn_fit, d["outcome"][fit_rows].astype(float))
    turn_p = 1.0 / (1.0 + np.exp(-(a * turn + b)))
    rep["turn"] = {
        "brier": brier(turn_p, outcome),
        "auc": auc(turn, outcome),
        "logistic": [a, b],
        "fit_positions": int(len(fit_rows)),
        "reliability": reliability(turn_p, outcome),
    }
    return rep


def draw(rep: dict[str, Any], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.2, 5.0))
    ax.plot([0, 1], [0, 1], color="0.6", lw=0.8, ls="--")
    for name, colour in (("net", "C0"), ("race", "C1")):
        pts = [(b["predicted"], b["observed"], b["n"]) for b in rep[name]["reliability"] if b["n"]]
        xs, ys, ns = zip(*pts, strict=True) if pts else ((), (), ())
        ax.plot(xs, ys, "o-", color=colour,
                label=f"{name}: Brier {rep[name]['brier']:.3f}, AUC {rep[name]['auc']:.3f}")
        for x, y, n in zip(xs, ys, ns, strict=True):
            ax.annotate(str(n), (x, y), textcoords="offset points", xytext=(4, -9), fontsize=6, color=colour)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("predicted chance that the shooter wins the frame")
    ax.set_ylabel("observed share of frames won")
    ax.set_title(f"{rep['variant']}: {rep['holdout_positions']} held-out positions of {rep['holdout_frames']} frames\n"
                 f"(base rate Brier {rep['base']['brier']:.3f}; turn value, fitted map: Brier "
                 f"{rep['turn']['brier']:.3f}, AUC {rep['turn']['auc']:.3f})", fontsize=9)
    ax.legend(fontsize=8, loc="upper left")
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)




def measure_cost(model: str, sims: int, limit: int, prior: str | None = None) -> dict[str, Any]:
    import numba
    import torch

    from piramida.agents.planner import Allowance, PlannerAgent
    from piramida.agents.value_net import ValueModel
    from piramida.env.position_sets import load_positions
    from piramida.env.view import GameView

    numba.set_num_threads(1)
    torch.set_num_threads(1)
    variant = ValueModel(model).variant
    refs = [r for r in load_positions() if r["variant"] == variant][:limit]
    hand = PlannerAgent(budget=Allowance(budget_s=None, n_sims=sims), noise="pro")
    net = PlannerAgent(budget=Allowance(budget_s=None, n_sims=sims), noise="pro", value=model, prior=prior)
    spent = {"prior": 0.0}
    if net.prior is not None:
        shortlist = net.prior.ranked

        def timed(*a: Any, **kw: Any) -> Any:
            t = time.thread_time()
            try:
                return shortlist(*a, **kw)
            finally:
                spent["prior"] += time.thread_time() - t

        net.prior.ranked = timed
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
    ap = argparse.ArgumentParser(prog="python -m bench.value", description=(__doc__ or "").splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("calibration", help="Brier score, AUC and reliability on held-out frames")
    c.add_argument("--model", required=True)
    c.add_argument("--data", action="append", required=True)
    c.add_argument("--noise", default="pro")
    c.add_argument("--png", help="draw the reliability diagram into this PNG")
    k = sub.add_parser("cost", help="what the network costs the planner per decision")
    k.add_argument("--model", required=True)
    k.add_argument("--sims", type=int, default=300)
    k.add_argument("--limit", type=int, default=30)
    k.add_argument("--prior", help="a policy file: the hybrid's prior (planner:prior=FILE)")
    k.add_argument("--quick", action="store_true", help="5 positions at 100 simulated strokes (a smoke run)")
    for p in (c, k):
        p.add_argument("--json", action="store_true", help="print the whole result as JSON")
        p.add_argument("--out", type=Path, default=None, help="write the result file here instead of bench/results/value.json")
    args = ap.parse_args(argv)
    if args.cmd == "calibration":
        rep = measure(args.model, args.data, args.noise)
        write_record("value", rep, argv, out=args.out, section=f"calibration_{rep['variant']}")
        if args.png:
            draw(rep, args.png)
        short = {k: rep[k] for k in ("variant", "holdout_positions")} | {
            m: {"brier": rep[m]["brier"], "auc": rep[m]["auc"]} for m in ("net", "race", "base", "turn")
        }
        sys.stdout.write(json.dumps(rep if args.json else short) + "\n")
        return 0
    if args.quick:
        args.sims, args.limit = 100, 5
    rep = measure_cost(args.model, args.sims, args.limit, args.prior)
    write_record("value", rep, argv, out=args.out, section=f"cost_{rep['variant']}")
    sys.stdout.write(json.dumps(rep) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
