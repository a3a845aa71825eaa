"""Item 20 (legal completion) read from the log as numbers (env/events.py).

``pyramid.completes`` answers the same question from Event objects. A
search asks it of every stroke that pockets nothing (``outcome_key``), so
here it runs compiled, on the records the physics wrote, without making
the events: the same automaton, the same notes 3 and 4, the same answer
(tests/env/rules/test_completion.py compares the two on strokes of every
variant).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from piramida.env.kernel_cache import EVENTS, drop_stale

drop_stale(Path(__file__).resolve().parent, (EVENTS,))  # before the kernel loads from the cache

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from piramida.env.events import BALL_BALL, CENTRE_LINE, CUSHION, POCKET  # noqa: E402
from piramida.env.rules.pyramid import CUSHION_HALF  # noqa: E402
from piramida.env.table import CUSHIONS, Table  # noqa: E402

XY = tuple[float, float]

#: Halves as numbers: a ball's centre on the centre line, in front of it, behind it.
ON, FRONT, REAR = 0, 1, 2
#: The half of each cushion, in CUSHIONS order.
CUSHION_HALVES = np.array([FRONT if CUSHION_HALF[c] == "front" else REAR for c in CUSHIONS], dtype=np.int64)


class Start:
    """What the automaton needs of where a stroke starts, per ball of the
    records' ids: its half (``ON``, ``FRONT``, ``REAR``) and the cushion
    it is frozen to (index in CUSHIONS, -1: none). Made once for a
    decision's strokes of one ball and placement."""

    __slots__ = ("ids", "half", "frozen")

    def __init__(self, ids: tuple[str, ...], start: Mapping[str, XY], frozen: Mapping[str, str], table: Table) -> None:
        mid = table.centre_line
        self.ids = ids
        self.half = np.array(
            [ON if start[b][1] == mid else (FRONT if start[b][1] < mid else REAR) for b in ids], dtype=np.int64
        )
        self.frozen = np.array([CUSHIONS.index(frozen[b]) if b in frozen else -1 for b in ids], dtype=np.int64)


def completes_records(records: np.ndarray, start: Start, cue: str, declare_frozen: str | None) -> bool:
    """``pyramid.completes`` of the stroke whose log is ``records`` (rows
    indexing ``start.ids``), struck ball ``cue``."""
    ids = start.ids
    declare = ids.index(declare_frozen) if declare_frozen is not None and declare_frozen in ids else -1
    return bool(_completes(records, ids.index(cue), start.half, start.frozen, CUSHION_HALVES, declare))


@njit(cache=True, error_model="numpy")
def _completes(rec, cue, half0, frozen, cushion_half, declare):  # pragma: no cover - compiled
    n = rec.shape[0]
    contact = -1
    first = -1
    for q in range(n):
        if rec[q, 0] == BALL_BALL:
            i, j = int(rec[q, 2]), int(rec[q, 3])
            if i == cue:
                contact, first = q, j
                break
            if j == cue:
                contact, first = q, i
                break
    if contact < 0:
        return False
    nb = half0.shape[0]
    half = half0.copy()
    cushions = np.zeros(nb, dtype=np.int64)  # bit c: rebounded from cushion c
    crossed = np.zeros(nb, dtype=np.bool_)
    drv_cushions = np.zeros(nb, dtype=np.int64)
    drv_crossed = np.zeros(nb, dtype=np.bool_)
    touched = np.zeros(nb, dtype=np.bool_)
    touched[cue] = True
    touched[first] = True
    if declare >= 0 and first == declare and frozen[declare] >= 0:
        cushions[cue] |= 1 << frozen[declare]  # note 2
    for q in range(n):
        typ = rec[q, 0]
        after = q > contact
        if typ == CENTRE_LINE:
            b = int(rec[q, 2])
            was = half[b]
            half[b] = REAR if rec[q, 4] > 0 else FRONT
            if was == ON:
                continue  # note 3
            if after:
                if cushions[b] != 0 or drv_cushions[b] != 0:
                    return True
                crossed[b] = True
        elif typ == CUSHION:
            b = int(rec[q, 2])
            c = int(rec[q, 4])
            side = cushion_half[c]
            if half[b] != ON and half[b] != side:
                # Note 4: a cushion of the other half crosses the line first.
                half[b] = side
                if after:
                    if cushions[b] != 0 or drv_cushions[b] != 0:
                        return True
                    crossed[b] = True
            if after:
                other = ~(1 << c)
                if cushions[b] & other or crossed[b] or drv_cushions[b] & other or drv_crossed[b]:
                    return True
                cushions[b] |= 1 << c
        elif after and typ == POCKET:
            return True
        elif after and typ == BALL_BALL:
            x, y = int(rec[q, 2]), int(rec[q, 3])
            for k in range(2):
                mover, hit = (x, y) if k == 0 else (y, x)
                f = frozen[hit]
                if f >= 0 and not touched[hit]:
                    if cushions[mover] & ~(1 << f) or crossed[mover]:
                        return True
            for k in range(2):
                mover, hit = (x, y) if k == 0 else (y, x)
                if cushions[mover] != 0:
                    drv_cushions[hit] |= cushions[mover]
                if crossed[mover]:
                    drv_crossed[hit] = True
            touched[x] = True
            touched[y] = True
    return False


__all__ = ["CUSHION_HALVES", "Start", "completes_records"]
