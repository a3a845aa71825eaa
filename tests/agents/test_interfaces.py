"""The agents' narrow interfaces: a planner is built from its ``Search``,
its sample value and its ``Allowance``; ``Plan`` and ``describe`` live in
agents/plans.py, so the planner and a policy do not import each other in
a circle; the referee's caching hooks are the toolbox's optional protocol
(agents/shots/referee_cache.py), and a referee without them gives the
same candidates and plans, every stroke judged in full."""

from __future__ import annotations

import ast
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from piramida.agents.planner import Allowance, PlannerAgent
from piramida.agents.shots import PLANNER, WIDE, candidates
from piramida.agents.shots.context import Context
from piramida.agents.shots.referee_cache import CachingReferee
from piramida.env.position import VARIANTS, Position
from piramida.env.rules import get_referee
from piramida.env.rules.base import Referee
from piramida.env.view import GameView

ROOT = Path(__file__).resolve().parents[2]
HOOKS = ("outcome_key", "start_near", "rested", "shape", "relabeled")


def _top_level_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_the_planner_and_a_policy_share_plans_without_importing_each_other() -> None:
    assert "piramida.agents.planner" not in _top_level_imports(ROOT / "agents/policy.py")
    assert "piramida.agents.policy" not in _top_level_imports(ROOT / "agents/planner.py")
    assert "piramida.agents.planner" not in _top_level_imports(ROOT / "agents/plans.py")
    assert "piramida.agents.policy" not in _top_level_imports(ROOT / "agents/plans.py")


def test_a_planner_is_its_search_value_and_allowance() -> None:
    planner = PlannerAgent(replace(WIDE, book=False), "turn", Allowance(budget_s=None, n_sims=50, n_samples=16))
    assert planner.search == replace(WIDE, book=False) and planner.valuation.mode == "turn"
    assert (planner.budget_s, planner.n_sims, planner.n_samples) == (None, 50, 16)
    # The flat options of an agent spec: a named search and its fields.
    flat = PlannerAgent.of(budget_s=None, n_sims=50, n_samples=16, value="turn", search="wide", book=False)
    assert flat.search == planner.search and flat.budget == planner.budget
    assert PlannerAgent().search == PLANNER and PlannerAgent().budget == Allowance()


def test_the_referee_protocol_leaves_the_caching_hooks_to_the_toolbox() -> None:
    for name in HOOKS:
        assert not hasattr(Referee, name) and hasattr(CachingReferee, name)
    for variant in VARIANTS:
        assert isinstance(get_referee(variant), CachingReferee)


class PlainReferee:
    """A variant's referee without the caching hooks."""

    def __init__(self, referee: Any) -> None:
        self.inner = referee

    def __getattr__(self, name: str) -> Any:
        if name in HOOKS or name == "keys_by_pockets":
            raise AttributeError(name)
        return getattr(self.inner, name)


def _views() -> list[GameView]:
    """The first non-break reference position of each variant."""
    seen: dict[str, GameView] = {}
    for line in (ROOT / "bench/positions/reference.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            pos = Position.from_dict(json.loads(line)["position"])
            if not pos.is_break and pos.variant not in seen:
                seen[pos.variant] = GameView.for_position(pos)
    return list(seen.values())


def _plain(view: GameView) -> GameView:
    return replace(view, referee=PlainReferee(view.referee))


def test_a_referee_without_the_hooks_gives_the_same_candidates() -> None:
    for view in _views():
        plain = _plain(view)
        assert Context(plain).cache is None and Context(view).cache is not None
        want = [(c.shot, c.kind, list(c.features)) for c in candidates(view, "pro", PLANNER)]
        got = [(c.shot, c.kind, list(c.features)) for c in candidates(plain, "pro", PLANNER)]
        assert got == want, view.variant


def test_a_referee_without_the_hooks_gives_the_same_plans() -> None:
    view = next(v for v in _views() if v.variant == "combined")

    def plans(v: GameView) -> list[tuple[Any, ...]]:
        planner = PlannerAgent(budget=Allowance(budget_s=None, n_sims=300), seed=1)
        return [(p.shot, p.samples, p.p_pot, p.p_foul, p.value, p.description) for p in planner.plan(v, top=3)]

    assert plans(_plain(view)) == plans(view)
