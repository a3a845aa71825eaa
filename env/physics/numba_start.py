"""Keep SciPy's linear algebra out of a process's first kernel load.

Loading the first kernel from numba's cache (the warm start) makes numba
build its CPU target: it imports every implementation module it has, and
one of them (``numba.np.arraymath``) probes for BLAS by importing
``scipy.linalg``. That import alone was 0.13-0.21 s of a 0.75-0.93 s warm
start on two CPU cores (docs/performance.md), for code the
physics never runs: no kernel here uses ``np.dot`` or ``np.linalg``.

``skip_blas_probe`` arranges that when numba imports ``numba.np.arraymath``
(at the first kernel load, not before: a process that never simulates
pays nothing), ``scipy.linalg`` is hidden while that one module runs, so
the probe finds no BLAS. The only effect of that answer in numba 0.68 is
the inner product inside ``np.cov`` and ``np.corrcoef`` compiled later in
the same process: a loop instead of a BLAS call. ``np.dot`` and
``np.linalg`` look for SciPy again when they are compiled and find it.
Nothing is hidden when SciPy's linear algebra or numba's module is
already imported, or when ``PIRAMIDA_NUMBA_BLAS=1`` asks for numba's own
probe.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

HIDDEN = "scipy.linalg"
PROBE = "numba.np.arraymath"


class _Finder(importlib.abc.MetaPathFinder):
    """Finds numba's array maths when numba first asks for it, to run it
    with ``scipy.linalg`` hidden; steps aside afterwards."""

    hiding = False

    def find_spec(self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None) -> Any:
        if name == HIDDEN and self.hiding:
            raise ImportError(f"{HIDDEN} hidden from numba's BLAS probe (piramida.env.physics.numba_start)")
        if name != PROBE or self.hiding:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is not None and spec.loader is not None:
            spec.loader = _Loader(spec.loader, self)
        return spec


class _Loader(importlib.abc.Loader):
    def __init__(self, inner: Any, finder: _Finder) -> None:
        self.inner = inner
        self.finder = finder

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.inner.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.finder.hiding = True
        try:
            self.inner.exec_module(module)
        finally:
            self.finder.hiding = False
            if self.finder in sys.meta_path:
                sys.meta_path.remove(self.finder)
            # Source lookups (tracebacks, inspect) go to the real loader.
            module.__loader__ = self.inner
            if module.__spec__ is not None:
                module.__spec__.loader = self.inner


def skip_blas_probe() -> bool:
    """Hide ``scipy.linalg`` from numba's BLAS probe when it runs (module
    docstring); True when that is arranged, False when there is nothing to
    do."""
    if os.environ.get("PIRAMIDA_NUMBA_BLAS") == "1":
        return False
    if HIDDEN in sys.modules or PROBE in sys.modules:
        return False
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
    return True


__all__ = ["HIDDEN", "PROBE", "skip_blas_probe"]
