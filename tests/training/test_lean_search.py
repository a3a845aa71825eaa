"""The lean search (``shots.LEAN``, docs/training.md "Environment speed"):
a policy file or a training config may name it, and what a policy then
offers its network is the lean search's candidates, not the planner's."""

from __future__ import annotations

from pathlib import Path

import torch

from piramida.agents.policy_obs import SEARCHES, options
from piramida.agents.shots import LEAN, PLANNER
from piramida.env.position import Position
from piramida.env.view import GameView

# Free pyramid, any ball may be struck: more open pots than the lean
# search's four, so the two searches offer different options.
POS = Position.from_balls(
    "free", {"1": (0.5, 1.0), "2": (0.9, 2.6), "3": (0.3, 2.2), "4": (1.2, 0.8), "5": (0.7, 1.8), "6": (0.4, 3.0)}
)


def test_lean_is_the_planners_search_narrowed() -> None:
    from dataclasses import fields

    assert SEARCHES["lean"] is LEAN and SEARCHES["planner"] is PLANNER
    narrowed = ("max_lines", "keep_pots", "spin_lines", "banks")
    for f in fields(LEAN):
        mine, planners = getattr(LEAN, f.name), getattr(PLANNER, f.name)
        if f.name in narrowed:
            assert mine < planners, f.name
        else:
            assert mine == planners, f.name


def test_every_search_can_be_named_in_a_policy_spec() -> None:
    """The spec keeps its own list of names (parsing a spec imports no
    search): it must be ``SEARCHES``'s."""
    from piramida.agents.specs import KEYS

    for name in SEARCHES:
        assert KEYS["policy"]["search"].parse(name, "policy:search") == name


def test_a_lean_policy_ranks_the_lean_candidates(tmp_path: Path) -> None:
    from piramida.agents.policy import PolicyAgent, save_policy
    from piramida.agents.policy_net import build_net, net_config

    torch.manual_seed(4)
    meta = {"code_version": "test", "variant": "free", "noise": "pro", "search": "lean",
            "net": net_config({"hidden": 8}), "config": ""}
    path = tmp_path / "lean.pt"
    save_policy(path, build_net({"hidden": 8}).state_dict(), meta)
    view = GameView.for_position(POS)
    lean = [o.action for o in options(view, "pro", LEAN)]
    wide = [o.action for o in options(view, "pro", PLANNER)]
    assert len(lean) < len(wide) and set(lean) != set(wide)
    plans = PolicyAgent(path).plan(view, top=len(wide))
    assert sorted(map(str, (p.shot for p in plans))) == sorted(map(str, lean))


def test_a_spec_plays_a_policy_on_another_search(tmp_path: Path) -> None:
    import pytest

    from piramida.agents.policy import save_policy
    from piramida.agents.policy_net import build_net, net_config
    from piramida.agents.specs import parse_spec
    from piramida.env.errors import PiramidaError

    meta = {"code_version": "test", "variant": "free", "noise": "pro", "search": "planner",
            "net": net_config({"hidden": 8}), "config": ""}
    path = tmp_path / "wide.pt"
    save_policy(path, build_net({"hidden": 8}).state_dict(), meta)
    assert parse_spec(f"policy:path={path}").build({}).search is PLANNER
    assert parse_spec(f"policy:path={path}:search=lean").build({}).search is LEAN
    with pytest.raises(PiramidaError, match="search") as err:
        parse_spec(f"policy:path={path}:search=wide")
    assert "\n" not in str(err.value)
