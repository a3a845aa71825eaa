"""The planner against greedy: per-decision quality and speed, and matches.

Run from the repository root::

    .venv/bin/python -m bench.planner positions            # (re)write bench/positions/reference.jsonl
    .venv/bin/python -m bench.planner decisions [--limit N] [--budgets 0.25,1] [--quick] [--out FILE]
    .venv/bin/python -m bench.planner suggest-time         # 'piramida suggest --budget 1s' wall time
    .venv/bin/python -m bench.planner match --variant free --games 40 --sims 300 [--kw JSON] [--against planner] [--out FILE]
    .venv/bin/python -m bench.planner combine RUN.json ...   # pool 'piramida match --json' runs
    .venv/bin/python -m bench.planner budget-use [--budget 1] [--samples 4096]   # what a wall-time budget buys
    .venv/bin/python -m bench.planner fingerprint --out FILE    # the top 3 plans in 35 positions
    .venv/bin/python -m bench.planner compare A.json B.json [--search planner]  # where two fingerprints differ

Every subcommand but ``positions`` and ``compare`` writes its figures into
its own section of ``bench/results/planner.json`` (bench/record.py; the
other sections stay); ``--out FILE`` writes that file instead, e.g. the
two fingerprints that ``compare`` reads.

``decisions`` plays one decision in each reference position
(``bench/positions/reference.jsonl``, 200 seeded positions across the
variants) with greedy and with the planner at each budget, then plays the
chosen shot under ``pro`` noise (the frame driver's noise stream of the
seed and the position's index, env/driver.py) and reports the pot
rate (the shooter scored), the foul rate and the mean and maximum time per
decision. ``match`` is ``eval.match.run_match`` - the code behind
``piramida match`` - with the planner's budget given as a simulation count
(``--sims``, reproducible on any machine) or seconds (``--budget``).

``fingerprint`` records what a change to the agents did to their
decisions: the planner's top three plans (shot, kind, samples, pot and foul
shares, value) at a fixed simulation count in the first ``--per-variant``
reference positions of each variant (35 by default), and greedy's shot in
all 200. ``compare`` lists the positions where two fingerprints differ.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from bench.record import write as write_record
from piramida.env.position_sets import SETS, load_positions

REPO = Path(__file__).resolve().parents[1]
POSITIONS = SETS["reference"]


def _view(pos: Any) -> Any:
    from piramida.env.view import GameView

    return GameView.for_position(pos)


def decisions(budgets: list[float], limit: int | None, seed: int) -> dict[str, Any]:
    from piramida.agents.greedy import GreedyAgent
    from piramida.agents.planner import Allowance, PlannerAgent, warm_up
    from piramida.env.driver import FrameDriver
    from piramida.env.errors import PiramidaError

    refs = load_positions()[:limit]
    agents: list[tuple[str, Any]] = [("greedy", GreedyAgent())]
    for b in budgets:
        agents.append((f"planner@{b:g}s", PlannerAgent(budget=Allowance(budget_s=b), noise="pro", seed=seed)))
    if refs:
        warm_up(_view(refs[0]["position"]))
    drivers: dict[str, FrameDriver] = {}
    rows: dict[str, Any] = {}
    for name, agent in agents:
        pots = fouls = n = 0
        times: list[float] = []
        for i, ref in enumerate(refs):
            pos = ref["position"]
            view = _view(pos)
            t0 = time.perf_counter()
            shot = agent.act(view)
            times.append(time.perf_counter() - t0)
            # The shot under pro noise: the frame driver's stroke of (seed, pair i).
            driver = drivers.setdefault(pos.variant, FrameDriver(pos.variant, "pro"))
            driver.reset(seed, i, position=pos)
            n += 1
            try:
                ruling = driver.apply(shot).ruling
            except PiramidaError:
                fouls += 1
                continue
            assert ruling is not None
            fouls += int(not ruling.legal)
            pots += int(ruling.legal and bool(ruling.scored.get(view.player)))
        rows[name] = {
            "decisions": n,
            "pot_rate": pots / n if n else None,
            "foul_rate": fouls / n if n else None,
            "mean_s": statistics.fmean(times) if times else None,
            "max_s": max(times) if times else None,
        }
    return {"noise": "pro", "seed": seed, "positions": len(refs), "agents": rows}


def suggest_time(repeats: int = 5) -> dict[str, Any]:
    """Wall time of ``suggest --budget 1s`` after warm-up, in this process
    (the command's own work: the view and the planner's ranking, not
    interpreter start-up)."""
    from piramida.agents.planner import Allowance, PlannerAgent, warm_up

    refs = load_positions()
    picks = [r["position"] for r in refs if not r["position"].is_break][:repeats]
    warm_up(_view(picks[0]))
    PlannerAgent(budget=Allowance(budget_s=0.2)).plan(_view(picks[0]), top=3)  # warm-up
    times = []
    for pos in picks:
        t0 = time.perf_counter()
        PlannerAgent(budget=Allowance(budget_s=1.0)).plan(_view(pos), top=3)
        times.append(time.perf_counter() - t0)
    return {
        "budget_s": 1.0,
        "runs": len(times),
        "mean_s": statistics.fmean(times),
        "max_s": max(times),
    }


def match(
    variant: str,
    games: int,
    sims: int | None,
    budget: float | None,
    seed: int,
    value: str | None = None,
    extra: dict[str, Any] | None = None,
    against: str = "greedy",
) -> dict[str, Any]:
    """``games`` duplicate frames of the planner (``extra``: more of its
    keywords) against greedy, or with ``against`` "planner" against the
    planner as it is at the same budget (what the keywords change)."""
    from piramida.eval.match import run_match

    base: dict[str, Any] = {"noise": "pro", "n_sims": sims, "budget_s": None if sims else budget}
    kw = dict(base)
    if value is not None:
        kw["value"] = value
    kw.update(extra or {})
    t0 = time.perf_counter()
    other = base if against == "planner" else {}
    res = run_match(
        variant, ["planner", against], games, seed=seed, noise="pro", agent_kwargs=[kw, other]
    )
    d = res.to_dict()
    d["planner_kwargs"] = kw
    d["against_kwargs"] = other
    d["wall_s"] = time.perf_counter() - t0
    d["summary"] = res.summary()
    return d


def budget_use(
    budget: float, per_variant: int, variants: list[str], samples: int | None = None
) -> dict[str, Any]:
    """What a wall-time budget buys: per variant, the decision time and the
    simulated strokes (generation, total) and candidates in the first
    ``per_variant`` reference positions that are not breaks; ``samples``
    raises the planner's cap on samples a candidate (its ``samples`` key),
    so that the budget, not the cap, ends the search."""
    from piramida.agents.planner import MAX_SAMPLES, Allowance, PlannerAgent, warm_up
    from piramida.agents.shots.context import Budget, Context

    refs = load_positions()
    out: dict[str, Any] = {}
    for var in variants:
        picks = [r["position"] for r in refs if r["position"].variant == var and not r["position"].is_break]
        picks = picks[:per_variant]
        if not picks:
            continue
        warm_up(_view(picks[0]))
        planner = PlannerAgent(budget=Allowance(budget_s=budget, n_samples=samples or MAX_SAMPLES), noise="pro")
        rows = []
        for pos in picks:
            spend = Budget(budget, None)
            ctx = Context(_view(pos), spend)
            t0 = time.perf_counter()
            cands = planner.candidates(ctx)
            gen = spend.used
            planner.evaluate(ctx, cands)
            rows.append((time.perf_counter() - t0, gen, spend.used, len(cands)))
        out[var] = {
            "positions": len(rows),
            "mean_s": statistics.fmean(r[0] for r in rows),
            "max_s": max(r[0] for r in rows),
            "sims": [r[2] for r in rows],
            "generation_sims": [r[1] for r in rows],
            "candidates": [r[3] for r in rows],
            "mean_sims": statistics.fmean(r[2] for r in rows),
        }
    return {"budget_s": budget, "samples": samples, "variants": out}


def fingerprint_positions(per_variant: int) -> list[tuple[int, Any]]:
    """(index, position): the first ``per_variant`` reference positions of
    each variant, in file order."""
    seen: dict[str, int] = {}
    out = []
    for i, ref in enumerate(load_positions()):
        pos = ref["position"]
        if seen.get(pos.variant, 0) < per_variant:
            seen[pos.variant] = seen.get(pos.variant, 0) + 1
            out.append((i, pos))
    return out


def fingerprint(sims: int, per_variant: int, seed: int, noise: str, greedy: bool = True) -> dict[str, Any]:
    """The planner's top three plans at ``sims`` simulated strokes a
    decision (reproducible on any machine) and greedy's shots; see the
    module docstring."""
    from piramida.agents.greedy import GreedyAgent
    from piramida.agents.planner import Allowance, PlannerAgent

    planner = PlannerAgent(budget=Allowance(budget_s=None, n_sims=sims), noise=noise, seed=seed)
    rows = []
    for i, pos in fingerprint_positions(per_variant):
        plans = planner.plan(_view(pos), top=3)
        rows.append(
            {
                "index": i,
                "variant": pos.variant,
                "plans": [
                    {
                        "shot": p.shot.to_text(),
                        "kind": p.kind,
                        "samples": p.samples,
                        "p_pot": round(p.p_pot, 6),
                        "p_foul": round(p.p_foul, 6),
                        "value": round(p.value, 6),
                    }
                    for p in plans
                ],
            }
        )
    out: dict[str, Any] = {"sims": sims, "seed": seed, "noise": noise, "per_variant": per_variant, "planner": rows}
    if greedy:
        agent = GreedyAgent(noise=noise)
        out["greedy"] = [agent.act(_view(r["position"])).to_text() for r in load_positions()]
    return out


def compare(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Positions whose top plan, top-3 shots, or any recorded number differ."""
    rows_a = {r["index"]: r for r in a["planner"]}
    rows_b = {r["index"]: r for r in b["planner"]}
    best, top3, numbers = [], [], []
    for i in sorted(set(rows_a) & set(rows_b)):
        pa, pb = rows_a[i]["plans"], rows_b[i]["plans"]
        if [p["shot"] for p in pa[:1]] != [p["shot"] for p in pb[:1]]:
            best.append(i)
        if [p["shot"] for p in pa] != [p["shot"] for p in pb]:
            top3.append(i)
        if pa != pb:
            numbers.append(i)
    ga, gb = a.get("greedy") or [], b.get("greedy") or []
    greedy = [i for i, (x, y) in enumerate(zip(ga, gb, strict=False)) if x != y]
    return {
        "positions": len(set(rows_a) & set(rows_b)),
        "best_shot_differs": best,
        "top3_shots_differ": top3,
        "any_number_differs": numbers,
        "greedy_positions": min(len(ga), len(gb)),
        "greedy_differs": greedy,
    }


