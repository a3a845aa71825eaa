"""Shots per second: piramida's physics against pooltool 0.6.0, same inputs.

Run from the repository root::

    .venv/bin/python -m bench.physics [--quick] [--json] [--pooltool-cold] [--out FILE]
    piramida bench physics [--quick] [--json]
    make bench                       # with --pooltool-cold

Writes ``bench/results/physics.json`` (bench/record.py; ``--out FILE``
writes elsewhere).

The inputs are ``bench/inputs.py``'s seeded suites (break, midgame,
two_ball). pooltool runs in a subprocess under its own venv
(``bench/pooltool_client.py``; ``make bench-deps`` makes it); piramida runs in
this process, after a warm-up shot, one shot at a time (single core), and
through ``simulate_batch`` when it exists. Cold and warm start are piramida's
first ``simulate`` in a new process with an empty numba cache directory and
then with that cache filled.

Whatever is missing (pooltool's venv, piramida's physics, ``simulate_batch``)
is reported as null with the reason under ``notes``, never guessed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.inputs import DEFAULT_SEED, SUITES, Case, suites
from bench.pooltool_client import PooltoolUnavailable, run_pooltool
from bench.record import machine
from bench.record import write as write_record

REPO = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------ piramida
def load_piramida() -> tuple[Callable[..., Any] | None, Callable[..., Any] | None, str | None]:
    """(simulate, simulate_batch, why-not): each None when not there yet."""
    try:
        from piramida.env import physics
    except Exception as exc:  # any import failure means "not available"
        return None, None, f"piramida.env.physics does not import: {exc!r}"
    sim = getattr(physics, "simulate", None)
    batch = getattr(physics, "simulate_batch", None)
    why = None if sim is not None else "piramida.env.physics.simulate is missing"
    return sim, batch, why


def _pocketed_ids(pocketed: Any) -> set[str]:
    if isinstance(pocketed, dict):
        return {str(k) for k in pocketed}
    return {str(p if isinstance(p, str) else p[0]) for p in pocketed}


def time_piramida(
    simulate: Callable[..., Any],
    cases: Sequence[Case],
    tick: Callable[[], object],
    events: bool = False,
) -> dict[str, Any]:
    """Per-shot wall time, events and pocketed balls, one shot at a time.

    Each shot's time covers ``simulate`` and reading back what pooltool's
    side reads back (bench/pooltool_runner.py: final positions, pocketed
    balls, the event count). piramida's ShotResult makes its Python values
    when first read, so they are read inside the timing; with ``events``
    the event log's ``Event`` objects are built too (what the referee
    reads)."""
    walls, cpus, n_events, pocketed = [], [], [], []
    for c in cases:
        c0 = time.thread_time()
        t0 = time.perf_counter()
        res = simulate(c.position, c.shot, table=c.position.table)
        res.final  # noqa: B018 - read back, as pooltool's side does
        got = res.pocketed
        n = len(res.events) if events else getattr(res, "n_events", None)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.thread_time() - c0)
        n_events.append(n if n is not None else len(res.events))
        pocketed.append(sorted(_pocketed_ids(got)))
        tick()
    return {"wall_s": walls, "cpu_s": cpus, "n_events": n_events, "pocketed": pocketed}


def time_piramida_batch(
    batch: Callable[..., Any], cases: Sequence[Case]
) -> tuple[float | None, str | None]:
    """Seconds for one ``simulate_batch`` call over all cases (after a warm-up
    call on two cases), or None and why."""
    positions = [c.position for c in cases]
    shots = [c.shot for c in cases]
    try:
        batch(positions[:2], shots[:2])
        t0 = time.perf_counter()
        out = batch(positions, shots)
        dt = time.perf_counter() - t0
    except Exception as exc:  # the batch API is still being written
        return None, f"simulate_batch(positions, shots) failed: {exc!r}"
    try:
        n = len(out)
    except TypeError:
        n = len(cases)
    if n != len(cases):
        return None, f"simulate_batch returned {n} results for {len(cases)} shots"
    return dt, None


_START_SNIPPET = """
import time, sys
t0 = time.perf_counter()
from bench.inputs import break_cases
from piramida.env.physics import simulate
c = break_cases(1, seed={seed})[0]
simulate(c.position, c.shot, table=c.position.table)
sys.stdout.write(repr(time.perf_counter() - t0))
"""


def start_times(seed: int) -> tuple[float | None, float | None, str | None]:
    """piramida's import + first simulate (a break) in a new process: with an
    empty numba cache dir (cold), then again with it filled (warm)."""
    code = _START_SNIPPET.format(seed=seed)
    with tempfile.TemporaryDirectory(prefix="piramida-numba-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = []
        for _ in range(2):
            proc = subprocess.run(
                [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True
            )
            if proc.returncode != 0:
                tail = proc.stderr.strip().splitlines()[-1:] or ["?"]
                return None, None, f"start-time probe failed: {tail[0]}"
            out.append(float(proc.stdout.strip()))
    return out[0], out[1], None


# ------------------------------------------------------------------- report
def _per_s(walls: Sequence[float]) -> float | None:
    total = sum(walls)
    return len(walls) / total if walls and total > 0 else None


def _mean(xs: Sequence[float]) -> float | None:
    return statistics.fmean(xs) if xs else None


def _round(x: float | None, nd: int = 3) -> float | None:
    return None if x is None else round(x, nd)


def run(
    quick: bool = False,
    seed: int = DEFAULT_SEED,
    progress: bool = True,
    starts: bool = True,
    pooltool_cold: bool = False,
) -> dict[str, Any]:
    """Run the benchmark and return the report object (see ``--json``)."""
    from tqdm import tqdm

    cases = suites(quick=quick, seed=seed)
    order = [c for s in SUITES for c in cases[s]]
    notes: list[str] = []
    report: dict[str, Any] = {
        "quick": quick,
        "seed": seed,
        "machine": machine(),
        "shots": {s: len(cases[s]) for s in SUITES},
    }

    # pooltool, in its own process and venv.
    pt_out: dict[str, Any] | None = None
    bar = tqdm(
        total=len(order), desc="pooltool", unit="shot", file=sys.stderr, disable=not progress
    )
    try:
        pt_out = run_pooltool(
            [c.to_dict() for c in order], progress=lambda done, _n: bar.update(done - bar.n)
        )
    except PooltoolUnavailable as exc:
        notes.append(str(exc).splitlines()[0])
    finally:
        bar.close()
    if pt_out is not None:
        report["pooltool_version"] = pt_out["pooltool_version"]
        report["pooltool_import_s"] = _round(pt_out["import_s"])
        report["pooltool_first_shot_s"] = _round(pt_out["cold_s"])
        report["pooltool_mapping"] = pt_out["mapping"]
    if pooltool_cold:
        with tempfile.TemporaryDirectory(prefix="pooltool-numba-") as cache:
            try:
                cold = run_pooltool([order[0].to_dict()], numba_cache_dir=cache)
                report["pooltool_cold_compile_s"] = _round(cold["cold_s"])
            except PooltoolUnavailable as exc:
                notes.append(str(exc).splitlines()[0])

    # piramida, in this process.
    simulate, batch, why = load_piramida()
    pr: dict[str, Any] = {}
    pr_full: dict[str, Any] = {}
    if simulate is not None:
        try:
            simulate(order[0].position, order[0].shot, table=order[0].position.table)  # JIT warm-up
            bar = tqdm(
                total=len(order),
                desc="piramida",
                unit="shot",
                file=sys.stderr,
                disable=not progress,
            )
            for s in SUITES:
                pr[s] = time_piramida(simulate, cases[s], lambda: bar.update(1))
                pr_full[s] = time_piramida(simulate, cases[s], lambda: None, events=True)
            bar.close()
        except Exception as exc:  # physics still under construction
            notes.append(f"piramida simulate failed: {exc!r}")
            pr = {}
            pr_full = {}
    else:
        notes.append(why or "piramida physics not available")
    batch_s: dict[str, float | None] = {s: None for s in SUITES}
    if pr and batch is not None:
        for s in SUITES:
            batch_s[s], why_b = time_piramida_batch(batch, cases[s])
            if why_b:
                notes.append(f"{s}: {why_b}")
    elif pr:
        notes.append("piramida.env.physics.simulate_batch is missing")

    # Per-suite figures.
    offset = 0
    for s in SUITES:
        n = len(cases[s])
        row: dict[str, Any] = {"n": n}
        pt_rows = pt_out["results"][offset : offset + n] if pt_out else []
        offset += n
        pt_walls = [r["wall_s"] for r in pt_rows]
        row["pooltool_per_s"] = _round(_per_s(pt_walls), 2)
        row["pooltool_cpu_per_s"] = _round(_per_s([r["cpu_s"] for r in pt_rows]), 2)
        row["pooltool_median_ms"] = _round(statistics.median(pt_walls) * 1e3) if pt_walls else None
        row["pooltool_events_per_shot"] = _round(_mean([r["n_events"] for r in pt_rows]), 1)
        row["pooltool_collisions_per_shot"] = _round(_mean([r["n_collisions"] for r in pt_rows]), 1)
        row["pooltool_truncated"] = sum(bool(r.get("truncated")) for r in pt_rows)
        row["pooltool_pocketed_per_shot"] = _round(_mean([len(r["pocketed"]) for r in pt_rows]), 2)
        p = pr.get(s)
        row["piramida_per_s"] = _round(_per_s(p["wall_s"]), 2) if p else None
        row["piramida_cpu_per_s"] = _round(_per_s(p["cpu_s"]), 2) if p else None
        row["piramida_median_ms"] = _round(statistics.median(p["wall_s"]) * 1e3) if p else None
        row["piramida_events_per_shot"] = _round(_mean(p["n_events"]), 1) if p else None
        bs = batch_s[s]
        row["piramida_batch_per_s"] = _round(n / bs, 2) if bs else None
        ratio = None
        if row["piramida_per_s"] and row["pooltool_per_s"]:
            ratio = row["piramida_per_s"] / row["pooltool_per_s"]
        row["ratio"] = _round(ratio, 2)
        # The same with every shot's event log built as Event objects.
        pf = pr_full.get(s)
        row["piramida_with_events_per_s"] = _round(_per_s(pf["wall_s"]), 2) if pf else None
        ratio_ev = None
        if row["piramida_with_events_per_s"] and row["pooltool_per_s"]:
            ratio_ev = row["piramida_with_events_per_s"] / row["pooltool_per_s"]
        row["ratio_with_events"] = _round(ratio_ev, 2)
        cpu_ratio = None
        if row["piramida_cpu_per_s"] and row["pooltool_cpu_per_s"]:
            cpu_ratio = row["piramida_cpu_per_s"] / row["pooltool_cpu_per_s"]
        row["cpu_ratio"] = _round(cpu_ratio, 2)
        if p and pt_rows:
            same = sum(
                sorted(r["pocketed"]) == q for r, q in zip(pt_rows, p["pocketed"], strict=True)
            )
            row["same_pocketed_fraction"] = _round(same / n, 3)
        report[s] = row

    report["cold_start_s"] = None
    report["warm_start_s"] = None
    if starts and simulate is not None and pr:
        cold, warm, why_s = start_times(seed)
        report["cold_start_s"], report["warm_start_s"] = _round(cold), _round(warm)
        if why_s:
            notes.append(why_s)
    report["load_avg_1m_end"] = round(os.getloadavg()[0], 2)
    report["notes"] = notes
    return report


def format_table(rep: dict[str, Any]) -> str:
    def f(x: Any) -> str:
        return "-" if x is None else f"{x:g}" if isinstance(x, float) else str(x)

    cols = [
        ("suite", None),
        ("n", "n"),
        ("piramida/s", "piramida_per_s"),
        ("batch/s", "piramida_batch_per_s"),
        ("pooltool/s", "pooltool_per_s"),
        ("ratio", "ratio"),
        ("ratio w/ events", "ratio_with_events"),
        ("pir cpu/s", "piramida_cpu_per_s"),
        ("pt cpu/s", "pooltool_cpu_per_s"),
        ("cpu ratio", "cpu_ratio"),
        ("ev/shot pir", "piramida_events_per_shot"),
        ("ev/shot pt", "pooltool_events_per_shot"),
        ("pt median ms", "pooltool_median_ms"),
        ("same pocketed", "same_pocketed_fraction"),
    ]
    rows = [[c[0] for c in cols]]
    for s in SUITES:
        rows.append([s] + [f(rep[s].get(k)) for _, k in cols[1:] if k])
    widths = [max(len(r[i]) for r in rows) for i in range(len(cols))]
    lines = ["  ".join(v.rjust(w) for v, w in zip(r, widths, strict=True)) for r in rows]
    lines.append(
        f"piramida cold start {f(rep['cold_start_s'])} s, warm start {f(rep['warm_start_s'])} s; "
        f"pooltool {rep.get('pooltool_version', '-')} first shot (numba cache present) "
        f"{f(rep.get('pooltool_first_shot_s'))} s"
    )
    if "pooltool_cold_compile_s" in rep:
        lines.append(
            f"pooltool cold compile (empty numba cache) {f(rep['pooltool_cold_compile_s'])} s"
        )
    m = rep["machine"]
    lines.append(
        f"machine: {m['cpu']}, {m['cores']} cores, load average {m['load_avg_1m']} at start, "
        f"{rep['load_avg_1m_end']} at end"
    )
    lines.extend(f"note: {n}" for n in rep["notes"])
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer inputs (a smoke run)")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    ap.add_argument("--out", type=Path, help="write the result file here instead of bench/results/physics.json")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--no-progress", action="store_true")
    ap.add_argument("--no-starts", action="store_true", help="skip the cold/warm start probes")
    ap.add_argument(
        "--pooltool-cold",
        action="store_true",
        help="also time pooltool's JIT compile from an empty cache (~30-45 s)",
    )
    args = ap.parse_args(argv)
    rep = run(
        quick=args.quick,
        seed=args.seed,
        progress=not args.no_progress,
        starts=not args.no_starts,
        pooltool_cold=args.pooltool_cold,
    )
    machine_info = rep.pop("machine")
    write_record("physics", rep, argv, out=args.out, machine_info=machine_info)
    rep["machine"] = machine_info
    sys.stdout.write((json.dumps(rep) if args.json else format_table(rep)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
