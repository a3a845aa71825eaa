"""Expert iteration: self-play, training and a gated ladder of generations
(docs/training.md, "Expert iteration").

Generation 0 is the plain planner (``planner:sims=S``). Generation ``g``
>= 1 is the planner guided by a value file and a policy prior trained on
the self-play of the generations before it
(``planner:sims=S:value=gen_g/value.pt:prior=gen_g/policy.pt``). Each
generation runs four stages, in order:

1. **train** (g >= 1): the value network (``value_train.train_value``: the
   frame's outcome for the shooter mixed with the search's own value,
   plus the final margin in the points games) and the policy network
   (``visits.fit_visits``: the cross-entropy against the search's
   preference over the candidates, ``target`` "values" or "visits") on the
   data of the last ``window`` generations.
2. **gate** (g >= 1): an SPRT (fishtest's GSPRT on pentanomial pair counts,
   ``eval.pairs``) of generation ``g`` against the champion, the last
   generation kept, at the same number of simulated strokes a decision.
   Pairs are played in batches of ``batch`` and the test is read after
   whole batches only, so a resumed gate decides where an uninterrupted one
   does. Generation ``g`` is kept (becomes the champion) if H1 is accepted,
   or if the cap ``max_pairs`` is reached undecided with a pair score of at
   least 0.5; H0 rejects it.
3. **anchors** (every generation, unless ``anchor_pairs`` is 0):
   ``anchor_pairs`` pairs against the plain planner at the same strokes
   (generation 0 is that planner and plays greedy only) and against
   greedy: the ladder's Elo measured directly, beside the one chained
   through the gates.
4. **selfplay** (every generation but the last asked for): ``frames``
   frames of the champion against itself (``selfplay.run_selfplay``; with
   ``explore`` its prior's shortlist is drawn, ``planner:...:explore=true``,
   while the gate plays its favourites), each
   shard holding the value rows (every shot decision) and the policy rows
   (every searched decision: the candidates and their sample counts,
   ``visits.search_row``).

Every stage writes its outputs atomically (shards, model files by a
rename, the gate's games in SQLite one by one) and then a marker
``STAGE.done.json`` with its report and its time; a rerun of the same
command skips the stages with a marker and continues the one in progress
from what it left (the shards and games on disk, a model file already
written). ``ladder.json`` and ``ladder.png`` are rebuilt from the markers
after every stage: each generation's gate, whether it was kept, and its
Elo over generation 0, chained through the gates (each gate's Elo added to
the champion's it was played against, the 95% intervals' half-widths
added in quadrature), and its anchors' scores.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from piramida.agents.planner import PLANNER_SEARCHES, PRIOR_TOP
from piramida.env.errors import PiramidaError
from piramida.env.rules import get_referee
from piramida.eval.match import DEFAULT_MAX_SHOTS
from piramida.eval.version import code_version
from piramida.training.visits import TARGETS

CONFIG = "config.json"
#: What the ladder keeps of a generation's match against an anchor.
ANCHOR_KEYS = ("pairs", "pentanomial", "score", "score_ci95", "elo", "elo_ci95")
LADDER = "ladder.json"
PICTURE = "ladder.png"
STAGES = ("train", "gate", "selfplay")
#: The stage that measures a generation against fixed opponents, between
#: its gate and its self-play (its seed index follows ``STAGES``).
ANCHORS = "anchors"
#: A hook called at named points of the run (tests stop the run there):
#: ``gen_NNN/STAGE:start``, ``...:value`` (the value file written),
#: ``...:shard`` (a self-play shard written), ``...:batch`` (a gate batch
#: read), ``...:end`` (outputs written, marker not yet), ``...:done``.
Hook = Callable[[str], None]


#: The fields added to ``IterateConfig`` after runs were made without them,
#: with the value those runs had: the policy fitted to the sample counts,
#: no exploring draw, no anchors.
BEFORE: dict[str, Any] = {"target": "visits", "explore": False, "anchor_pairs": 0}


class IterateError(PiramidaError):
    """An expert-iteration run that cannot go on (bad settings, a folder of
    another run)."""


@dataclass(frozen=True)
class IterateConfig:
    variant: str
    frames: int = 200
    sims: int = 200
    noise: str = "pro"
    seed: int = 0
    max_shots: int = DEFAULT_MAX_SHOTS
    search: str = "planner"
    top: int = PRIOR_TOP
    window: int = 4
    value_epochs: int = 40
    policy_epochs: int = 40
    hidden: int = 64
    mix: float = 0.5
    elo0: float = 0.0
    elo1: float = 30.0
    alpha: float = 0.05
    beta: float = 0.05
    max_pairs: int = 200
    batch: int = 20
    target: str = "values"
    explore: bool = True
    anchor_pairs: int = 100

    def __post_init__(self) -> None:
        get_referee(self.variant)  # one-line UnknownVariantError
        checks = (
            (1 <= self.frames <= 1_000_000, f"frames must be from 1 to 1000000, got {self.frames}"),
            (1 <= self.sims <= 1_000_000, f"sims must be from 1 to 1000000, got {self.sims}"),
            (1 <= self.max_shots <= 1000, f"max_shots must be from 1 to 1000, got {self.max_shots}"),
            (self.search in PLANNER_SEARCHES, f"search must be one of {', '.join(PLANNER_SEARCHES)}, got {self.search!r}"),
            (self.top >= 1, f"top must be at least 1, got {self.top}"),
            (self.window >= 1, f"window must be at least 1, got {self.window}"),
            (0.0 <= self.mix <= 1.0, f"mix must be in [0, 1], got {self.mix}"),
            (self.elo1 > self.elo0, f"elo1 must be above elo0, got {self.elo0} and {self.elo1}"),
            (0 < self.alpha < 0.5 and 0 < self.beta < 0.5, f"alpha and beta must be in (0, 0.5), got {self.alpha}, {self.beta}"),
            (1 <= self.max_pairs <= 100_000, f"max_pairs must be from 1 to 100000, got {self.max_pairs}"),
            (1 <= self.batch <= self.max_pairs, f"batch must be from 1 to max_pairs, got {self.batch}"),
            (0 <= self.anchor_pairs <= 100_000, f"anchor_pairs must be from 0 to 100000, got {self.anchor_pairs}"),
            (self.target in TARGETS, f"target must be one of {', '.join(TARGETS)}, got {self.target!r}"),
        )
        for ok, why in checks:
            if not ok:
                raise IterateError(why)
        if self.noise != "none":
            from piramida.env.physics import load_noise

            load_noise(self.noise)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# ------------------------------------------------------------------ files
def gen_dir(run: Path, g: int) -> Path:
    return run / f"gen_{g:03d}"


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` as JSON atomically (a temporary name, then a rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True, allow_nan=False) + "\n")
    os.replace(tmp, path)


def read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise IterateError(f"{path} is not readable JSON (damaged?): {type(exc).__name__}") from None


def marker(run: Path, g: int, stage: str) -> Path:
    return gen_dir(run, g) / f"{stage}.done.json"


def done(run: Path, g: int, stage: str) -> dict[str, Any] | None:
    """The marker of a finished stage, or None."""
    p = marker(run, g, stage)
    return read_json(p) if p.is_file() else None


def stage_seed(seed: int, g: int, stage: str) -> int:
    """The racks' seed of a generation's self-play, gate or anchors: apart
    for every generation and stage."""
    ss = np.random.SeedSequence([int(seed), int(g), (*STAGES, ANCHORS).index(stage)])
    return int(ss.generate_state(1, dtype=np.uint32)[0] >> 1)


# ------------------------------------------------------------------ agents
def base_spec(cfg: IterateConfig) -> str:
    spec = f"planner:sims={cfg.sims}"
    return spec + (f":search={cfg.search}" if cfg.search != "planner" else "")


def spec_of(cfg: IterateConfig, run: Path, g: int) -> str:
    """The agent of generation ``g``: the plain planner for 0, else guided
    by the generation's value file and policy prior."""
    if g == 0:
        return base_spec(cfg)
    d = gen_dir(run, g)
    spec = f"{base_spec(cfg)}:value={d / 'value.pt'}:prior={d / 'policy.pt'}"
    return spec + (f":top={cfg.top}" if cfg.top != PRIOR_TOP else "")


