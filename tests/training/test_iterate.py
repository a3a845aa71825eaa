"""Expert iteration (training/iterate.py, training/visits.py): a run of two
generations leaves its files, the search's distribution is what the
planner computed, and a run killed in every stage (at its boundaries and in
its middle) and resumed gives the results of a run never stopped, with
every stage's data once."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from piramida.agents.planner import PlannerAgent, rank
from piramida.agents.policy_obs import K
from piramida.cli import app
from piramida.env.position import Position
from piramida.env.view import GameView
from piramida.eval.store import open_read
from piramida.training import selfplay
from piramida.training.iterate import IterateConfig, IterateError, run_iterate
from piramida.training.visits import (
    FIELDS,
    SHARPNESS,
    load_rows,
    search_row,
    targets,
    value_targets,
)

runner = CliRunner()
#: Toy scale: frames of six shots, 16 strokes a decision, two epochs, a
#: gate of two pairs read after each.
TOY = IterateConfig("free", frames=4, sims=16, max_shots=6, value_epochs=2, policy_epochs=2, hidden=16,
                    max_pairs=2, batch=1, seed=3, anchor_pairs=1)
GENERATIONS = 2
POS = Position.from_balls(
    "free", {"1": (0.5, 1.0), "2": (0.9, 2.6), "3": (0.3, 2.2), "4": (1.2, 0.8), "5": (0.7, 1.8)}
)


class Killed(Exception):
    """Stands for a kill at a named point of the run."""


def _run(out: Path, hook: Callable[[str], None] | None = None) -> dict[str, Any]:
    return run_iterate(TOY, out, GENERATIONS, hook=hook)


@pytest.fixture(autouse=True)
def _small(monkeypatch: pytest.MonkeyPatch) -> None:
    torch.set_num_threads(1)
    # Two self-play shards a generation, so that a kill can fall between them.
    monkeypatch.setattr(selfplay, "SHARD_FRAMES", 2)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A run never stopped, and the points its hook was called at."""
    mp = pytest.MonkeyPatch()
    mp.setattr(selfplay, "SHARD_FRAMES", 2)
    torch.set_num_threads(1)
    out = tmp_path_factory.mktemp("iterate") / "ref"
    events: list[str] = []
    try:
        _run(out, events.append)
    finally:
        mp.undo()
    return out, events


def test_a_two_generation_run_leaves_every_file(reference: tuple[Path, list[str]]) -> None:
    out, events = reference
    for name in ("config.json", "ladder.json", "ladder.png"):
        assert (out / name).is_file()
    assert (out / "ladder.png").read_bytes()[:4] == b"\x89PNG"
    for g in range(GENERATIONS + 1):
        d = out / f"gen_{g:03d}"
        assert (d / "config.json").is_file()
        stages = (["train", "gate"] if g else []) + ["anchors"] + (["selfplay"] if g < GENERATIONS else [])
        assert sorted(p.name for p in d.glob("*.done.json")) == sorted(f"{s}.done.json" for s in stages)
        if g:
            assert all((d / f).is_file() for f in ("value.pt", "policy.pt", "gate.sqlite", "anchors.sqlite"))
        if g < GENERATIONS:
            assert sorted(p.name for p in (d / "data").glob("shard-*.npz")) == [
                "shard-000000-000001.npz", "shard-000002-000003.npz"]
    # Each stage ran once, in order: anchors and self-play 0, then train,
    # gate, anchors, self-play.
    starts = [e for e in events if e.endswith(":start")]
    assert starts == ["gen_000/anchors:start", "gen_000/selfplay:start", "gen_001/train:start", "gen_001/gate:start",
                      "gen_001/anchors:start", "gen_001/selfplay:start", "gen_002/train:start", "gen_002/gate:start",
                      "gen_002/anchors:start"]
    ladder = json.loads((out / "ladder.json").read_text())
    rows = ladder["generations"]
    assert [r["generation"] for r in rows] == [0, 1, 2]
    assert rows[0]["agent"] == "planner:sims=16" and rows[0]["elo_vs_first"] == 0.0
    # Generation 0 is the plain planner: it meets greedy only; the others both.
    assert sorted(rows[0]["anchors"]) == ["greedy"]
    for r in rows:
        for a in r["anchors"].values():
            assert a["pairs"] == TOY.anchor_pairs and sum(a["pentanomial"]) == a["pairs"]
        with open_read(out / f"gen_{r['generation']:03d}" / "anchors.sqlite") as store:
            specs = sorted(store.agents().values())
        assert specs == sorted([r["agent"].replace("RUN", str(out)), "greedy"] + (["planner:sims=16"] if r["generation"] else []))
    for r in rows[1:]:
        gate = r["gate"]
        assert gate["pairs"] == TOY.max_pairs and sum(gate["pentanomial"]) == gate["pairs"]
        assert r["accepted"] == (gate["result"] == "H1" or (gate["result"] == "none" and gate["score"] >= 0.5))
        assert f"value={out}/gen_{r['generation']:03d}/value.pt" in r["agent"]
    assert rows[1]["gate"]["against"] == 0
    assert rows[2]["gate"]["against"] == (1 if rows[1]["accepted"] else 0)
    assert rows[1]["selfplay"]["player"] == (1 if rows[1]["accepted"] else 0)
    assert rows[2]["train"]["data"] == ["gen_000/data", "gen_001/data"]


