"""Imitation of the planner: behaviour cloning of its choice among the
policy's own options (docs/training.md, "Imitation of the planner").

PPO from scratch left the shot-selection policy at greedy's level (0.51 a
pair in free pyramid) while the planner, choosing among the same kind of
candidates by Monte Carlo, beats greedy 93% of the time. So the policy is
taught the planner's choice directly, where the planner makes it well and
the network is cheap to run:

- **Labels** (``expert``): for a shot decision the policy's own options
  (``policy_obs.options(view, noise, SEARCH)``, at most ``K``) are
  evaluated by the planner's successive halving (``PlannerAgent.evaluate``
  with ``sims`` simulated strokes) and ranked as ``PlannerAgent.plan_ctx``
  ranks them (``(-rounds, -mean)``); the label is the best option's index.
  Each option's mean sample value and rounds are kept as soft targets.
  Options are the policy's, not the planner's own candidate list, so the
  label is always something the policy can play. A choice decision (after
  a foul: shoot or hand over, the penalty ball) is labelled with the
  planner's own ``choose``: the policy scores choices with the same
  network, so an untrained choice head would otherwise play them at random.
- **Data** (``run_imitation``): frames of ``planner:sims=S`` against
  greedy through the match runner's frame driver (frame ``i`` is pair
  ``i // 2`` of the seed with the seats swapped on odd ``i``), every
  decision of both players with at least two options labelled. Shards of
  ``SHARD_FRAMES`` frames are written atomically with the code version,
  next to ``meta.json``; a rerun plays only the shards not on disk, and a
  folder of another config is refused (training/selfplay.py's helpers).
- **Fit** (``fit``): ``ShotPolicyNet`` trained on the cross-entropy of its
  masked logits against the label (plus, with ``soft`` > 0, against a
  softmax of the options' sample values), every ``HOLDOUT``-th frame held
  out, half of each batch mirrored left to right. The file is a policy
  file (``agents.policy.save_policy``) with the meta keys ``piramida
  export`` writes, so ``policy:path=FILE`` plays it unchanged.
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

from piramida.agents.base import GameView, ruled_view
from piramida.agents.policy_obs import (
    BALL_F,
    CAND_COLUMNS,
    CAND_F,
    GLOBAL_F,
    MAX_BALLS,
    K,
    Option,
    obs_version,
    observe,
    options,
)
from piramida.agents.shots.candidates import LAYOUT_VERSION
from piramida.env.errors import PiramidaError
from piramida.env.rules import get_referee
from piramida.eval.match import DEFAULT_MAX_SHOTS, play_frame
from piramida.eval.version import code_version
from piramida.training.selfplay import (
    META,
    SelfPlayConfig,
    build_agents,
    load_shards,
    open_folder,
    shard_name,
    shard_ranges,
    write_shard,
)
from piramida.training.value_train import HOLDOUT, check_fit, split

#: Frames a shard: a duplicate pair, so that a killed run loses little
#: (a frame with labels takes about a minute here).
SHARD_FRAMES = 2


def data_version(variant: str) -> int:
    """The layouts a shard's observation depends on, in one number: the
    policy observation's (``obs_version``) and the candidates' features
    (``LAYOUT_VERSION``)."""
    return obs_version(variant) * 1000 + LAYOUT_VERSION


#: The arrays of a shard, one row per labelled decision.
FIELDS = (
    "balls", "candidates", "globals", "action_mask", "label", "values", "rounds",
    "kind", "frame", "seat", "agent",
)
#: ``kind``: a shot decision or a choice.
SHOT, CHOICE = 0, 1
#: The opponent of the labelled planner.
OPPONENT = "greedy"
#: The search (``policy_obs.SEARCHES``) whose candidates are labelled: the
#: shipped imitation policies were made on the wide one, whose data
#: shards hold its options.
SEARCH = "wide"


class ImitationError(PiramidaError):
    """Imitation data or fitting that cannot go on (bad settings, a folder
    of another config, a damaged shard)."""


# ------------------------------------------------------------------ labels
@dataclass(frozen=True)
class Label:
    """The expert's answer for one decision: the options, the index of the
    best, and each option's sample mean and rounds (NaN and 0 where the
    option was not evaluated: a choice)."""

    options: list[Option]
    best: int
    values: np.ndarray
    rounds: np.ndarray


def labeller(noise: str, sims: int, seed: int = 0) -> Any:
    """The planner that labels decisions: a simulation count, no wall time,
    so that labels do not depend on the machine's speed."""
    from piramida.agents.planner import Allowance, PlannerAgent

    return PlannerAgent(budget=Allowance(budget_s=None, n_sims=int(sims)), noise=noise, seed=int(seed))


