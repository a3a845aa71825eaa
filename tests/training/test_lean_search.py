"""The searches a policy may be offered (``policy_obs.SEARCHES``): the
planner's, the wide one (the shipped policies'),
and the lean one (``shots.LEAN``, docs/training.md "Environment speed").
A policy file or a training config names one, and what a policy then
offers its network is that search's candidates."""

from __future__ import annotations

from pathlib import Path

import torch

from piramida.agents.policy_obs import SEARCHES, options
from piramida.agents.shots import LEAN, PLANNER, WIDE
from piramida.env.position import Position
from piramida.env.view import GameView

# Free pyramid, any ball may be struck: more open pots than the lean
# search's four, so the two searches offer different options.
POS = Position.from_balls(
    "free", {"1": (0.5, 1.0), "2": (0.9, 2.6), "3": (0.3, 2.2), "4": (1.2, 0.8), "5": (0.7, 1.8), "6": (0.4, 3.0)}
)


def narrowed(small: object, large: object) -> set[str]:
    """The fields in which ``small`` looks at less than ``large``; every
    other field must be the same."""
    from dataclasses import fields

    out = set()
    for f in fields(small):  # type: ignore[arg-type]
        mine, theirs = getattr(small, f.name), getattr(large, f.name)
        if mine != theirs:
            assert mine < theirs, f.name
            out.add(f.name)
    return out


def test_the_searches_narrow_one_another() -> None:
    assert SEARCHES["lean"] is LEAN and SEARCHES["planner"] is PLANNER and SEARCHES["wide"] is WIDE
    assert narrowed(PLANNER, WIDE) == {"max_lines", "keep_pots", "spin_lines"}
    assert narrowed(LEAN, PLANNER) == {"banks"} and LEAN.banks == 0


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
    wide = [o.action for o in options(view, "pro", WIDE)]
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
    assert parse_spec(f"policy:path={path}:search=wide").build({}).search is WIDE
    with pytest.raises(PiramidaError, match="search") as err:
        parse_spec(f"policy:path={path}:search=widest")
    assert "\n" not in str(err.value)