def test_the_shards_hold_the_search_distribution_and_the_outcome(reference: tuple[Path, list[str]]) -> None:
    out, _ = reference
    rows = load_rows([out / "gen_000" / "data", out / "gen_001" / "data"], "free")
    assert set(FIELDS) <= set(rows) and len(rows["pi_visits"]) > 10
    visits, mask = rows["pi_visits"], rows["pi_mask"]
    assert (visits.sum(1) > 0).all() and ((visits > 0) <= (mask > 0)).all()
    # The shot played is the most sampled one or tied with it (the last round's survivors).
    chosen = rows["pi_chosen"]
    assert (chosen >= 0).all()
    assert (visits[np.arange(len(chosen)), chosen] == visits.max(1)).all()
    value = selfplay.load_shards([out / "gen_000" / "data"])
    assert set(np.unique(value["outcome"])) <= {0.0, 0.5, 1.0} and np.isfinite(value["margin"]).all()


def test_the_planner_exposes_its_search_unchanged() -> None:
    view = GameView.for_position(POS)
    planner = PlannerAgent.of(budget_s=None, n_sims=120, seed=1)
    shot = planner.act(view)
    trace = planner.last_search
    assert trace is not None and trace.view is view
    assert sum(a.n for a in trace.arms) > 0
    assert rank(list(trace.arms))[0].shot.to_text() == planner.plan(view, top=1)[0].shot.to_text()
    again = PlannerAgent.of(budget_s=None, n_sims=120, seed=1).act(view)
    assert str(shot) == str(again)
    row = search_row(trace)
    assert row is not None and 0 < row["pi_visits"].sum() <= sum(a.n for a in trace.arms)
    planner.act(GameView.for_position(POS))  # a new decision replaces it
    assert planner.last_search is not trace


def test_the_policy_target_is_what_the_search_learned_not_its_first_round() -> None:
    # Successive halving gives every candidate the same first allotment: a
    # decision whose budget ended there has equal counts, and its target is
    # the shot played (raw counts would be uniform, a prior fitted to them
    # ranks shots by noise); after halving, the samples beyond the first.
    mask = np.zeros((3, K), np.float32)
    mask[:, :5] = 1.0
    visits = np.zeros((3, K), np.float32)
    visits[0, :5] = 8.0
    visits[1, :5] = [64.0, 128.0, 16.0, 8.0, 8.0]
    pi = targets({"pi_mask": mask, "pi_visits": visits, "pi_chosen": np.array([3, 1, -1], np.int16)})
    assert pi[0].tolist() == [0.0, 0.0, 0.0, 1.0, 0.0] + [0.0] * (K - 5)
    assert np.allclose(pi[1, :5], np.array([56.0, 120.0, 8.0, 0.0, 0.0]) / 184.0) and pi[1, 5:].sum() == 0.0
    assert pi[2].sum() == 0.0
    # A real decision whose 16 strokes end in the first round.
    planner = PlannerAgent.of(budget_s=None, n_sims=16, seed=1)
    planner.act(GameView.for_position(POS))
    row = search_row(planner.last_search)
    assert row is not None
    one = {k: np.asarray(row[k])[None] for k in ("pi_mask", "pi_visits", "pi_chosen")}
    got = targets(one)[0]
    assert got[int(row["pi_chosen"])] == got.max() > 1.5 / (row["pi_mask"] > 0).sum()


