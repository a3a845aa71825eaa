"""Shared test setup: Hypothesis without deadlines (numba compiles and a
busy 2-core machine make first calls slow; speed is measured by benchmarks,
not tests) and the default table."""

from __future__ import annotations

import pytest
from hypothesis import settings

settings.register_profile("piramida", deadline=None, max_examples=60)
settings.load_profile("piramida")


@pytest.fixture(scope="session")
def table():
    from piramida.env.table import Table

    return Table.default()
