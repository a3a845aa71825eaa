"""Referees: shared pyramid rules and one module per variant (docs/design.md §4).

Reads events; never imports physics. ``get_referee(variant, options)``
returns the variant's referee (see ``base.Referee``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from piramida.env.rules.base import Referee
    from piramida.env.table import Table


def get_referee(variant: str, options: Mapping[str, Any] | None = None, table: Table | None = None) -> Referee:
    from piramida.env.rules.base import get_referee as _get

    return _get(variant, options, table)


__all__ = ["get_referee"]