def test_the_values_target_ranks_every_sampled_candidate_by_its_mean() -> None:
    mask = np.zeros((3, K), np.float32)
    mask[:, :4] = 1.0
    visits = np.zeros((3, K), np.float32)
    visits[:, :4] = 8.0
    values = np.full((3, K), np.nan, np.float32)
    values[0, :4] = [0.2, 0.9, 0.5, 0.1]
    values[1, :4] = [3.0, 3.0, 3.0, 3.0]  # all alike: the shot played
    values[2, :4] = [40.0, 10.0, np.nan, 25.0]  # points, not chances: the same shape
    visits[2, 2] = 0.0
    data = {"pi_mask": mask, "pi_visits": visits, "pi_values": values, "pi_chosen": np.array([1, 2, 0], np.int16)}
    pi = value_targets(data)
    assert np.allclose(pi.sum(1), 1.0)
    # Ordered as the means, the best over the worst by exp(SHARPNESS).
    assert list(np.argsort(-pi[0, :4])) == [1, 2, 0, 3]
    assert np.isclose(pi[0, 1] / pi[0, 3], np.exp(SHARPNESS), rtol=1e-5)
    assert np.isclose(pi[0, 2] / pi[0, 3], np.exp(SHARPNESS * 0.4 / 0.8), rtol=1e-5)
    assert pi[1].tolist() == targets(data)[1].tolist() and pi[1, 2] == 1.0
    assert pi[2, 2] == 0.0 and pi[2, 5:].sum() == 0.0
    assert np.isclose(pi[2, 0] / pi[2, 1], np.exp(SHARPNESS), rtol=1e-5)


def test_an_exploring_prior_draws_its_shortlist_from_its_distribution(reference: tuple[Path, list[str]]) -> None:
    # Gumbel-top-k: the first of the shortlist is the network's softmax
    # draw, so over many draws each candidate leads about as often as its
    # probability says; without a generator it is always the favourite.
    from piramida.agents.policy import PolicyAgent
    from piramida.agents.policy_obs import Option, cand_row, select

    out, _ = reference
    prior = PolicyAgent(str(out / "gen_001" / "policy.pt"))
    planner = PlannerAgent.of(budget_s=None, n_sims=16, seed=1)
    view = GameView.for_position(POS)
    planner.act(view)
    trace = planner.last_search
    assert trace is not None
    cands = [a.cand for a in trace.arms]
    kept = select(cands, K)
    logits = np.asarray(prior.logits(view, [Option(c.shot, cand_row(view, c), c) for c in kept]), np.float64)
    p = np.exp(logits - logits.max())
    p /= p.sum()
    where = {id(c): i for i, c in enumerate(cands)}
    slot = {where[id(c)]: i for i, c in enumerate(kept)}
    rng = np.random.default_rng(5)
    n = 4000
    firsts = np.zeros(len(kept))
    for _ in range(n):
        pick = [i for i, _ in prior.ranked(view, cands, 3, rng)]
        assert len(set(pick)) == 3
        firsts[slot[pick[0]]] += 1
    assert np.all(np.abs(firsts / n - p) <= 4 * np.sqrt(p * (1 - p) / n) + 1e-9)
    assert prior.ranked(view, cands, 1)[0][0] == where[id(kept[int(np.argmax(logits))])]
    # The planner's exploring draw is seeded by the decision: the same twice.
    spec = {"budget_s": None, "n_sims": 40, "seed": 2, "prior": str(out / "gen_001" / "policy.pt"), "prior_top": 2}
    shots = [str(PlannerAgent.of(**spec, explore=True).act(view)) for _ in range(2)]
    assert shots[0] == shots[1]


def test_a_prior_leaves_its_top_candidates_alone_sampled(reference: tuple[Path, list[str]]) -> None:
    out, _ = reference
    planner = PlannerAgent.of(budget_s=None, n_sims=120, seed=1, prior=str(out / "gen_001" / "policy.pt"), prior_top=3)
    planner.act(GameView.for_position(POS))
    trace = planner.last_search
    assert trace is not None and len(trace.arms) > 3
    assert sum(a.n > 0 for a in trace.arms) == 3


def _games(db: Path) -> list[tuple[Any, ...]]:
    """A gate's games: pair, seats, winner, score, shots and every action played."""
    from piramida.eval.store import open_read

    with open_read(db) as store:
        return sorted((g["pair"], g["swap"], g["winner"] is None, g["score0"], g["score1"], g["shots"], g["saved"])
                      for g in store.games())


