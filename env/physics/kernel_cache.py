"""Keep numba's on-disk cache of the physics kernels honest.

numba keys each cached kernel on its own source file only. A kernel that
calls a kernel in another module keeps the old callee compiled in after
that module changes, so an edited root finder can go on running the old one
(seen while tuning roots.py). Before the kernels load, this drops the cached
machine code whenever any module of the package differs from the last time.
A fresh checkout has no cache and is unaffected.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

STAMP = "kernels.sha256"


def sources_digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.glob("*.py")):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def drop_stale(folder: Path) -> bool:
    """Delete ``folder/__pycache__/*.nbi|*.nbc`` when the sources changed
    since the stamp was written; True when it deleted. A read-only install
    or a cache kept elsewhere (NUMBA_CACHE_DIR) is left alone."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return False
    cache = folder / "__pycache__"
    if not cache.is_dir():
        return False
    digest = sources_digest(folder)
    stamp = cache / STAMP
    try:
        if stamp.is_file() and stamp.read_text() == digest:
            return False
        for f in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
            f.unlink(missing_ok=True)
        stamp.write_text(digest)
    except OSError:
        return False
    return True
