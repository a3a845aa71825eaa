"""The chance of winning the frame from a score and a next-shot pot chance.

In the games scored by balls (free, combined, Moscow, Nevskaya and dynamic
pyramid: the first to ``target`` balls wins) a frame is a race of runs at
the table. The first planner valued the position a shot leaves as
``1.5 p - 0.5`` balls: one pot, as if the turn ended after it. That
undervalues position play by a factor of about four - a pot that leaves an
easy next pot starts a run, and a run decides the frame - and ignores the
score (an easy leave for the opponent who needs one ball is a lost frame;
the same leave at 0-0 is not).

Here the value of a sample is the frame-winning chance of a simple race
model: each visit's first shot pots with the leave's chance ``p`` (the
geometry of the table as it is), every later shot with a typical chance
``q`` for the skill, the turn passes on a miss, and the first to ``target``
wins. ``race_table`` solves the model exactly for every score; lookups are
O(1). Fouls, penalty balls and свояк need no part in the model: they are
already in the score the referee's ruling leaves.
"""

from __future__ import annotations

import numpy as np

#: The next shooter's chance of potting from the easiest open pot's
#: difficulty ``D`` (``planner_leave.easiest_difficulty``) at ``pro``:
#: ``1 / (1 + (D / D50) ** K)``, fitted by ``python -m bench.leave_calibration``
#: (300 seeded pyramid positions, greedy's shot played 16 times under
#: ``pro`` noise: D50 628, K 1.90; mean squared error 0.063 against 0.125 for
#: ``planner_leave.pot_probability``, which rates a difficulty-500 table 0.91
#: where 0.56 was measured). The midpoint scales inversely with the aim error.
D50_PRO = 628.0
K = 1.9
PRO_PHI = 0.05
#: The chance ``q`` that a shot later in a visit pots, at ``pro``, by
#: variant: ``bpv / (1 + bpv)`` of greedy's balls per visit ``bpv`` against
#: itself at ``pro`` (``piramida match --agents greedy,greedy --noise pro``,
#: docs/agents.md). Free pyramid, where any ball may be struck, is a potting
#: race (bpv 1.97 against itself, 2.9 against random: 0.7); the games with one
#: cue ball are safety battles (combined: bpv 0.59, q 0.37).
Q_PRO: dict[str, float] = {
    "free": 0.7,
    "combined": 0.37,
    "moscow": 0.37,
    "nevskaya": 0.37,
    "dynamic": 0.37,
}
#: For a variant not listed.
Q_PRO_DEFAULT = 0.5


def next_pot_chance(difficulty: float | None, phi_sigma: float) -> float:
    """The measured chance of potting from a table whose easiest open pot
    has this difficulty; 0 when none is open."""
    if difficulty is None:
        return 0.0
    d50 = D50_PRO * PRO_PHI / max(phi_sigma, 0.005)
    return 1.0 / (1.0 + (max(difficulty, 0.0) / d50) ** K)


def typical_chance(phi_sigma: float, variant: str = "free") -> float:
    """The typical pot chance ``q`` of a shot later in a visit, for a player
    of this aim error: the variant's ``Q_PRO`` at ``pro``, moved with the aim
    error the way ``next_pot_chance`` moves."""
    q_pro = Q_PRO.get(variant, Q_PRO_DEFAULT)
    if phi_sigma <= 0:
        return 0.97  # noise-free: runs end only on the hard shots
    d_typical = D50_PRO * ((1.0 - q_pro) / q_pro) ** (1.0 / K)
    return min(0.97, max(0.05, next_pot_chance(d_typical, phi_sigma)))


def race_tables(target: int, q: float, q_other: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The race solved for two players of pot chances ``q`` (player A) and
    ``q_other`` (player B, ``q`` when None).

    ``A[a, b]``: the chance that A, at the table, wins when he needs ``a``
    balls and B needs ``b``; ``B[b, a]``: the same for B at the table. A
    decided frame: ``X[0, b] = 1``, ``X[a, 0] = 0``.

    ``A[a, b] = qA A[a-1, b] + (1 - qA)(1 - B[b, a])`` (a pot keeps the turn,
    a miss hands it over) and the mirror equation for ``B[b, a]``: a 2x2
    linear system whose other terms have one ball fewer, so the tables fill
    by ``a + b``.
    """
    n = int(target)
    if n < 1:
        raise ValueError(f"race_table: target must be at least 1, got {target}")
    qb = q if q_other is None else q_other
    for name, v in (("q", q), ("q_other", qb)):
        if not 0.0 < v < 1.0:
            raise ValueError(f"race_table: {name} must lie in (0, 1), got {v}")
    A = np.full((n + 1, n + 1), np.nan)
    A[0, 1:] = 1.0
    A[1:, 0] = 0.0
    B = A.copy()
    ra, rb = 1.0 - q, 1.0 - qb
    for s in range(2, 2 * n + 1):
        for a in range(max(1, s - n), min(n, s - 1) + 1):
            b = s - a
            x = q * A[a - 1, b] + ra  # A[a, b] = x - ra B[b, a]
            y = qb * B[b - 1, a] + rb  # B[b, a] = y - rb A[a, b]
            A[a, b] = (x - ra * y) / (1.0 - ra * rb)
            B[b, a] = y - rb * A[a, b]
    return A, B


def race_table(target: int, q: float) -> np.ndarray:
    """``G[a, b]``: the chance that the player at the table wins when he
    needs ``a`` balls and the other ``b``, every shot of both potting with
    chance ``q`` (``race_tables`` with equal players)."""
    return race_tables(target, q)[0]


class RaceModel:
    """Frame-winning chances for one variant's target, the planner's own
    later-shot chance ``q`` and the opponent's ``q_other`` (``q`` if None)."""

    def __init__(self, target: int, q: float, q_other: float | None = None) -> None:
        self.target = int(target)
        self.q = float(q)
        self.q_other = self.q if q_other is None else float(q_other)
        self.A, self.B = race_tables(self.target, self.q, self.q_other)
        #: The symmetric name kept for a model of equal players.
        self.G = self.A

    def need(self, score: int) -> int:
        return max(0, min(self.target, self.target - int(score)))

    def at_table(self, mine: int, theirs: int, p: float, me: bool = True) -> float:
        """The chance that the player about to shoot wins, with scores
        ``mine``/``theirs`` (his and the other's) and chance ``p`` of potting
        the shot he faces; ``me``: he is the planner (else the opponent)."""
        a, b = self.need(mine), self.need(theirs)
        if a == 0:
            return 1.0
        if b == 0:
            return 0.0
        X, Y = (self.A, self.B) if me else (self.B, self.A)
        return float(p * X[a - 1, b] + (1.0 - p) * (1.0 - Y[b, a]))


__all__ = ["RaceModel", "next_pot_chance", "race_table", "race_tables", "typical_chance"]
