"""Benchmarks (docs/performance.md): each ``python -m bench.NAME [--json]
[--quick]`` from the repository root, or ``piramida bench NAME``, writing
``bench/results/NAME.json`` (bench/record.py).

Not part of the installed package: it needs the source checkout.
"""
