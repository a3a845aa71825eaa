"""Learning curves of a training run: a picture of its ``metrics.csv``.

``plot_curves(run_dir, out)`` draws, against the run's training time
(the sum of its iterations' seconds, so the time a resumed run was not
running is left out): main's pair score against greedy in the evaluation
(with its 95% interval; 0.5 is greedy's strength), the frame win rate
against greedy in the same evaluation, and the win rate against the
league (everything but itself) in the training episodes; frozen copies
joining the league are marked. ``piramida train`` writes it as
``RUN/curves.png`` at the end of a run.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any

from piramida.env.errors import PiramidaError


class CurvesError(PiramidaError):
    """A metrics file that cannot be drawn (missing, empty, malformed)."""


def _float(row: dict[str, str], key: str) -> float:
    text = (row.get(key) or "").strip()
    try:
        return float(text) if text else math.nan
    except ValueError:
        raise CurvesError(f"metrics.csv: column {key} holds {text[:30]!r}, not a number") from None


def read_metrics(run_dir: str | Path) -> list[dict[str, float]]:
    """The rows of ``run_dir/metrics.csv`` as numbers (NaN where a column is
    empty), with ``hours``: the training time up to the end of each row."""
    path = Path(run_dir) / "metrics.csv"
    if not path.is_file():
        raise CurvesError(f"{path}: no metrics file (is {run_dir} a training run folder?)")
    with path.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    if not rows:
        raise CurvesError(f"{path}: no iterations yet")
    out: list[dict[str, float]] = []
    elapsed = 0.0
    for row in rows:
        got = {k: _float(row, k) for k in ("iteration", "seconds", "win_vs_pool", "win_vs_greedy_eval",
                                           "eval_pair_score", "eval_pair_ci_low", "eval_pair_ci_high")}
        elapsed += got["seconds"] if math.isfinite(got["seconds"]) else 0.0
        got["hours"] = elapsed / 3600.0
        got["snapshot"] = 1.0 if (row.get("snapshot") or "").strip() else 0.0
        out.append(got)
    return out


def plot_curves(run_dir: str | Path, out: str | Path, title: str | None = None) -> Path:
    """Draw the run's learning curves to ``out`` (PNG); returns its path."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_metrics(run_dir)
    hours = [r["hours"] for r in rows]
    ev = [r for r in rows if math.isfinite(r["eval_pair_score"])]
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=110)
    ax.plot(hours, [r["win_vs_pool"] for r in rows], color="0.6", lw=1, label="win rate vs the league (training frames)")
    if ev:
        h = [r["hours"] for r in ev]
        ax.plot(h, [r["eval_pair_score"] for r in ev], "o-", color="tab:blue", label="pair score vs greedy (evaluation)")
        ax.fill_between(h, [r["eval_pair_ci_low"] for r in ev], [r["eval_pair_ci_high"] for r in ev],
                        color="tab:blue", alpha=0.15, label="its 95% interval (pairs)")
        ax.plot(h, [r["win_vs_greedy_eval"] for r in ev], "x", color="tab:orange", label="frame win rate vs greedy")
    for r in rows:
        if r["snapshot"]:
            ax.axvline(r["hours"], color="tab:green", lw=0.6, alpha=0.4)
    ax.axhline(0.5, color="k", lw=0.8, ls="--")
    ax.set_ylim(0.0, 1.0)
    ax.set_xlabel("training time (hours; green lines: a frozen copy joins the league)")
    ax.set_ylabel("score")
    last = int(rows[-1]["iteration"]) if math.isfinite(rows[-1]["iteration"]) else len(rows)
    ax.set_title(title or f"{Path(run_dir).name}: {last} iterations", fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path


def summary(run_dir: str | Path) -> dict[str, Any]:
    """The last evaluation and the training time, for a report."""
    rows = read_metrics(run_dir)
    ev = [r for r in rows if math.isfinite(r["eval_pair_score"])]
    last = ev[-1] if ev else None
    return {
        "iterations": int(rows[-1]["iteration"]),
        "hours": round(rows[-1]["hours"], 3),
        "last_eval_iteration": int(last["iteration"]) if last else None,
        "pair_score_vs_greedy": last["eval_pair_score"] if last else None,
        "pair_ci95": [last["eval_pair_ci_low"], last["eval_pair_ci_high"]] if last else None,
    }
