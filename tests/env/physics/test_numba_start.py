"""The physics import keeps SciPy's linear algebra out of numba's first
target build (env/physics/numba_start.py), and takes nothing away: SciPy
and numba's ``np.dot`` still work afterwards in the same process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]

_PROBE = """
import sys
import numpy as np
import numba
from piramida.env.physics import simulate
print("lazy", "numba.np.arraymath" not in sys.modules)
from piramida.env.position import Position
from piramida.env.shot import Shot
pos = Position.start("free", seed=2)
res = simulate(pos, Shot(ball="0", phi=88.0, v=6.0, place=(0.9, 0.6)))
print("linalg_before", "scipy.linalg" in sys.modules)
print("finder_gone", not any(type(f).__module__.endswith("numba_start") for f in sys.meta_path))
import inspect, numba.np.arraymath as am0
print("source", "_check_blas" in inspect.getsource(am0))
import numba.np.arraymath as am
print("have_blas", am._HAVE_BLAS)
import scipy.linalg
print("scipy_ok", float(scipy.linalg.det(np.eye(2))))
@numba.njit
def dot(a, b):
    return np.dot(a, b)
print("dot", float(dot(np.ones((2, 2)), np.ones(2))[0]))
print("events", len(res.events) > 10)
"""


def _run(env_extra: dict[str, str]) -> dict[str, str]:
    env = dict(os.environ, **env_extra)
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE], cwd=REPO, env=env, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return dict(line.split(" ", 1) for line in proc.stdout.strip().splitlines())


def test_physics_import_skips_the_blas_probe_and_scipy_still_works() -> None:
    out = _run({})
    assert out["lazy"] == "True"  # nothing imported until a kernel loads
    assert out["finder_gone"] == "True" and out["source"] == "True"
    assert out["linalg_before"] == "False"
    assert out["have_blas"] == "False"
    assert out["scipy_ok"] == "1.0"
    assert out["dot"] == "2.0"


def test_numba_probe_kept_on_request() -> None:
    out = _run({"PIRAMIDA_NUMBA_BLAS": "1"})
    assert out["linalg_before"] == "True"
    assert out["have_blas"] == "True"
    assert out["dot"] == "2.0"
