"""The compiled strokes of a pot (agents/shots/probe.py) give the answers
the Python search gives, stroke for stroke, wherever they answer at all."""

from __future__ import annotations

import pytest

from piramida.agents.shots import aim, probe
from piramida.agents.shots.candidates import PLANNER, candidates
from piramida.agents.shots.context import Budget, Context
from piramida.agents.shots.ghost import aim_point, cue_speed_for, pot_lines
from piramida.agents.shots.lines import candidate_lines
from piramida.agents.shots.probability import PotModel
from piramida.env.position import Position
from piramida.env.position_sets import load_positions
from piramida.env.table import Table
from piramida.env.view import GameView

#: Every tenth reference position: every variant, mid-game and in hand.
VIEWS = [GameView.for_position(r["position"]) for r in load_positions()[::10]]
T = Table.default()
#: (speed factor, tip offset b) of the strokes refined per line.
STROKES = ((1.0, 0.0), (1.5, 0.35), (0.75, -0.35))


def context(view: GameView) -> Context:
    return Context(GameView.for_position(view.position.replace()), Budget(None, None), PotModel.of("pro"))


def same(a, b) -> bool:  # noqa: ANN001 - two trials or None
    if a is None or b is None:
        return a is b
    return (a.shot, a.value, a.legal, a.result.final.balls) == (b.shot, b.value, b.legal, b.result.final.balls)


def test_a_variant_that_ends_as_its_pot_takes_that_ruling(monkeypatch: pytest.MonkeyPatch) -> None:
    # Position variants of a pot (spin and pace re-refined) mostly end as
    # the pot did; their answer then takes its ruling without the referee
    # computing the key (Context.known). The answers are the Python secant's.
    from dataclasses import replace

    known = {"n": 0}
    inner = Context.known

    def counted(self, shot, res, key):  # noqa: ANN001, ANN202
        known["n"] += 1
        return inner(self, shot, res, key)

    monkeypatch.setattr(Context, "known", counted)
    compared = 0
    for view in VIEWS[:10]:
        fast, slow = context(view), context(view)
        for line, place in candidate_lines(fast)[:4]:
            base = aim.refine(fast, line, place, cue_speed_for(line, fast.table))
            if base is None:
                continue
            like = probe.reference_of(fast, base)
            start = replace(line, phi=base.shot.phi)
            for b, k in ((0.35, 1.0), (-0.35, 1.25), (0.0, 0.7)):
                got = aim.refine(fast, start, place, base.shot.v * k, like, b=b)
                first = slow.shot(start, start.phi, base.shot.v * k, place, b=b)
                want = aim.secant(slow, start, first, aim.secant_for(slow, start))
                assert same(got, want)
                compared += 1
    assert compared >= 20 and known["n"] >= 10, (compared, known)


def python_edge(ctx: Context, line, ref, sign: float) -> float:  # noqa: ANN001 - a line and a trial
    """``aim.pot_line``'s edge search on one side, every stroke in Python."""
    phi0, v = ref.shot.phi, ref.shot.v
    return aim.edge(lambda d: aim.pots_as(ctx, line, ref, phi0 + sign * d, v) is not None)


def test_the_compiled_secant_answers_as_the_python_one() -> None:
    answered = asked = pots = 0
    for view in VIEWS:
        fast, slow = context(view), context(view)
        for line, place in candidate_lines(fast)[:6]:
            sec = aim.secant_for(fast, line)
            for k, b in STROKES:
                v = cue_speed_for(line, fast.table) * k
                first = fast.shot(line, line.phi, v, place, b=b)
                used = fast.budget.used, slow.budget.used
                certain, got = probe.refined(fast, line, first, sec)
                want = aim.secant(slow, line, first, sec)
                asked += 1
                if not certain:
                    assert fast.budget.used == used[0], "an uncertain answer counts nothing"
                    continue
                answered += 1
                pots += want is not None
                assert same(got, want), (view.position.to_text(), line)
                assert fast.budget.used - used[0] == slow.budget.used - used[1]
    # The compiled path is what runs: nearly every line is answered there.
    assert answered >= 0.9 * asked and pots >= 0.25 * answered, (answered, asked, pots)


