"""``candidates(..., offer=...)``: the search told what its caller keeps
makes only that, and gives exactly ``offer.select`` of the whole search's
candidates (the same strokes, kinds and feature vectors, in order)."""

from __future__ import annotations

import importlib
from collections.abc import Sequence

import numpy as np
import pytest

from piramida.agents.policy_obs import OFFER
from piramida.agents.shots import GREEDY, PLANNER, WIDE, Candidate, candidates
from piramida.agents.shots.candidates import Offer
from piramida.env.position_sets import SETS, load_positions
from piramida.env.view import GameView

# The module, not the function the package exports under its name.
cand_mod = importlib.import_module("piramida.agents.shots.candidates")


def described(cands: Sequence[Candidate]) -> list[tuple[str, str, str, bytes]]:
    return [(c.shot.to_text(), c.kind, c.spin, np.asarray(c.features).tobytes()) for c in cands]


# The played set covers the same code on more decisions: make test-slow.
@pytest.mark.parametrize("positions", ["reference", pytest.param("played", marks=pytest.mark.slow)])
@pytest.mark.parametrize("offer", [OFFER, Offer(12, 3)], ids=["policy", "tight"])
def test_an_offer_gives_what_select_keeps_of_the_whole_search(positions: str, offer: Offer) -> None:
    cut = 0
    for r in load_positions(SETS[positions]):
        view = GameView.for_position(r["position"])
        for search in (WIDE, PLANNER, GREEDY):
            whole = candidates(view, "pro", search)
            got = candidates(GameView.for_position(r["position"]), "pro", search, offer=offer)
            assert described(got) == described(offer.select(whole)), r["position"].to_text()
            cut += len(whole) > offer.k
    # Not vacuous: decisions with more candidates than the offer keeps.
    assert cut >= 10


def test_a_variant_that_would_be_a_safety_keeps_the_search_going(monkeypatch: pytest.MonkeyPatch) -> None:
    # A free-pyramid decision whose search makes more than the offer keeps;
    # one of the variants it cuts is made a safety stroke as well. The
    # whole search adds that variant first (as a pot) and drops the safety,
    # which leaves room for one variant more: the offered search must not
    # count that safety and stop short.
    offer = Offer(24, 8)
    for r in load_positions(SETS["reference"]):
        pos = r["position"]
        if pos.variant != "free":
            continue
        whole = candidates(GameView.for_position(pos), "pro", WIDE)
        kept = {id(c) for c in offer.select(whole)}
        cut = [c for c in whole if c.kind == "pot" and c.score is None and id(c) not in kept]
        if len(cut) >= 2:
            break
    else:
        pytest.skip("no free-pyramid decision with two cut variants")
    twin = cut[0].shot
    real = cand_mod.safety_shots

    def with_twin(ctx, pairs, strokes):  # type: ignore[no-untyped-def]
        return [*real(ctx, pairs, strokes), (twin, "1")]

    monkeypatch.setattr(cand_mod, "safety_shots", with_twin)
    whole = candidates(GameView.for_position(pos), "pro", WIDE)
    assert not any(c.kind == "safety" and c.shot == twin for c in whole)  # the variant came first
    got = candidates(GameView.for_position(pos), "pro", WIDE, offer=offer)
    assert described(got) == described(offer.select(whole))
