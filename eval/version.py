"""The code version that results record: the package version and, in a git
checkout, the commit (with ``+dirty`` when the tree has changes), so that a
results file says which code made it."""

from __future__ import annotations

import subprocess
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=1)
def code_version() -> str:
    import piramida

    version = str(piramida.__version__)
    root = Path(__file__).resolve().parents[1]
    if not (root / ".git").exists():
        return version
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"],
            capture_output=True, text=True, timeout=10, check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True, text=True, timeout=10, check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return version
    return f"{version}+{commit}{'.dirty' if dirty else ''}"
