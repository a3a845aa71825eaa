"""A training run: PPO self-play with a league, metrics, checkpoints,
resume, export (docs/training.md).

The run folder holds ``config.toml`` (the config it was started with),
``metrics.csv`` (one row an iteration), ``league.json`` (the frozen copies
of main), ``checkpoints/iter_NNNNN`` (RLlib checkpoints) and ``latest``
(the newest checkpoint's name, written after it is complete, so a run
killed while saving resumes from the one before). Each checkpoint keeps
the league it was saved with (``league.json`` inside it).

A damaged checkpoint (a file cut short or overwritten: ``damaged_file``
reads every pickle, JSON and torch file of it back) is named in one line;
``--resume`` then goes on from the newest checkpoint that is whole,
dropping the metrics rows after it, and export refuses it.

The league. Module ``main`` is trained; ``player_0`` is always main and
``player_1`` is main or one of the frozen copies ``frozen_1`` ...
(``LeagueMapping``), unless the env plays a fixed opponent (greedy,
random) for that frame. After an iteration in which main's win rate
against everything but itself (``win_vs_pool``, from the training
episodes) reaches the threshold, main's weights are copied into a frozen
module: added with ``add_module`` (and copied onto the env runners by
hand, ray-project/ray#61960) or, once ``max_frozen`` exist, over the oldest.
On resume the frozen modules are part of the config from the start, so
the checkpoint restores them.

Progress against greedy is measured apart from the training batch: the
evaluation env runner plays duplicate pairs (one rack, seats swapped)
against greedy with exploration off, every ``eval_every`` iterations. The
CSV has its frame win rate with a Wilson interval (frames taken as
independent) and the pair-level statistics (``pair_columns``: the
pentanomial, the mean pair score and its 95% interval, eval/pairs.py),
which count a pair, not a frame, as the unit.
"""

from __future__ import annotations

import csv
import json
import logging
import math
import os
import pickle
import random
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from piramida.env.errors import PiramidaError
from piramida.eval.pairs import pair_stats
from piramida.training.config import TrainConfig, load_config, parse_config

MAIN = "main"
COLUMNS = (
    "iteration",
    "env_steps",
    "env_steps_per_s",
    "seconds",
    "episodes",
    "win_vs_pool",
    "win_vs_greedy_train",
    "win_vs_greedy_eval",
    "eval_frames",
    "eval_ci_low",
    "eval_ci_high",
    "eval_pairs",
    "eval_pentanomial",
    "eval_pair_score",
    "eval_pair_ci_low",
    "eval_pair_ci_high",
    "frozen",
    "snapshot",
    "total_loss",
    "entropy",
)


class TrainError(PiramidaError):
    """A run folder that cannot be used (nothing to resume, no checkpoint)."""


