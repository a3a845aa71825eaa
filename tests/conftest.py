"""Shared test setup: Hypothesis without deadlines (numba compiles and a
busy machine with few cores make first calls slow; speed is measured by benchmarks,
not tests) and with a fixed draw unless asked (below), and the default
table; the user's data folder moved under the tmp path."""

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


@pytest.fixture(autouse=True, scope="session")
def private_data_home(tmp_path_factory: pytest.TempPathFactory):
    """Commands that keep files in the user's data folder (``serve``'s games
    file) keep them under the test run's tmp path, never in the real home."""
    old = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data_home"))
    yield
    if old is None:
        os.environ.pop("XDG_DATA_HOME", None)
    else:
        os.environ["XDG_DATA_HOME"] = old


@pytest.fixture(scope="session")
def table():
    from piramida.env.table import Table

    return Table.default()
