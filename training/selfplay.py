"""Self-play data for the value network (docs/training.md, "The learned value").

``run_selfplay`` plays frames between two agents (``--agents A,B``; the
same spec twice is self-play) through the match runner's frame driver and
records every shot decision: the table as the value network reads it
(``agents.value_obs.encode_view``), the position's text, the shooter's
seat, the frame's outcome for him (1 won, 0 lost, 0.5 drawn or capped),
his final margin over the target, and the searching agent's own value of
its chosen shot where it has one (the planner's frame-winning chance;
NaN otherwise).

Frames are numbered 0..N-1; frame ``i`` is the frame of pair ``i // 2``
of the match seeding (``env/driver.py``) with the seats swapped on odd
``i``, so the data of two different agents is balanced between seats.
Frames are played in shards of ``SHARD_FRAMES``, each written as one NPZ
file (``shard-FIRST-LAST.npz``, atomically: a temporary name, then a
rename) with the code version inside; ``meta.json`` holds the config and
the command. Running the same command again plays only the shards not on
disk, so a killed run resumes and loses at most the shards in flight; a
folder made with another config is refused. Shards are Ray tasks when
``workers`` > 1 or ``address`` is given (local by default); the driver
process writes every file.
"""

from __future__ import annotations

import json
import logging
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from piramida.agents.value_obs import (
    BALL_F,
    GLOBAL_F,
    MAX_BALLS,
    VALUE_OBS_VERSION,
    encode_view,
    target_of,
)
from piramida.env.errors import PiramidaError
from piramida.env.rules import get_referee
from piramida.eval.match import DEFAULT_MAX_SHOTS, play_frame
from piramida.eval.version import code_version

SHARD_FRAMES = 10
META = "meta.json"
#: The arrays of a shard, one row per recorded decision.
FIELDS = ("balls", "globals", "outcome", "margin", "search_value", "frame", "seat", "agent", "shot", "position")


class SelfPlayError(PiramidaError):
    """A self-play run that cannot go on (bad config, a folder of another run)."""


@dataclass(frozen=True)
class SelfPlayConfig:
    agents: tuple[str, str]
    variant: str
    frames: int
    noise: str = "pro"
    seed: int = 0
    max_shots: int = DEFAULT_MAX_SHOTS

    def __post_init__(self) -> None:
        from piramida.agents.specs import parse_spec

        if len(self.agents) != 2:
            raise SelfPlayError(f"self-play takes two agents, got {len(self.agents)}")
        for a in self.agents:
            parse_spec(a)  # one-line AgentSpecError for a bad spec
        get_referee(self.variant)  # one-line UnknownVariantError
        if not 1 <= int(self.frames) <= 1_000_000:
            raise SelfPlayError(f"frames must be from 1 to 1000000, got {self.frames}")

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["agents"] = list(self.agents)
        return d

    def shards(self) -> list[tuple[int, int]]:
        """(first, last) frame of every shard, last inclusive."""
        return shard_ranges(self.frames, SHARD_FRAMES)


def shard_ranges(frames: int, per: int) -> list[tuple[int, int]]:
    """(first, last) frame of each shard of ``per`` frames, last inclusive."""
    return [(i, min(i + per, frames) - 1) for i in range(0, frames, per)]


def shard_name(first: int, last: int) -> str:
    return f"shard-{first:06d}-{last:06d}.npz"


def build_agents(cfg: SelfPlayConfig) -> list[Any]:
    """The two agents, with the run's noise preset as their default."""
    from piramida.agents.specs import parse_spec

    out = []
    for text in cfg.agents:
        spec = parse_spec(text)
        out.append(spec.build(spec.defaults({"noise": cfg.noise})))
    return out


