"""Errors of the piramida world. All subclass ValueError (docs/design.md §2).

Messages say what is wrong and, where there is one, include the offending
position's text form so a user can paste it back.
"""

from __future__ import annotations


class PiramidaError(ValueError):
    """Base class: bad input that the user can fix."""


class InvalidTableError(PiramidaError):
    """A table config file is missing, malformed, or has a bad or missing key."""


class InvalidPositionError(PiramidaError):
    """A position is malformed: overlapping balls, off the table, unknown ids, NaN."""


class InvalidShotError(PiramidaError):
    """A shot is malformed: NaN, speed out of range, miscue offsets, bad text."""


class IllegalShotError(PiramidaError):
    """A well-formed shot that the rules do not allow in this position."""


class InvalidEventsError(PiramidaError):
    """An event log is malformed: unknown type, bad fields, out of time order."""


class UnknownVariantError(PiramidaError):
    """A variant name that piramida does not know."""


class NotFoundError(PiramidaError):
    """Something named that is not there: a game, a results file (the web
    API answers it with HTTP 404)."""