def champion(run: Path, g: int) -> int:
    """The generation kept after generation ``g``'s gate (0 before any)."""
    best = 0
    for j in range(1, g + 1):
        m = done(run, j, "gate")
        if m is not None and m["accepted"]:
            best = j
    return best


def window(cfg: IterateConfig, g: int) -> list[int]:
    """The generations whose self-play trains generation ``g``."""
    return list(range(max(0, g - cfg.window), g))


# ------------------------------------------------------------------ self-play
def play_iterate_shard(cfg: Any, first: int, last: int, agents: Sequence[Any] | None = None) -> dict[str, np.ndarray]:
    """A self-play shard (``selfplay.play_shard``) with the policy rows of
    the same decisions (``visits``) beside the value rows."""
    from piramida.training.selfplay import play_shard
    from piramida.training.visits import as_arrays, search_row

    rows: list[dict[str, Any]] = []

    def record(step: Any, agent: Any, who: int, frame: int) -> None:
        trace = getattr(agent, "last_search", None)
        row = search_row(trace) if trace is not None else None
        if row is not None:
            rows.append(row | {"pi_frame": frame, "pi_agent": who})

    arrays = play_shard(cfg, first, last, agents, record)
    return arrays | as_arrays(rows, cfg.variant)


# ------------------------------------------------------------------ the run
@dataclass
class Runner:
    cfg: IterateConfig
    run: Path
    workers: int = 1
    address: str | None = None
    command: str = ""
    hook: Hook | None = None
    log: Callable[[str], None] | None = None

    def at(self, g: int, stage: str, what: str) -> None:
        if self.hook is not None:
            self.hook(f"gen_{g:03d}/{stage}:{what}")

    def say(self, text: str) -> None:
        if self.log is not None:
            self.log(text)

    def finish(self, g: int, stage: str, report: dict[str, Any], t0: float, c0: float) -> None:
        self.at(g, stage, "end")
        report = dict(report, wall_s=round(time.perf_counter() - t0, 2), cpu_s=round(time.process_time() - c0, 2),
                      code_version=code_version())
        write_json(marker(self.run, g, stage), report)
        self.at(g, stage, "done")
        write_ladder(self.cfg, self.run)

    # ---------------------------------------------------------- train
    def train(self, g: int) -> None:
        from piramida.training.value_train import ValueTrainConfig, train_value
        from piramida.training.visits import VisitFitConfig, fit_visits

        t0, c0 = time.perf_counter(), time.process_time()
        self.at(g, "train", "start")
        cfg, d = self.cfg, gen_dir(self.run, g)
        dirs = [gen_dir(self.run, j) / "data" for j in window(cfg, g)]
        report: dict[str, Any] = {"data": [str(p.relative_to(self.run)) for p in dirs]}
        value, policy = d / "value.pt", d / "policy.pt"
        if not value.is_file():
            tmp = d / f".value.{os.getpid()}.pt.tmp"
            vcfg = ValueTrainConfig(cfg.variant, epochs=cfg.value_epochs, mix=cfg.mix, hidden=cfg.hidden, seed=cfg.seed)
            train_value(vcfg, dirs, tmp)
            os.replace(tmp, value)
        self.at(g, "train", "value")
        if not policy.is_file():
            tmp = d / f".policy.{os.getpid()}.pt.tmp"
            pcfg = VisitFitConfig(cfg.variant, cfg.search, cfg.noise, epochs=cfg.policy_epochs, hidden=cfg.hidden, seed=cfg.seed,
                                  target=cfg.target)
            fit_visits(pcfg, dirs, tmp)
            os.replace(tmp, policy)
        report["value"] = _report_of(value, "value")
        report["policy"] = _report_of(policy, "policy")
        self.say(f"gen {g}: trained on {', '.join(report['data'])}")
        self.finish(g, "train", report, t0, c0)

    # ---------------------------------------------------------- gate
    def gate(self, g: int) -> None:
        from piramida.eval.pairs import sprt_result
        from piramida.eval.report import stored_pairing
        from piramida.eval.store import Store
        from piramida.eval.tournament import TournamentConfig, run_tournament

        t0, c0 = time.perf_counter(), time.process_time()
        self.at(g, "gate", "start")
        cfg = self.cfg
        against = champion(self.run, g - 1)
        a, b = spec_of(cfg, self.run, g), spec_of(cfg, self.run, against)
        tcfg = TournamentConfig((a, b), (cfg.variant,), cfg.max_pairs, cfg.noise, stage_seed(cfg.seed, g, "gate"),
                                "gauntlet", cfg.max_shots)
        db = gen_dir(self.run, g) / "gate.sqlite"
        upto = 0
        while True:
            # The tournament grows a batch at a time (``Store.resize`` keeps
            # its games: pair k's racks depend on the seed and k alone).
            upto = min(upto + cfg.batch, cfg.max_pairs)
            part = replace(tcfg, pairs=upto)
            if db.exists():
                with Store(db) as store:
                    if store.tournament_id(part.to_dict()) is None:
                        store.resize(part.to_dict())
            tid, _ = run_tournament(part, db, workers=self.workers, address=self.address, command=self.command)
            st = stored_pairing(db, tid, a, b, upto)
            res: dict[str, Any] = sprt_result(tuple(st["pentanomial"]), cfg.elo0, cfg.elo1, cfg.alpha, cfg.beta)
            self.at(g, "gate", "batch")
            self.say(f"gen {g} against gen {against}: {st['pairs']} pairs, score {st['score']:.3f}, "
                     f"LLR {res['llr']:+.2f} in [{res['bounds'][0]:.2f}, {res['bounds'][1]:.2f}]")
            if res["result"] != "none" or upto >= cfg.max_pairs:
                break
        accepted = res["result"] == "H1" or (res["result"] == "none" and st["score"] >= 0.5)
        report = {
            "against": against,
            "agents": [a, b],
            "seed": tcfg.seed,
            "result": res["result"],
            "llr": res["llr"],
            "bounds": res["bounds"],
            "accepted": accepted,
            "rule": "H1" if res["result"] == "H1" else "H0" if res["result"] == "H0" else "cap, score >= 0.5" if accepted else "cap, score < 0.5",
        } | {k: st[k] for k in ("pentanomial", "pairs", "score", "score_ci95", "elo", "elo_ci95", "los")}
        self.say(f"gen {g}: {'kept' if accepted else 'rejected'} ({report['rule']})")
        self.finish(g, "gate", report, t0, c0)

    # ---------------------------------------------------------- anchors
    def anchors(self, g: int) -> None:
        """Generation ``g`` against fixed opponents, the plain planner at the
        same strokes (g >= 1) and greedy, ``anchor_pairs`` pairs each: the
        ladder's direct measure, where the gates' Elo is chained."""
        from piramida.eval.report import stored_pairing
        from piramida.eval.tournament import TournamentConfig, run_tournament

        t0, c0 = time.perf_counter(), time.process_time()
        self.at(g, ANCHORS, "start")
        cfg = self.cfg
        me = spec_of(cfg, self.run, g)
        rivals = {name: spec for name, spec in (("planner", base_spec(cfg)), ("greedy", "greedy")) if spec != me}
        tcfg = TournamentConfig((me, *rivals.values()), (cfg.variant,), cfg.anchor_pairs, cfg.noise,
                                stage_seed(cfg.seed, g, ANCHORS), "gauntlet", cfg.max_shots)
        db = gen_dir(self.run, g) / "anchors.sqlite"
        tid, _ = run_tournament(tcfg, db, workers=self.workers, address=self.address, command=self.command)
        report: dict[str, Any] = {"seed": tcfg.seed, "against": {}}
        for name, spec in rivals.items():
            st = stored_pairing(db, tid, me, spec)
            report["against"][name] = {"agent": spec} | {k: st[k] for k in ANCHOR_KEYS}
            self.say(f"gen {g} against {name}: score {st['score']:.3f} over {st['pairs']} pairs")
        self.finish(g, ANCHORS, report, t0, c0)

    # ---------------------------------------------------------- self-play
    def selfplay(self, g: int) -> None:
        from piramida.training.selfplay import SelfPlayConfig, run_selfplay

        t0, c0 = time.perf_counter(), time.process_time()
        self.at(g, "selfplay", "start")
        cfg = self.cfg
        who = champion(self.run, g)
        spec = spec_of(cfg, self.run, who)
        if who > 0 and cfg.explore:
            spec += ":explore=true"
        scfg = SelfPlayConfig((spec, spec), cfg.variant, cfg.frames, cfg.noise, stage_seed(cfg.seed, g, "selfplay"),
                              cfg.max_shots)
        out = gen_dir(self.run, g) / "data"
        run_selfplay(scfg, out, workers=self.workers, address=self.address, command=self.command,
                     on_shard=lambda _f, _p: self.at(g, "selfplay", "shard"), play=play_iterate_shard)
        positions = searched = 0
        for f in sorted(out.glob("shard-*.npz")):
            with np.load(f, allow_pickle=False) as z:
                positions += len(z["outcome"])
                searched += len(z["pi_frame"])
        self.say(f"gen {g}: {cfg.frames} frames of gen {who}, {positions} positions, {searched} searched")
        report = {"player": who, "agent": spec, "seed": scfg.seed, "frames": cfg.frames, "positions": positions,
                  "searched": searched}
        self.finish(g, "selfplay", report, t0, c0)

    # ---------------------------------------------------------- loop
    def generation(self, g: int, last: int) -> None:
        d = gen_dir(self.run, g)
        d.mkdir(parents=True, exist_ok=True)
        write_json(d / CONFIG, {
            "generation": g,
            "agent": spec_of(self.cfg, self.run, g),
            "trained_on": [f"gen_{j:03d}" for j in window(self.cfg, g)] if g else [],
            "gate_seed": stage_seed(self.cfg.seed, g, "gate") if g else None,
            "selfplay_seed": stage_seed(self.cfg.seed, g, "selfplay"),
        })
        if g >= 1 and done(self.run, g, "train") is None:
            self.train(g)
        if g >= 1 and done(self.run, g, "gate") is None:
            self.gate(g)
        if self.cfg.anchor_pairs and done(self.run, g, ANCHORS) is None:
            self.anchors(g)
        if g < last and done(self.run, g, "selfplay") is None:
            self.selfplay(g)


