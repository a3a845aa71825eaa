"""The swappable impact models, one Protocol each (docs/design.md §3).

The kernels are numba functions acting in place on one or two ball states
(x, y, vx, vy, wx, wy, wz) with the parameter vector P (codes.py). The event
loop dispatches on ``P[P_MODEL]``, which ``arrays.table_arrays`` sets from
``physics.cushion_model`` in the table config; adding a model means adding
a kernel with the same signature, a code, and an entry here.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from piramida.env.physics.codes import BF_ALCIATORE, BF_CONSTANT, MODEL_HAN2005, MODEL_MATHAVAN2010
from piramida.env.physics.collide import ball_ball, han2005, mathavan2010


class CushionModel(Protocol):
    """Resolve a ball hitting a cushion, jaw or facing whose unit normal
    (nx, ny) points into the table; acts on ``s`` in place."""

    def __call__(self, s: np.ndarray, nx: float, ny: float, P: np.ndarray) -> None: ...


class BallBallModel(Protocol):
    """Resolve two touching balls; acts on ``si`` and ``sj`` in place and
    returns the normal approach speed."""

    def __call__(self, si: np.ndarray, sj: np.ndarray, P: np.ndarray) -> float: ...


# Config name -> (code in P[P_MODEL], kernel).
CUSHION_MODELS: dict[str, tuple[int, CushionModel]] = {
    "han2005": (MODEL_HAN2005, han2005),
    "mathavan2010": (MODEL_MATHAVAN2010, mathavan2010),
}
BALL_BALL_MODELS: dict[str, BallBallModel] = {"frictional_inelastic": ball_ball}
# Config name (physics.ball_friction_model) -> code in P[P_BF_MODEL]; the
# friction coefficient itself is collide.ball_friction.
BALL_FRICTION_MODELS: dict[str, int] = {"constant": BF_CONSTANT, "alciatore": BF_ALCIATORE}
