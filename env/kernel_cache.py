"""Keep numba's on-disk cache of the kernels honest.

numba keys each cached kernel on its own source file only. A kernel that
calls a kernel in another module keeps the old callee compiled in after
that module changes, so an edited root finder can go on running the old one
(seen while tuning roots.py), and a constant read from another module
keeps its old value. Before the kernels of a package load (env/physics,
env/rules), this drops the package's cached machine code whenever any of
its modules, or a module it takes constants from (env/events.py: the log
as numbers), differs from the last time. A fresh checkout has no cache and
is unaffected.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

STAMP = "kernels.sha256"
#: The constants of the log as numbers, which kernels of both packages read.
EVENTS = Path(__file__).resolve().parent / "events.py"


def sources_digest(folder: Path, also: Iterable[Path] = ()) -> str:
    h = hashlib.sha256()
    for p in [*sorted(folder.glob("*.py")), *also]:
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def drop_stale(folder: Path, also: Iterable[Path] = ()) -> bool:
    """Delete ``folder/__pycache__/*.nbi|*.nbc`` when the sources (the
    folder's modules and the files ``also``) changed since the stamp was
    written; True when it deleted. A read-only install or a cache kept
    elsewhere (NUMBA_CACHE_DIR) is left alone."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return False
    cache = folder / "__pycache__"
    if not cache.is_dir():
        return False
    digest = sources_digest(folder, also)
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
