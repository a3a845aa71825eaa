"""The match runner: reproducible for a seed, duplicate pairs share racks
and noise, draws at the shot cap, the CLI's JSON and its bad input."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from piramida.cli import app
from piramida.env.driver import noise_rng, rack_seed
from piramida.env.errors import PiramidaError
from piramida.env.shot import Shot
from piramida.eval.match import MatchError, run_match

runner = CliRunner()


def test_same_seed_same_result_other_seed_other_racks() -> None:
    a = run_match("free", ["random", "random"], 4, seed=7, noise="pro", max_shots=25)
    b = run_match("free", ["random", "random"], 4, seed=7, noise="pro", max_shots=25)
    assert a.to_dict() == b.to_dict()
    assert [f.to_dict() for f in a.frames] == [f.to_dict() for f in b.frames]
    assert rack_seed(7, 0) != rack_seed(8, 0)
    assert rack_seed(7, 0) != rack_seed(7, 1)


def test_duplicate_pairs_share_rack_and_noise_with_seats_swapped() -> None:
    # Two random agents seeded by seat: with the same rack and the same
    # noise streams per seat, the two games of a pair are the same frame
    # with the agents' roles exchanged.
    r = run_match("free", ["random", "random"], 4, seed=3, noise="amateur", max_shots=30)
    for k in (0, 2):
        g0, g1 = r.frames[k], r.frames[k + 1]
        assert g0.seats == (0, 1) and g1.seats == (1, 0)
        assert g0.rack == g1.rack
        assert g0.shots == g1.shots
        assert g0.score == g1.score[::-1]
        assert g0.fouls == g1.fouls[::-1]
    # Different pairs get different racks.
    assert r.frames[0].rack != r.frames[2].rack


def test_noise_streams_are_keyed_by_pair_seat_and_shot() -> None:
    draw = [
        noise_rng(1, p, s, n).standard_normal()
        for p, s, n in ((0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0))
    ]
    assert len(set(draw)) == 4
    assert noise_rng(1, 0, 0, 0).standard_normal() == draw[0]
    assert noise_rng(2, 0, 0, 0).standard_normal() != draw[0]


def test_capped_frames_are_draws_worth_half() -> None:
    r = run_match("free", ["random", "random"], 2, seed=1, max_shots=3)
    assert r.draws == 2
    assert r.wins == [1.0, 1.0]
    assert all(f.capped and f.shots == 3 for f in r.frames)


def test_frames_won_breaking_count_each_agents_own_breaks() -> None:
    r = run_match("free", ["random", "random"], 4, seed=3, noise="amateur", max_shots=30)
    for f in r.frames:
        # The first shot of a frame is its break, by the seat the rack
        # seed picked; in a duplicate pair the same seat breaks.
        assert f.breaker in (0, 1)
    assert r.frames[0].breaker == 1 - r.frames[1].breaker
    for i in (0, 1):
        broke = [f for f in r.frames if f.breaker == i]
        want = sum(1.0 if f.winner == i else 0.5 if f.winner is None else 0.0 for f in broke) / len(broke)
        assert r.won_breaking(i) == pytest.approx(want)
        assert r.to_dict()["won_breaking"][i] == pytest.approx(want)


def test_a_combined_svoyak_ball_counts_for_the_shooter() -> None:
    # The ball a свояк earns in combined pyramid is taken from the table after
    # the shot (docs/game_rules.md §5.2); the runner credits it to the shot: a break
    # that sends the coloured ball in off the rack is a break that pots.
    from piramida.env.game import Game
    from piramida.env.physics import simulate
    from piramida.eval.match import play_frame

    # A break that sends the coloured ball in off the rack's right base
    # corner without noise (found by a small grid search; the rack's labels
    # do not change the physics, so any combined rack will do).
    shot = Shot("0", 90.78575, 4.5, b=0.45, place=(1.0875, 0.8075))

    class Breaker:
        def reset(self, seed: int | None = None) -> None:
            pass

        def act(self, view: object) -> object:
            return shot

    pair = 0
    rack = Game.new("combined", seed=rack_seed(5, pair)).position
    assert any(b == "0" for b, _ in simulate(rack, shot).pocketed), "the stroke no longer makes a свояк"
    rec = play_frame("combined", [Breaker(), Breaker()], seed=5, pair=pair, swap=False, noise=None, max_shots=1)
    assert rec.breaker is not None
    assert rec.balls[rec.breaker] == 1 and rec.breaks_potting[rec.breaker] == 1


def test_greedy_beats_random_in_a_short_match() -> None:
    r = run_match("free", ["greedy", "random"], 2, seed=2, noise="pro", max_shots=200)
    d = r.to_dict()
    assert d["wins"][0] > d["wins"][1]
    assert d["balls_per_visit"][0] > d["balls_per_visit"][1]


@pytest.mark.parametrize(
    ("variant", "agents", "games"),
    [
        ("nope", ["random", "random"], 2),
        ("free", ["random", "nobody"], 2),
        ("free", ["random", "random"], 0),
    ],
)
def test_bad_parameters(variant: str, agents: list[str], games: int) -> None:
    with pytest.raises(PiramidaError):  # MatchError, or the spec's AgentSpecError
        run_match(variant, agents, games)


def test_cli_json_keys_in_agent_order() -> None:
    res = runner.invoke(
        app,
        [
            "match",
            "--variant",
            "free",
            "--agents",
            "random,greedy",
            "--games",
            "2",
            "--seed",
            "4",
            "--max-shots",
            "30",
            "--json",
            "--no-progress",
        ],
    )
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    for key in ("games", "wins", "win_rate", "ci95", "balls_per_visit", "fouls_per_frame", "draws"):
        assert key in d
    assert d["games"] == 2 and d["agents"] == ["random", "greedy"]
    assert sum(d["wins"]) == pytest.approx(2.0)
    for (lo, hi), rate in zip(d["ci95"], d["win_rate"], strict=True):
        assert 0 <= lo <= rate <= hi <= 1


@pytest.mark.parametrize(
    "args",
    [
        ["--agents", "random,nobody"],
        ["--variant", "snooker"],
        ["--games", "0"],
        ["--agents", "random"],
        ["--noise", "wobbly"],
    ],
)
def test_cli_bad_input_is_one_line_exit_2(args: list[str]) -> None:
    res = runner.invoke(app, ["match", "--no-progress", *args])
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    assert len(res.stderr.strip().splitlines()) == 1


def test_cli_passes_the_planner_its_budget_and_every_agent_the_match_noise(monkeypatch: pytest.MonkeyPatch) -> None:
    import piramida.eval.match as m

    seen: dict = {}

    def fake_run_match(variant, agents, games, **kw):  # type: ignore[no-untyped-def]
        seen.update(kw)
        raise MatchError("stop here")

    monkeypatch.setattr(m, "run_match", fake_run_match)
    res = runner.invoke(app, ["match", "--agents", "planner,greedy", "--sims", "40", "--noise", "amateur"])
    assert res.exit_code == 2
    # Greedy plays for the match's noise too (its pot-probability model).
    assert seen["agent_kwargs"] == [{"budget_s": None, "n_sims": 40, "noise": "amateur"}, {"noise": "amateur"}]
    seen.clear()
    runner.invoke(app, ["match", "--agents", "random,greedy", "--noise", "novice"])
    assert seen["agent_kwargs"] == [{}, {"noise": "novice"}]
    seen.clear()
    runner.invoke(app, ["match", "--agents", "greedy,planner", "--budget", "250ms"])
    assert seen["agent_kwargs"][1]["budget_s"] == pytest.approx(0.25)
    assert seen["agent_kwargs"][0] == {"noise": "pro"}  # the default of every command that plays games
