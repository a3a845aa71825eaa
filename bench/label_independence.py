"""Does a break depend on the rack's labels? (docs/physics.md, "Simultaneous contacts")

Plays two strokes - the straight apex break and the free-pyramid break
book's first stroke (configs/agents/break_book.toml) - on several
labellings of the same rack (``Position.start("free", seed=L)``), each
``--samples`` times under a noise preset, sample k with noise seed
``--seed + k`` on every labelling (common random numbers). Per labelling
it prints:

- pot: share of samples in which an object ball drops;
- svoyak (свояк): share in which the struck ball drops after it has touched
  an object ball;
- crossing: mean number of object balls that cross the centre line;

and tests that the labellings agree: a chi-square test of homogeneity on
the pot and the свояк counts (labellings x {yes, no}, 2 degrees of freedom
for 3 labellings) and a Kruskal-Wallis test on the crossing counts. With the
same noise seeds and exact label independence every sample comes out the
same on every labelling, so both statistics are 0 (p = 1); "same samples"
counts the samples whose outcome (where every ball of each start spot ended,
to 1 mm, and which pocket it fell in) is identical on all labellings.

    .venv/bin/python -m bench.label_independence [--samples 500] [--labellings 1,2,3] [--noise pro] [--seed 0] [--json]

Run from the repository root. 500 samples x 2 strokes x 3 labellings is
3000 breaks through ``simulate_batch`` (a few seconds once compiled).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]


def book_stroke(variant: str = "free") -> Any:
    from piramida.configs import CONFIG_DIR
    from piramida.env.shot import Shot

    e = tomllib.loads((CONFIG_DIR / "agents" / "break_book.toml").read_text())[variant][0]
    return Shot("0", float(e["phi"]), float(e["v"]), b=float(e.get("b", 0.0)), place=tuple(e["place"]))


def strokes() -> dict[str, Any]:
    from piramida.env.shot import Shot
    from piramida.env.table import Table

    t = Table.default()
    return {"apex": Shot("0", 90.0, 8.0, place=(t.width / 2, 0.6)), "book": book_stroke()}


def chi2_homogeneity(yes: list[int], n: int) -> tuple[float, int, float]:
    """Chi-square test that the labellings share one success rate: (statistic,
    degrees of freedom, p). With every count 0 or every count n the table
    has an empty column and the rates agree trivially: (0, df, 1)."""
    k = len(yes)
    df = k - 1
    tot = sum(yes)
    if tot == 0 or tot == k * n:
        return 0.0, df, 1.0
    p = tot / (k * n)
    stat = sum((y - n * p) ** 2 / (n * p) + ((n - y) - n * (1 - p)) ** 2 / (n * (1 - p)) for y in yes)
    return stat, df, chi2_sf(stat, df)


def kruskal_wallis(groups: list[list[float]]) -> tuple[float, int, float]:
    """Kruskal-Wallis H with the tie correction: (H, df, p from chi-square)."""
    allv = np.concatenate([np.asarray(g, dtype=float) for g in groups])
    N = len(allv)
    df = len(groups) - 1
    order = np.argsort(allv, kind="stable")
    ranks = np.empty(N)
    sv = allv[order]
    i = 0
    ties = 0.0
    while i < N:
        j = i
        while j + 1 < N and sv[j + 1] == sv[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        t = j - i + 1
        ties += t**3 - t
        i = j + 1
    corr = 1 - ties / (N**3 - N) if N > 1 else 1.0
    if corr <= 0:
        return 0.0, df, 1.0
    h, pos = 0.0, 0
    for g in groups:
        r = ranks[pos : pos + len(g)]
        pos += len(g)
        h += r.sum() ** 2 / len(g)
    h = (12 / (N * (N + 1)) * h - 3 * (N + 1)) / corr
    h = max(h, 0.0)
    return h, df, chi2_sf(h, df)


def chi2_sf(x: float, df: int) -> float:
    """P(chi-square with df degrees of freedom > x), by the series of the
    regularized upper gamma function (exact closed form for even df)."""
    if x <= 0:
        return 1.0
    if df % 2 == 0:
        term, acc = 1.0, 1.0
        for i in range(1, df // 2):
            term *= (x / 2) / i
            acc += term
        return math.exp(-x / 2) * acc
    # odd df: erfc for df = 1, then the recurrence.
    p = math.erfc(math.sqrt(x / 2))
    term = math.sqrt(x / 2) * math.exp(-x / 2) / math.sqrt(math.pi) * 2
    for i in range(3, df + 1, 2):
        p += term
        term *= x / i
    return p


def outcomes(position: Any, shot: Any, n: int, noise: str, seed: int) -> dict[str, Any]:
    """Per sample: pot, свояк, crossings, and a signature of where each start
    spot's ball ended (label-free, to 1 mm)."""
    from piramida.env.physics import simulate_batch

    spot = {b: (round(x, 6), round(y, 6)) for b, x, y in position.balls}
    res = simulate_batch(position, [shot] * n, noise=noise, seeds=[seed + k for k in range(n)], events=True)
    assert res.results is not None
    pot, svoyak, cross, sig = [], [], [], []
    for r in res.results:
        cue = shot.ball
        touched = False
        sv = False
        for e in r.events:
            if e.type == "ball_ball" and cue in e.balls:
                touched = True
            elif e.type == "pocket" and e.balls[0] == cue and touched:
                sv = True
        pot.append(any(b != cue for b, _ in r.pocketed))
        svoyak.append(sv)
        cross.append(len({e.balls[0] for e in r.events if e.type == "centre_line" and e.balls[0] != cue}))
        final = {b: (round(x, 3), round(y, 3)) for b, x, y in r.final.balls}
        pockets = dict(r.pocketed)
        sig.append(
            tuple(sorted((str(spot.get(b, "cue")), str(final.get(b)), str(pockets.get(b))) for b in (*spot, cue)))
        )
    return {"pot": pot, "svoyak": svoyak, "cross": cross, "sig": sig, "status": res.status.tolist()}