def play_shard(
    cfg: SelfPlayConfig,
    first: int,
    last: int,
    agents: Sequence[Any] | None = None,
    record: Callable[[Any, Any, int, int], None] | None = None,
) -> dict[str, np.ndarray]:
    """Play frames ``first``..``last`` and return the shard's arrays;
    ``record(step, agent, who, frame)`` after each recorded decision (more
    arrays of the same decisions: training/iterate.py)."""
    from piramida.agents.planner_value import view_prior
    from piramida.agents.shots.probability import PotModel

    agents = list(agents) if agents is not None else build_agents(cfg)
    pot_model = PotModel.of(None if cfg.noise == "none" else cfg.noise)
    rows: dict[str, list[Any]] = {k: [] for k in FIELDS}
    target = target_of(get_referee(cfg.variant))
    for frame in range(first, last + 1):
        start = len(rows["balls"])

        def on_step(step: Any, who: int, frame: int = frame) -> None:
            view = step.view
            if step.kind != "shot" or view is None or step.refused is not None:
                return
            balls, globs = encode_view(view, view_prior(view, pot_model))
            value = getattr(agents[who], "last_value", None)
            rows["balls"].append(balls)
            rows["globals"].append(globs)
            rows["search_value"].append(math.nan if value is None else float(value))
            rows["frame"].append(frame)
            rows["seat"].append(step.seat)
            rows["agent"].append(who)
            rows["shot"].append(step.shots)
            rows["position"].append(view.position.to_text())
            if record is not None:
                record(step, agents[who], who, frame)

        rec = play_frame(
            cfg.variant, agents, seed=cfg.seed, pair=frame // 2, swap=bool(frame % 2),
            noise=cfg.noise, max_shots=cfg.max_shots, game_index=frame, on_step=on_step,
        )
        # The frame's outcome for each decision recorded in it, by the agent who took it.
        for who in rows["agent"][start:]:
            rows["outcome"].append(0.5 if rec.winner is None else float(rec.winner == who))
            rows["margin"].append((rec.score[who] - rec.score[1 - who]) / target)
    n = len(rows["balls"])
    return {
        "balls": np.array(rows["balls"], np.float32).reshape(n, MAX_BALLS, BALL_F),
        "globals": np.array(rows["globals"], np.float32).reshape(n, GLOBAL_F),
        "outcome": np.array(rows["outcome"], np.float32),
        "margin": np.array(rows["margin"], np.float32),
        "search_value": np.array(rows["search_value"], np.float32),
        "frame": np.array(rows["frame"], np.int32),
        "seat": np.array(rows["seat"], np.int8),
        "agent": np.array(rows["agent"], np.int8),
        "shot": np.array(rows["shot"], np.int32),
        "position": np.array(rows["position"], dtype=np.str_),
    }


def write_shard(
    out: Path, first: int, last: int, arrays: dict[str, np.ndarray], version: str, obs_version: int = VALUE_OBS_VERSION
) -> Path:
    """Write a shard atomically (a temporary name, then a rename), with the
    code version and the observation layout (``obs_version``: the value
    network's unless a caller records another, training/imitation.py)."""
    path = out / shard_name(first, last)
    tmp = out / f".{path.name}.{os.getpid()}.tmp"
    payload = dict(arrays, code_version=np.array(version), obs_version=np.array(obs_version))
    save: Any = np.savez_compressed  # its stub types the arrays' names as its own options
    with open(tmp, "wb") as fh:
        save(fh, **payload)
    os.replace(tmp, path)
    return path


def open_folder(
    cfg: Any,
    out: Path,
    command: str,
    obs_version: int = VALUE_OBS_VERSION,
    what: str = "self-play",
    error: type[PiramidaError] = SelfPlayError,
) -> None:
    """Create ``out`` with its ``meta.json`` (``cfg.to_dict()``, the code
    version, the command), or check that the folder there holds a run of
    the same config: a rerun resumes it, another config is refused with
    ``error`` (``what`` names the kind of run in the message)."""
    out.mkdir(parents=True, exist_ok=True)
    meta_path = out / META
    want = cfg.to_dict()
    if meta_path.is_file():
        try:
            have = json.loads(meta_path.read_text())["config"]
        except (OSError, ValueError, KeyError, TypeError):
            raise error(f"{meta_path} is not a {what} meta file (damaged?)") from None
        if have != want:
            raise error(f"{out} holds a {what} run of another config ({have}); use another --out")
        return
    meta = {"config": want, "code_version": code_version(), "command": command, "obs_version": obs_version}
    tmp = out / f".{META}.tmp"
    tmp.write_text(json.dumps(meta, indent=1) + "\n")
    os.replace(tmp, meta_path)