def _report_of(path: Path, kind: str) -> dict[str, Any]:
    """The training report stored in a model file."""
    if kind == "value":
        from piramida.agents.value_net import load_value

        cfg = load_value(path)["config"]
        return dict(cfg.get("report", {}))
    from piramida.agents.policy import load_policy

    return dict(json.loads(load_policy(path)["config"]).get("report", {}))


def open_run(cfg: IterateConfig, run: Path, command: str) -> None:
    """Create ``run`` with its config, or check that the run there has the
    same config (a rerun resumes it; another config is refused). A field
    the stored config lacks (written before the field existed) has the
    value that run was made with (``BEFORE``)."""
    run.mkdir(parents=True, exist_ok=True)
    path = run / CONFIG
    if path.is_file():
        have = read_json(path).get("config")
        if not isinstance(have, dict) or (BEFORE | have) != cfg.to_dict():
            raise IterateError(f"{run} holds an iteration run of another config ({have}); use another --out")
        return
    write_json(path, {"config": cfg.to_dict(), "code_version": code_version(), "command": command})


def run_iterate(
    cfg: IterateConfig,
    run: str | Path,
    generations: int,
    *,
    workers: int = 1,
    address: str | None = None,
    command: str = "",
    hook: Hook | None = None,
    log: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run (or resume) generations 0..``generations`` in ``run``; returns
    the ladder (``ladder.json``)."""
    if not 1 <= generations <= 1000:
        raise IterateError(f"generations must be from 1 to 1000, got {generations}")
    if workers < 1:
        raise IterateError(f"workers must be at least 1, got {workers}")
    path = Path(run).resolve()
    open_run(cfg, path, command)
    runner = Runner(cfg, path, workers, address, command, hook, log)
    with ExitStack() as stack:
        if address is not None or workers > 1:
            from piramida.eval.cluster import ray_workers

            stack.enter_context(ray_workers(workers, address))  # one Ray for every stage
        for g in range(generations + 1):
            runner.generation(g, generations)
    ladder = write_ladder(cfg, path)
    return ladder


# ------------------------------------------------------------------ ladder
def _chain(base: tuple[float, float, float] | None, gate: dict[str, Any]) -> tuple[float, float, float] | None:
    """(Elo, low, high) over generation 0 of a generation whose gate was
    played against a champion at ``base``; None where unbounded."""
    elo, (lo, hi) = gate.get("elo"), gate.get("elo_ci95", [None, None])
    if base is None or elo is None or lo is None or hi is None:
        return None
    e0, l0, h0 = base
    e = e0 + elo
    return (e, e - math.hypot(e0 - l0, elo - lo), e + math.hypot(h0 - e0, hi - elo))


def shown(run: Path) -> str:
    """The run folder relative to the working folder where it lies inside it."""
    try:
        return str(run.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(run)


def ladder_of(cfg: IterateConfig, run: Path) -> dict[str, Any]:
    """The run's ladder from its markers."""
    rows: list[dict[str, Any]] = []
    at: dict[int, tuple[float, float, float] | None] = {0: (0.0, 0.0, 0.0)}
    g = 0
    while gen_dir(run, g).is_dir():
        # The agent with the run folder's path as given (a run under the
        # working folder names no machine's folders in its ladder).
        spec = spec_of(cfg, run, g).replace(f"{run}/", f"{shown(run)}/")
        row: dict[str, Any] = {"generation": g, "agent": spec}
        train, gate, sp = (done(run, g, s) for s in STAGES)
        anchors = done(run, g, ANCHORS)
        if g == 0:
            row |= {"accepted": True, "elo_vs_first": 0.0, "elo_vs_first_ci95": [0.0, 0.0]}
        if train is not None:
            row["train"] = {"data": train["data"], "value_holdout_brier": train["value"].get("holdout_brier"),
                            "policy_holdout": train["policy"].get("holdout"), "wall_s": train["wall_s"], "cpu_s": train["cpu_s"]}
        if gate is not None:
            chained = _chain(at.get(gate["against"]), gate)
            at[g] = chained
            row |= {
                "gate": {k: gate[k] for k in ("against", "result", "rule", "pairs", "pentanomial", "score", "score_ci95",
                                              "elo", "elo_ci95", "llr", "wall_s", "cpu_s")},
                "accepted": gate["accepted"],
                "elo_vs_first": None if chained is None else chained[0],
                "elo_vs_first_ci95": None if chained is None else [chained[1], chained[2]],
            }
        if anchors is not None:
            row["anchors"] = {name: {k: a[k] for k in ANCHOR_KEYS} for name, a in anchors["against"].items()}
        if sp is not None:
            row["selfplay"] = {k: sp[k] for k in ("player", "frames", "positions", "searched", "wall_s", "cpu_s")}
        rows.append(row)
        g += 1
    last = max((r["generation"] for r in rows if r.get("accepted")), default=0)
    return {"variant": cfg.variant, "config": cfg.to_dict(), "champion": last, "generations": rows}


def write_ladder(cfg: IterateConfig, run: Path) -> dict[str, Any]:
    """Rebuild ``ladder.json`` and ``ladder.png`` from the markers."""
    ladder = ladder_of(cfg, run)
    write_json(run / LADDER, ladder)
    plot_ladder(ladder, run / PICTURE)
    return ladder


def plot_ladder(ladder: dict[str, Any], out: Path) -> Path:
    """Three panels: each generation's Elo over generation 0 (chained
    through the gates, 95% interval), kept ones filled; each gate's pair
    score against the champion it met (95% interval); and each
    generation's Elo measured directly against the anchors, the plain
    planner and greedy (95% interval; an unbounded end is left off)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = ladder["generations"]
    fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(15, 4), dpi=100)
    for r in rows:
        e, ci = r.get("elo_vs_first"), r.get("elo_vs_first_ci95")
        if e is None or ci is None:
            continue
        kept = bool(r.get("accepted"))
        ax1.errorbar([r["generation"]], [e], yerr=[[e - ci[0]], [ci[1] - e]], fmt="o", capsize=3,
                     color="tab:blue", mfc="tab:blue" if kept else "white")
    ax1.axhline(0.0, color="k", lw=0.8, ls="--")
    ax1.set_xlabel("generation (filled: kept)")
    ax1.set_ylabel("Elo over generation 0 (the plain planner)")
    gates = [r for r in rows if "gate" in r]
    for r in gates:
        s, (lo, hi) = r["gate"]["score"], r["gate"]["score_ci95"]
        ax2.errorbar([r["generation"]], [s], yerr=[[s - lo], [hi - s]], fmt="s", capsize=3,
                     color="tab:green" if r["accepted"] else "tab:red")
        ax2.annotate(f"vs {r['gate']['against']}", (r["generation"], s), textcoords="offset points", xytext=(5, 5), fontsize=7)
    ax2.axhline(0.5, color="k", lw=0.8, ls="--")
    ax2.set_ylim(0.0, 1.0)
    ax2.set_xlabel("generation (green: kept, red: rejected)")
    ax2.set_ylabel("gate: pair score against the champion")
    for name, colour, dx in (("planner", "tab:purple", -0.08), ("greedy", "tab:orange", 0.08)):
        pts = [(r["generation"], r["anchors"][name]) for r in rows if name in r.get("anchors", {})]
        if name == "planner" and rows:
            pts.insert(0, (0, {"elo": 0.0, "elo_ci95": [0.0, 0.0]}))  # generation 0 is the plain planner
        pts = [(g, a) for g, a in pts if a.get("elo") is not None]
        for i, (g, a) in enumerate(pts):
            e, (lo, hi) = a["elo"], a["elo_ci95"]
            err = [[e - lo if lo is not None else 0.0], [hi - e if hi is not None else 0.0]]
            ax3.errorbar([g + dx], [e], yerr=err, fmt="o", capsize=3, color=colour, label=f"against {name}" if i == 0 else None)
    ax3.axhline(0.0, color="k", lw=0.8, ls="--")
    ax3.set_xlabel("generation")
    ax3.set_ylabel("Elo against the anchor (measured directly)")
    if ax3.get_legend_handles_labels()[0]:
        ax3.legend(fontsize=8)
    for ax in (ax1, ax2, ax3):
        ax.set_xticks([r["generation"] for r in rows])
        ax.grid(alpha=0.3)
    fig.suptitle(f"{ladder['variant']}: expert iteration, champion generation {ladder['champion']}", fontsize=10)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp.png")
    fig.savefig(tmp)
    plt.close(fig)
    os.replace(tmp, out)
    return out


__all__ = [
    "IterateConfig",
    "IterateError",
    "champion",
    "ladder_of",
    "play_iterate_shard",
    "plot_ladder",
    "run_iterate",
    "spec_of",
    "write_ladder",
]
