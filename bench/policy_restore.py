"""Does a restored checkpoint play as well as its run logged? (issue 16)

Run from the repository root::

    .venv/bin/python -m bench.policy_restore RUN_DIR [--pairs N] [--checkpoint DIR] [--json]

Restores module ``main`` from the run's latest checkpoint (or
``--checkpoint``) with RLlib's ``RLModule.from_checkpoint`` (no Ray
cluster), plays ``--pairs`` duplicate pairs against greedy in the run's
evaluation env (``TrainConfig.eval_env_config``: the variant, noise,
candidate search and frame length of the run, one rack per pair with the
seats swapped) with exploration off (the highest logit, as RLlib's
evaluation does), and compares the result with the last evaluation logged
in the run's ``metrics.csv``: the frame win rate with its Wilson interval
and, where the CSV has them, the mean pair score with its pair-level
interval (eval/pairs.py). It prints both and whether the intervals
overlap.

The evaluation env numbers its racks from the same seed at every
evaluation, so the first ``evaluation.pairs`` pairs played here are the
racks the logged evaluation played: when the checkpoint is of the
iteration that was evaluated last, a faithful restore plays those pairs to
the same results (``same_racks`` in the output), which is a sharper check
than overlapping intervals. A checkpoint taken after the last evaluation
has had more training, and only the intervals compare.

Not a timed test: a pair costs two frames against greedy (seconds each on
this machine). tests/bench/test_policy_restore.py checks the arithmetic.
"""

from __future__ import annotations

import argparse
import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from piramida.eval.pairs import pair_score, pair_stats, pentanomial
from piramida.training.run import Run, wilson


def last_evaluation(metrics: Path) -> dict[str, Any] | None:
    """The last row of a run's metrics.csv with an evaluation against
    greedy, as numbers (None if there is none): iteration, win rate, frames,
    its Wilson interval and, when logged, the pairs, pentanomial, pair score
    and pair interval."""
    if not metrics.is_file():
        return None
    with metrics.open(newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r.get("win_vs_greedy_eval")]
    if not rows:
        return None
    r = rows[-1]
    out: dict[str, Any] = {
        "iteration": int(r["iteration"]),
        "win": float(r["win_vs_greedy_eval"]),
        "frames": int(float(r["eval_frames"])),
        "ci": [float(r["eval_ci_low"]), float(r["eval_ci_high"])],
    }
    if r.get("eval_pentanomial"):
        out["pentanomial"] = [int(c) for c in r["eval_pentanomial"].split("/")]
        out["pairs"] = int(r["eval_pairs"])
        out["pair_score"] = float(r["eval_pair_score"])
        out["pair_ci"] = [float(r["eval_pair_ci_low"]), float(r["eval_pair_ci_high"])]
    return out


def summarize(pairs: Sequence[tuple[float, float]]) -> dict[str, Any]:
    """Frame and pair statistics of duplicate pairs (each the learner's two
    game scores, 1 won, 0.5 drawn or truncated, 0 lost)."""
    games = [s for p in pairs for s in p]
    n = len(games)
    win = sum(games) / n if n else 0.0
    st = pair_stats(list(pentanomial(pair_score(a, b) for a, b in pairs)))
    return {
        "frames": n,
        "win": win,
        "ci": list(wilson(win, n)),
        "pairs": st.pairs,
        "pentanomial": list(st.counts),
        "pair_score": st.score,
        "pair_ci": list(st.score_ci),
    }


def overlap(a: Sequence[float], b: Sequence[float]) -> bool:
    """Whether two closed intervals share a point."""
    return a[0] <= b[1] and b[0] <= a[1]


def compare(logged: dict[str, Any], restored: dict[str, Any], first: dict[str, Any] | None = None) -> dict[str, Any]:
    """Whether the intervals overlap (frames; pairs where both have them);
    with ``first`` (the restored module's first ``logged["pairs"]`` pairs:
    the logged evaluation's racks), whether it got the same results there."""
    out: dict[str, Any] = {"frame_intervals_overlap": overlap(logged["ci"], restored["ci"])}
    if "pair_ci" in logged:
        out["pair_intervals_overlap"] = overlap(logged["pair_ci"], restored["pair_ci"])
    if first is not None:
        same = first["frames"] == logged["frames"] and abs(first["win"] - logged["win"]) < 1e-9
        if "pentanomial" in logged:
            same = same and first["pentanomial"] == logged["pentanomial"]
        out["same_racks"] = same
    return out


