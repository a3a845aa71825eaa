"""piramida.agents: the Agent protocol and the agents (docs/design.md §6).

``make_agent(name, **kw)`` builds an agent by name: ``random``, ``greedy``, ``planner``,
``policy`` (a trained network, agents/policy.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from piramida.env.errors import PiramidaError


class UnknownAgentError(PiramidaError):
    """An agent name that is not registered."""


def _random(**kw: Any) -> Any:
    from piramida.agents.random_agent import RandomAgent

    return RandomAgent(**kw)


def _greedy(**kw: Any) -> Any:
    from piramida.agents.greedy import GreedyAgent

    return GreedyAgent(**kw)


def _planner(**kw: Any) -> Any:
    from piramida.agents.planner import PlannerAgent

    return PlannerAgent.of(**kw)


def _policy(**kw: Any) -> Any:
    from piramida.agents.policy import PolicyAgent

    return PolicyAgent(**kw)


#: Agent name -> factory; factories import lazily so that listing is cheap
#: (``policy`` loads torch only when one is built).
AGENTS: dict[str, Callable[..., Any]] = {
    "random": _random,
    "greedy": _greedy,
    "planner": _planner,
    "policy": _policy,
}


def make_agent(name: str, **kw: Any) -> Any:
    """A new agent ``name`` (keyword arguments go to its constructor, e.g.
    ``seed``)."""
    factory = AGENTS.get(name)
    if factory is None:
        raise UnknownAgentError(f"unknown agent {name!r}; known: {', '.join(sorted(AGENTS))}")
    return factory(**kw)


__all__ = ["AGENTS", "UnknownAgentError", "make_agent"]