def expert(view: GameView, planner: Any, noise: str) -> Label | None:
    """The planner's choice among the policy's options of ``view``
    (``planner`` from ``labeller``); None for a decision with fewer than
    two options (a lag, a forced shot), which teaches nothing."""
    from piramida.agents.planner import Arm, rank
    from piramida.agents.shots.context import Budget, Context
    from piramida.agents.shots.probability import PotModel

    view = ruled_view(view)  # as the policy agent sees it
    model_noise = None if noise == "none" else noise
    opts = options(view, model_noise, SEARCH)
    if len(opts) < 2:
        return None
    values = np.full(K, np.nan, np.float32)
    rounds = np.zeros(K, np.int8)
    ctx = Context(view, Budget(None, planner.n_sims), PotModel.of(model_noise))
    if view.kind == "choice":
        pick = planner.choose(ctx)
        return Label(opts, [o.action for o in opts].index(pick), values, rounds)
    slots = [i for i, o in enumerate(opts) if o.candidate is not None]
    arms = [Arm(opts[i].candidate) for i in slots]  # type: ignore[arg-type]
    planner.evaluate(ctx, arms)
    for j, i in enumerate(slots):
        values[i] = arms[j].mean if arms[j].values else np.nan
        rounds[i] = arms[j].rounds
    best = rank(arms)[0]
    return Label(opts, slots[next(j for j, a in enumerate(arms) if a is best)], values, rounds)


# ------------------------------------------------------------------ data
@dataclass(frozen=True)
class ImitationConfig:
    """What a data folder holds: frames of ``planner:sims=sims`` against
    greedy in ``variant``, labelled with ``sims`` simulations a decision."""

    variant: str
    frames: int
    sims: int = 300
    noise: str = "pro"
    seed: int = 0
    max_shots: int = DEFAULT_MAX_SHOTS

    def __post_init__(self) -> None:
        get_referee(self.variant)  # one-line UnknownVariantError
        if not 1 <= int(self.frames) <= 1_000_000:
            raise ImitationError(f"frames must be from 1 to 1000000, got {self.frames}")
        if not 1 <= int(self.sims) <= 1_000_000:
            raise ImitationError(f"sims must be from 1 to 1000000, got {self.sims}")

    @property
    def agents(self) -> tuple[str, str]:
        return (f"planner:sims={self.sims}", OPPONENT)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self) | {"agents": list(self.agents), "kind": "imitation"}

    def shards(self) -> list[tuple[int, int]]:
        """(first, last) frame of every shard, last inclusive."""
        return shard_ranges(self.frames, SHARD_FRAMES)

    def players(self) -> list[Any]:
        """The two agents, with the run's noise preset as their default."""
        return build_agents(SelfPlayConfig(self.agents, self.variant, self.frames, self.noise, self.seed, self.max_shots))


def empty_rows() -> dict[str, list[Any]]:
    return {k: [] for k in FIELDS}


def add_row(rows: dict[str, list[Any]], view: GameView, label: Label, frame: int, seat: int, agent: int) -> None:
    """Append one labelled decision: its observation as the policy reads it."""
    obs = observe(ruled_view(view), label.options)
    o = obs["observations"]
    for key in ("balls", "candidates", "globals"):
        rows[key].append(o[key])
    rows["action_mask"].append(obs["action_mask"])
    rows["label"].append(label.best)
    rows["values"].append(label.values)
    rows["rounds"].append(label.rounds)
    rows["kind"].append(CHOICE if view.kind == "choice" else SHOT)
    rows["frame"].append(frame)
    rows["seat"].append(seat)
    rows["agent"].append(agent)