class LeagueMapping:
    """``player_0`` -> main; ``player_1`` -> main or a frozen copy, drawn
    from a stream seeded by the run's seed, once per episode (RLlib asks
    again for the later chunks of an episode, and then gets the first
    answer). An episode's id is a random UUID, so a draw from the id would
    differ from run to run; the order in which an env runner starts its
    episodes does not."""

    #: Episodes remembered; an episode is asked about while it runs only.
    REMEMBER = 4096

    def __init__(self, frozen: list[str], seed: int = 0) -> None:
        self.frozen = list(frozen)
        self.seed = int(seed)
        self._rng = random.Random(self.seed)
        self._drawn: dict[str, str] = {}

    def __call__(self, agent_id: Any, episode: Any = None, **kw: Any) -> str:
        if agent_id == "player_0" or not self.frozen:
            return MAIN
        key = str(getattr(episode, "id_", ""))
        got = self._drawn.get(key)
        if got is None:
            pool = [MAIN, *self.frozen]
            got = self._drawn[key] = pool[self._rng.randrange(len(pool))]
            if len(self._drawn) > self.REMEMBER:
                for old in list(self._drawn)[: self.REMEMBER // 2]:
                    del self._drawn[old]
        return got


class _SortedIds(set):  # type: ignore[type-arg]
    """A set that iterates in sorted order."""

    def __iter__(self) -> Any:
        return iter(sorted(set.__iter__(self), key=str))


_SORTED_IDS = property(lambda self: _SortedIds(self.agent_episodes.keys()))


def _agents_in_order() -> None:
    """Make RLlib's ``MultiAgentEpisode.agent_ids`` iterate in sorted order.

    The learner's connectors build each module's batch agent by agent in
    the order of that set of strings, and a string's hash differs from one
    process to the next (``PYTHONHASHSEED``): main's batch of a self-play
    frame put ``player_0``'s rows first in one run and ``player_1``'s in
    the next, so the minibatches, the losses and the evaluations of two
    runs with one seed differed from the first update on."""
    from ray.rllib.env.multi_agent_episode import MultiAgentEpisode

    if MultiAgentEpisode.agent_ids is not _SORTED_IDS:
        MultiAgentEpisode.agent_ids = _SORTED_IDS  # type: ignore[assignment,method-assign]


def _callback_class() -> type:
    from ray.rllib.callbacks.callbacks import RLlibCallback

    from piramida.eval.pairs import pair_score, pentanomial

    class ShotMetrics(RLlibCallback):
        """Win rates per kind of opponent from the last infos of an episode:
        ``win_vs_<opponent>`` (1 won, 0.5 drawn or truncated, 0 lost),
        ``win_vs_pool`` over every opponent but main itself; for duplicate
        frames (the evaluation), each pair once both its games are over:
        ``pairs_vs_<opponent>_<k>``, one count in the pentanomial's cell k
        (pair score k/4, eval/pairs.py)."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            #: The first game's score of each pair still open, by opponent and pair.
            self.open_pairs: dict[tuple[str, int], float] = {}

        def pair_done(self, info: dict[str, Any], label: str, score: float, metrics_logger: Any) -> None:
            key = (label, int(info["pair"]))
            if int(info.get("game", 0)) == 0:
                self.open_pairs[key] = score
                return
            first = self.open_pairs.pop(key, None)
            if first is not None:
                k = pentanomial([pair_score(first, score)]).index(1)
                metrics_logger.log_value(f"pairs_vs_{label}_{k}", 1, reduce="sum")

        def on_episode_end(self, *, episode: Any, metrics_logger: Any = None, **kw: Any) -> None:
            infos = episode.get_infos(-1) if hasattr(episode, "get_infos") else {}
            info = infos.get("player_0") or {}
            if "outcome" not in info or metrics_logger is None:
                return
            score = (float(info["outcome"]) + 1.0) / 2.0
            opp = str(info.get("opponent", "self"))
            if opp == "self":
                mod = episode.module_for("player_1")
                opp = "self" if mod == MAIN else "frozen"
            label = "".join(ch if ch.isalnum() else "_" for ch in opp)
            metrics_logger.log_value(f"win_vs_{label}", score, reduce="mean", window=200)
            if opp != "self":
                metrics_logger.log_value("win_vs_pool", score, reduce="mean", window=200)
            metrics_logger.log_value(f"frames_vs_{label}", 1, reduce="sum")
            if info.get("pair") is not None:
                self.pair_done(info, label, score, metrics_logger)

    return ShotMetrics


def build_config(cfg: TrainConfig, frozen: list[str]) -> Any:
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec

    from piramida.training.module import module_spec
    from piramida.training.shot_env import rllib_env_class

    _agents_in_order()
    modules = [MAIN, *frozen]
    config = (
        PPOConfig()
        .environment(rllib_env_class(), env_config=cfg.env_config())
        .env_runners(
            num_env_runners=cfg.env_runners,
            num_envs_per_env_runner=1,
            rollout_fragment_length="auto",
            sample_timeout_s=3600,
        )
        .learners(num_learners=0)
        .multi_agent(
            policies=modules,
            policy_mapping_fn=LeagueMapping(frozen, cfg.seed),
            policies_to_train=[MAIN],
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={m: module_spec(cfg.net) for m in modules}))
        .training(
            train_batch_size_per_learner=cfg.batch,
            minibatch_size=min(cfg.minibatch, cfg.batch),
            num_epochs=cfg.epochs,
            lr=cfg.lr,
            gamma=cfg.gamma,
            entropy_coeff=cfg.entropy,
        )
        .callbacks(_callback_class())
        .debugging(seed=cfg.seed, log_level="ERROR")
    )
    if cfg.eval_every > 0 and cfg.eval_pairs > 0:
        config = config.evaluation(
            evaluation_interval=cfg.eval_every,
            evaluation_duration=2 * cfg.eval_pairs,
            evaluation_duration_unit="episodes",
            evaluation_num_env_runners=0,
            evaluation_config={"explore": False, "env_config": cfg.eval_env_config()},
        )
    return config


def _get(d: Any, *path: str) -> Any:
    for p in path:
        if not isinstance(d, dict) or p not in d:
            return None
        d = d[p]
    return d


def _num(x: Any) -> float | None:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a rate ``p`` over ``n`` frames."""
    if n <= 0:
        return (0.0, 1.0)
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


class Run:
    """One run folder (see the module docstring)."""

    def __init__(self, out: str | Path) -> None:
        # Absolute: RLlib hands checkpoint paths to pyarrow, which takes a
        # relative one for a URI and refuses it (at the first checkpoint).
        self.out = Path(out).resolve()
        self.checkpoints = self.out / "checkpoints"

    @property
    def metrics(self) -> Path:
        return self.out / "metrics.csv"

    def config(self) -> TrainConfig:
        p = self.out / "config.toml"
        if not p.is_file():
            raise TrainError(f"{self.out} is not a training run (no config.toml)")
        return load_config(p)

    def league(self) -> dict[str, Any]:
        p = self.out / "league.json"
        return json.loads(p.read_text()) if p.is_file() else {"frozen": [], "next": 0}

    def latest(self) -> Path | None:
        p = self.out / "latest"
        if not p.is_file():
            return None
        ck = self.checkpoints / p.read_text().strip()
        return ck if ck.is_dir() else None

    def newest_first(self) -> list[Path]:
        """The checkpoints, ``latest`` first, then the others by falling
        iteration (those after ``latest`` were not finished)."""
        latest = self.latest()
        if latest is None:
            return []
        older = sorted((p for p in self.checkpoints.glob("iter_*")
                        if p.is_dir() and p.name[5:].isdigit() and p.name < latest.name), reverse=True)
        return [latest, *older]

    def league_of(self, ck: Path) -> dict[str, Any]:
        """The league checkpoint ``ck`` was saved with (the run's, for a
        checkpoint that does not keep its own)."""
        p = ck / "league.json"
        return json.loads(p.read_text()) if p.is_file() else self.league()

    def save(self, algo: Any, league: dict[str, Any]) -> Path:
        name = f"iter_{algo.iteration:05d}"
        path = self.checkpoints / name
        algo.save_to_path(str(path))
        (path / "league.json").write_text(json.dumps(league))
        (self.out / "league.json").write_text(json.dumps(league))
        tmp = self.out / "latest.tmp"
        tmp.write_text(name)
        os.replace(tmp, self.out / "latest")
        return path


def damaged_file(ck: Path) -> tuple[Path, str] | None:
    """The first file of checkpoint ``ck`` that cannot be read back, and
    why; None when every one can. Pickles are loaded, JSON parsed and
    torch files (zip archives) checked against their CRCs; an empty file
    is damaged whatever its kind."""
    files = sorted(p for p in ck.rglob("*") if p.is_file())
    if not files:
        return ck, "no files"
    for f in files:
        try:
            if f.stat().st_size == 0:
                return f, "empty"
            if f.suffix == ".pkl":
                with f.open("rb") as fh:
                    pickle.load(fh)
            elif f.suffix == ".json":
                json.loads(f.read_text(encoding="utf-8"))
            elif f.suffix == ".pt":
                with zipfile.ZipFile(f) as z:
                    bad = z.testzip()
                if bad is not None:
                    return f, f"member {bad} fails its CRC"
        except Exception as exc:  # any way a file cut short fails to load
            return f, (str(exc).strip().splitlines() or [type(exc).__name__])[0] or type(exc).__name__
    return None


def _damage_line(ck: Path, bad: tuple[Path, str]) -> str:
    return f"checkpoint {ck.name} is damaged: {bad[0]} ({bad[1]})"


def _keep_rows_until(metrics: Path, iteration: int) -> None:
    """Drop the metrics rows after ``iteration`` (a resume that fell back
    to an older checkpoint plays those iterations again)."""
    if not metrics.is_file():
        return
    with metrics.open(newline="") as fh:
        reader = csv.DictReader(fh)
        fields = list(reader.fieldnames or [])
        rows = [r for r in reader if r.get("iteration", "").isdigit() and int(r["iteration"]) <= iteration]
    tmp = metrics.with_suffix(".tmp")
    with tmp.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, metrics)


