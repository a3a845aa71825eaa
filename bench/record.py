"""The result file every benchmark writes: ``bench/results/<name>.json``.

One file a benchmark, holding its latest run::

    {"benchmark": NAME, "command": "python -m bench.NAME ...",
     "code_version": "0.1.0+<commit>[.dirty]", "date": ISO-8601 UTC,
     "machine": {cpu, cores, memory_gib, os, python, numpy, numba, load_avg_1m},
     "results": {...}}

A benchmark with subcommands (``bench.planner``, ``bench.value``) keeps one
section a subcommand under ``results``, each with its own command, code
version and date: a run replaces its own section and keeps the others.
``--out FILE`` writes the same object elsewhere. With the environment
variable ``PIRAMIDA_BENCH_NO_RECORD`` set (``bench.ab`` sets it for the
runs it compares, the tests for theirs) only ``--out`` is written.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results"


def result_path(name: str) -> Path:
    return RESULTS / f"{name}.json"


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    memory_gib = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory_gib = round(int(line.split()[1]) / 2**20, 1)
                break
    except (OSError, ValueError):
        pass
    versions: dict[str, str | None] = {}
    for mod in ("numpy", "numba"):
        try:
            versions[mod] = str(__import__(mod).__version__)
        except ImportError:
            versions[mod] = None
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gib": memory_gib,
        "os": platform.platform(),
        "python": platform.python_version(),
        **versions,
        # Other work on the machine skews every timing: how much there was.
        "load_avg_1m": round(os.getloadavg()[0], 2),
    }


def code_version() -> str:
    from piramida.eval.version import code_version as version

    return version()


def command(module: str, argv: Sequence[str] | None) -> str:
    """The command line that reproduces a run."""
    args = list(sys.argv[1:] if argv is None else argv)
    return shlex.join(["python", "-m", f"bench.{module}", *args])


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()


def write(
    name: str,
    results: dict[str, Any],
    argv: Sequence[str] | None = None,
    *,
    out: Path | None = None,
    section: str | None = None,
    machine_info: dict[str, Any] | None = None,
) -> Path:
    """Write the run's record to ``out`` (default ``bench/results/<name>.json``)
    and return the path. With ``section``, ``results`` replaces that section
    of the file's results and the other sections stay."""
    path = Path(out) if out is not None else result_path(name)
    if out is None and os.environ.get("PIRAMIDA_BENCH_NO_RECORD"):
        return path
    cmd, version, date = command(name, argv), code_version(), _now()
    body: dict[str, Any] = results
    if section is not None:
        body = {}
        if path.is_file():
            try:
                old = json.loads(path.read_text(encoding="utf-8"))
                if old.get("benchmark") == name and isinstance(old.get("results"), dict):
                    body = old["results"]
            except (OSError, ValueError):
                body = {}
        body = {**body, section: {"command": cmd, "code_version": version, "date": date, "results": results}}
    record = {
        "benchmark": name,
        "command": cmd,
        "code_version": version,
        "date": date,
        "machine": machine_info if machine_info is not None else machine(),
        "results": body,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return path
