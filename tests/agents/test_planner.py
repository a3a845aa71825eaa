"""The planner in hand-built positions: it finds the obvious pot (a ball in
the jaws, a straight shot, ball in hand) in every pyramid variant, never
suggests a shot the referee rules a foul when a legal pot is on (noise
none), values a foul below a miss, and answers the same for the same seed.
Budgets are simulation counts, so the answers do not depend on the machine."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from piramida.agents import make_agent
from piramida.agents.base import GameView
from piramida.agents.planner import Allowance, Arm, PlannerAgent
from piramida.agents.shots.candidates import PLANNER, Candidate
from piramida.agents.shots.context import Budget, Context
from piramida.agents.shots.ghost import aim_point, pot_lines
from piramida.agents.shots.probability import PotModel, easiest_difficulty
from piramida.env.errors import PiramidaError
from piramida.env.game import Game
from piramida.env.physics import simulate
from piramida.env.position import PYRAMID_VARIANTS, Position
from piramida.env.shot import Shot
from piramida.env.table import Table

T = Table.default()
R = T.ball_radius


def _on_axis(pocket: str, d: float) -> tuple[float, float]:
    """A point ``d`` in front of ``pocket``'s aim point, on its axis."""
    pk = T.pockets[pocket]
    ap = aim_point(pk, T)
    return (ap[0] - pk.axis[0] * d, ap[1] - pk.axis[1] * d)


def _cue(variant: str) -> str:
    return "3" if variant == "free" else ("w1" if variant == "five_ball" else "0")


def _game(variant: str, target_d: float, cue_d: float, pocket: str = "rr", **kw) -> Game:
    """Target ``target_d`` from the pocket, the cue ball ``cue_d`` further
    back on the same line, one more ball out of the way."""
    balls = {"5": _on_axis(pocket, target_d), "9": (0.3, 0.6)}
    cue = _cue(variant)
    if cue_d > 0:
        balls[cue] = _on_axis(pocket, target_d + 2 * R + cue_d)
    pos = Position.from_balls(variant, balls, **kw)
    return Game.new(variant, position=pos)


def _planner(noise: str = "none", n_sims: int = 120, seed: int = 0, value: str = "auto", **search) -> PlannerAgent:
    """A planner on a simulation count; ``search``: fields of its ``Search``."""
    search.setdefault("max_lines", 4)
    budget = Allowance(budget_s=None, n_sims=n_sims)
    return PlannerAgent(replace(PLANNER, **search), value, budget, noise=noise, seed=seed)


def _judge(game: Game, shot: Shot):
    pos = game.state.position
    res = simulate(pos, shot)
    return game.referee.judge(pos, shot, res.events, res.final, (), game.state)


JAWS = 0.02 + R  # the target's centre just in front of the aim point: in the jaws
POSITIONS = [(v, d) for v in PYRAMID_VARIANTS for d in (JAWS, 0.7)]


@pytest.mark.parametrize(("variant", "target_d"), POSITIONS)
def test_planner_pots_the_obvious_ball_and_never_fouls(variant: str, target_d: float) -> None:
    game = _game(variant, target_d, 0.5)
    view = GameView.of(game)
    shot = _planner().act(view)
    assert isinstance(shot, Shot)
    ruling = _judge(game, shot)
    assert ruling.legal, (variant, shot.to_text(), ruling.summary())
    assert ruling.scored.get(0), (variant, shot.to_text(), ruling.summary())
    if variant == "classic71":
        assert shot.call is not None and shot.call[0] in ruling.scored[0]


@pytest.mark.parametrize("variant", ["combined", "classic71", "dynamic"])
def test_planner_places_a_ball_in_hand_and_pots(variant: str) -> None:
    """Cue ball in hand in the house; the target waits outside it (item 21.2)."""
    game = _game(variant, 0.5, 0.0, pocket="rl", in_hand="house")
    view = GameView.of(game)
    shot = _planner(n_sims=200).act(view)
    assert isinstance(shot, Shot) and shot.place is not None
    assert T.in_house(*shot.place)
    ruling = _judge(game, shot)
    assert ruling.legal and ruling.scored.get(0), ruling.summary()


def test_top_plans_are_legal_and_ranked() -> None:
    game = _game("free", 0.7, 0.5)
    plans = _planner(noise="pro", n_sims=600).plan(GameView.of(game), top=3)
    assert len(plans) == 3
    assert [p.value for p in plans[:2]] == sorted((p.value for p in plans[:2]), reverse=True)
    assert plans[0].p_pot >= 0.9 and plans[0].p_foul == 0.0
    assert plans[0].expected_points >= 0.9
    assert "5 into the rear-right corner" in plans[0].description