def run(samples: int, labellings: list[int], noise: str, seed: int) -> dict[str, Any]:
    from piramida.env.position import Position

    out: dict[str, Any] = {"samples": samples, "labellings": labellings, "noise": noise, "seed": seed, "strokes": {}}
    for name, shot in strokes().items():
        per = {}
        for lab in labellings:
            per[lab] = outcomes(Position.start("free", seed=lab), shot, samples, noise, seed)
        pots = [sum(per[lab]["pot"]) for lab in labellings]
        svs = [sum(per[lab]["svoyak"]) for lab in labellings]
        same = sum(len({per[lab]["sig"][k] for lab in labellings}) == 1 for k in range(samples))
        out["strokes"][name] = {
            "shot": shot.to_dict(),
            "per_labelling": {
                str(lab): {
                    "pot": sum(per[lab]["pot"]) / samples,
                    "svoyak": sum(per[lab]["svoyak"]) / samples,
                    "mean_crossing": float(np.mean(per[lab]["cross"])),
                    "status_nonzero": int(sum(s != 0 for s in per[lab]["status"])),
                }
                for lab in labellings
            },
            "chi2_pot": chi2_homogeneity(pots, samples),
            "chi2_svoyak": chi2_homogeneity(svs, samples),
            "kruskal_crossing": kruskal_wallis([per[lab]["cross"] for lab in labellings]),
            "same_samples": same,
        }
    return out


def report(out: dict[str, Any]) -> str:
    lines = [
        f"{out['samples']} samples per labelling, noise {out['noise']}, noise seeds {out['seed']}.."
        f"{out['seed'] + out['samples'] - 1} on every labelling; labellings = Position.start('free', seed=L)"
    ]
    for name, s in out["strokes"].items():
        lines.append(f"\n{name}: {s['shot']}")
        lines.append(f"  {'labelling':>9}  {'pot':>6}  {'svoyak':>6}  {'crossing':>8}")
        for lab, r in s["per_labelling"].items():
            lines.append(f"  {lab:>9}  {r['pot']:6.3f}  {r['svoyak']:6.3f}  {r['mean_crossing']:8.3f}")
        for key, label in (("chi2_pot", "pot"), ("chi2_svoyak", "svoyak")):
            st, df, p = s[key]
            lines.append(f"  chi-square homogeneity ({label}): {st:.4f} on {df} df, p = {p:.4f}")
        h, df, p = s["kruskal_crossing"]
        lines.append(f"  Kruskal-Wallis (crossing): H = {h:.4f} on {df} df, p = {p:.4f}")
        lines.append(f"  same outcome on every labelling: {s['same_samples']} of {out['samples']} samples")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--samples", type=int, default=500)
    ap.add_argument("--labellings", default="1,2,3", help="comma-separated seeds of Position.start('free')")
    ap.add_argument("--noise", default="pro")
    ap.add_argument("--seed", type=int, default=0, help="noise seed of sample 0")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    labs = [int(x) for x in args.labellings.split(",") if x.strip()]
    if args.samples < 1 or len(labs) < 2:
        print("error: need --samples >= 1 and at least two labellings", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    out = run(args.samples, labs, args.noise, args.seed)
    out["wall_s"] = round(time.perf_counter() - t0, 2)
    print(json.dumps(out, indent=1) if args.json else report(out) + f"\n\n({out['wall_s']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
