"""``bench/`` is not part of the installed package; make it importable from
the repository root whichever way pytest was started."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


@pytest.fixture(autouse=True)
def _no_result_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """The benchmarks the tests run leave bench/results/ as it is (bench/record.py)."""
    monkeypatch.setenv("PIRAMIDA_BENCH_NO_RECORD", "1")
