"""Event-based simulation of the table (docs/design.md §3). Knows nothing of rules.

``simulate(position, shot, table=None, noise=None, seed=None) -> ShotResult``;
``simulate_batch`` runs many shots in parallel in one call (batch.py).
Models and their papers: docs/physics.md.
"""

from pathlib import Path

from piramida.env.kernel_cache import EVENTS, drop_stale
from piramida.env.physics.numba_start import skip_blas_probe

drop_stale(Path(__file__).resolve().parent, (EVENTS,))  # before any kernel loads from the cache
skip_blas_probe()  # before numba builds its CPU target (numba_start.py)

from piramida.env.physics.batch import BatchResult, simulate_batch  # noqa: E402
from piramida.env.physics.noise import Noise, load_noise  # noqa: E402
from piramida.env.physics.result import ShotResult  # noqa: E402
from piramida.env.physics.simulate import Simulator, simulate  # noqa: E402

__all__ = ["BatchResult", "Noise", "ShotResult", "Simulator", "load_noise", "simulate", "simulate_batch"]
