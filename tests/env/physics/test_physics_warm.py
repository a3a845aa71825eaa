"""The cold-start helper (env/physics/warm.py) compiles what loop.run uses."""

from __future__ import annotations

import numpy as np
from numba import njit, typeof

from piramida.env.physics import loop, warm
from piramida.env.physics.arrays import table_arrays
from piramida.env.physics.codes import NSTATE
from piramida.env.physics.scratch import scratch
from piramida.env.table import Table


def test_helper_jobs_have_the_argument_types_loop_run_passes():
    """A fresh typing of loop.run's code types each of the helper's kernels
    with the types it passes; a job typed otherwise would be compiled for
    nothing (numba would compile loop.run's own types anyway)."""
    ta = table_arrays(Table.default())
    S = np.zeros((3, NSTATE))
    ev, seg = loop.alloc(8, 8)
    args = (S, np.zeros(3, dtype=np.int64), 0, 0.0, 0.0, 1.0, 0.0, 0.0, ta.CU, ta.JW, ta.FC, ta.PK, ta.P, ev, seg,
            *scratch(3))
    twin = njit(_nrt=False)(loop.run.py_func)  # pyright: ignore[reportCallIssue]
    twin.compile(tuple(typeof(a) for a in args))
    for disp, sig in warm.jobs():
        assert tuple(sig) in [tuple(s) for s in disp.signatures], disp.py_func.__name__


def test_no_helper_when_disabled(monkeypatch):
    monkeypatch.setenv("PIRAMIDA_NO_WARM", "1")
    monkeypatch.setattr(warm, "_started", False)
    started = []
    monkeypatch.setattr(warm.subprocess, "Popen", lambda *a, **k: started.append(a))
    warm.start()
    assert not started


def test_spare_core_is_judged_by_what_runs_now_not_the_load_average(monkeypatch):
    """A load average of 1.0 left by work that has just finished must not
    turn the helper off on an otherwise quiet machine; a busy one must."""
    monkeypatch.setattr(warm.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(warm.os, "getloadavg", lambda: (1.9, 1.0, 1.0))
    monkeypatch.setattr(warm, "runnable_now", lambda: 1)  # only this process
    assert warm.core_to_spare()
    monkeypatch.setattr(warm, "runnable_now", lambda: 2)  # another process busy
    assert not warm.core_to_spare()
    monkeypatch.setattr(warm, "runnable_now", lambda: None)  # no /proc: the average decides
    assert not warm.core_to_spare()
    monkeypatch.setattr(warm.os, "cpu_count", lambda: 1)
    monkeypatch.setattr(warm, "runnable_now", lambda: 1)
    assert not warm.core_to_spare()


def test_runnable_now_reads_this_process_among_the_runnable():
    n = warm.runnable_now()
    assert n is None or n >= 1
