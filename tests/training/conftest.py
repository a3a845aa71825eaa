"""The training tests need the ``gym`` and ``train`` extras (gymnasium,
pettingzoo, torch, ray[rllib]): without them they are not collected."""

from __future__ import annotations

import importlib.util
import shutil
import tempfile
from collections.abc import Iterator

import pytest

_HAVE = all(importlib.util.find_spec(m) is not None for m in ("gymnasium", "pettingzoo", "torch", "ray"))
collect_ignore_glob = [] if _HAVE else ["test_*.py"]


@pytest.fixture
def ray_temp() -> Iterator[str]:
    """A Ray temp dir: Ray's unix socket paths may not exceed 107 bytes, so
    a short dir in /tmp, not the test's tmp_path."""
    d = tempfile.mkdtemp(prefix="pr16-", dir="/tmp")
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)
