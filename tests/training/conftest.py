"""The training tests need the ``gym`` and ``train`` extras (gymnasium,
pettingzoo, torch, ray[rllib]): without them they are not collected."""

from __future__ import annotations

import importlib.util

_HAVE = all(importlib.util.find_spec(m) is not None for m in ("gymnasium", "pettingzoo", "torch", "ray"))
collect_ignore_glob = [] if _HAVE else ["test_*.py"]