def checkpoint_iteration(ck: Path) -> int | None:
    """The iteration of a checkpoint folder named ``iter_NNNNN``."""
    name = ck.name
    return int(name[5:]) if name.startswith("iter_") and name[5:].isdigit() else None


def play_pairs(run_dir: Path, n_pairs: int, checkpoint: Path | None = None) -> tuple[list[tuple[float, float]], Path]:
    """``n_pairs`` evaluation pairs of the restored module against greedy:
    the learner's game scores per pair, and the checkpoint used."""
    import torch
    from ray.rllib.core.columns import Columns

    from piramida.training.run import restore_main
    from piramida.training.shot_env import ShotCore

    cfg = Run(run_dir).config()
    module, ck = restore_main(run_dir, checkpoint)
    core = ShotCore(cfg.eval_env_config())
    # As RLlib's evaluation env runner seeds its env (seed + 1e6).
    obs, _ = core.reset(seed=int(cfg.seed + 1_000_000))
    scores: list[float] = []
    while len(scores) < 2 * n_pairs:
        (agent,) = obs
        o = obs[agent]
        batch = {
            "observations": {k: torch.as_tensor(v).unsqueeze(0) for k, v in o["observations"].items()},
            "action_mask": torch.as_tensor(o["action_mask"]).unsqueeze(0),
        }
        with torch.no_grad():
            logits = module.forward_inference({Columns.OBS: batch})[Columns.ACTION_DIST_INPUTS]
        obs, _, terms, truncs, infos = core.step({agent: int(logits[0].argmax())})
        if terms["__all__"] or truncs["__all__"]:
            scores.append((float(infos["player_0"]["outcome"]) + 1.0) / 2.0)
            if len(scores) < 2 * n_pairs:
                obs, _ = core.reset()
    return [(scores[i], scores[i + 1]) for i in range(0, len(scores), 2)], ck


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path, help="a training run folder")
    ap.add_argument("--pairs", type=int, default=None, help="pairs to play (default: the run's evaluation.pairs)")
    ap.add_argument("--checkpoint", type=Path, default=None, help="a checkpoint folder (default: the latest)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    run = Run(args.run)
    cfg = run.config()
    logged = last_evaluation(run.metrics)
    if logged is None:
        ap.error(f"{run.metrics} has no evaluation against greedy to compare with")
    n = args.pairs if args.pairs is not None else max(cfg.eval_pairs, 1)
    pairs, ck = play_pairs(args.run, n, args.checkpoint)
    restored = summarize(pairs)
    k = logged.get("pairs", logged["frames"] // 2)
    first = summarize(pairs[:k]) if 0 < k <= len(pairs) else None
    ck_iter = checkpoint_iteration(ck)
    if ck_iter != logged["iteration"]:
        first = None  # other weights: the racks need not play alike
    verdict = compare(logged, restored, first)
    out = {"checkpoint": str(ck), "checkpoint_iteration": ck_iter, "logged": logged, "restored": restored} | verdict
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"logged   (iteration {logged['iteration']}): win {logged['win']:.3f} "
          f"[{logged['ci'][0]:.3f}, {logged['ci'][1]:.3f}] of {logged['frames']} frames"
          + (f"; pair score {logged['pair_score']:.3f} [{logged['pair_ci'][0]:.3f}, {logged['pair_ci'][1]:.3f}] "
             f"of {logged['pairs']} pairs" if "pair_ci" in logged else ""))
    print(f"restored ({ck.name}): win {restored['win']:.3f} [{restored['ci'][0]:.3f}, {restored['ci'][1]:.3f}] "
          f"of {restored['frames']} frames; pair score {restored['pair_score']:.3f} "
          f"[{restored['pair_ci'][0]:.3f}, {restored['pair_ci'][1]:.3f}] of {restored['pairs']} pairs")
    print(f"frame intervals overlap: {verdict['frame_intervals_overlap']}"
          + (f"; pair intervals overlap: {verdict['pair_intervals_overlap']}" if "pair_intervals_overlap" in verdict else ""))
    if "same_racks" in verdict:
        print(f"the logged evaluation's {k} pairs replayed to the same results: {verdict['same_racks']}")
    else:
        print(f"checkpoint of iteration {ck_iter}, last evaluation at {logged['iteration']}: only the intervals compare")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