def test_suggestion_is_deterministic_for_a_seed() -> None:
    game = _game("combined", 0.9, 0.8)
    view = GameView.of(game)
    a = _planner(noise="pro", seed=7, n_sims=150).plan(view, top=3)
    b = _planner(noise="pro", seed=7, n_sims=150).plan(view, top=3)
    assert [p.to_dict() for p in a] == [p.to_dict() for p in b]
    assert all(p.samples >= 4 for p in a)


def test_noise_is_sampled_not_ignored() -> None:
    """A long thin cut at novice skill is not a certain pot."""
    game = _game("combined", 1.2, 0.0)
    pos = game.state.position.with_balls(
        {**game.state.position.ball_map, "0": (T.width / 2 + 0.6, 0.9)}
    )
    game = Game.new("combined", position=pos)
    plans = _planner(noise="novice", n_sims=200).plan(GameView.of(game), top=5)
    pots = [p for p in plans if p.kind == "pot"]
    assert pots and all(p.p_pot < 1.0 for p in pots)


def test_foul_is_worse_than_a_plain_miss() -> None:
    """Scoring by the referee: giving the opponent a penalty ball and a
    choice is worth less than a legal shot that leaves him the same table."""
    game = _game("free", 0.7, 0.5)
    view = GameView.of(game)
    for value in ("turn", "race"):
        planner = _planner(value=value)
        ctx = Context(view, Budget(None, 100))
        miss = Arm(Candidate(Shot(ball="3", phi=0.0, v=0.05), "safety"))  # no contact: a foul
        pot = Arm(planner.candidates(ctx)[0].cand)
        planner.evaluate(ctx, [miss, pot])
        assert miss.fouls == miss.n
        if value == "turn":  # balls: a pot is worth at least one more
            assert miss.mean < 0 and pot.mean > miss.mean + 1.0
        else:  # frame-winning chances: the foul gives a ball and the table away
            assert 0.0 <= miss.mean < 0.5 < pot.mean <= 1.0
            assert pot.mean > miss.mean + 0.15


# Free pyramid balls off the table (3, 5 and 9 are on it), for scores.
SHELVES = (("1", "2", "4", "6", "7", "8", "10"), ("11", "12", "13", "14", "15", "0"))


def _pot_value(mine: int, theirs: int) -> tuple[float, float]:
    """The planner's race value of the obvious pot at this score, and the
    value of the table handed over with nothing on."""
    shelves = (SHELVES[0][:mine], SHELVES[1][:theirs])
    game = _game("free", 0.7, 0.5, shelves=shelves, score=(mine, theirs))
    planner = _planner(value="race")
    ctx = Context(GameView.of(game), Budget(None, 100))
    # The obvious pot: 5 into the rear-right corner off 3 (with three balls
    # on the table and no score, a shot that pots two ends the frame).
    obvious = [
        a for a in planner.candidates(ctx)
        if a.cand.line is not None and (a.cand.line.struck, a.cand.line.target) == ("3", "5")
    ]
    pot = Arm(obvious[0].cand)
    planner.evaluate(ctx, [pot])
    race = planner.valuation.race(ctx)
    assert race is not None and pot.pots == pot.n  # noise-free: it goes in
    return pot.mean, 1.0 - race.at_table(theirs, mine, 0.97)


def test_race_value_follows_the_score() -> None:
    """The same pot is worth more of the frame the closer the shooter is to
    winning (docs/game_rules.md §5.1: first to 8 balls); at 7 balls it wins it."""
    v = {sc: _pot_value(*sc) for sc in [(0, 0), (7, 0), (0, 6), (2, 6)]}
    assert v[(7, 0)][0] == 1.0
    # Closer to the frame is better; the opponent closer to it is worse.
    assert 1.0 > v[(2, 6)][0] > v[(0, 6)][0] > 0.0
    assert 1.0 > v[(0, 0)][0] > v[(0, 6)][0]
    for pot, handed_over in v.values():
        assert pot > handed_over


def test_value_modes_are_checked() -> None:
    with pytest.raises(PiramidaError, match="value must be one of"):
        _planner(value="elo")
    game = _game("classic71", 0.7, 0.5)
    with pytest.raises(PiramidaError, match="race"):
        _planner(value="race").act(GameView.of(game))
    # auto: classic71 is a points game, valued in points and the turn.
    shot = _planner(value="auto").act(GameView.of(game))
    assert isinstance(shot, Shot)


def test_choices_go_through_the_referee() -> None:
    """After an opponent's foul the planner answers one of the offered choices."""
    game = _game("free", 0.7, 0.5)
    game.play(Shot(ball="3", phi=0.0, v=0.05))  # player 0 fouls: no contact
    view = GameView.of(game)
    assert view.kind == "choice"
    choice = _planner().act(view)
    assert isinstance(choice, str) and choice in view.choices


