"""Keep SciPy's linear algebra out of a process's first kernel load.

Loading the first kernel from numba's cache (the warm start) makes numba
build its CPU target: it imports every implementation module it has, and
one of them (``numba.np.arraymath``) probes for BLAS by importing
``scipy.linalg``. That import alone was 0.13-0.21 s of a 0.75-0.93 s warm
start on the 2-core benchmark machine (docs/performance.md), for code the
physics never runs: no kernel here uses ``np.dot`` or ``np.linalg``.

``skip_blas_probe`` imports ``numba.np.arraymath`` once with
``scipy.linalg`` hidden, so the probe finds no BLAS. The only effect of
that answer in numba 0.68 is the inner product inside ``np.cov`` and
``np.corrcoef`` compiled later in the same process: a loop instead of a
BLAS call. ``np.dot`` and ``np.linalg`` look for SciPy again when they are
compiled and find it (the hiding ends before this returns). Nothing is
hidden when SciPy's linear algebra or numba's module is already imported,
or when ``PIRAMIDA_NUMBA_BLAS=1`` asks for numba's own probe.
"""

from __future__ import annotations

import importlib.abc
import os
import sys

HIDDEN = "scipy.linalg"


class _Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name == HIDDEN:
            raise ImportError(f"{HIDDEN} hidden from numba's BLAS probe (piramida.env.physics.numba_start)")
        return None


def skip_blas_probe() -> bool:
    """Import numba's array maths with ``scipy.linalg`` hidden (module
    docstring); True when it did, False when there was nothing to do."""
    if os.environ.get("PIRAMIDA_NUMBA_BLAS") == "1":
        return False
    if HIDDEN in sys.modules or "numba.np.arraymath" in sys.modules:
        return False
    finder = _Hide()
    sys.meta_path.insert(0, finder)
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        sys.meta_path.remove(finder)
    return True


__all__ = ["HIDDEN", "skip_blas_probe"]
