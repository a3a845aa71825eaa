"""Positions the benchmarks play: ``reference.jsonl`` (generate.py: balls
scattered at random, clear of the pocket mouths; bench/planner.py) and
``played.jsonl`` (played.py: from seeded frames of greedy against
greedy, balls where real play leaves them)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
#: The sets by name, as ``--positions`` takes them.
SETS = {"reference": HERE / "reference.jsonl", "played": HERE / "played.jsonl"}
