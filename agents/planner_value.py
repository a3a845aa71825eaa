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


def race_table(target: int, q: float) -> np.ndarray:
    """``G[a, b]``: the chance that the player at the table wins when he
    needs ``a`` balls and the other ``b``, every shot potting with chance
    ``q``. ``G[0, b] = 1`` and ``G[a, 0] = 0`` (a decided frame).

    ``G[a, b] = q G[a-1, b] + (1 - q)(1 - G[b, a])``: a pot keeps the turn, a
    miss hands it over. The pair ``G[a, b], G[b, a]`` is a 2x2 linear system
    whose other terms have one ball fewer, so the table fills by ``a + b``.
    """
    n = int(target)
    if n < 1:
        raise ValueError(f"race_table: target must be at least 1, got {target}")
    if not 0.0 < q < 1.0:
        raise ValueError(f"race_table: q must lie in (0, 1), got {q}")
    G = np.full((n + 1, n + 1), np.nan)
    G[0, 1:] = 1.0
    G[1:, 0] = 0.0
    r = 1.0 - q
    for s in range(2, 2 * n + 1):
        for a in range(max(1, s - n), min(n, s - 1) + 1):
            b = s - a
            A = q * G[a - 1, b] + r
            B = q * G[b - 1, a] + r
            G[a, b] = (A - r * B) / (1.0 - r * r)
    return G


class RaceModel:
    """Frame-winning chances for one variant's target and one skill."""

    def __init__(self, target: int, q: float) -> None:
        self.target = int(target)
        self.q = float(q)
        self.G = race_table(self.target, self.q)

    def need(self, score: int) -> int:
        return max(0, min(self.target, self.target - int(score)))

    def at_table(self, mine: int, theirs: int, p: float) -> float:
        """The chance that the player about to shoot wins, with scores
        ``mine``/``theirs`` and chance ``p`` of potting the shot he faces."""
        a, b = self.need(mine), self.need(theirs)
        if a == 0:
            return 1.0
        if b == 0:
            return 0.0
        G = self.G
        return float(p * G[a - 1, b] + (1.0 - p) * (1.0 - G[b, a]))


__all__ = ["RaceModel", "next_pot_chance", "race_table", "typical_chance"]
