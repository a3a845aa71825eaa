"""Benchmarks against peers (pooltool) and against limits; see docs/performance.md.

Not part of the installed package: run from the repository root, e.g.
``python -m bench.physics_vs_pooltool``.
"""
