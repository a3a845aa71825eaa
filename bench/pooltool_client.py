"""Call pooltool from piramida's side: a subprocess in pooltool's own venv.

``bench/pooltool_runner.py`` runs under ``bench/.venv-pooltool/bin/python``
(made by ``make bench-deps``); this module builds its JSON input from a
piramida ``Table`` and cases of (balls, shot), runs it, and returns the
parsed output. The mapping of conventions is documented in the runner.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from piramida.env.table import Table

BENCH_DIR = Path(__file__).resolve().parent
RUNNER = BENCH_DIR / "pooltool_runner.py"
VENV_PYTHON = BENCH_DIR / ".venv-pooltool" / "bin" / "python"


class PooltoolUnavailable(RuntimeError):
    """The pooltool venv is missing or broken (run ``make bench-deps``)."""


def table_spec(table: Table) -> dict[str, Any]:
    """Everything the runner needs about the table, as plain JSON."""
    p = table.physics
    return {
        "name": table.name,
        "length": table.length,
        "width": table.width,
        "cushion_height": table.cushion_height,
        "ball_radius": table.ball_radius,
        "ball_mass": table.ball_mass,
        "corner_mouth": table.corner_mouth,
        "corner_jaw_radius": table.corner_jaw_radius,
        "corner_capture_depth": table.corner_capture_depth,
        "corner_depth": table.corner_depth,
        "middle_mouth": table.middle_mouth,
        "middle_jaw_radius": table.middle_jaw_radius,
        "middle_capture_depth": table.middle_capture_depth,
        "middle_depth": table.middle_depth,
        "physics": {
            "g": p.g,
            "mu_s": p.mu_s,
            "mu_r": p.mu_r,
            "mu_sp": p.mu_sp,
            "e_ball": p.e_ball,
            "mu_ball": p.mu_ball,
            "e_cushion": p.e_cushion,
            "mu_cushion": p.mu_cushion,
            "cue_mass": p.cue_mass,
            "e_cue": p.e_cue,
            "cushion_model": p.cushion_model,
            "ball_friction_model": p.ball_friction_model,
            "mu_ball_a": p.mu_ball_a,
            "mu_ball_b": p.mu_ball_b,
            "mu_ball_c": p.mu_ball_c,
            "cue_end_mass": p.cue_end_mass,
        },
    }


def available() -> bool:
    return VENV_PYTHON.is_file()


def run_pooltool(
    cases: Sequence[dict[str, Any]],
    table: Table | None = None,
    *,
    warmup: bool = True,
    trace: bool = False,
    max_events: int = 20000,
    numba_cache_dir: str | None = None,
    progress: Callable[[int, int], object] | None = None,
    timeout: float | None = None,
) -> dict[str, Any]:
    """Simulate ``cases`` (each ``{"balls": {id: [x, y]}, "shot": Shot.to_dict()}``)
    in a fresh pooltool process and return the runner's output object.

    ``numba_cache_dir`` sets ``NUMBA_CACHE_DIR`` for the child (an empty dir
    measures pooltool's full JIT compile in ``cold_s``). ``progress(done,
    total)`` is called as the runner reports each shot.
    """
    if not available():
        raise PooltoolUnavailable(
            f"pooltool venv not found at {VENV_PYTHON}; run `make bench-deps` first"
        )
    spec = {
        "table": table_spec(table or Table.default()),
        "cases": list(cases),
        "warmup": warmup,
        "trace": trace,
        "max_events": max_events,
    }
    env = dict(os.environ)
    if numba_cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = numba_cache_dir
    with tempfile.TemporaryDirectory(prefix="pooltool-run-") as tmp:
        spec_path = Path(tmp) / "spec.json"
        out_path = Path(tmp) / "out.json"
        spec_path.write_text(json.dumps(spec), encoding="utf-8")
        # Results go to a file: only stderr (progress) is a pipe, read to EOF.
        proc = subprocess.Popen(
            [str(VENV_PYTHON), str(RUNNER), str(spec_path), str(out_path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert proc.stderr is not None
        other: list[str] = []
        for line in proc.stderr:
            parts = line.split()
            if len(parts) == 3 and parts[0] == "progress":
                if progress is not None:
                    progress(int(parts[1]), int(parts[2]))
            else:
                other.append(line)
        rc = proc.wait(timeout=timeout)
        if rc != 0 or not out_path.is_file():
            tail = "".join(other[-20:])
            raise PooltoolUnavailable(f"pooltool runner failed (exit {rc}):\n{tail}")
        if other:
            sys.stderr.write("".join(other))
        return json.loads(out_path.read_text(encoding="utf-8"))