def as_arrays(rows: Mapping[str, list[Any]]) -> dict[str, np.ndarray]:
    """The rows as a shard's arrays (right shapes even when empty)."""
    n = len(rows["label"])
    return {
        "balls": np.array(rows["balls"], np.float32).reshape(n, MAX_BALLS, BALL_F),
        "candidates": np.array(rows["candidates"], np.float32).reshape(n, K, CAND_F),
        "globals": np.array(rows["globals"], np.float32).reshape(n, GLOBAL_F),
        "action_mask": np.array(rows["action_mask"], np.float32).reshape(n, K),
        "label": np.array(rows["label"], np.int16),
        "values": np.array(rows["values"], np.float32).reshape(n, K),
        "rounds": np.array(rows["rounds"], np.int8).reshape(n, K),
        "kind": np.array(rows["kind"], np.int8),
        "frame": np.array(rows["frame"], np.int32),
        "seat": np.array(rows["seat"], np.int8),
        "agent": np.array(rows["agent"], np.int8),
    }


def play_shard(
    cfg: ImitationConfig,
    first: int,
    last: int,
    agents: Sequence[Any] | None = None,
    on_decision: Callable[[], None] | None = None,
) -> dict[str, np.ndarray]:
    """Play frames ``first``..``last`` and label every decision of both
    players (``on_decision()`` after each label)."""
    agents = list(agents) if agents is not None else cfg.players()
    teacher = labeller(cfg.noise, cfg.sims, cfg.seed)
    rows = empty_rows()
    for frame in range(first, last + 1):

        def on_step(step: Any, who: int, frame: int = frame) -> None:
            if step.kind not in ("shot", "choice") or step.view is None:
                return
            label = expert(step.view, teacher, cfg.noise)
            if label is None:
                return
            add_row(rows, step.view, label, frame, step.seat, who)
            if on_decision is not None:
                on_decision()

        play_frame(
            cfg.variant, agents, seed=cfg.seed, pair=frame // 2, swap=bool(frame % 2),
            noise=cfg.noise, max_shots=cfg.max_shots, game_index=frame, on_step=on_step,
        )
    return as_arrays(rows)


def run_imitation(
    cfg: ImitationConfig,
    out: str | Path,
    *,
    command: str = "",
    on_shard: Callable[[int, int], None] | None = None,
    on_decision: Callable[[], None] | None = None,
) -> list[Path]:
    """Play and label the shards of ``cfg`` not yet in ``out`` (one
    process); ``on_shard(frames, decisions)`` after each. Returns the new
    shards."""
    out = Path(out).resolve()
    open_folder(cfg, out, command, data_version(cfg.variant), "imitation", ImitationError)
    todo = [s for s in cfg.shards() if not (out / shard_name(*s)).is_file()]
    version = code_version()
    agents = cfg.players() if todo else []
    written: list[Path] = []
    for first, last in todo:
        arrays = play_shard(cfg, first, last, agents, on_decision)
        written.append(write_shard(out, first, last, arrays, version, data_version(cfg.variant)))
        if on_shard is not None:
            on_shard(last - first + 1, len(arrays["label"]))
    return written


def read_meta(folder: str | Path) -> dict[str, Any]:
    """The config of an imitation data folder (``ImitationError`` for a
    folder without one, or of another kind of run)."""
    path = Path(folder) / META
    try:
        meta = json.loads(path.read_text())
        cfg = meta["config"]
        if cfg.get("kind") != "imitation":
            raise KeyError("kind")
    except FileNotFoundError:
        raise ImitationError(f"{folder}: no {META}: not an imitation data folder") from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise ImitationError(f"{path} is not the meta file of an imitation data folder") from None
    return cfg


