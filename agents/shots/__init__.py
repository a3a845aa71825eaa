"""The shot toolbox every agent builds on (docs/agents.md).

- ``context``: one decision (the view, its referee and state), noise-free
  trials judged by the referee, the budget that counts them;
- ``ghost``: ghost-ball geometry (pot lines, aim points, clear paths,
  pace);
- ``aim``: throw correction and centring of a pot, its score;
- ``probability``: the easiest open pot of a table and its pot
  probability;
- ``lines``: the open pot lines of a decision and ball-in-hand placements;
- ``banks`` and ``svoyak``: one-cushion banks and the struck ball in off
  an object ball;
- ``strokes``: the break, the lag, safeties, the plain fallback;
- ``choices``: decisions outside a shot;
- ``candidates``: every candidate shot of a decision with its feature
  vector (``candidates(view, noise)``).
"""

from __future__ import annotations

from pathlib import Path

import piramida.env.physics as _physics
from piramida.env.kernel_cache import EVENTS, drop_stale

# The toolbox's kernels call one another across its modules, and some have
# the physics' event loop compiled in (banks.bank_secant): numba keys a
# cached kernel on its own file only, so the cached machine code is dropped
# whenever any of these sources changed (env/kernel_cache.py), before a
# kernel loads.
drop_stale(Path(__file__).resolve().parent, (*sorted(Path(_physics.__file__).resolve().parent.glob("*.py")), EVENTS))

from piramida.agents.shots.candidates import (  # noqa: E402
    FEATURES,
    GREEDY,
    LAYOUT_VERSION,
    LEAN,
    PLANNER,
    SEARCHES,
    WIDE,
    Candidate,
    Search,
    candidates,
    generate,
)
from piramida.agents.shots.context import Budget, Context, Trial  # noqa: E402
from piramida.agents.shots.ghost import PotLine, aim_point, pot_lines  # noqa: E402
from piramida.agents.shots.probability import easiest_difficulty  # noqa: E402

__all__ = [
    "FEATURES",
    "GREEDY",
    "LAYOUT_VERSION",
    "LEAN",
    "PLANNER",
    "SEARCHES",
    "Budget",
    "Candidate",
    "Context",
    "PotLine",
    "Search",
    "Trial",
    "WIDE",
    "aim_point",
    "candidates",
    "easiest_difficulty",
    "generate",
    "pot_lines",
]