def test_registered_as_planner() -> None:
    agent = make_agent("planner", n_sims=10, budget_s=None)
    assert isinstance(agent, PlannerAgent) and agent.name == "planner"


def test_leave_matches_aim_geometry() -> None:
    """The one easiest-pot function (vectorised) finds ``ghost.pot_lines``'
    easiest line."""
    pos = Position.start("free", seed=3).replace(is_break=False, in_hand=None)
    pos = pos.with_balls({**pos.ball_map, "0": (T.width / 2, 0.5)})
    for s in pos.ids[:5]:
        lines = pot_lines(pos, s)
        want = lines[0].difficulty if lines else None
        got = easiest_difficulty(pos, [s])
        assert (want is None) == (got is None)
        if want is not None and got is not None:
            assert math.isclose(want, got, rel_tol=1e-9)
    pro, novice = PotModel.of("pro"), PotModel.of("novice")
    assert pro.chance(None) == 0.0
    assert pro.chance(400.0) > pro.chance(2000.0)
    assert pro.chance(2000.0) > novice.chance(2000.0)


def test_break_candidates_are_evaluated_from_the_house() -> None:
    """With ``breaks`` the planner weighs a family of break strokes (docs/game_rules.md
    §4.2: from the house, at the rack) by their sampled outcomes."""
    from piramida.agents.shots.strokes import BREAK_OFFSETS, BREAK_SPEEDS, break_family, break_shot

    game = Game.new("free", seed=4)
    view = GameView.of(game)
    assert view.position.is_break
    planner = _planner(noise="pro", n_sims=200, breaks=True)
    shots = break_family(Context(view))
    assert len(shots) == 3 * len(BREAK_OFFSETS) * len(BREAK_SPEEDS)
    for s in shots:
        assert s.place is not None and T.in_house(*s.place)
    plans = planner.plan(view, top=3)
    assert plans and all(p.kind == "break" for p in plans)
    assert plans[0].samples >= plans[-1].samples
    shot = planner.act(view)
    assert shot == plans[0].shot  # act plays the plan's best
    assert _judge(game, shot).legal
    # Without ``breaks`` (and the book) the break is greedy's stroke, not
    # searched.
    plain = _planner(noise="pro", n_sims=200, breaks=False, book=False)
    assert plain.act(view) == break_shot(Context(view))


def test_the_break_book_is_offered_on_a_full_rack_only() -> None:
    """On the standard rack the book's strokes replace the apex family among
    the candidates and, scoring far more often, are chosen; an incomplete
    rack gets the family (agents/break_book.py)."""
    from piramida.agents.break_book import book_shots

    game = Game.new("free", seed=6)
    view = GameView.of(game)
    booked = book_shots(view.position, "0")
    assert booked
    planner = _planner(noise="pro", n_sims=600)
    kinds = planner.candidates(Context(view, Budget(None, 600)))
    assert all(c.kind == "break" for c in kinds)
    assert len(kinds) == len({s.to_text() for s in booked}) + 1  # the book and greedy's stroke
    best = planner.plan(view, top=1)[0]
    assert best.shot in booked and best.p_pot > 0.5
    assert _judge(game, best.shot).legal
    # A re-rack without one ball is not the book's position.
    short = view.position.replace(balls=tuple(view.position.balls[1:]))
    short_view = GameView.of(Game.new("free", seed=6, position=short))
    cands = planner.candidates(Context(short_view, Budget(None, 600)))
    assert not any(c.shot in booked for c in cands)
    assert len(cands) > len(kinds)


def test_a_combined_svoyak_counts_as_a_pot() -> None:
    """In combined pyramid the coloured ball in off the rack scores through
    the ball taken from the table afterwards (docs/game_rules.md §5.2, the opponent
    picks it): the book's break is reported as a pot worth a ball."""
    from piramida.agents.break_book import book_shots

    game = Game.new("combined", seed=6)
    view = GameView.of(game)
    booked = book_shots(view.position, "0")
    assert booked
    best = _planner(noise="pro", n_sims=600).plan(view, top=1)[0]
    assert best.shot in booked
    assert best.p_pot > 0.5 and best.expected_points > 0.5


