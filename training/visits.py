"""The search's own distribution as the policy's target (training/iterate.py,
docs/training.md "Expert iteration").

A planner's shot decision (``PlannerAgent.last_search``, a ``SearchTrace``)
lists every candidate of its search with the noisy samples successive
halving gave it: the candidates a policy prior left out and those dropped
in early rounds got few or none, the last round's survivors the most.
``search_row`` turns it into one row: the decision as the policy network
reads it over the candidates a prior is offered (``policy_obs.select``
of the planner's candidates, the features ``PolicyAgent.ranked``
computes), each candidate's sample count (``visits``), mean sample value
(NaN without samples) and the slot of the shot played.

``fit_visits`` trains ``ShotPolicyNet`` on those rows: the cross-entropy
of its masked logits against the search's preference (``target``:
``values``, a softmax over the candidates' mean sample values, by
default; or ``visits``, the samples beyond the first round's, or the
shot played where the search ended in its first round), every ``HOLDOUT``-th frame held out, half of each batch mirrored left to
right (the same decision). The file is a policy file (``save_policy``):
``planner:prior=FILE`` ranks the planner's candidates with it, and
``policy:path=FILE`` plays it alone (trained on shot decisions only, it
scores choices with an untrained head).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from piramida.agents.policy_obs import (
    BALL_F,
    CAND_F,
    GLOBAL_F,
    MAX_BALLS,
    K,
    Option,
    cand_row,
    observe,
    select,
)
from piramida.env.errors import PiramidaError
from piramida.eval.version import code_version
from piramida.training.imitation import batch_obs, data_version, finite, policy_epochs
from piramida.training.value_train import HOLDOUT, check_fit, split

#: The arrays a shard adds for the policy, one row per searched decision
#: (prefixed so that they sit beside the value arrays in the same file).
FIELDS = ("pi_balls", "pi_candidates", "pi_globals", "pi_mask", "pi_visits", "pi_values", "pi_chosen", "pi_frame", "pi_agent")
#: The policy targets ``fit_visits`` knows: ``visits`` (``targets``: the
#: samples beyond the first round, or the shot played) and ``values``
#: (``value_targets``: a softmax over the candidates' mean values).
TARGETS = ("values", "visits")
#: How sharply ``value_targets`` prefers the best-valued candidate: the
#: worst sampled one gets exp(-SHARPNESS) of its weight.
SHARPNESS = 4.0


class VisitsError(PiramidaError):
    """Search data or a policy fit that cannot go on."""


def search_row(trace: Any) -> dict[str, Any] | None:
    """One row from a planner's ``SearchTrace``; None where fewer than two
    candidates are offered or none got a sample."""
    from piramida.agents.planner import rank

    arms = list(trace.arms)
    kept = select([a.cand for a in arms], K)
    if len(kept) < 2:
        return None
    by_cand = {id(a.cand): a for a in arms}
    chosen_arms = [by_cand[id(c)] for c in kept]
    visits = np.zeros(K, np.float32)
    values = np.full(K, np.nan, np.float32)
    for i, a in enumerate(chosen_arms):
        visits[i] = a.n
        if a.values:
            values[i] = a.mean
    if visits.sum() <= 0:
        return None
    obs = observe(trace.view, [Option(c.shot, cand_row(trace.view, c), c) for c in kept])
    # The planner plays the best of its ranking (``planner.rank``).
    best = rank(arms)[0].cand
    chosen = next((i for i, c in enumerate(kept) if c is best), -1)
    o = obs["observations"]
    return {
        "pi_balls": o["balls"],
        "pi_candidates": o["candidates"],
        "pi_globals": o["globals"],
        "pi_mask": obs["action_mask"],
        "pi_visits": visits,
        "pi_values": values,
        "pi_chosen": np.int16(chosen),
    }


def as_arrays(rows: Sequence[Mapping[str, Any]], variant: str) -> dict[str, np.ndarray]:
    """The rows (each with ``pi_frame`` and ``pi_agent`` added) as a
    shard's arrays, right shapes even when empty, with the observation
    layouts of ``variant`` they depend on (``pi_version``)."""
    n = len(rows)

    def col(key: str) -> list[Any]:
        return [r[key] for r in rows]

    return {
        "pi_balls": np.array(col("pi_balls"), np.float32).reshape(n, MAX_BALLS, BALL_F),
        "pi_candidates": np.array(col("pi_candidates"), np.float32).reshape(n, K, CAND_F),
        "pi_globals": np.array(col("pi_globals"), np.float32).reshape(n, GLOBAL_F),
        "pi_mask": np.array(col("pi_mask"), np.float32).reshape(n, K),
        "pi_visits": np.array(col("pi_visits"), np.float32).reshape(n, K),
        "pi_values": np.array(col("pi_values"), np.float32).reshape(n, K),
        "pi_chosen": np.array(col("pi_chosen"), np.int16),
        "pi_frame": np.array(col("pi_frame"), np.int32),
        "pi_agent": np.array(col("pi_agent"), np.int8),
        "pi_version": np.array(data_version(variant)),
    }


def load_rows(folders: Sequence[str | Path], variant: str) -> dict[str, np.ndarray]:
    """The policy rows of every shard of ``folders`` (``variant``'s
    layouts); frame numbers offset so that frames of different folders
    stay apart."""
    version = data_version(variant)
    parts: list[dict[str, np.ndarray]] = []
    for n, folder in enumerate(folders):
        files = sorted(Path(folder).glob("shard-*.npz"))
        if not files:
            raise VisitsError(f"{folder}: no shards (shard-*.npz)")
        for f in files:
            try:
                with np.load(f, allow_pickle=False) as z:
                    if "pi_version" not in z or int(z["pi_version"]) != version:
                        raise VisitsError(f"{f} holds no search rows of layout {version}")
                    part = {k: z[k] for k in FIELDS}
            except VisitsError:
                raise
            except Exception as exc:  # noqa: BLE001 - a damaged zip fails in many ways
                raise VisitsError(f"{f} is not a readable shard: {type(exc).__name__}") from None
            part["pi_frame"] = part["pi_frame"].astype(np.int64) + n * 1_000_000
            parts.append(part)
    return {k: np.concatenate([p[k] for p in parts]) for k in FIELDS}


@dataclass(frozen=True)
class VisitFitConfig:
    variant: str
    search: str = "planner"
    noise: str = "pro"
    epochs: int = 40
    batch: int = 128
    lr: float = 1e-3
    weight_decay: float = 1e-4
    hidden: int = 64
    mirror: bool = True
    seed: int = 0
    target: str = "values"

    def __post_init__(self) -> None:
        check_fit(self.epochs, self.batch, self.lr, self.hidden, VisitsError)
        if self.target not in TARGETS:
            raise VisitsError(f"target must be one of {', '.join(TARGETS)}, got {self.target!r}")


def _obs(data: Mapping[str, np.ndarray], rows: np.ndarray, flip: np.ndarray | None) -> tuple[dict[str, Any], Any]:
    return batch_obs(data, rows, flip, prefix="pi_", mask="pi_mask")


def targets(data: Mapping[str, np.ndarray]) -> np.ndarray:
    """The search's preference in every row as a distribution over its
    slots: the samples beyond the first round's (successive halving gives
    every sampled candidate the same first allotment, which says nothing of
    their worth), and where the budget ended in the first round (every
    sampled candidate with the same count: no halving happened) the shot
    played. Raw counts would make those rows uniform over the candidates,
    and a prior fitted to them ranks shots by noise."""
    offered = data["pi_mask"] > 0
    v = data["pi_visits"].astype(np.float64) * offered
    sampled = offered & (v > 0)
    first = np.where(sampled, v, np.inf).min(1, keepdims=True)
    extra = np.where(sampled, v - np.where(np.isfinite(first), first, 0.0), 0.0)
    total = extra.sum(1, keepdims=True)
    out = extra / np.where(total > 0, total, 1.0)
    chosen = data["pi_chosen"].astype(np.int64)
    flat = (total[:, 0] <= 0) & (chosen >= 0)
    out[flat] = 0.0
    out[np.flatnonzero(flat), chosen[flat]] = 1.0
    # A row with neither (no sample, no shot played): the raw counts.
    none = (total[:, 0] <= 0) & ~flat
    raw = v[none].sum(1, keepdims=True)
    out[none] = v[none] / np.where(raw > 0, raw, 1.0)
    return out.astype(np.float32)


def value_targets(data: Mapping[str, np.ndarray], sharpness: float = SHARPNESS) -> np.ndarray:
    """The search's preference read from its values rather than its counts:
    over the sampled slots of a row, ``softmax(sharpness * (q - max q) /
    (max q - min q))``, the min-max normalisation of Gumbel MuZero's
    completed Q-values (Danihelka et al. 2022) without the prior's logits.
    The best-valued shot gets the most weight, the rest in the order of
    their values, so a decision whose budget ended in its first round still
    ranks all its candidates instead of naming one. The normalisation makes
    it the same for a win-chance valuation and a points one. Rows with
    fewer than two valued slots, or all valued alike, fall back to
    ``targets``."""
    offered = data["pi_mask"] > 0
    q = data["pi_values"].astype(np.float64)
    valued = offered & np.isfinite(q) & (data["pi_visits"] > 0)
    hi = np.where(valued, q, -np.inf).max(1, keepdims=True)
    lo = np.where(valued, q, np.inf).min(1, keepdims=True)
    spread = hi - lo
    usable = (valued.sum(1) >= 2) & (spread[:, 0] > 0)
    out = targets(data).astype(np.float64)
    if usable.any():
        z = np.where(valued, sharpness * (q - hi) / np.where(spread > 0, spread, 1.0), -np.inf)[usable]
        w = np.exp(z)
        out[usable] = w / w.sum(1, keepdims=True)
    return out.astype(np.float32)


def target_of(kind: str, data: Mapping[str, np.ndarray]) -> np.ndarray:
    """The policy target named ``kind`` (``TARGETS``)."""
    if kind == "values":
        return value_targets(data)
    return targets(data)


def evaluate(net: Any, data: Mapping[str, np.ndarray], pi: np.ndarray, rows: np.ndarray) -> dict[str, float]:
    """Cross-entropy against the target ``pi``, and how often the
    network's top slot is the target's and the one played."""
    import torch

    if not len(rows):
        return {}
    net.eval()
    with torch.no_grad():
        obs, mask = _obs(data, rows, None)
        logits, _ = net(obs, mask)
        logp = torch.log_softmax(logits, 1).clamp(min=-1e4)
        ce = float(-(torch.as_tensor(pi[rows]) * logp).sum(1).mean())
        top = logits.argmax(1).numpy()
    net.train()
    chosen = data["pi_chosen"][rows]
    played = chosen >= 0
    return {
        "cross_entropy": ce,
        "most_visited": float((top == pi[rows].argmax(1)).mean()),
        "played": float((top[played] == chosen[played]).mean()) if played.any() else math.nan,
        "decisions": float(len(rows)),
    }


def fit_visits(
    cfg: VisitFitConfig,
    data_dirs: Sequence[str | Path],
    out: str | Path,
    *,
    on_epoch: Callable[[int, dict[str, float]], None] | None = None,
) -> dict[str, Any]:
    """Fit the policy network to the search distributions in ``data_dirs``
    and write the policy file ``out``; returns the report."""
    import torch

    from piramida.agents.policy import save_policy
    from piramida.agents.policy_net import build_net, net_config

    data = load_rows(data_dirs, cfg.variant)
    pi = target_of(cfg.target, data)
    tr, ho = split(data["pi_frame"])
    idx_tr, idx_ho = np.flatnonzero(tr), np.flatnonzero(ho)
    if len(idx_tr) < 2:
        raise VisitsError(f"{len(idx_tr)} searched decisions to train on in {', '.join(map(str, data_dirs))}: too few")
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    net = build_net({"hidden": cfg.hidden})
    opt = torch.optim.AdamW(net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    t0 = time.perf_counter()
    def loss_of(logp: Any, rows: np.ndarray) -> Any:
        return -(torch.as_tensor(pi[rows]) * logp.clamp(min=-1e4)).sum(1).mean()

    for epoch, train_loss in policy_epochs(net, opt, data, idx_tr, cfg, rng, loss_of, "pi_", "pi_mask"):
        row = {"epoch": float(epoch), "train_loss": train_loss}
        row |= {f"holdout_{k}": v for k, v in evaluate(net, data, pi, idx_ho).items() if k != "decisions"}
        if on_epoch is not None:
            on_epoch(epoch, row)
    report = {
        "decisions": int(len(pi)),
        "frames": int(len(np.unique(data["pi_frame"]))),
        "train": finite(evaluate(net, data, pi, idx_tr)),
        "holdout": finite(evaluate(net, data, pi, idx_ho)),
        "holdout_every": HOLDOUT,
        "train_s": round(time.perf_counter() - t0, 2),
    }
    meta = {
        "code_version": code_version(),
        "variant": cfg.variant,
        "noise": cfg.noise,
        "search": cfg.search,
        "net": net_config({"hidden": cfg.hidden}),
        "config": json.dumps({"visits": asdict(cfg), "report": report}, sort_keys=True),
    }
    save_policy(out, net.state_dict(), meta)
    return report


__all__ = ["FIELDS", "SHARPNESS", "TARGETS", "VisitFitConfig", "VisitsError", "as_arrays", "fit_visits", "load_rows", "search_row", "target_of", "targets", "value_targets"]
