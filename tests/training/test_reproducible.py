"""A training run is reproducible from its seed: the same config and seed
give the same losses and evaluations on one machine with the same number
of workers, whatever the interpreter's string hashes (``PYTHONHASHSEED``,
which ordered RLlib's batches: training/run.py ``_agents_in_order``), and
the league's frozen copies are drawn from the seed (``LeagueMapping``)."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from piramida.configs import CONFIG_DIR
from piramida.training.run import MAIN, LeagueMapping

SMOKE = CONFIG_DIR / "training" / "smoke.toml"
#: Columns that measure the machine, not the run.
TIMING = {"seconds", "env_steps_per_s"}

_TRAIN = """
import sys, tempfile
from piramida.training.config import load_config
from piramida.training.run import train
for out, cfg in zip(sys.argv[1::2], sys.argv[2::2]):
    train(out, load_config(cfg), cpus=1, temp_dir=tempfile.mkdtemp(prefix="rp-", dir="/tmp"))
"""


def _train(tmp: Path, seeds: dict[str, int], hash_seed: int) -> dict[str, list[dict[str, str]]]:
    """Toy runs (the smoke config, three iterations so that a frozen copy
    plays in the last, an evaluation after each), one per name and seed,
    one after the other in a fresh interpreter of string-hash seed
    ``hash_seed``; each run's metrics rows without the timing columns."""
    args = []
    for name, seed in seeds.items():
        cfg = tmp / f"{name}.toml"
        text = SMOKE.read_text().replace("iterations = 2", "iterations = 3").replace("every = 2", "every = 1")
        cfg.write_text(text.replace("[training]\n", f"[training]\nseed = {seed}\n", 1))
        args += [str(tmp / name), str(cfg)]
    env = os.environ | {"PYTHONHASHSEED": str(hash_seed)}
    out = subprocess.run([sys.executable, "-c", _TRAIN, *args], capture_output=True, text=True, env=env,
                         timeout=300, cwd=tempfile.gettempdir())
    assert out.returncode == 0, out.stderr[-2000:]
    rows = {}
    for name in seeds:
        with (tmp / name / "metrics.csv").open(newline="") as fh:
            rows[name] = [{k: v for k, v in r.items() if k not in TIMING} for r in csv.DictReader(fh)]
    return rows


def _set_order(hash_seed: int) -> str:
    """How an interpreter of string-hash seed ``hash_seed`` orders the
    set of the two agents' names."""
    code = "print(list({'player_0', 'player_1'}))"
    env = os.environ | {"PYTHONHASHSEED": str(hash_seed)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout


@pytest.mark.slow  # two RLlib runs, about a minute: make test-slow
def test_the_same_seed_trains_and_evaluates_the_same(tmp_path: Path) -> None:
    # The two interpreters iterate the agents' set in opposite orders.
    assert _set_order(1) != _set_order(2)
    runs = _train(tmp_path, {"a": 0, "other_seed": 1}, hash_seed=1) | _train(tmp_path, {"b": 0}, hash_seed=2)
    first = runs["a"]
    assert len(first) == 3 and all(r["eval_pair_score"] for r in first)
    assert runs["b"] == first
    assert [r["total_loss"] for r in runs["other_seed"]] != [r["total_loss"] for r in first]


class _Episode:
    def __init__(self, id_: str) -> None:
        self.id_ = id_


def test_the_league_draws_opponents_from_the_seed_once_an_episode() -> None:
    frozen = ["frozen_1", "frozen_2"]
    ids = [f"{i:032x}" for i in range(200)]

    def draws(seed: int, names: list[str]) -> list[str]:
        m = LeagueMapping(frozen, seed)
        got = [m("player_1", _Episode(i)) for i in names]
        # Asked again about an episode (a later chunk of it): the same answer.
        assert [m("player_1", _Episode(i)) for i in names] == got
        assert {m("player_0", _Episode(i)) for i in names} == {MAIN}
        return got

    a = draws(3, ids)
    # Other episode ids (RLlib's are random UUIDs), the same draws in order.
    assert draws(3, [f"x{i}" for i in range(200)]) == a
    assert draws(4, ids) != a
    assert set(a) == {MAIN, *frozen}
    assert LeagueMapping([], 3)("player_1", _Episode("e")) == MAIN