def _same_results(a: Path, b: Path) -> None:
    """The data, the weights, the gates and the ladder of two runs agree."""
    for g in range(GENERATIONS + 1):
        da, db = a / f"gen_{g:03d}", b / f"gen_{g:03d}"
        shards = sorted(p.name for p in (da / "data").glob("shard-*.npz")) if g < GENERATIONS else []
        assert shards == (sorted(p.name for p in (db / "data").glob("shard-*.npz")) if g < GENERATIONS else [])
        for name in shards:
            with np.load(da / "data" / name) as za, np.load(db / "data" / name) as zb:
                assert sorted(za.files) == sorted(zb.files)
                for k in za.files:
                    assert np.array_equal(za[k], zb[k], equal_nan=za[k].dtype.kind == "f"), (g, name, k)
        if g:
            assert _games(da / "gate.sqlite") == _games(db / "gate.sqlite"), g
        assert _games(da / "anchors.sqlite") == _games(db / "anchors.sqlite"), g
        for model in ("value.pt", "policy.pt") if g else ():
            sa = torch.load(da / model, weights_only=True)["state_dict"]
            sb = torch.load(db / model, weights_only=True)["state_dict"]
            assert sa.keys() == sb.keys() and all(torch.equal(sa[k], sb[k]) for k in sa), (g, model)

    def clean(x: Any, root: Path) -> Any:
        if isinstance(x, dict):
            return {k: clean(v, root) for k, v in x.items() if k not in ("wall_s", "cpu_s")}
        if isinstance(x, list):
            return [clean(v, root) for v in x]
        return x.replace(str(root), "RUN") if isinstance(x, str) else x

    la, lb = (json.loads((r / "ladder.json").read_text()) for r in (a, b))
    assert clean(la, a) == clean(lb, b)


def test_a_run_killed_at_every_point_and_resumed_gives_the_same_results(
    reference: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """Killed at every point the uninterrupted run passed, one after the
    other - each stage's start, its middle (after a self-play shard, after
    the value file, after a gate batch), its outputs written without their
    marker, its marker - and run once more: every stage finished once, no
    shard was played twice, and the results are the reference's."""
    ref, events = reference
    out = tmp_path / "run"
    seen: list[str] = []
    for target in dict.fromkeys(events):

        def hook(event: str, target: str = target) -> None:
            seen.append(event)
            if event == target:
                raise Killed(event)

        with pytest.raises(Killed):
            _run(out, hook)
    _run(out, seen.append)
    assert sorted(e for e in seen if e.endswith(":done")) == sorted(e for e in events if e.endswith(":done"))
    assert sorted(e for e in seen if e.endswith(":shard")) == sorted(e for e in events if e.endswith(":shard"))
    _same_results(ref, out)


def test_the_command_resumes_a_finished_run_and_refuses_another_config(reference: tuple[Path, list[str]]) -> None:
    out, _ = reference
    args = ["iterate", "--variant", "free", "--generations", str(GENERATIONS), "--out", str(out), "--frames", "4",
            "--sims", "16", "--max-shots", "6", "--value-epochs", "2", "--policy-epochs", "2", "--hidden", "16",
            "--max-pairs", "2", "--batch", "1", "--seed", "3", "--anchor-pairs", "1", "--no-progress"]
    before = (out / "ladder.json").read_text()
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "gen 0: the plain planner" in res.output and "champion: generation" in res.output
    assert (out / "ladder.json").read_text() == before
    res = runner.invoke(app, [*args[:-1], "--sims", "17", "--no-progress"])
    assert res.exit_code != 0 and "another config" in res.output
    with pytest.raises(IterateError, match="batch"):
        IterateConfig("free", max_pairs=2, batch=3)


@pytest.mark.slow
def test_on_ray_the_run_gives_the_same_results(reference: tuple[Path, list[str]], tmp_path: Path, ray_temp: str) -> None:
    """Self-play shards and gate games as Ray tasks on two workers: the same
    data, weights and gates as one process."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, _temp_dir=ray_temp, log_to_driver=False)
    try:
        out = tmp_path / "run"
        run_iterate(TOY, out, GENERATIONS, workers=2)
    finally:
        ray.shutdown()
    _same_results(reference[0], out)


def test_a_stored_config_without_the_newer_fields_is_a_run_made_before_them(tmp_path: Path) -> None:
    # A run written before --target, --explore and --anchor-pairs fitted the
    # sample counts, drew no shortlist and played no anchors: resuming it
    # with today's defaults would mislabel it, so only those values match.
    from piramida.training.iterate import open_run

    old = {k: v for k, v in IterateConfig("free", frames=7).to_dict().items()
           if k not in ("target", "explore", "anchor_pairs")}
    (tmp_path / "config.json").write_text(json.dumps({"config": old}))
    open_run(IterateConfig("free", frames=7, target="visits", explore=False, anchor_pairs=0), tmp_path, "piramida iterate")
    for cfg in (IterateConfig("free", frames=7), IterateConfig("free", frames=7, target="visits", explore=False),
                IterateConfig("free", frames=8, target="visits", explore=False, anchor_pairs=0)):
        with pytest.raises(IterateError, match="another config"):
            open_run(cfg, tmp_path, "piramida iterate")
