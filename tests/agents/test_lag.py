"""The lag (docs/game_rules.md §4.1, item 7; docs/rules.md "Lag"): every built-in
agent plays a legal lag from its own half of the house, and every ordered
pair of them gets through the lag to the break, in free pyramid and five
balls."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from piramida.agents import AGENTS, make_agent
from piramida.agents.random_agent import random_lag_shot
from piramida.cli import app
from piramida.env.game import Game
from piramida.env.position import VARIANTS
from piramida.env.view import GameView

runner = CliRunner()


#: The shipped free-pyramid policy (a policy plays only its own variant).
POLICY = Path(__file__).resolve().parents[2] / "models" / "free_policy.pt"


def agent(name: str, seed: int) -> object:
    kw: dict[str, object] = {"budget_s": None, "n_sims": 50} if name == "planner" else {}
    if name == "policy":
        kw = {"path": str(POLICY)}
    return make_agent(name, seed=seed, **kw)


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_lag_shots_are_legal_for_both_players(variant: str) -> None:
    game = Game.new(variant, seed=0, lag=True)
    rng = random.Random(1)
    for player in (0, 1):
        for _ in range(50):
            shot = random_lag_shot(variant, player, game.referee.table, rng)
            game._check_lag_shot(game._lag_position().replace(to_move=player), shot)


@pytest.mark.parametrize("variant", ["free", "five_ball"])
@pytest.mark.parametrize(("a", "b"), list(itertools.product(sorted(AGENTS), repeat=2)))
def test_every_pair_of_agents_lags_to_the_break(variant: str, a: str, b: str) -> None:
    if "policy" in (a, b) and variant != "free":
        pytest.skip("the shipped policies are for free and combined pyramid; a policy refuses other variants")
    game = Game.new(variant, seed=3, options={"lag": "true"})
    players = [agent(a, 10), agent(b, 11)]
    lag_shots = 0
    broke = False
    for _ in range(200):
        view = GameView.of(game)
        action = players[view.player].act(view)  # type: ignore[attr-defined]
        if isinstance(action, str):
            assert action in view.choices
            game.choose(action)
            continue
        game.check_shot(action)
        if view.kind == "lag":
            # Each from his own half of the house (item 7.1).
            assert action.place is not None and game.referee.table.in_house(*action.place)
            assert (action.place[0] > game.referee.table.width / 2) == (view.player == 1)
            lag_shots += 1
        game.play(action)
        if view.kind == "shot":
            broke = True
            break
    assert lag_shots >= 2 and broke
    assert game.shots == lag_shots + 1


def test_play_command_with_the_lag() -> None:
    res = runner.invoke(
        app, ["play", "--variant", "free", "--agents", "random,random", "--option", "lag=true", "--max-shots", "8"]
    )
    assert res.exit_code == 0, res.output
    assert "lag shot" in res.output
