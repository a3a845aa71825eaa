"""``agents.shots.candidates``: every candidate shot of a decision, legal,
unique, each with its noise-free trial and a feature vector of the
documented layout; the skill enters through the preset's pot model."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from piramida.agents.shots import FEATURES, GREEDY, LAYOUT_VERSION, Budget, candidates
from piramida.agents.shots.candidates import column
from piramida.env.game import Game
from piramida.env.position import Position, ball_ids
from piramida.env.shot import Shot
from piramida.env.table import POCKETS
from piramida.env.view import GameView

KINDS = ("is_pot", "is_bank", "is_svoyak", "is_safety", "is_break")


def _view(variant: str = "free", **kw) -> GameView:
    balls = {"3": (0.9, 1.2), "5": (1.2, 2.6), "9": (0.4, 2.9), "11": (1.5, 0.7)}
    if variant != "free":
        balls["0"] = (0.7, 0.9)
    pos = Position.from_balls(variant, balls, **kw)
    return GameView.of(Game.new(variant, position=pos))


@pytest.mark.parametrize("variant", ["free", "combined", "classic71"])
def test_candidates_are_legal_unique_and_described(variant: str) -> None:
    view = _view(variant)
    got = candidates(view, "pro")
    assert got
    assert len({c.shot.to_text() for c in got}) == len(got)
    ids = ball_ids(variant)
    for c in got:
        view.referee.check_shot(view.state, c.shot)
        assert c.features.shape == (len(FEATURES),) and np.isfinite(c.features).all()
        assert sum(c.features[column(k)] for k in KINDS) == 1.0
        assert c.features[column("struck")] == ids.index(c.shot.ball)
        assert c.trial is not None and c.trial.shot == c.shot
        assert c.features[column("legal")] == float(c.trial.ruling.legal)
        if c.kind == "pot":
            assert c.line is not None and 0.0 < c.p <= 1.0
            assert c.features[column("pocket")] == POCKETS.index(c.line.pocket)
        else:
            assert c.features[column("is_" + c.kind)] == 1.0 and c.p == 0.0
        if c.features[column("rest_on_table")]:
            x, y = c.trial.ruling.position.xy(c.shot.ball)
            assert (c.features[column("rest_x")], c.features[column("rest_y")]) == (x, y)
    assert any(c.kind == "pot" for c in got) and any(c.kind == "safety" for c in got)
    assert isinstance(LAYOUT_VERSION, int) and len(set(FEATURES)) == len(FEATURES)


def test_the_greedy_search_is_lazy() -> None:
    view = _view("free")
    wide = candidates(view, "pro")
    lazy = candidates(view, "pro", GREEDY)
    assert len(lazy) < len(wide)
    # Its pots are the centred ones, each scored; no variants, no safety
    # when something pots.
    assert all(c.kind == "pot" and c.score is not None for c in lazy)


def test_the_skill_moves_the_estimates() -> None:
    view = _view("free")
    pro = {c.shot.to_text(): c for c in candidates(view, "pro", GREEDY)}
    novice = {c.shot.to_text(): c for c in candidates(view, "novice", GREEDY)}
    same = set(pro) & set(novice)
    assert same
    for k in same:
        if pro[k].half_width:
            assert novice[k].p < pro[k].p


def test_a_break_has_break_candidates_and_the_budget_counts_the_search() -> None:
    game = Game.new("classic71", seed=3)
    budget = Budget(None, 10**6)
    got = candidates(GameView.of(game), "pro", budget=budget)
    assert got and all(c.kind == "break" for c in got)
    assert budget.used > 0


def _count_rulings(ctx: Any) -> dict[str, int]:
    """Count the trials ``ctx`` judges and the rulings it makes."""
    made = {"rulings": 0, "trials": 0}
    rule, judge = ctx.ruling, ctx.judge

    def counting_ruling(shot: Shot, res: Any) -> Any:
        made["rulings"] += 1
        return rule(shot, res)

    def counting_judge(shot: Shot, res: Any) -> Any:
        made["trials"] += 1
        return judge(shot, res)

    ctx.ruling, ctx.judge = counting_ruling, counting_judge
    return made


@pytest.mark.parametrize("variant", ["free", "combined", "moscow"])
def test_trials_ruled_by_outcome_key_have_the_referees_value(variant: str) -> None:
    """A search's strokes that end like one already judged legal take its
    value without a ruling of their own (``CachingReferee.outcome_key``); every
    candidate's trial still has the value, legality and resting balls the
    referee gives it, and fewer rulings are made than strokes judged."""
    import json
    from pathlib import Path

    from piramida.agents.shots import PLANNER
    from piramida.agents.shots.candidates import generate
    from piramida.agents.shots.context import Context
    from piramida.agents.shots.probability import PotModel

    ref = Path(__file__).resolve().parents[2] / "bench" / "positions" / "reference.jsonl"
    rows = [json.loads(line) for line in ref.read_text().splitlines() if line.strip()]
    positions = [Position.from_dict(r["position"]) for r in rows]
    positions = [p for p in positions if p.variant == variant and not p.is_break][:4]
    assert positions
    for pos in positions:
        view = GameView.for_position(pos)
        ctx = Context(view, None, PotModel.of("pro"))
        made = _count_rulings(ctx)
        got = generate(ctx, PLANNER)
        assert made["rulings"] < made["trials"]
        fresh = Context(view, None, PotModel.of("pro"))
        for c in got:
            assert c.trial is not None
            full = fresh.ruling(c.shot, c.trial.result)
            assert c.trial.value == fresh.value(full) and c.trial.legal == full.legal
            assert c.trial.rest.balls == full.position.balls


def test_a_decisions_objects_are_freed_without_the_garbage_collector() -> None:
    # Candidates, trials, rulings and results form no reference cycle: a
    # decision's dozens of objects go when it is done with, and the search
    # does not pay for collections of the whole heap (a cycle through the
    # feature makers once left ~1400 objects a decision to the collector).
    import gc

    from piramida.agents.shots.candidates import Candidate

    views = [_view(v) for v in ("free", "combined", "moscow")]
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for view in views:
            got = candidates(view, "pro")
            assert got and all(len(c.features) == len(FEATURES) for c in got)
        del got
        gc.collect()
        left = [o for o in gc.garbage if isinstance(o, Candidate | Position | Shot)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()
    assert left == []


@pytest.mark.parametrize("variant", ["free", "combined", "dynamic"])
def test_break_strokes_remembered_from_another_rack_are_judged_alike(variant: str) -> None:
    """A break decision's strokes from the rack are the physics' remembered
    ones (``Simulator.recalled``) when another frame's rack, the same spots
    with other labels, played them: its trials are what simulating them
    afresh on this rack gives, ruling included."""
    from piramida.agents.shots.context import Context
    from piramida.agents.shots.strokes import break_trials
    from piramida.env.physics import simulate
    from piramida.env.physics.simulate import recall_stats

    def ctx_of(pos: Position) -> Context:
        return Context(GameView.of(Game.new(variant, position=pos)))

    break_trials(ctx_of(Position.start(variant, seed=1)))
    pos = Position.start(variant, seed=2)
    assert pos.balls != Position.start(variant, seed=1).balls
    before = recall_stats()["hits"]
    got = break_trials(ctx_of(pos))
    assert len(got) >= 10 and recall_stats()["hits"] - before == len(got)
    fresh = ctx_of(pos)
    for tr in got:
        want = fresh.judge(tr.shot, simulate(pos, tr.shot))
        assert want is not None
        assert (tr.value, tr.legal) == (want.value, want.legal)
        assert tr.result.pocketed == want.result.pocketed
        assert [e.to_dict() for e in tr.result.events] == [e.to_dict() for e in want.result.events]
        assert tr.ruling.position == want.ruling.position


def test_five_balls_describes_a_stroke_that_hands_over_by_the_opponents_white() -> None:
    # Each player strikes his own white (docs/game_rules.md §5.7): after a
    # stroke that ends the turn the next pot worth describing is the
    # opponent's, flagged by next_open = -1; after one that keeps it, the
    # struck white's own.
    from piramida.agents.shots.probability import easiest_difficulty

    game = Game.new("five_ball", seed=4)
    for _ in range(6):  # past the opening, both whites on the table
        view = GameView.of(game)
        if view.kind != "shot":
            break
        game.play(candidates(view, "pro")[0].shot)
    view = GameView.of(game)
    got = candidates(view, "pro")
    other = "w2" if view.player == 0 else "w1"
    flags = set()
    for c in got:
        ruling = c.trial.ruling
        after = ruling.position
        passes = ruling.next.player is not None and ruling.next.player != view.player
        ball = other if passes else c.shot.ball
        want = easiest_difficulty(after, [ball]) if ball in after else None
        opened = c.features[column("next_open")]
        flags.add(opened)
        if want is None:
            assert opened == 0.0
        else:
            assert opened == (-1.0 if passes else 1.0)
            assert c.features[column("next_difficulty")] == want
    assert -1.0 in flags
