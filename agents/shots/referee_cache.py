"""What the toolbox's caches need of a referee beyond ``Referee``.

A search judges dozens of strokes a decision that end alike, and a
planner's noisy samples of one stroke thousands. A referee that also
implements ``CachingReferee`` lets ``Context`` judge each outcome once:
it summarises a stroke's outcome (``outcome_key``), makes the ruling of a
stroke from a legal one of the same key (``rested``) or of the same shape
(``shape``, ``relabeled``), and says which balls start beside the struck
one (``start_near``, the push test). The contracts are the referee's
(env/rules/base.py ``BaseReferee``, which every variant's referee builds
on); tests/env/rules/test_outcome_key.py checks them against full rulings.

A referee without these methods is still a referee: ``caching`` answers
None, and every stroke is judged in full.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from piramida.env.position import Position
from piramida.env.rules.base import Outcome, Referee
from piramida.env.rules.ruling import Ruling
from piramida.env.shot import Shot

XY = tuple[float, float]


@runtime_checkable
class CachingReferee(Protocol):
    """The referee's hooks for judging a decision's strokes by outcome."""

    def outcome_key(self, before: Position, shot: Shot, outcome: Outcome) -> tuple[Any, ...] | None: ...

    def start_near(
        self, before: Position, shot: Shot
    ) -> tuple[dict[str, XY], list[tuple[str, float, float]], dict[str, str]]: ...

    def rested(self, ruling: Ruling, after: Position) -> Ruling: ...

    def shape(self, before: Position, key: tuple[Any, ...]) -> tuple[tuple[Any, ...], tuple[str, ...]] | None: ...

    def relabeled(self, ruling: Ruling, old: tuple[str, ...], new: tuple[str, ...], after: Position) -> Ruling: ...


def caching(referee: Referee) -> CachingReferee | None:
    """``referee`` as a ``CachingReferee``, or None where it is not one."""
    return referee if isinstance(referee, CachingReferee) else None


__all__ = ["CachingReferee", "caching"]