def resume_point(run: Run, on_notice: Callable[[str], None] | None = None) -> Path:
    """The checkpoint a resumed run starts from: the newest that is whole.
    Each damaged one passed over is one line to ``on_notice`` (stderr by
    default); none whole is a one-line ``TrainError`` naming the newest's
    damaged file."""
    say = on_notice or (lambda line: print(line, file=sys.stderr))
    found = run.newest_first()
    if not found:
        raise TrainError(f"{run.out} has no checkpoint to resume from")
    first: str | None = None
    for ck in found:
        bad = damaged_file(ck)
        if bad is None:
            return ck
        line = _damage_line(ck, bad)
        first = first or line
        say(f"{line}; trying the one before")
    raise TrainError(f"{first}; no earlier checkpoint of {run.out} is whole")


def init_state(cfg: TrainConfig) -> dict[str, Any]:
    """The network weights of ``cfg.init`` (a policy file), checked against
    the run: the same variant and network; a one-line ``TrainError``
    otherwise. The candidate search may differ: the network scores each
    option from its features, whatever set of options a search offers, so
    a policy trained on the planner's candidates can start a run on the
    lean ones (configs/training/free_lean.toml)."""
    from piramida.agents.policy import PolicyFileError, load_policy
    from piramida.agents.policy_net import net_config

    try:
        data = load_policy(cfg.init)
    except PolicyFileError as exc:
        raise TrainError(f"training.init: {exc}") from None
    if data["variant"] != cfg.variant:
        raise TrainError(f"training.init: {cfg.init} is a variant {data['variant']!r} policy, the run's variant is {cfg.variant!r}")
    if net_config(data["net"]) != net_config(cfg.net):
        raise TrainError(f"training.init: {cfg.init} has the network {net_config(data['net'])}, the run's [training.net] is {net_config(cfg.net)}")
    return dict(data["state_dict"])