def run_selfplay(
    cfg: SelfPlayConfig,
    out: str | Path,
    *,
    workers: int = 1,
    address: str | None = None,
    command: str = "",
    on_shard: Callable[[int, int], None] | None = None,
    play: Callable[..., dict[str, np.ndarray]] | None = None,
) -> list[Path]:
    """Play the shards of ``cfg`` not yet in ``out``; ``on_shard(frames
    done, positions in the shard)`` after each. Returns the new shards.
    ``play`` replaces ``play_shard`` (same arguments; a module-level
    function, for Ray)."""
    play = play if play is not None else play_shard
    if workers < 1:
        raise SelfPlayError(f"workers must be at least 1, got {workers}")
    out = Path(out).resolve()
    open_folder(cfg, out, command)
    todo = [s for s in cfg.shards() if not (out / shard_name(*s)).is_file()]
    version = code_version()
    written: list[Path] = []

    def finish(first: int, last: int, arrays: dict[str, np.ndarray]) -> None:
        written.append(write_shard(out, first, last, arrays, version))
        if on_shard is not None:
            on_shard(last - first + 1, len(arrays["outcome"]))

    if workers == 1 and address is None:
        agents = build_agents(cfg)
        for first, last in todo:
            finish(first, last, play(cfg, first, last, agents))
        return written
    if todo:
        _run_on_ray(cfg, todo, workers, address, finish, play)
    return written


def _run_on_ray(
    cfg: SelfPlayConfig,
    todo: Sequence[tuple[int, int]],
    workers: int,
    address: str | None,
    finish: Callable[[int, int, dict[str, np.ndarray]], None],
    play: Callable[..., dict[str, np.ndarray]] = play_shard,
) -> None:
    import ray

    started_here = not ray.is_initialized()
    if started_here:
        kw: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.WARNING, "configure_logging": False}
        if address is None:
            ray.init(num_cpus=workers, include_dashboard=False, **kw)
        else:
            ray.init(address=address, **kw)
    try:
        task = ray.remote(num_cpus=1)(play)
        running = {task.remote(cfg, first, last): (first, last) for first, last in todo}  # type: ignore[attr-defined]
        while running:
            ready, _ = ray.wait(list(running), num_returns=1)
            first, last = running.pop(ready[0])
            finish(first, last, ray.get(ready[0]))
    finally:
        if started_here:
            ray.shutdown()


def load_shards(
    folders: Sequence[str | Path],
    fields: Sequence[str] = FIELDS,
    obs_version: int = VALUE_OBS_VERSION,
    what: str = "self-play",
    error: type[PiramidaError] = SelfPlayError,
) -> dict[str, np.ndarray]:
    """Every shard of ``folders`` concatenated (the arrays ``fields``); the
    frame numbers offset so that frames of different folders stay apart. A
    damaged shard or one of another observation layout than
    ``obs_version`` is a one-line ``error``."""
    parts: list[dict[str, np.ndarray]] = []
    offset = 0
    for folder in folders:
        path = Path(folder)
        files = sorted(path.glob("shard-*.npz"))
        if not files:
            raise error(f"{path}: no {what} shards (shard-*.npz)")
        top = 0
        for f in files:
            try:
                with np.load(f, allow_pickle=False) as z:
                    if int(z["obs_version"]) != obs_version:
                        raise error(f"{f} has observation layout {int(z['obs_version'])}, this code {obs_version}")
                    part = {k: z[k] for k in fields}
            except error:
                raise
            except Exception as exc:  # noqa: BLE001 - a damaged zip fails in many ways
                raise error(f"{f} is not a readable {what} shard: {type(exc).__name__}") from None
            if len(part["frame"]):
                top = max(top, int(part["frame"].max()) + 1)
            part["frame"] = part["frame"].astype(np.int64) + offset
            parts.append(part)
        offset += top
    return {k: np.concatenate([p[k] for p in parts]) for k in fields}


__all__ = [
    "FIELDS",
    "SHARD_FRAMES",
    "SelfPlayConfig",
    "SelfPlayError",
    "load_shards",
    "open_folder",
    "play_shard",
    "run_selfplay",
    "shard_name",
    "shard_ranges",
    "write_shard",
]
