"""``bench.candidates --digest [--search NAME]``: the digest is over the
named search's candidates and greedy's, so a search's candidates can be
checked unchanged under its own name (the wide search has its own
digests)."""

from __future__ import annotations

from bench.candidates import digest
from piramida.agents.shots import GREEDY, SEARCHES, candidates
from piramida.env.position_sets import SETS, load_positions
from piramida.env.view import GameView


def count(search: str, limit: int) -> int:
    views = [GameView.for_position(r["position"]) for r in load_positions(SETS["reference"])[:limit]]
    hows = (SEARCHES[search], GREEDY) if search != "greedy" else (GREEDY,)
    return sum(len(candidates(v, "pro", how)) for v in views for how in hows)


def test_the_digest_is_over_the_named_search() -> None:
    got = {name: digest(limit=4, search=name) for name in ("planner", "wide", "greedy")}
    for name, d in got.items():
        assert d["candidates"] == count(name, 4), name
    assert "search" not in got["planner"] and got["wide"]["search"] == "wide"
    assert len({d["sha256"] for d in got.values()}) == 3
    assert got["wide"]["candidates"] > got["planner"]["candidates"] > got["greedy"]["candidates"]
    assert digest(limit=4, search="wide") == got["wide"]