def _start_from(algo: Any, weights: dict[str, Any]) -> None:
    """Put ``weights`` (a ShotPolicyNet's) into main, on the learner and
    on every env runner."""
    main = algo.get_module(MAIN)
    state = main.get_state()
    prefix = "net."
    differ = {k[len(prefix):] for k in state if k.startswith(prefix)} ^ set(weights)
    if differ:
        raise TrainError(f"training.init: the file's weights do not fit the module ({sorted(differ)[:3]} ...)")
    state = {**state, **{prefix + k: v for k, v in weights.items()}}
    algo.set_state({"learner_group": {"learner": {"rl_module": {MAIN: state}}}})
    algo.env_runner_group.foreach_env_runner(lambda er: er.module[MAIN].set_state(state), local_env_runner=True)


def _snapshot(algo: Any, league: dict[str, Any], max_frozen: int) -> str:
    """Copy main into a frozen module (a new one, or the oldest)."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    main = algo.get_module(MAIN)
    frozen: list[str] = league["frozen"]
    if len(frozen) < max_frozen:
        mid = f"frozen_{len(frozen) + 1}"
        algo.add_module(
            module_id=mid,
            module_spec=RLModuleSpec.from_module(main),
            new_agent_to_module_mapping_fn=LeagueMapping([*frozen, mid], int(algo.config.seed or 0)),
            new_should_module_be_updated=[MAIN],
        )
        frozen.append(mid)
    else:
        mid = frozen[league["next"] % len(frozen)]
        league["next"] += 1
    state = main.get_state()
    algo.set_state({"learner_group": {"learner": {"rl_module": {mid: state}}}})
    # ray-project/ray#61960: the env runners keep the new module's initial weights
    # until the next sync, so copy main's onto them now.
    algo.env_runner_group.foreach_env_runner(
        lambda er: er.module[mid].set_state(er.module[MAIN].get_state()), local_env_runner=True
    )
    return mid


def row_of(
    result: dict[str, Any], it: int, seconds: float, steps_before: float, frozen: int, evaluated: bool = True
) -> dict[str, Any]:
    """One CSV row from ``algo.train()``'s result (``evaluated``: the
    evaluation ran this iteration; RLlib repeats its last results otherwise)."""
    er = result.get("env_runners", {})
    steps = _num(_get(result, "num_env_steps_sampled_lifetime")) or _num(er.get("num_env_steps_sampled_lifetime")) or 0.0
    learner = _get(result, "learners", MAIN) or {}
    row: dict[str, Any] = {
        "iteration": it,
        "env_steps": int(steps),
        "env_steps_per_s": (steps - steps_before) / seconds if seconds > 0 else None,
        "seconds": seconds,
        "episodes": _num(er.get("num_episodes")),
        "win_vs_pool": _num(er.get("win_vs_pool")),
        "win_vs_greedy_train": _num(er.get("win_vs_greedy")),
        "frozen": frozen,
        "total_loss": _num(learner.get("total_loss")),
        "entropy": _num(learner.get("entropy")),
    }
    ev = (_get(result, "evaluation", "env_runners") or {}) if evaluated else {}
    w = _num(ev.get("win_vs_greedy"))
    if w is not None:
        n = int(_num(ev.get("frames_vs_greedy")) or _num(ev.get("num_episodes")) or 0)
        row["win_vs_greedy_eval"], row["eval_frames"] = w, n
        row["eval_ci_low"], row["eval_ci_high"] = wilson(w, n)
    counts = [int(_num(ev.get(f"pairs_vs_greedy_{k}")) or 0) for k in range(5)]
    if sum(counts):
        row.update(pair_columns(counts))
    return row


def pair_columns(counts: list[int] | tuple[int, ...]) -> dict[str, Any]:
    """The CSV's pair-level columns from pentanomial ``counts`` (pairs
    scoring 0, 1/4, 1/2, 3/4, 1; eval/pairs.py): the pairs, the counts as
    ``a/b/c/d/e``, the mean pair score and its 95% interval."""
    st = pair_stats(list(counts))
    return {
        "eval_pairs": st.pairs,
        "eval_pentanomial": "/".join(str(c) for c in st.counts),
        "eval_pair_score": st.score,
        "eval_pair_ci_low": st.score_ci[0],
        "eval_pair_ci_high": st.score_ci[1],
    }


def _header(metrics: Path) -> list[str]:
    """The column names of a metrics file (empty if it has none)."""
    with metrics.open(newline="") as fh:
        return next(csv.reader(fh), [])


def _last_steps(metrics: Path) -> float:
    """The env steps of the last row written (0 for a new run)."""
    if not metrics.is_file():
        return 0.0
    with metrics.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    return float(rows[-1]["env_steps"]) if rows and rows[-1].get("env_steps") else 0.0


def quiet_ray() -> None:
    """RLlib's notices (the new API stack, deprecations, the env id it
    re-registers) are not a run's progress."""
    import warnings

    logging.getLogger("ray").setLevel(logging.ERROR)
    warnings.filterwarnings("ignore", message=".*Overriding environment.*")