def test_the_probe_finds_the_edges_and_speed_checks_the_python_search_finds() -> None:
    edges = trials = 0
    for view in VIEWS:
        ctx = context(view)
        for line, place in candidate_lines(ctx)[:6]:
            ref = aim.refine(ctx, line, place, cue_speed_for(line, ctx.table))
            if ref is None or ref.value <= 0:
                continue
            pr = probe.Probe.of(ctx, line, ref)
            if pr is None:
                continue
            phi0, v = ref.shot.phi, ref.shot.v
            for sign in (1.0, -1.0):
                used = ctx.budget.used
                got = pr.edge(phi0, sign, max(0.3, v))
                counted = ctx.budget.used - used
                used = ctx.budget.used
                want = python_edge(ctx, line, ref, sign)
                if got is not None:
                    edges += 1
                    assert got == want and counted == ctx.budget.used - used
            for k in (0.92, 1.08):
                hit = pr.pots(phi0, max(0.3, v * k))
                if hit is not None:
                    assert hit == (aim.pots_as(ctx, line, ref, phi0, v * k) is not None)
            for d in (0.03, -0.08, 0.5):
                certain, got_trial = pr.trial(ref.shot.aimed((phi0 + d) % 360.0, max(0.3, v)))
                if certain:
                    trials += 1
                    assert same(got_trial, aim.pots_as(ctx, line, ref, phi0 + d, v))
    assert edges >= 20 and trials >= 20


def test_a_foul_at_the_end_of_the_compiled_secant_hands_it_to_python() -> None:
    # Classic pyramid, a straight pot into rr with follow: the cue ball
    # follows the target in, a foul the physics cannot see. The compiled
    # secant stops at that stroke; the referee rejects it, so the secant is
    # played in Python, judging every pot.
    rr = T.pockets["rr"]
    ap = aim_point(rr, T)
    ux, uy = -rr.axis[0], -rr.axis[1]
    p = Position.from_balls(
        "classic71", {"0": (ap[0] + 0.7 * ux, ap[1] + 0.7 * uy), "5": (ap[0] + 0.3 * ux, ap[1] + 0.3 * uy), "7": (0.5, 1.0)}
    )
    ctx = Context(GameView.for_position(p), Budget(None, None), PotModel.of("pro"))
    line = next(ln for ln in pot_lines(p, "0") if ln.target == "5" and ln.pocket == "rr")
    sec = aim.secant_for(ctx, line)
    first = ctx.shot(line, line.phi, 4.0, None, b=0.5)
    assert probe.refined(ctx, line, first, sec) == (False, None)
    assert ctx.budget.used == 0
    got = aim.refine(ctx, line, None, 4.0, b=0.5)
    assert got is None and ctx.budget.used > 0
    # The stroke that ended the compiled secant did pot the target, with the cue ball.
    assert ctx.referee.judge(p, first, ctx.simulate(first).rule_events, ctx.simulate(first).final).legal is False


def test_no_probe_where_the_key_reads_more_than_the_pockets() -> None:
    # Five balls: a pot's key holds the carom too (its worth hangs on it),
    # which the compiled verdict does not read, so the physics cannot
    # answer for the referee.
    refs = 0
    for r in load_positions():
        view = GameView.for_position(r["position"])
        if view.variant != "five_ball":
            continue
        ctx = context(view)
        for line, place in candidate_lines(ctx)[:3]:
            ref = aim.refine(ctx, line, place, cue_speed_for(line, ctx.table))
            if ref is None or not ref.legal:
                continue
            refs += 1
            assert not ctx.referee.keys_by_pockets
            assert probe.Probe.of(ctx, line, ref) is None
        if refs >= 3:
            break
    assert refs >= 3


@pytest.mark.parametrize("variant", ["free", "combined", "classic71", "five_ball"])
def test_candidates_are_the_same_with_every_stroke_in_python(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    views = [v for v in VIEWS if v.variant == variant][:2]
    assert views
    for view in views:
        fast_budget, slow_budget = Budget(None, None), Budget(None, None)
        fast = candidates(GameView.for_position(view.position.replace()), "pro", PLANNER, fast_budget)
        with monkeypatch.context() as m:
            m.setattr(probe, "COMPILED", False)
            slow = candidates(GameView.for_position(view.position.replace()), "pro", PLANNER, slow_budget)
        assert [c.shot for c in fast] == [c.shot for c in slow]
        assert all((a.features == b.features).all() for a, b in zip(fast, slow, strict=True))
        assert fast_budget.used == slow_budget.used