def still_offered(a: dict[str, Any], b: dict[str, Any], search: str) -> list[dict[str, Any]]:
    """For each position whose best shot differs between fingerprints ``a``
    (before) and ``b`` (after): whether ``a``'s best shot is among this
    code's candidates of ``search`` (``shots.SEARCHES``). Where it is not,
    the search no longer offers it; where it is, the choice moved among
    shots both offer (the samples fell differently)."""
    from piramida.agents.shots import SEARCHES, candidates

    rows_a = {r["index"]: r for r in a["planner"]}
    rows_b = {r["index"]: r for r in b["planner"]}
    positions = dict(fingerprint_positions(max(1, int(a.get("per_variant", 5)))))
    out = []
    for i in compare(a, b)["best_shot_differs"]:
        offered = {c.shot.to_text() for c in candidates(_view(positions[i]), a.get("noise", "pro"), SEARCHES[search])}
        before, after = rows_a[i]["plans"][0], rows_b[i]["plans"][0]
        out.append(
            {
                "index": i,
                "variant": rows_a[i]["variant"],
                "before_still_offered": before["shot"] in offered,
                "before": {k: before[k] for k in ("shot", "kind", "value")},
                "after": {k: after[k] for k in ("shot", "kind", "value")},
                "candidates_now": len(offered),
            }
        )
    return out


