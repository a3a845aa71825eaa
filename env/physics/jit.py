"""The decorators of the physics kernels.

``kernel`` compiles a function for calls from other kernels:
``numba.njit(cache=True)`` without numba's reference counting (its ``_nrt``
option) and without the wrappers that let Python (``no_cpython_wrapper``)
or C (``no_cfunc_wrapper``) call it.

- Reference counting: with it, every array a kernel receives and every
  row ``S[i]`` it slices costs an atomic increment and decrement of the
  array's reference count, and that bookkeeping was 46% of the event
  loop's time on a mid-game shot (docs/performance.md). A kernel compiled
  this way must not allocate arrays (numba refuses to compile one that
  does) nor return one; the arrays it works on belong to its caller, which
  outlives the call. No physics kernel allocates: the event loop's scratch
  comes from its caller (scratch.py).
- The wrappers were a quarter of the cold start (an empty numba cache):
  each is more code for numba and LLVM to build for every kernel, and only
  ``loop.run`` is called from Python in normal use.

Python can still call a kernel (the tests and benchmarks do): ``Kernel``
hands such a call to a twin of the function compiled with the Python
wrapper, built the first time and cached apart from the kernel (a wrapperless
function called from Python would crash the interpreter). The twin runs
the same code on the same numbers.

``entry`` is for the kernels Python calls in normal use (``loop.run``):
no reference counting, the Python wrapper kept, no C wrapper.

All of them use numba's "numpy" error model: a division by zero is an IEEE
inf or NaN rather than a check before every division (numba's default,
which raises ``ZeroDivisionError``); the same floats otherwise, about 6% of
the kernels' time (docs/performance.md).
"""

from __future__ import annotations

import os
import types
from collections.abc import Callable
from typing import Any

from numba import njit
from numba.core.registry import CPUDispatcher

_INTERNAL = {"_nrt": False, "no_cpython_wrapper": True, "no_cfunc_wrapper": True, "error_model": "numpy"}


def _python_twin(fn: Callable[..., Any]) -> Any:
    """``fn`` compiled with its Python wrapper, cached under its own name
    (numba's cache index does not tell the two builds apart)."""
    twin = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    twin.__qualname__ = fn.__qualname__ + "__from_python"
    twin.__module__ = fn.__module__
    twin.__doc__ = fn.__doc__
    return njit(cache=True, _nrt=False, error_model="numpy")(twin)  # pyright: ignore[reportCallIssue]


class Kernel(CPUDispatcher):
    """A numba dispatcher compiled without a Python wrapper whose calls from
    Python go to its twin (module docstring)."""

    def __call__(self, *args: Any, **kws: Any) -> Any:
        twin = self.__dict__.get("_twin")
        if twin is None:
            twin = self._twin = _python_twin(self.py_func)
        return twin(*args, **kws)


def kernel(fn: Callable[..., Any]) -> Kernel:
    """``fn`` as a kernel (module docstring)."""
    disp = Kernel(py_func=fn, locals={}, targetoptions={"nopython": True, "boundscheck": None, **_INTERNAL})
    disp.enable_caching()
    return disp


def is_cached(disp: Any) -> bool:
    """Whether numba's cache holds anything for the dispatcher ``disp`` (its
    index file exists; True when this numba keeps it elsewhere)."""
    try:
        return os.path.exists(disp._cache._cache_file._index_path)
    except AttributeError:
        return True


entry = njit(cache=True, _nrt=False, no_cfunc_wrapper=True, error_model="numpy")  # pyright: ignore[reportCallIssue]
