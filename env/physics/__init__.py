"""Event-based simulation of the table (DESIGN.md §3). Knows nothing of rules.

``simulate(position, shot, table=None, noise=None, seed=None) -> ShotResult``;
``simulate_batch`` runs many shots in parallel in one call (batch.py).
Models and their papers: docs/physics.md.
"""

from piramida.env.physics.batch import BatchResult, simulate_batch
from piramida.env.physics.noise import Noise, load_noise
from piramida.env.physics.result import ShotResult
from piramida.env.physics.simulate import simulate

__all__ = ["BatchResult", "Noise", "ShotResult", "load_noise", "simulate", "simulate_batch"]
