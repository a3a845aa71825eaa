"""Training the value network on self-play shards (docs/training.md, "The learned value").

The target of a recorded decision is the frame's outcome for the shooter
(1, 0, or 0.5 for a drawn or capped frame), mixed with the searching
agent's own value of its chosen shot where the data has one
(``search_value``, the planner's frame-winning chance):
``y = (1 - mix) * outcome + mix * search_value`` - a one-step bootstrap
that lowers the variance of the outcome, which a single frame decides by a
few lucky rolls. The loss is the binary cross-entropy of the win logit
against ``y``, plus, in the points games, the squared error of the margin
output against the final margin over the target.

Frames, not positions, are split between training and held-out data (every
``HOLDOUT``-th frame), since the positions of a frame are strongly
correlated; every batch is mirrored (x -> width - x) with chance one half.
Deterministic for a seed on one thread.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from piramida.agents.value_obs import is_points_game
from piramida.env.errors import PiramidaError
from piramida.eval.version import code_version
from piramida.training.selfplay import load_shards

#: Every HOLDOUT-th frame is held out.
HOLDOUT = 10


class ValueTrainError(PiramidaError):
    """Value training that cannot start (no data, bad settings)."""


@dataclass(frozen=True)
class ValueTrainConfig:
    variant: str
    epochs: int = 30
    batch: int = 256
    lr: float = 2e-3
    weight_decay: float = 1e-4
    mix: float = 0.5
    hidden: int = 64
    seed: int = 0

    def __post_init__(self) -> None:
        check_fit(self.epochs, self.batch, self.lr, self.hidden, ValueTrainError)
        if not 0.0 <= self.mix <= 1.0:
            raise ValueTrainError(f"mix must be in [0, 1], got {self.mix}")



def data_name(folder: str | Path) -> str:
    """A data folder as a model file records it: relative to the working
    folder where it lies inside it, else its last three parts, so that a
    shipped file names no machine's folders."""
    p = Path(folder)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(Path(*p.parts[-3:])) if p.is_absolute() else str(p)

def check_fit(epochs: int, batch: int, lr: float, hidden: int, error: type[Exception]) -> None:
    """The settings every network fit here shares, each in its range
    (``error``, one line, otherwise)."""
    if not 1 <= epochs <= 10_000:
        raise error(f"epochs must be from 1 to 10000, got {epochs}")
    if not 1 <= batch <= 65_536:
        raise error(f"batch must be from 1 to 65536, got {batch}")
    if not (math.isfinite(lr) and 0 < lr <= 1):
        raise error(f"lr must be in (0, 1], got {lr}")
    if not 4 <= hidden <= 1024:
        raise error(f"hidden must be from 4 to 1024, got {hidden}")


def targets(data: Mapping[str, np.ndarray], mix: float) -> np.ndarray:
    """The win target of every row: the outcome mixed with the search's
    value where there is one."""
    out = data["outcome"].astype(np.float32)
    sv = data["search_value"].astype(np.float32)
    have = np.isfinite(sv)
    y = out.copy()
    y[have] = (1.0 - mix) * out[have] + mix * np.clip(sv[have], 0.0, 1.0)
    return y


def split(frames: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row masks (train, held out): every ``HOLDOUT``-th frame held out."""
    held = (frames % HOLDOUT) == HOLDOUT - 1
    return ~held, held


def brier(p: np.ndarray, outcome: np.ndarray) -> float:
    return float(np.mean((p - outcome) ** 2)) if len(p) else math.nan


def rmse(pred: np.ndarray, target: np.ndarray) -> float:
    return float(np.sqrt(np.mean((pred - target) ** 2))) if len(pred) else math.nan


def train_value(
    cfg: ValueTrainConfig,
    data_dirs: Sequence[str | Path],
    out: str | Path,
    *,
    on_epoch: Callable[[int, dict[str, float]], None] | None = None,
) -> dict[str, Any]:
    """Train on the shards of ``data_dirs``, write the value file ``out``;
    returns the training report (also in the file's config)."""
    import torch

    from piramida.agents.value_net import build_net, save_value
    from piramida.agents.value_net import mirrored as mirrored_net
    from piramida.agents.value_obs import mirror

    data = load_shards(data_dirs)
    n = len(data["outcome"])
    if n < 10:
        raise ValueTrainError(f"{n} recorded decisions in {', '.join(map(str, data_dirs))}: too few to train on")
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    y = targets(data, cfg.mix)
    points = is_points_game(cfg.variant)
    tr, ho = split(data["frame"])
    if not tr.any():
        raise ValueTrainError("every frame is held out: give more frames")
    balls = data["balls"]
    mirrored = mirror(balls)
    globs = data["globals"]
    margin = data["margin"].astype(np.float32)
    net = build_net({"hidden": cfg.hidden})
    opt = torch.optim.AdamW(net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    bce = torch.nn.BCEWithLogitsLoss()
    idx_tr = np.flatnonzero(tr)
    history: list[dict[str, float]] = []
    t0 = time.perf_counter()

    def predict(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(win chance, margin) of ``rows``, as the planner will score them."""
        net.eval()
        with torch.no_grad():
            win, marg = mirrored_net(net, balls[rows], globs[rows])
        net.train()
        return win.numpy(), marg.numpy()

    for epoch in range(1, cfg.epochs + 1):
        order = rng.permutation(idx_tr)
        total = 0.0
        for start in range(0, len(order), cfg.batch):
            rows = order[start : start + cfg.batch]
            flip = rng.random(len(rows)) < 0.5
            b = np.where(flip[:, None, None], mirrored[rows], balls[rows])
            logit, marg = net(torch.as_tensor(b), torch.as_tensor(globs[rows]))
            loss = bce(logit, torch.as_tensor(y[rows]))
            if points:
                loss = loss + torch.mean((marg - torch.as_tensor(margin[rows])) ** 2)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(rows)
        row = {"epoch": float(epoch), "train_loss": total / len(order)}
        if ho.any():
            win, marg = predict(np.flatnonzero(ho))
            row["holdout_brier"] = brier(win, data["outcome"][ho])
            if points:
                row["holdout_margin_rmse"] = rmse(marg, margin[ho])
        history.append(row)
        if on_epoch is not None:
            on_epoch(epoch, row)
    report = {
        "positions": n,
        "frames": int(len(np.unique(data["frame"]))),
        "train_positions": int(tr.sum()),
        "holdout_positions": int(ho.sum()),
        "holdout_brier": history[-1].get("holdout_brier", math.nan),
        "holdout_base_rate_brier": brier(np.full(int(ho.sum()), float(data["outcome"][tr].mean())), data["outcome"][ho]),
        "train_s": round(time.perf_counter() - t0, 2),
        **(
            {
                # The margin head against the train frames' mean margin.
                "holdout_margin_rmse": history[-1].get("holdout_margin_rmse", math.nan),
                "holdout_margin_base_rmse": rmse(np.full(int(ho.sum()), float(margin[tr].mean())), margin[ho]),
            }
            if points
            else {}
        ),
        "data": [data_name(d) for d in data_dirs],
    }
    meta = {
        "variant": cfg.variant,
        "net": {"hidden": cfg.hidden},
        "config": {"train": asdict(cfg), "report": _finite(report)},
        "code_version": code_version(),
    }
    save_value(out, net, meta)
    return report


def _finite(d: Mapping[str, Any]) -> dict[str, Any]:
    """JSON-safe: NaN as None (the file's digest is over sorted JSON)."""
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in d.items()}


__all__ = ["HOLDOUT", "ValueTrainConfig", "ValueTrainError", "brier", "check_fit", "rmse", "split", "targets", "train_value"]
