"""The environments need the ``gym`` extra (gymnasium, pettingzoo): without
it these tests are not collected rather than failing on import."""

from __future__ import annotations

import importlib.util

_HAVE = all(importlib.util.find_spec(m) is not None for m in ("gymnasium", "pettingzoo"))
collect_ignore_glob = [] if _HAVE else ["test_*.py"]