def load_data(folders: Sequence[str | Path]) -> tuple[dict[str, np.ndarray], list[dict[str, Any]]]:
    """Every shard of ``folders`` (of one variant and noise) and their configs."""
    if not folders:
        raise ImitationError("no data folder given")
    metas = [read_meta(f) for f in folders]
    kinds = {(m["variant"], m["noise"]) for m in metas}
    if len(kinds) > 1:
        raise ImitationError(f"the data folders mix variants or noise presets: {sorted(kinds)}")
    data = load_shards(folders, FIELDS, data_version(metas[0]["variant"]), "imitation", ImitationError)
    return data, metas


# ------------------------------------------------------------------ mirror
_COL = {name: i for i, name in enumerate(CAND_COLUMNS)}
#: The pocket one-hot columns swapped by the mirror (left <-> right).
_POCKET_SWAP = [(_COL[f"pocket_{a}"], _COL[f"pocket_{b}"]) for a, b in (("fl", "fr"), ("ml", "mr"), ("rl", "rr"))]


def mirror(balls: np.ndarray, cands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The tokens of the mirror-image table (x -> width - x; left pockets
    <-> right ones): the same decision, so the same label. Absent
    positions (padding, no struck or target ball, a cue ball off the
    table) stay zero. The features have no side spin, so nothing else
    changes."""
    b = np.array(balls, copy=True)
    b[..., 0] = np.where(b[..., -1] > 0, 1.0 - b[..., 0], 0.0)
    c = np.array(cands, copy=True)
    present = c[..., _COL["present"]] > 0
    struck = present & ((c[..., _COL["struck_x"]] != 0) | (c[..., _COL["struck_y"]] != 0))
    c[..., _COL["struck_x"]] = np.where(struck, 1.0 - c[..., _COL["struck_x"]], c[..., _COL["struck_x"]])
    target = present & (c[..., _COL["target_present"]] > 0)
    c[..., _COL["target_x"]] = np.where(target, 1.0 - c[..., _COL["target_x"]], c[..., _COL["target_x"]])
    rest = present & (c[..., _COL["rest_on_table"]] > 0)
    c[..., _COL["rest_x"]] = np.where(rest, 1.0 - c[..., _COL["rest_x"]], c[..., _COL["rest_x"]])
    for i, j in _POCKET_SWAP:
        c[..., [i, j]] = c[..., [j, i]]
    return b, c


# ------------------------------------------------------------------ fit
@dataclass(frozen=True)
class FitConfig:
    epochs: int = 40
    batch: int = 128
    lr: float = 1e-3
    weight_decay: float = 1e-4
    hidden: int = 64
    #: Weight of the soft target (a softmax of the options' sample values
    #: at ``temperature``) beside the label's cross-entropy; 0: labels only.
    soft: float = 0.0
    temperature: float = 0.02
    choices: bool = True  # train on the choice decisions too
    mirror: bool = True
    seed: int = 0

    def __post_init__(self) -> None:
        check_fit(self.epochs, self.batch, self.lr, self.hidden, ImitationError)
        if not (math.isfinite(self.soft) and self.soft >= 0):
            raise ImitationError(f"soft must be a weight >= 0, got {self.soft}")
        if not (math.isfinite(self.temperature) and self.temperature > 0):
            raise ImitationError(f"temperature must be > 0, got {self.temperature}")


def soft_targets(values: np.ndarray, mask: np.ndarray, temperature: float) -> np.ndarray:
    """A distribution over the options from their sample values (the
    unevaluated get none); rows with nothing evaluated are all zero."""
    v = np.where(np.isfinite(values) & (mask > 0), values, -np.inf).astype(np.float64)
    top = v.max(axis=1, keepdims=True)
    ok = np.isfinite(top)
    w = np.where(ok & np.isfinite(v), np.exp((v - np.where(ok, top, 0.0)) / temperature), 0.0)
    total = w.sum(axis=1, keepdims=True)
    return (w / np.where(total > 0, total, 1.0)).astype(np.float32)


def policy_epochs(
    net: Any, opt: Any, data: Mapping[str, np.ndarray], idx: np.ndarray, cfg: Any, rng: np.random.Generator,
    loss_of: Any, prefix: str = "", mask: str = "action_mask",
) -> Any:
    """Train the policy network ``cfg.epochs`` times over the rows ``idx``
    in shuffled batches of ``cfg.batch``, half of each mirrored where
    ``cfg.mirror``; ``loss_of(log_probabilities, rows)`` is the batch's
    loss. Yields (epoch, mean training loss) after each epoch."""
    import torch

    for epoch in range(1, cfg.epochs + 1):
        order = rng.permutation(idx)
        total = 0.0
        for start in range(0, len(order), cfg.batch):
            rows = order[start : start + cfg.batch]
            flip = rng.random(len(rows)) < 0.5 if cfg.mirror else None
            obs, legal = batch_obs(data, rows, flip, prefix, mask)
            logits, _ = net(obs, legal)
            loss = loss_of(torch.log_softmax(logits, 1), rows)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(rows)
        yield epoch, total / len(order)


def finite(d: Mapping[str, Any]) -> dict[str, Any]:
    """JSON-safe: NaN as None."""
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in d.items()}


def batch_obs(
    data: Mapping[str, np.ndarray], rows: np.ndarray, flip: np.ndarray | None,
    prefix: str = "", mask: str = "action_mask",
) -> tuple[dict[str, Any], Any]:
    """The policy network's observation and option mask for ``rows`` of a
    shard (its arrays named ``prefix`` + balls, candidates, globals), the
    rows in ``flip`` mirrored across the long axis."""
    import torch

    balls, cands = data[prefix + "balls"][rows], data[prefix + "candidates"][rows]
    if flip is not None and flip.any():
        mb, mc = mirror(balls[flip], cands[flip])
        balls, cands = balls.copy(), cands.copy()
        balls[flip], cands[flip] = mb, mc
    obs = {"balls": torch.as_tensor(balls), "candidates": torch.as_tensor(cands),
           "globals": torch.as_tensor(data[prefix + "globals"][rows])}
    return obs, torch.as_tensor(data[mask][rows])


def evaluate_rows(net: Any, data: Mapping[str, np.ndarray], rows: np.ndarray) -> dict[str, float]:
    """The label's cross-entropy and top-1 agreement on ``rows`` (shots and
    choices apart), with the agreement of always playing option 0 (the
    toolbox's first candidate) for scale; and the regret of the shots: the
    planner's sample value of its choice less that of the network's, on
    average (top-1 agreement is harsh where several options are nearly as
    good: a pot's position variants), beside option 0's and a uniformly
    random option's regret."""
    import torch

    if not len(rows):
        return {}
    net.eval()
    with torch.no_grad():
        obs, mask = batch_obs(data, rows, None)
        logits, _ = net(obs, mask)
        label = torch.as_tensor(data["label"][rows].astype(np.int64))
        loss = float(torch.nn.functional.cross_entropy(logits, label))
        hit = (logits.argmax(1) == label).numpy()
    net.train()
    kind = data["kind"][rows]
    out = {"loss": loss, "agreement": float(hit.mean()), "decisions": float(len(rows))}
    for name, k in (("shot", SHOT), ("choice", CHOICE)):
        sel = kind == k
        out[f"{name}_decisions"] = float(sel.sum())
        out[f"{name}_agreement"] = float(hit[sel].mean()) if sel.any() else math.nan
        out[f"{name}_option0"] = float((data["label"][rows][sel] == 0).mean()) if sel.any() else math.nan
    out |= regrets(data, rows[kind == SHOT], logits.argmax(1).numpy()[kind == SHOT])
    return out


def regrets(data: Mapping[str, np.ndarray], rows: np.ndarray, picks: np.ndarray) -> dict[str, float]:
    """Mean value lost against the label by ``picks``, by option 0 and by a
    uniformly random option (the options' sample means; rows where the
    planner's choice has no value are left out)."""
    values = data["values"][rows].astype(np.float64)
    mask = data["action_mask"][rows] > 0
    best = values[np.arange(len(rows)), data["label"][rows]]
    ok = np.isfinite(best)
    if not ok.any():
        return {}
    # An option the labeller could not evaluate counts as worth nothing more than the worst evaluated one.
    floor = np.nanmin(np.where(mask, values, np.nan), axis=1)
    filled = np.where(np.isfinite(values), values, floor[:, None])
    pick = filled[np.arange(len(rows)), picks]
    uniform = (np.where(mask, filled, 0.0).sum(1) / mask.sum(1))
    return {
        "shot_regret": float(np.mean((best - pick)[ok])),
        "shot_regret_option0": float(np.mean((best - filled[:, 0])[ok])),
        "shot_regret_uniform": float(np.mean((best - uniform)[ok])),
    }


def fit(
    cfg: FitConfig,
    data_dirs: Sequence[str | Path],
    out: str | Path,
    *,
    on_epoch: Callable[[int, dict[str, float]], None] | None = None,
) -> dict[str, Any]:
    """Fit the policy network to the planner's labels in ``data_dirs`` and
    write the policy file ``out``; returns the report (also in the file's
    ``config``)."""
    import torch

    from piramida.agents.policy import save_policy
    from piramida.agents.policy_net import build_net, net_config

    data, metas = load_data(data_dirs)
    use = np.ones(len(data["label"]), bool) if cfg.choices else data["kind"] == SHOT
    tr, ho = split(data["frame"])
    tr, ho = tr & use, ho & use
    idx_tr, idx_ho = np.flatnonzero(tr), np.flatnonzero(ho)
    if len(idx_tr) < 2:
        raise ImitationError(f"{len(idx_tr)} labelled decisions to train on in {', '.join(map(str, data_dirs))}: too few")
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    net = build_net({"hidden": cfg.hidden})
    opt = torch.optim.AdamW(net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    soft = soft_targets(data["values"], data["action_mask"], cfg.temperature)
    history: list[dict[str, float]] = []
    t0 = time.perf_counter()
    def loss_of(logp: Any, rows: np.ndarray) -> Any:
        label = torch.as_tensor(data["label"][rows].astype(np.int64))
        loss = torch.nn.functional.nll_loss(logp, label)
        if cfg.soft > 0:
            q = torch.as_tensor(soft[rows])
            # Rows without sample values (choices) have q = 0 and add nothing.
            loss = loss - cfg.soft * (q * logp.clamp(min=-1e4)).sum(1).mean()
        return loss

    for epoch, train_loss in policy_epochs(net, opt, data, idx_tr, cfg, rng, loss_of):
        row = {"epoch": float(epoch), "train_loss": train_loss}
        row |= {f"holdout_{k}": v for k, v in evaluate_rows(net, data, idx_ho).items() if k in ("loss", "agreement", "shot_regret")}
        history.append(row)
        if on_epoch is not None:
            on_epoch(epoch, row)
    report = {
        "decisions": int(use.sum()),
        "frames": int(len(np.unique(data["frame"]))),
        "train": finite(evaluate_rows(net, data, idx_tr)),
        "holdout": finite(evaluate_rows(net, data, idx_ho)),
        "holdout_every": HOLDOUT,
        "train_s": round(time.perf_counter() - t0, 2),
        "data": [str(Path(d)) for d in data_dirs],
    }
    meta = {
        "code_version": code_version(),
        "variant": metas[0]["variant"],
        "noise": metas[0]["noise"],
        "search": SEARCH,
        "net": net_config({"hidden": cfg.hidden}),
        "config": json.dumps({"imitation": asdict(cfg), "data": metas, "report": report}, sort_keys=True),
    }
    save_policy(out, net.state_dict(), meta)
    return report


__all__ = [
    "CHOICE",
    "data_version",
    "FIELDS",
    "SHARD_FRAMES",
    "SHOT",
    "FitConfig",
    "ImitationConfig",
    "ImitationError",
    "Label",
    "batch_obs",
    "evaluate_rows",
    "expert",
    "finite",
    "fit",
    "labeller",
    "load_data",
    "mirror",
    "play_shard",
    "policy_epochs",
    "read_meta",
    "regrets",
    "run_imitation",
    "soft_targets",
]