def _ray_init(address: str | None, cpus: int | None, temp_dir: str | None) -> bool:
    import ray

    quiet_ray()
    if ray.is_initialized():
        return False
    quiet = {"log_to_driver": False, "logging_level": logging.ERROR}
    if address:
        try:
            ray.init(address=address, **quiet)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise TrainError(f"cannot reach the Ray cluster at {address}: {str(exc).splitlines()[0]}") from None
    else:
        # "local": a private instance, never one that happens to run on
        # the machine (piramida.eval.cluster).
        kw: dict[str, Any] = {"address": "local", "include_dashboard": False, **quiet}
        if cpus:
            kw["num_cpus"] = cpus
        if temp_dir:
            kw["_temp_dir"] = temp_dir
        ray.init(**kw)
    return True


def train(
    out: str | Path,
    config: TrainConfig | None = None,
    *,
    resume: bool = False,
    iterations: int | None = None,
    address: str | None = None,
    cpus: int | None = None,
    temp_dir: str | None = None,
    on_iteration: Callable[[dict[str, Any], int], None] | None = None,
    on_notice: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """Train into run folder ``out`` (a new run from ``config``, or with
    ``resume`` the run there from its latest checkpoint) until
    ``iterations`` in all (default: the config's). Returns the rows of
    this call; ``on_iteration(row, total)`` after each; ``on_notice(line)``
    for each damaged checkpoint a resume passes over (``resume_point``)."""
    import ray

    run = Run(out)
    weights: dict[str, Any] | None = None
    if address and not ray.is_initialized():
        from piramida.eval.cluster import check_reachable

        check_reachable(address)  # before the run folder is made
    if resume:
        cfg = run.config()
        ck = resume_point(run, on_notice)
        league = run.league_of(ck)
        if ck != run.latest():
            # Go on from ``ck``: the damaged ones after it are set aside
            # (kept, renamed), ``latest`` names it, and the metrics rows
            # of the iterations to be played again are dropped.
            for later in run.newest_first():
                if later == ck:
                    break
                later.rename(later.with_name(later.name + ".damaged"))
            (run.out / "latest").write_text(ck.name)
            _keep_rows_until(run.metrics, int(ck.name.split("_")[-1]))
    else:
        if config is None:
            raise TrainError("a new run needs a config")
        if run.metrics.exists():
            raise TrainError(f"{run.out} already holds a run: resume it with --resume, or choose another --out")
        cfg, ck, league = config, None, {"frozen": [], "next": 0}
        weights = init_state(cfg) if cfg.init else None
        run.out.mkdir(parents=True, exist_ok=True)
        (run.out / "config.toml").write_text(cfg.text or "[training]\n")
    total = iterations if iterations is not None else cfg.iterations
    started = _ray_init(address, cpus, temp_dir)
    rows: list[dict[str, Any]] = []
    try:
        algo = build_config(cfg, list(league["frozen"])).build_algo()
        try:
            if ck is not None:
                algo.restore_from_path(str(ck))
            elif weights is not None:
                _start_from(algo, weights)
            new_file = not run.metrics.exists()
            # A run resumed keeps its file's columns (one made before a
            # column was added stays readable).
            fields = list[str](COLUMNS) if new_file else _header(run.metrics) or list[str](COLUMNS)
            with run.metrics.open("a", newline="") as fh:
                writer = csv.DictWriter(fh, fieldnames=fields, extrasaction="ignore")
                if new_file:
                    writer.writeheader()
                steps_before = _last_steps(run.metrics)
                while algo.iteration < total:
                    t0 = time.perf_counter()
                    result = algo.train()
                    evaluated = cfg.eval_every > 0 and algo.iteration % cfg.eval_every == 0
                    dt = time.perf_counter() - t0
                    row = row_of(result, algo.iteration, dt, steps_before, len(league["frozen"]), evaluated)
                    steps_before = float(row["env_steps"])
                    pool = row.get("win_vs_pool")
                    if pool is not None and pool >= cfg.snapshot_win_rate and cfg.max_frozen > 0:
                        row["snapshot"] = _snapshot(algo, league, cfg.max_frozen)
                        row["frozen"] = len(league["frozen"])
                    writer.writerow(row)
                    fh.flush()
                    last = algo.iteration >= total
                    if last or (cfg.checkpoint_every and algo.iteration % cfg.checkpoint_every == 0):
                        row["checkpoint"] = str(run.save(algo, league))
                    rows.append(row)
                    if on_iteration is not None:
                        on_iteration(row, total)
        finally:
            algo.stop()
    finally:
        if started:
            ray.shutdown()
    return rows


def restore_main(run_dir: str | Path, checkpoint: str | Path | None = None) -> tuple[Any, Path]:
    """Module ``main`` (an RLlib ``RLModule``, no Ray cluster needed) from
    the run's latest checkpoint or ``checkpoint``, and that checkpoint."""
    from ray.rllib.core.rl_module.rl_module import RLModule

    quiet_ray()
    run = Run(run_dir)
    ck = Path(checkpoint).resolve() if checkpoint is not None else run.latest()
    if ck is None:
        raise TrainError(f"{run.out} has no checkpoint to restore")
    bad = damaged_file(ck) if ck.is_dir() else None
    if bad is not None:
        raise TrainError(_damage_line(ck, bad))
    path = ck / "learner_group" / "learner" / "rl_module" / MAIN
    if not path.is_dir():
        raise TrainError(f"{ck} holds no module {MAIN!r}")
    return RLModule.from_checkpoint(str(path)), ck


def export(run_dir: str | Path, out: str | Path, checkpoint: str | Path | None = None) -> dict[str, Any]:
    """Write main's network from the run's latest checkpoint (or
    ``checkpoint``) as a policy file (``agents.policy.save_policy``)."""
    from piramida.agents.policy import save_policy
    from piramida.agents.policy_net import net_config
    from piramida.eval.version import code_version

    cfg = Run(run_dir).config()
    module, _ = restore_main(run_dir, checkpoint)
    meta = {
        "code_version": code_version(),
        "variant": cfg.variant,
        "noise": cfg.noise,
        "search": cfg.search,
        "net": net_config(cfg.net),
        "config": cfg.text,
    }
    return save_policy(out, module.net.state_dict(), meta)


__all__ = [
    "COLUMNS",
    "LeagueMapping",
    "Run",
    "TrainError",
    "build_config",
    "export",
    "pair_columns",
    "parse_config",
    "restore_main",
    "row_of",
    "train",
    "wilson",
]