def combine(paths: list[Path]) -> dict[str, Any]:
    """Pool ``piramida match --json`` outputs of the same variant and agents
    (different seeds): total wins, games and the Wilson interval, and the
    per-frame rates weighted by games."""
    from piramida.eval.stats import wilson_interval

    runs = []
    for p in paths:
        try:
            runs.append(json.loads(p.read_text(encoding="utf-8")))
        except (OSError, json.JSONDecodeError) as exc:
            raise SystemExit(f"combine: cannot read {p}: {exc}") from None
    if not runs:
        raise SystemExit("combine: no files given")
    keys = {(r.get("variant"), tuple(r.get("agents", ()))) for r in runs}
    if len(keys) != 1:
        raise SystemExit(f"combine: the files mix variants or agents: {sorted(keys)}")
    games = sum(int(r["games"]) for r in runs)
    wins = [sum(float(r["wins"][i]) for r in runs) for i in (0, 1)]

    def weighted(key: str, i: int) -> float | None:
        vals = [(r[key][i], r["games"]) for r in runs if r.get(key) and r[key][i] is not None]
        n = sum(g for _, g in vals)
        return sum(v * g for v, g in vals) / n if n else None

    variant, agents = next(iter(keys))
    return {
        "variant": variant,
        "agents": list(agents),
        "seeds": [r.get("seed") for r in runs],
        "noise": sorted({str(r.get("noise")) for r in runs}),
        "games": games,
        "wins": wins,
        "draws": sum(int(r.get("draws", 0)) for r in runs),
        "win_rate": [w / games for w in wins],
        "ci95": [list(wilson_interval(w, games)) for w in wins],
        "balls_per_visit": [weighted("balls_per_visit", i) for i in (0, 1)],
        "fouls_per_frame": [weighted("fouls_per_frame", i) for i in (0, 1)],
        "pot_rate": [weighted("pot_rate", i) for i in (0, 1)],
        "mean_shots": sum(r["mean_shots"] * r["games"] for r in runs) / games,
    }


