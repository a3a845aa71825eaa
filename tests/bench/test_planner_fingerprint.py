"""``bench.planner compare --search``: for a position whose best shot
changed, whether the shot chosen before is still among the search's
candidates (how many decisions changed, and why)."""

from __future__ import annotations

from bench.planner import fingerprint_positions, still_offered
from piramida.agents.shots import PLANNER, WIDE, candidates
from piramida.env.view import GameView


def row(index: int, variant: str, shot: str) -> dict:
    return {"index": index, "variant": variant, "plans": [{"shot": shot, "kind": "pot", "value": 0.5}]}


def test_a_changed_choice_is_told_apart_by_whether_the_search_still_offers_it() -> None:
    # The first free-pyramid position: the wide search offers shots the
    # planner's narrower one does not.
    i, pos = next((i, p) for i, p in fingerprint_positions(5) if p.variant == "free")
    wide = [c.shot.to_text() for c in candidates(GameView.for_position(pos), "pro", WIDE)]
    narrow = {c.shot.to_text() for c in candidates(GameView.for_position(pos), "pro", PLANNER)}
    dropped = next(s for s in wide if s not in narrow)
    kept = sorted(narrow)
    before = {"noise": "pro", "per_variant": 5, "planner": [row(i, "free", dropped)]}
    after = {"noise": "pro", "per_variant": 5, "planner": [row(i, "free", kept[0])]}
    [got] = still_offered(before, after, "planner")
    assert got["index"] == i and got["before_still_offered"] is False and got["after"]["shot"] == kept[0]
    before["planner"] = [row(i, "free", kept[1])]
    assert still_offered(before, after, "planner")[0]["before_still_offered"] is True
    assert still_offered(before, before, "planner") == []
