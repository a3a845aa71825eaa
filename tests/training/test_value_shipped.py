"""The shipped value networks (models/*_value.pt, one a variant; docs/training.md, "The learned value"): a won
table is worth nearly 1 to the shooter and a lost one nearly 0, the files
say what made them, and the hybrid planner's decision is deterministic."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from piramida.env.position import Position

MODELS = Path(__file__).resolve().parents[2] / "models"
VARIANTS = ("free", "combined", "moscow", "nevskaya", "dynamic", "classic71", "five_ball")
SHIPPED = {v: MODELS / f"{v}_value.pt" for v in VARIANTS}
#: The variants played to 8 balls from the 15-ball pyramid, where the two
#: positions below are a won and a lost table.
PYRAMID = ("free", "combined", "moscow", "nevskaya", "dynamic")


def _position(variant: str, balls: dict[str, list[float]], shelves: list[list[str]], to_move: int = 0) -> Position:
    return Position.from_dict({
        "variant": variant, "balls": balls, "shelves": shelves, "score": [len(s) for s in shelves],
        "owed": [0, 0], "to_move": to_move, "in_hand": None, "break": False,
    })


def _win(model: object, pos: Position) -> float:
    from piramida.agents.planner_value import view_prior
    from piramida.agents.shots.probability import PotModel
    from piramida.agents.value_obs import encode_view
    from piramida.env.view import GameView

    view = GameView.for_position(pos)
    b, g = encode_view(view, view_prior(view, PotModel.of("pro")))
    return float(model.win(b[None], g[None])[0])  # type: ignore[attr-defined]


#: Seven balls on the shooter's shelf, one needed; ball 9 hangs in the jaws
#: of the rear-left corner, the cue ball straight behind it.
WON = {
    v: _position(v, {"0": [0.25, 3.30], "9": [0.06, 3.49], "10": [1.2, 1.0], "11": [1.5, 0.6],
                     "12": [0.9, 1.9], "13": [1.3, 2.8], "14": [0.4, 0.7], "15": [1.0, 0.3]},
                 [["1", "2", "3", "4", "5", "6", "7"], ["8"]])
    for v in PYRAMID
}
#: Nothing potted yet, the opponent needs one; the shooter's balls are
#: frozen to the cushions far from the pockets.
LOST = {
    v: _position(v, {"0": [0.8875, 0.7], "1": [0.035, 1.2], "2": [1.74, 2.4], "3": [0.035, 2.6],
                     "4": [1.74, 1.0], "5": [0.6, 3.515], "6": [1.2, 0.035], "7": [0.035, 0.8],
                     "8": [1.74, 2.9]},
                 [[], ["9", "10", "11", "12", "13", "14", "15"]])
    for v in PYRAMID
}


@pytest.mark.parametrize("variant", PYRAMID)
def test_a_won_table_is_worth_nearly_one_and_a_lost_one_nearly_nothing(variant: str) -> None:
    from piramida.agents.value_net import ValueModel

    model = ValueModel(SHIPPED[variant])
    assert model.variant == variant
    assert _win(model, WON[variant]) > 0.85
    assert _win(model, LOST[variant]) < 0.15


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_shipped_files_say_what_made_them_and_play_deterministically(variant: str) -> None:
    from piramida.agents.planner import Allowance, PlannerAgent
    from piramida.env.driver import FrameDriver

    data = torch.load(SHIPPED[variant], weights_only=True)
    assert data["format"] == "piramida-value" and data["variant"] == variant
    assert data["code_version"] and data["config"]["train"]["variant"] == variant
    assert data["config"]["report"]["positions"] > 1000
    assert SHIPPED[variant].stat().st_size < 1_000_000
    drv = FrameDriver(variant, "pro")
    drv.reset(11, 0)
    view = drv.view()
    agent = PlannerAgent(budget=Allowance(budget_s=None, n_sims=120), noise="pro", value=str(SHIPPED[variant]))
    agent.reset(3)
    first = agent.act(view)
    agent.reset(3)
    assert agent.act(view) == first


def test_every_shipped_file_has_a_card() -> None:
    cards = (MODELS / "README.md").read_text(encoding="utf-8")
    for f in sorted(MODELS.glob("*.pt")):
        # A file has its own card, or the card of its kind across variants
        # ("{variant}_policy.pt" covers moscow_policy.pt).
        kind = f.name.split("_")[-1]
        assert f"`{f.name}`" in cards or f"{{variant}}_{kind}" in cards, f.name
        assert f.stat().st_size < 1_000_000, f.name