def main(argv: list[str] | None = None) -> int:
    from piramida.agents.shots import SEARCHES

    ap = argparse.ArgumentParser(
        prog="python -m bench.planner", description=(__doc__ or "").split("\n")[0]
    )
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("positions", help="write bench/positions/reference.jsonl from seeds")
    d = sub.add_parser("decisions", help="pot rate, foul rate, time per decision")
    d.add_argument("--budgets", default="0.25,1")
    d.add_argument("--limit", type=int, default=None)
    d.add_argument("--seed", type=int, default=0)
    d.add_argument("--quick", action="store_true", help="the first 10 positions, one budget of 0.25 s")
    st = sub.add_parser("suggest-time", help="suggest --budget 1s wall time after warm-up")
    st.add_argument("--repeats", type=int, default=5)
    m = sub.add_parser("match", help="planner vs greedy duplicate games")
    m.add_argument("--variant", default="free")
    m.add_argument("--games", type=int, default=20)
    m.add_argument("--sims", type=int, default=300)
    m.add_argument("--budget", type=float, default=None, help="seconds instead of --sims")
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--value", default=None, help="planner's sample value: auto, race, turn")
    bu = sub.add_parser("budget-use", help="time and simulations a wall-time budget buys")
    bu.add_argument("--budget", type=float, default=1.0)
    bu.add_argument("--positions", type=int, default=8)
    bu.add_argument("--variants", default="free,combined,classic71")
    bu.add_argument("--samples", type=int, default=None, help="the planner's cap on samples a candidate")
    bu.add_argument("--json", action="store_true", help="print the figures as one JSON object (for bench.ab)")
    fp = sub.add_parser("fingerprint", help="the planner's top 3 plans in 35 positions, greedy's shots in 200")
    fp.add_argument("--sims", type=int, default=1000)
    fp.add_argument("--per-variant", type=int, default=5)
    fp.add_argument("--seed", type=int, default=0)
    fp.add_argument("--noise", default="pro")
    cp = sub.add_parser("compare", help="where two fingerprints differ")
    cp.add_argument("a", type=Path)
    cp.add_argument("b", type=Path)
    cp.add_argument("--search", choices=tuple(SEARCHES), default=None,
                    help="for each changed best shot, is A's still among this search's candidates?")
    c = sub.add_parser("combine", help="pool piramida match --json outputs")
    c.add_argument("files", nargs="+", type=Path)
    m.add_argument("--kw", default=None, help="more planner keywords as JSON")
    m.add_argument("--against", choices=("greedy", "planner"), default="greedy",
                   help="the opponent: greedy, or the planner as it is at the same budget")
    for p in (d, st, m, bu, fp, c):
        p.add_argument("--out", type=Path, default=None, help="write the result file here instead of bench/results/planner.json")
    a = ap.parse_args(argv)
    if a.cmd == "positions":
        from piramida.env.position_sets import write_reference

        n = write_reference(POSITIONS)
        print(f"{n} positions -> {POSITIONS.relative_to(REPO)}")
        return 0
    if a.cmd == "decisions":
        budgets = [float(x) for x in a.budgets.split(",") if x.strip()]
        if a.quick:
            budgets, a.limit = [0.25], 10
        out = decisions(budgets, a.limit, a.seed)
        for name, row in out["agents"].items():
            print(
                f"{name:<16} pot rate {row['pot_rate']:.3f}  foul rate {row['foul_rate']:.3f}  "
                f"time/decision mean {row['mean_s']:.3f} s, max {row['max_s']:.3f} s "
                f"({row['decisions']} positions, noise pro)"
            )
    elif a.cmd == "budget-use":
        out = budget_use(a.budget, a.positions, [v for v in a.variants.split(",") if v], a.samples)
        write_record("planner", out, argv, out=a.out, section="budget-use")
        if a.json:
            print(json.dumps(out))
            return 0
        for var, row in out["variants"].items():
            print(
                f"{var:<10} {row['positions']} positions: {row['mean_s']:.2f} s mean, {row['max_s']:.2f} s max; "
                f"strokes simulated {min(row['sims'])}-{max(row['sims'])} (mean {row['mean_sims']:.0f}) "
                f"(generation {min(row['generation_sims'])}-{max(row['generation_sims'])}), "
                f"candidates {min(row['candidates'])}-{max(row['candidates'])}"
            )
    elif a.cmd == "fingerprint":
        out = fingerprint(a.sims, a.per_variant, a.seed, a.noise)
        print(f"{len(out['planner'])} planner positions, {len(out.get('greedy', []))} greedy shots")
    elif a.cmd == "compare":
        fa, fb = (fingerprint_of(json.loads(p.read_text(encoding="utf-8"))) for p in (a.a, a.b))
        out = compare(fa, fb)
        if a.search is not None:
            out["best_shot_changes"] = still_offered(fa, fb, a.search)
        print(json.dumps(out))
    elif a.cmd == "combine":
        out = combine(a.files)
        lo, hi = out["ci95"][0]
        print(
            f"{out['variant']}: {out['agents'][0]} vs {out['agents'][1]}, {out['games']} games "
            f"(seeds {', '.join(str(x) for x in out['seeds'])}): {out['wins'][0]:g}-{out['wins'][1]:g}, "
            f"{out['agents'][0]} win rate {out['win_rate'][0]:.3f} (95% CI {lo:.3f}-{hi:.3f}), "
            f"draws {out['draws']}"
        )
        print(json.dumps(out))
    elif a.cmd == "suggest-time":
        out = suggest_time(a.repeats)
        print(
            f"suggest --budget 1s after warm-up: mean {out['mean_s']:.3f} s, max {out['max_s']:.3f} s "
            f"over {out['runs']} positions (target < 1.5 s)"
        )
    else:
        sims = None if a.budget is not None else a.sims
        out = match(a.variant, a.games, sims, a.budget, a.seed, a.value, json.loads(a.kw) if a.kw else None, a.against)
        print(out["summary"])
        lo, hi = out["ci95"][0]
        print(
            f"planner win rate {out['win_rate'][0]:.3f} (95% CI {lo:.3f}-{hi:.3f}) over {out['games']} games; "
            f"wall {out['wall_s']:.0f} s"
        )
    if a.cmd not in ("compare", "budget-use"):
        write_record("planner", json.loads(json.dumps(out, default=str)), argv, out=a.out, section=a.cmd)
    return 0


def fingerprint_of(d: dict[str, Any]) -> dict[str, Any]:
    """A fingerprint as ``fingerprint`` returns it, from itself or from a
    result file holding one (bench/record.py)."""
    if "benchmark" in d and "results" in d:
        return d["results"]["fingerprint"]["results"]
    return d


if __name__ == "__main__":
    sys.exit(main())