def test_five_ball_planner_pots_with_the_carom_on() -> None:
    """Five balls (docs/game_rules.md §5.7): a pot scores only with a carom. Red r1
    0.5 m out from the rear-right corner, the white at a 30° cut, the other
    red on the white's stun line: the planner calls r1 into that pocket and
    scores the red-onto-red carom (6 points)."""
    pk = T.pockets["rr"]
    ux, uy = -pk.axis[0], -pk.axis[1]
    tgt = _on_axis("rr", 0.5)
    g = (tgt[0] + ux * 2 * R, tgt[1] + uy * 2 * R)
    cut = math.radians(30)
    ox, oy = -ux, -uy
    ix, iy = ox * math.cos(cut) - oy * math.sin(cut), ox * math.sin(cut) + oy * math.cos(cut)
    tx, ty = (-oy, ox) if ix * -oy + iy * ox > 0 else (oy, -ox)
    balls = {
        "w1": (g[0] - ix * 0.5, g[1] - iy * 0.5),
        "r1": tgt,
        "r2": (g[0] + tx * 0.35, g[1] + ty * 0.35),
        "w2": (0.3, 0.5),
        "y": (0.9, 1.2),
    }
    game = Game.new("five_ball", position=Position.from_balls("five_ball", balls))
    shot = _planner(n_sims=300).act(GameView.of(game))
    assert isinstance(shot, Shot) and shot.call == ("r1", "rr")
    ruling = _judge(game, shot)
    assert ruling.legal and ruling.score[0] == 6, ruling.summary()


def test_simulate_many_refuses_only_what_the_physics_refuses() -> None:
    """A stroke the physics refuses (a PiramidaError) is None; anything else
    is a bug and propagates; a sample equals ``simulate`` with its seed."""
    from piramida.agents import planner as planner_module
    from piramida.env.physics import Simulator, load_noise, simulate

    pos = _game("free", 0.7, 0.5).state.position
    shot = Shot(ball="3", phi=45.0, v=1.0)
    got = planner_module.simulate_many(Simulator(pos), [shot, shot], load_noise("pro"), [1, 2])
    for res, seed in zip(got, [1, 2], strict=True):
        assert res is not None
        assert res.final == simulate(pos, shot, noise="pro", seed=seed).final

    def refuse(*a, **k):
        raise PiramidaError("refused")

    assert planner_module.simulate_many(refuse, [shot], None, [1]) == [None]

    def broken(*a, **k):
        raise TypeError("a bug")

    with pytest.raises(TypeError):
        planner_module.simulate_many(broken, [shot], None, [1])


def test_the_samples_key_caps_the_samples_a_candidate_gets() -> None:
    """``planner:samples=N``: successive halving stops when the last two
    candidates have N samples each, budget left or not (a long wall-clock
    budget needs a larger cap to be spent)."""
    from piramida.agents.specs import parse_spec

    view = GameView.of(_game("combined", 1.2, 0.6))
    capped = parse_spec("planner:sims=3000:samples=16").build({"seed": 2})
    wide = parse_spec("planner:sims=3000").build({"seed": 2})
    assert capped.n_samples == 16 and wide.n_samples == 256
    assert max(p.samples for p in capped.plan(view, top=8)) == 16
    assert max(p.samples for p in wide.plan(view, top=8)) > 16


def test_a_wall_clock_budget_counts_work_still_to_come_and_a_stroke_count_does_not() -> None:
    clock = Budget(60.0, None)
    assert not clock.spent() and clock.spent(reserve_s=61.0) and clock.spent(0.5, reserve_s=31.0)
    count = Budget(None, 10)
    count.used = 9
    assert not count.spent(reserve_s=1e9)  # a stroke count is met by strokes alone
    count.used = 10
    assert count.spent()


def test_a_rollout_count_limits_the_noisy_samples_and_never_the_search_for_candidates() -> None:
    """``planner:rollouts=N`` finds the same candidates as an unlimited
    search and spends N noisy samples, shared out evenly when N is less
    than a first round (at least one a candidate), whole batches otherwise;
    ``sims=N`` counts the search's trials too, so a small count finds fewer."""
    from piramida.agents.specs import parse_spec

    view = GameView.of(_game("combined", 1.2, 0.6))

    def searched(spec: str) -> tuple[list[int], int]:
        agent = parse_spec(spec).build({"seed": 2})
        ctx = Context(view, agent.budget.start(), agent.model)
        return [p.samples for p in agent.plan_ctx(ctx, top=100)], ctx.budget.rolled

    unlimited = PlannerAgent.of(budget_s=None, seed=2)
    every = len(unlimited.candidates(Context(view, Budget(None, None), unlimited.model)))
    assert every == 12
    assert searched("planner:rollouts=24") == ([2] * 12, 24)
    assert searched("planner:rollouts=3") == ([1] * 12, 12)
    samples, rolled = searched("planner:rollouts=600")
    assert len(samples) == 12 and 600 <= sum(samples) == rolled < 600 + 256
    assert len(searched("planner:sims=24")[0]) < every
    budget = Budget(None, None, n_rollouts=5)
    budget.used = 100  # trials of the search do not spend rollouts
    assert not budget.spent() and budget.counted
    budget.rolled = 5
    assert budget.spent()
