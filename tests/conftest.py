"""Shared test setup: Hypothesis without deadlines (numba compiles and a
busy machine with few cores make first calls slow; speed is measured by benchmarks,
not tests) and with a fixed draw unless asked (below), and the default
table."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

# The suite CI runs draws the same examples every run (derandomize): a
# property that fails fails on every machine, and a green run stays green.
# `make test-fuzz` (HYPOTHESIS_PROFILE=fuzz) draws new ones, more of them,
# to look for what the fixed draw misses.
settings.register_profile("piramida", deadline=None, max_examples=60, derandomize=True)
settings.register_profile("fuzz", deadline=None, max_examples=200)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "piramida"))


@pytest.fixture(scope="session")
def table():
    from piramida.env.table import Table

    return Table.default()
