"""Games per second of a tournament with 1 and 2 workers (greedy against
greedy), side by side in one run; the target is 1.7x on 2 cores.

    .venv/bin/python -m bench.tournament_scaling [--pairs 100] [--quick] [--json] [--out FILE]

Each arm plays the same games into its own fresh results file. Starting Ray
is reported apart and not counted; starting the workers (each imports
piramida and loads the compiled physics, about a second) is counted, so
few pairs (``--quick``: 5) understate the steady rate. Writes
``bench/results/tournament_scaling.json``."""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from bench.record import write as write_record


def arm(workers: int, pairs: int, tmp: Path) -> dict[str, float]:
    import ray

    from piramida.eval.tournament import TournamentConfig, run_tournament

    # Two copies of a spec may not meet in one tournament; greedy plays for
    # pro by default, so the second spec names the same player.
    cfg = TournamentConfig(("greedy", "greedy:noise=pro"), ("free",), pairs, "pro", 7)
    start_ray = 0.0
    if workers > 1:
        t0 = time.perf_counter()
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
        start_ray = time.perf_counter() - t0
    t0 = time.perf_counter()
    _, prog = run_tournament(cfg, tmp / f"w{workers}.sqlite", workers=workers)
    dt = time.perf_counter() - t0
    if workers > 1:
        ray.shutdown()
    return {"workers": workers, "games": prog.done, "seconds": dt, "games_per_s": prog.done / dt, "ray_start_s": start_ray}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--quick", action="store_true", help="5 pairs (a smoke run)")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    ap.add_argument("--out", type=Path, default=None, help="write the result file here instead of bench/results/tournament_scaling.json")
    a = ap.parse_args(argv)
    if a.quick:
        a.pairs = 5
    with tempfile.TemporaryDirectory() as d:
        one = arm(1, a.pairs, Path(d))
        two = arm(2, a.pairs, Path(d))
    out = {"pairs": a.pairs, "one_worker": one, "two_workers": two, "speedup": two["games_per_s"] / one["games_per_s"]}
    write_record("tournament_scaling", out, argv, out=a.out)
    if a.json:
        print(json.dumps(out))
    else:
        for r in (one, two):
            print(f"{r['workers']} worker(s): {r['games']} games in {r['seconds']:.1f} s = {r['games_per_s']:.2f} games/s"
                  + (f" (Ray start {r['ray_start_s']:.1f} s, not counted)" if r["ray_start_s"] else ""))
        print(f"speedup {out['speedup']:.2f}x (target 1.7x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
