"""bench.planner_choices: every chosen shot is traced to the part of the
candidate search that offered it; bad arguments are one line."""

from __future__ import annotations

import pytest

from bench.planner_choices import label, main, measure


def test_each_candidate_is_labelled_by_the_part_of_the_search_that_made_it() -> None:
    from bench.planner import load_positions
    from piramida.agents.shots import PLANNER, candidates
    from piramida.agents.shots.candidates import SPINS
    from piramida.env.view import GameView

    pos = next(r["position"] for r in load_positions() if r["position"].variant == "combined" and not r["position"].is_break)
    cands = candidates(GameView.for_position(pos), "pro", PLANNER)
    kept = [c for c in cands if c.kind == "pot" and c.score is not None]
    rank = {id(c): k + 1 for k, c in enumerate(kept)}
    labels = [label(c, rank) for c in cands]
    assert [lb for lb in labels if lb.startswith("pot #")] == [f"pot #{k}" for k in range(1, len(kept) + 1)]
    names = {f"variant: {name}" for _b, _k, name in SPINS}
    for c, lb in zip(cands, labels, strict=True):
        if c.kind == "safety":
            assert lb == "safety"
        elif lb.startswith("variant: "):
            assert lb in names and c.score is None


def test_the_choices_add_up_and_come_from_what_was_offered() -> None:
    out = measure(sims=150, limit=3)
    assert out["positions"] == 3 and sum(out["chosen"].values()) == 3
    assert all(name in out["offered"] or name == "other" for name in out["chosen"])
    assert sum(sum(c.values()) for c in out["by_variant"].values()) == 3
    varied = sum(k for name, k in out["chosen"].items() if name.startswith("variant: "))
    assert sum(out["variants_of"].values()) == varied and "pot #0" not in out["variants_of"]


def test_bad_arguments_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--sims", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--sims must be at least 1" in err


def test_choices_outside_a_narrower_search_and_under_another_seed_are_counted() -> None:
    from bench.planner import load_positions
    from piramida.agents.planner import PlannerAgent
    from piramida.agents.shots import GREEDY, candidates
    from piramida.env.view import GameView

    out = measure(sims=150, limit=4, within="greedy", other_seed=0)
    # The same seed again chooses the same shots: nothing changes.
    assert out["seed_changes"] == {"seed": 0, "decisions": 0, "by_variant": {}}
    refs = [r["position"] for r in load_positions() if not r["position"].is_break][:4]
    planner = PlannerAgent(budget_s=None, n_sims=150, noise="pro", seed=0)
    want = 0
    for pos in refs:
        shot = planner.plan(GameView.for_position(pos), top=1)[0].shot
        want += all(c.shot != shot for c in candidates(GameView.for_position(pos), "pro", GREEDY))
    assert out["outside"]["search"] == "greedy" and out["outside"]["decisions"] == want
    assert sum(out["positions_by_variant"].values()) == 4
