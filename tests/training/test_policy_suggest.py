"""``piramida suggest --agent policy:path=FILE`` (and the web API's suggest):
a policy ranks shots by its network's probabilities (``PolicyAgent.plan``),
the first being what it plays, and the output says these are not sampled
rates. The policy file is a freshly initialised network, saved as
``piramida export`` saves one."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import torch
from typer.testing import CliRunner

from piramida.cli import app
from piramida.env.position import Position
from piramida.env.view import GameView

runner = CliRunner()
POS = Position.from_balls(
    "free", {"1": (0.5, 1.0), "2": (0.9, 2.6), "3": (0.3, 2.2), "4": (1.2, 0.8), "5": (0.7, 1.8)}
)


@pytest.fixture
def policy_file(tmp_path: Path) -> Path:
    from piramida.agents.policy import save_policy
    from piramida.agents.policy_net import build_net, net_config

    torch.manual_seed(3)
    net = build_net({"hidden": 8})
    meta = {"code_version": "test", "variant": "free", "noise": "pro", "search": "greedy",
            "net": net_config({"hidden": 8}), "config": ""}
    path = tmp_path / "p.pt"
    save_policy(path, net.state_dict(), meta)
    return path


def test_suggest_ranks_by_the_policy_and_its_first_shot_is_what_it_plays(policy_file: Path) -> None:
    from piramida.agents.specs import parse_spec

    spec = f"policy:path={policy_file}"
    res = runner.invoke(app, ["suggest", "--position", POS.to_text(), "--agent", spec, "--top", "3", "--json"])
    assert res.exit_code == 0, res.output
    shots = json.loads(res.stdout)["shots"]
    assert len(shots) == 3
    for s in shots:
        assert list(s) == ["shot", "rounded", "value", "value_text", "samples", "p_pot", "p_pot_interval",
                           "p_foul", "p_foul_interval", "expected_points", "description", "basis",
                           "policy_probability"]
        assert s["value"] == s["policy_probability"] and s["p_pot_interval"] is None
        assert s["basis"] == "policy" and 0.0 < s["policy_probability"] <= 1.0
        assert s["p_foul"] in (0.0, 1.0) and s["description"]
    probs = [s["policy_probability"] for s in shots]
    assert probs == sorted(probs, reverse=True)

    agent = parse_spec(spec).build()
    view = GameView.for_position(POS)
    played = agent.act(view)
    assert shots[0]["shot"] == played.to_text()
    plans = agent.plan(view, top=3)
    assert [p.shot for p in plans] == [agent.act(view), *[p.shot for p in plans[1:]]]
    assert all(p.samples == 0 and p.basis == "policy" for p in plans)

    text = runner.invoke(app, ["suggest", "--position", POS.to_text(), "--agent", spec, "--top", "3"])
    assert text.exit_code == 0, text.output
    first = text.stdout.splitlines()[0]
    assert "policy's probability" in first and "no samples" in first
    assert not re.search(r"\d+ samples", text.stdout) and text.stdout.count("policy ") >= 3


def test_the_web_api_suggests_with_a_policy(policy_file: Path) -> None:
    from piramida.web.api import suggest
    from piramida.web.guard import ForbiddenAgentError

    # The page names a shipped model; any other file is refused (web/guard.py).
    out = suggest({"position": POS.to_text(), "agent": "policy:path=free_policy", "top": 2})
    assert len(out["shots"]) == 2 and all(s["basis"] == "policy" for s in out["shots"])
    assert [d["samples"] for d in out["draw"]] == [0, 0]
    with pytest.raises(ForbiddenAgentError, match="shipped models"):
        suggest({"position": POS.to_text(), "agent": f"policy:path={policy_file}", "top": 2})


def test_a_policy_refuses_another_variant() -> None:
    from piramida.agents.specs import parse_spec
    from piramida.env.errors import PiramidaError
    from piramida.env.game import Game
    from piramida.env.view import GameView

    agent = parse_spec("policy:path=models/free_policy.pt").build()
    view = GameView.of(Game.new("combined", seed=1))
    with pytest.raises(PiramidaError, match="trained for free, not combined"):
        agent.act(view)
