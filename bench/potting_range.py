"""How far the aim of a pot may move and still pot: the toolbox's edge
search against an estimate from geometry.

``aim.pot_line`` finds the range of cue directions that pot by simulation
(``aim.edge``: doubling steps from 0.02 degrees, then two bisections, each
way: about 12 noise-free strokes a line, the largest share of what
``candidates`` spends). The estimate that would replace it costs two
strokes: the slope ``s`` of the object ball's direction against the cue's
(degrees per degree, measured at the throw-corrected aim with two strokes
0.01 degrees either side) and the pocket's window seen from the target,
``w = atan(pocket_window(approach) / 2 / object_distance)``; the estimate of
the half-width is ``w / |s|``.

For every pot line the planner's search refines on the 200 reference
positions (``pot_line``'s first steps: the speeds it tries, the throw
correction), this measures both, and how far the middle of the range
lies from the corrected aim (what centring moves). Prints one JSON object
with the distribution of measured / estimated and of the centring offset
over the half-width; ``--out FILE`` writes it with every line's numbers.

Run from the repository root::

    .venv/bin/python -m bench.potting_range [--limit N] [--out FILE]

Nothing here changes a decision: it measures whether an estimate could.
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import statistics
import sys
from typing import Any


def measure_line(ctx: Any, line: Any, place: Any) -> dict[str, Any] | None:
    """Both ranges of one pot line (None where it does not pot without noise
    or the slope cannot be read)."""
    from piramida.agents.shots.aim import edge, object_error, pockets_target, pots, refine
    from piramida.agents.shots.ghost import cue_speed_for, pocket_window

    v0 = cue_speed_for(line, ctx.table)
    tr = None
    for v in (v0, v0 * 1.5, v0 * 0.75):
        tr = refine(ctx, line, place, v)
        if tr is not None and tr.value > 0:
            break
        tr = None
    if tr is None:
        return None
    base, value = tr.shot, tr.value

    def potting(res: Any) -> bool:
        return pockets_target(res, line, ctx.called)

    def ok(d: float) -> bool:
        alt = ctx.trial(base.aimed((base.phi + d) % 360.0), when=potting)
        return alt is not None and pots(alt, line, ctx.called) and alt.value >= value - 1e-9

    up, down = edge(ok), edge(lambda d: ok(-d))
    start = ctx.pos.xy(line.target)
    errs = []
    for d in (-0.01, 0.01, 0.0):
        res = ctx.simulated(base.aimed((base.phi + d) % 360.0))
        errs.append(object_error(res, line, start) if res is not None else None)
    if None in errs:
        return None
    slope = (errs[1] - errs[0]) / 0.02
    pocket = ctx.table.pockets[line.pocket]
    window = pocket_window(pocket, line.approach, ctx.table)
    w = math.degrees(math.atan(max(window, 0.0) / 2 / max(line.object_distance, 1e-6)))
    estimate = w / abs(slope) if slope else math.inf
    jaw_up, jaw_down = jaw_edges(pocket, start, line.aim, ctx.R, errs[2], slope)
    return {
        "variant": ctx.view.variant,
        "pocket": line.pocket,
        "approach": round(line.approach, 2),
        "speed": round(base.v, 3),
        "cut": round(line.cut, 2),
        "object_distance": round(line.object_distance, 4),
        "measured_half": round(0.5 * (up + down), 5),
        "up": round(up, 5),
        "down": round(down, 5),
        "slope": round(slope, 4),
        "window_deg": round(w, 5),
        "estimated_half": round(estimate, 5),
        "jaw_up": round(jaw_up, 5),
        "jaw_down": round(jaw_down, 5),
    }


def measure(limit: int | None = None) -> dict[str, Any]:
    import numba

    from bench.planner import load_positions
    from piramida.agents.shots.context import Context
    from piramida.agents.shots.lines import candidate_lines
    from piramida.agents.shots.probability import PotModel
    from piramida.env.view import GameView

    numba.set_num_threads(1)
    lines_out: list[dict[str, Any]] = []
    for r in load_positions()[:limit]:
        view = GameView.for_position(r["position"])
        if view.position.is_break:
            continue
        ctx = Context(view, None, PotModel.of("pro"))
        for line, place in candidate_lines(ctx)[:16]:
            got = measure_line(ctx, line, place)
            if got is not None:
                lines_out.append(got)
    usable = [x for x in lines_out if x["measured_half"] > 0 and math.isfinite(x["estimated_half"])]
    ratios = sorted(x["measured_half"] / x["estimated_half"] for x in usable)
    offsets = sorted(abs(x["up"] - x["down"]) / 2 / x["measured_half"] for x in usable)

    def q(xs: list[float], p: float) -> float | None:
        return round(xs[min(len(xs) - 1, int(p * len(xs)))], 3) if xs else None

    logs = [math.log(x) for x in ratios]
    median = statistics.median(ratios) if ratios else 1.0
    jaw = [x for x in usable if math.isfinite(x["jaw_up"]) and math.isfinite(x["jaw_down"])]
    jaw_ratio = sorted(x["measured_half"] / max(0.5 * (x["jaw_up"] + x["jaw_down"]), 1e-9) for x in jaw)
    # Where the middle of the range lies from the corrected aim, measured and
    # from the jaws, in units of the measured half-width.
    centre_miss = sorted(
        abs((x["up"] - x["down"]) - (x["jaw_up"] - x["jaw_down"])) / 2 / x["measured_half"] for x in jaw
    )
    jaw_logs = [math.log(x) for x in jaw_ratio if x > 0]
    return {
        "lines": len(lines_out),
        "with_a_range": len(usable),
        "zero_range": sum(x["measured_half"] == 0 for x in lines_out),
        "ratio_measured_over_estimate": {
            "median": q(ratios, 0.5), "p10": q(ratios, 0.1), "p25": q(ratios, 0.25),
            "p75": q(ratios, 0.75), "p90": q(ratios, 0.9),
            "within_25pct_of_median": round(
                sum(abs(x / median - 1) <= 0.25 for x in ratios) / len(ratios), 3
            ) if ratios else None,
            "sd_of_log": round(statistics.pstdev(logs), 3) if logs else None,
        },
        "centring_offset_over_half": {"median": q(offsets, 0.5), "p75": q(offsets, 0.75), "p90": q(offsets, 0.9)},
        "jaw_model": {
            "lines": len(jaw),
            "ratio_measured_over_estimate": {
                "median": q(jaw_ratio, 0.5), "p10": q(jaw_ratio, 0.1), "p25": q(jaw_ratio, 0.25),
                "p75": q(jaw_ratio, 0.75), "p90": q(jaw_ratio, 0.9),
                "sd_of_log": round(statistics.pstdev(jaw_logs), 3) if jaw_logs else None,
            },
            "centre_error_over_half": {"median": q(centre_miss, 0.5), "p75": q(centre_miss, 0.75), "p90": q(centre_miss, 0.9)},
        },
        "per_line": lines_out,
    }


def jaw_edges(
    pocket: Any, target: tuple[float, float], aim: tuple[float, float], R: float, err0: float, slope: float
) -> tuple[float, float]:
    """How far (degrees) the cue may turn each way before the object ball's
    straight path from ``target`` touches a jaw of ``pocket``: the path at
    angle a to the aim clears a jaw whose centre lies at angle b and
    distance D when |sin(a - b)| D >= R + the jaw's radius; the window is
    between the two jaws, the object ball's angle is ``err0`` + ``slope``
    times the cue's turn."""
    want = math.degrees(math.atan2(aim[1] - target[1], aim[0] - target[0]))
    hi, lo = math.inf, -math.inf
    for jaw in pocket.jaws:
        dx, dy = jaw.centre[0] - target[0], jaw.centre[1] - target[1]
        dist = math.hypot(dx, dy)
        rel = (math.degrees(math.atan2(dy, dx)) - want + 180.0) % 360.0 - 180.0
        half = math.degrees(math.asin(min(1.0, (R + jaw.radius) / dist)))
        if rel > 0:
            hi = min(hi, rel - half)
        else:
            lo = max(lo, rel + half)
    if slope == 0 or not (math.isfinite(hi) and math.isfinite(lo)):
        return math.inf, math.inf
    if slope > 0:
        return (hi - err0) / slope, (err0 - lo) / slope
    return (lo - err0) / slope, (err0 - hi) / slope


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.potting_range", description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--limit", type=int, default=None, help="the first N reference positions only")
    ap.add_argument("--out", default=None, help="write the report, every line included, to this JSON file")
    a = ap.parse_args(argv)
    out = measure(a.limit)
    from piramida.eval.version import code_version

    out["version"] = code_version()
    out["command"] = shlex.join(["python", "-m", "bench.potting_range", *(argv if argv is not None else sys.argv[1:])])
    if a.out:
        with open(a.out, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=1)
    print(json.dumps({k: v for k, v in out.items() if k != "per_line"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
