"""The one pot-probability model (agents/shots/probability.py): one fit per
noise preset (configs/agents/pot_model.toml, written by
``piramida calibrate leave``), read by every agent for the preset it plays
under. The presets are loaded from configs/noise, never copied here."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from piramida.agents.greedy import GreedyAgent
from piramida.agents.planner import Allowance, PlannerAgent
from piramida.agents.planner_value import Valuation
from piramida.agents.shots.context import Context
from piramida.agents.shots.probability import (
    PotModel,
    PotModelError,
    easiest_difficulty,
    fitted,
    parse_models,
)
from piramida.agents.specs import parse_spec
from piramida.env.physics import load_noise
from piramida.env.physics.noise import presets
from piramida.env.position import Position
from piramida.env.view import GameView

SKILLS = ("none", "pro", "amateur", "novice")


def test_every_preset_has_a_fit_of_its_current_sigmas() -> None:
    # A re-calibrated preset (configs/noise) needs its model refitted:
    # piramida calibrate leave --noise NAME --write.
    fits = fitted()
    assert set(presets()) <= set(fits), sorted(set(presets()) - set(fits))
    for name in presets():
        noise = load_noise(name)
        assert noise is not None
        assert fits[name].sigmas == noise.sigmas, name
        model = PotModel.of(name)
        assert model is fits[name] and not model.scaled


def test_no_noise_is_the_none_preset() -> None:
    assert PotModel.of(None) is PotModel.of("none")


def test_the_next_pot_curve() -> None:
    for name in SKILLS:
        m = PotModel.of(name)
        assert m.chance(None) == 0.0
        assert m.chance(m.d50) == pytest.approx(0.5)
        ps = [m.chance(d) for d in (50.0, 200.0, 500.0, 1000.0, 3000.0)]
        assert all(1.0 >= a > b >= 0.0 for a, b in zip(ps, ps[1:], strict=False)), name


def test_better_players_pot_more() -> None:
    models = [PotModel.of(n) for n in SKILLS]
    for d in (150.0, 400.0, 1000.0):
        ps = [m.chance(d) for m in models]
        assert ps == sorted(ps, reverse=True), (d, ps)
    for half in (0.02, 0.05, 0.1):
        ps = [m.line(half, 2) for m in models]
        assert ps == sorted(ps, reverse=True), (half, ps)
    qs = [m.typical("free") for m in models]
    assert qs == sorted(qs, reverse=True), qs


def test_the_line_estimate() -> None:
    m = PotModel.of("pro")
    assert m.line(0.0, 2) == pytest.approx(0.2)
    assert m.line(0.05, 2) > m.line(0.02, 2) > 0.0
    assert m.line(0.05, 0) == pytest.approx(m.line(0.05, 2) / 3.0)
    assert m.line(10.0, 2) == pytest.approx(1.0)
    assert m.line(m.line_sigma, 2) == pytest.approx(math.erf(1 / math.sqrt(2)))


def test_typical_chances_are_chances() -> None:
    for name in SKILLS:
        m = PotModel.of(name)
        for v in ("free", "combined", "moscow", "nevskaya", "dynamic", "classic71", "unknown"):
            assert 0.05 <= m.typical(v) <= 0.97


def test_a_noise_file_gets_the_fit_with_its_sigmas_or_a_scaled_one(tmp_path: Path) -> None:
    pro = load_noise("pro")
    assert pro is not None
    same = tmp_path / "same.toml"
    same.write_text(
        "[noise]\n" + "".join(f"{k} = {v!r}\n" for k, v in zip(("phi", "theta", "v", "a", "b"), pro.sigmas, strict=True))
    )
    assert PotModel.of(str(same)) is PotModel.of("pro")
    other = tmp_path / "steady.toml"
    phi = pro.phi * 1.5
    other.write_text(f"[noise]\nphi = {phi!r}\ntheta = 0.1\nv = 0.02\na = 0.005\nb = 0.005\n")
    m = PotModel.of(str(other))
    nearest = min(
        (f for f in fitted().values() if f.phi > 0), key=lambda f: abs(math.log(f.phi / phi))
    )
    assert m.scaled and m.phi == phi
    assert m.d50 == pytest.approx(nearest.d50 * nearest.phi / phi)
    assert m.line_sigma == pytest.approx(nearest.line_sigma * phi / nearest.phi)


def test_a_malformed_model_file_is_refused() -> None:
    with pytest.raises(PotModelError, match="d50"):
        parse_models({"pro": {"noise": {"phi": 1, "theta": 0, "v": 0, "a": 0, "b": 0}, "k": 2, "line_sigma": 0.1}})
    with pytest.raises(PotModelError, match="noise"):
        parse_models({"pro": {"d50": 1, "k": 2, "line_sigma": 0.1}})


def test_agents_read_the_preset_they_play_under() -> None:
    for name in ("pro", "amateur", "novice"):
        assert GreedyAgent(noise=name).model is PotModel.of(name)
        planner = PlannerAgent(budget=Allowance(budget_s=None, n_sims=10), noise=name)
        assert planner.model is PotModel.of(name)
        assert planner.valuation.model is planner.model
    assert GreedyAgent(noise="none").model is PotModel.of("none")
    assert PlannerAgent(budget=Allowance(budget_s=None, n_sims=10), noise="none").model is PotModel.of("none")
    assert parse_spec("greedy:noise=novice").build().model is PotModel.of("novice")


def test_the_turn_and_the_race_value_read_one_curve() -> None:
    pos = Position.from_balls("free", {"3": (0.9, 1.0), "5": (0.9, 2.0), "9": (0.3, 2.9)})
    view = GameView.for_position(pos)
    model = PotModel.of("amateur")
    ctx = Context(view, model=model)
    d = easiest_difficulty(pos, list(pos.ids))
    for mode in ("race", "turn"):
        val = Valuation(mode, model)
        assert val.next_chance(ctx, pos, None) == pytest.approx(model.chance(d))
    race = Valuation("race", model).race(ctx)
    assert race is not None and race.q == pytest.approx(model.typical("free"))


def test_the_compiled_surface_test_is_the_tables() -> None:
    # easiest_difficulty asks it of every ghost ball off the bed's rectangle:
    # points around every pocket's mouth and jaws, and some far off.
    import numpy as np

    from piramida.agents.shots.probability import on_surface_at, surface_arrays
    from piramida.env.table import Table

    t = Table.default()
    pk, cu = surface_arrays(t)
    rng = np.random.default_rng(3)
    points = [(float(x), float(y)) for x, y in rng.uniform(-0.1, 3.7, size=(2000, 2))]
    for p in t.pockets.values():
        cx, cy = p.mouth_centre
        points += [(float(x), float(y)) for x, y in rng.normal((cx, cy), 0.06, size=(3000, 2))]
        for j in p.jaws:  # on and near the circle a ball centre may not cross
            for a in rng.uniform(0, 2 * np.pi, 500):
                d = j.radius + t.ball_radius + float(rng.normal(0, 1e-4))
                points.append((j.centre[0] + d * float(np.cos(a)), j.centre[1] + d * float(np.sin(a))))
    points += [(float("nan"), 1.0), (1.0, float("inf"))]
    got = [on_surface_at(x, y, t.ball_radius, t.width, t.length, pk, cu) for x, y in points]
    want = [t.on_surface(x, y) for x, y in points]
    assert got == want
    assert 0.2 < sum(want) / len(want) < 0.9


def test_next_pots_found_together_are_the_ones_found_alone() -> None:
    # NextPots (a decision's feature vectors) asks easiest_difficulties once
    # for every candidate; the floats must be easiest_difficulty's, balls
    # that are not on the table and an empty table included.
    import json

    from piramida.agents.shots.probability import easiest_difficulties

    ref = Path(__file__).resolve().parents[2] / "bench" / "positions" / "reference.jsonl"
    rows = [json.loads(line) for line in ref.read_text().splitlines()[:60] if line.strip()]
    items = []
    for r in rows:
        pos = Position.from_dict(r["position"])
        items += [(pos, b) for b in pos.ids[:3]] + [(pos, "nope")]
    items.append((items[0][0].replace(balls=()), "0"))
    want = [easiest_difficulty(pos, [b]) for pos, b in items]
    assert easiest_difficulties(items) == want
    assert sum(d is not None for d in want) > len(items) // 2
    assert easiest_difficulties([]) == []


def test_the_easiest_difficulty_is_the_easiest_of_the_lines_pot_lines_finds() -> None:
    # The kernel skips the path tests of a line that cannot beat the best
    # so far: the minimum must still be the one over every open line that
    # ghost.pot_lines (Python, another implementation) lists. From the
    # reference and the played positions, every ball as the struck one and
    # all of them at once (free pyramid's next chance).
    import json

    from piramida.agents.shots.ghost import pot_lines

    root = Path(__file__).resolve().parents[2] / "bench" / "positions"
    checked = found = 0
    for name in ("reference.jsonl", "played.jsonl"):
        for line in (root / name).read_text().splitlines()[::3]:
            if not line.strip():
                continue
            pos = Position.from_dict(json.loads(line)["position"])
            each = {s: min((ln.difficulty for ln in pot_lines(pos, s)), default=None) for s in pos.ids}
            for struck in [[s] for s in pos.ids[:4]] + [list(pos.ids)]:
                got = easiest_difficulty(pos, struck)
                options = [each[s] for s in struck if each[s] is not None]
                want = min(options) if options else None
                assert (got is None) == (want is None), (pos.to_text(), struck)
                if got is not None:
                    assert got == pytest.approx(want, rel=1e-9)
                    found += 1
                checked += 1
    assert checked > 500 and found > checked // 2
