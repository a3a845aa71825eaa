"""Pairs from the break against pairs from a book (eval/book.py): how
many pairs each design needs for the same 95% interval on the pair score.

    .venv/bin/python -m bench.books [--agents planner:sims=100,planner:sims=50] [--variant free] \\
        [--pairs 100] [--seed 21] [--book books/free.jsonl] [--dir out/books] [--width 0.05] [--json] [--out FILE]

The same two agents play ``--pairs`` duplicate pairs from the break and
``--pairs`` from the book (pair k from position k mod N), one worker each,
into ``DIR/break-SEED.sqlite`` and ``DIR/book-SEED.sqlite`` (a rerun
resumes them). For each design: the pentanomial, the mean pair score, the
standard deviation sigma of one pair's score, the share of pairs scoring
1/2 (each agent won one game, or both drawn: a pair that says nothing of
which is stronger), the share of games the first player to act won (the
breaker, or the book position's player to move), the pairs needed for a
95% interval of half-width w on the mean pair score, n = (1.96 sigma /
w)^2, and the pairs needed for that interval to exclude 1/2 at the
measured score, (1.96 sigma / (score - 1/2))^2 (what telling the two
agents apart takes), with fishtest's normalized Elo, and the time played.
Each pair of agents is its own section of ``bench/results/books.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

from bench.record import write as write_record

Z95 = 1.959964


def design(
    agents: tuple[str, str], variant: str, pairs: int, seed: int, db: Path, book: str = "", workers: int = 1
) -> dict[str, Any]:
    """Play (or resume) one design and measure its pairs (the first agent's
    score), on ``workers`` parallel games."""
    from piramida.eval.pairs import pair_stats
    from piramida.eval.report import first_mover, pairing_stats
    from piramida.eval.store import open_read
    from piramida.eval.tournament import TournamentConfig, run_tournament

    cfg = TournamentConfig(agents, (variant,), pairs, "pro", seed, "gauntlet", book=book)
    t0 = time.perf_counter()
    tid, prog = run_tournament(cfg, db, workers=workers)
    wall = time.perf_counter() - t0
    with open_read(db) as store:
        ids = {v: k for k, v in store.agents(tid).items()}
        games = store.games(tid)
    st = pairing_stats(games, ids[agents[0]], ids[agents[1]])
    ps = pair_stats(tuple(st["pentanomial"]))
    sigma = ps.var**0.5
    firsts = [g for g in games if first_mover(g) is not None]
    first_won = sum(g["winner"] == first_mover(g) for g in firsts) / len(firsts) if firsts else None
    return {
        "book": book or None,
        "pairs": ps.pairs,
        "pentanomial": list(ps.counts),
        "score": ps.score,
        "score_ci95": list(ps.score_ci),
        "sigma": sigma,
        "split_share": ps.counts[2] / ps.pairs if ps.pairs else None,
        "first_mover_wins": first_won,
        "nelo": ps.nelo if math.isfinite(ps.nelo) else None,
        "game_seconds": sum(g["duration_s"] for g in games),
        "played_now_s": wall if prog.done else 0.0,
    }


def _n(x: float | None) -> str:
    return "-" if x is None else f"{x:.0f}"


def needed(sigma: float, width: float) -> float:
    """Pairs for a 95% interval of half-width ``width``: (1.96 sigma / w)^2."""
    return (Z95 * sigma / width) ** 2


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--agents", default="planner:sims=100,planner:sims=50", help="two agent specs, comma-separated")
    ap.add_argument("--variant", default="free")
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--book", default="books/{variant}.jsonl")
    ap.add_argument("--dir", type=Path, default=Path("out/books"))
    ap.add_argument("--width", type=float, default=0.05, help="the interval's half-width on the pair score")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    ap.add_argument("--out", type=Path, default=None, help="write the result file here instead of bench/results/books.json")
    a = ap.parse_args(argv)
    agents = tuple(x.strip() for x in a.agents.split(","))
    if len(agents) != 2:
        ap.error("--agents takes two specs")
    book = a.book.replace("{variant}", a.variant)
    a.dir.mkdir(parents=True, exist_ok=True)
    tag = f"{a.variant}-{a.seed}-{'-'.join(x.replace(':', '_').replace('=', '') for x in agents)}"
    rack = design((agents[0], agents[1]), a.variant, a.pairs, a.seed, a.dir / f"break-{tag}.sqlite")
    from_book = design((agents[0], agents[1]), a.variant, a.pairs, a.seed, a.dir / f"book-{tag}.sqlite", book)
    for d in (rack, from_book):
        d["pairs_needed"] = needed(d["sigma"], a.width)
        d["half_width_at_n"] = Z95 * d["sigma"] / d["pairs"] ** 0.5 if d["pairs"] else None
        edge = abs(d["score"] - 0.5)
        d["pairs_to_resolve"] = needed(d["sigma"], edge) if edge > 0 else None
    out = {
        "agents": list(agents),
        "variant": a.variant,
        "seed": a.seed,
        "width": a.width,
        "break": rack,
        "book": from_book,
        "pairs_ratio": from_book["pairs_needed"] / rack["pairs_needed"] if rack["pairs_needed"] else None,
    }
    write_record("books", out, argv, out=a.out, section=f"{a.variant}: {agents[0]} vs {agents[1]}")
    if a.json:
        print(json.dumps(out))
    else:
        print(f"{agents[0]} vs {agents[1]} in {a.variant}, seed {a.seed}, pairs for a 95% half-width of {a.width}:")
        for name, d in (("break", rack), ("book", from_book)):
            print(f"  {name:<5} {d['pairs']} pairs {d['pentanomial']}: score {d['score']:.3f} "
                  f"[{d['score_ci95'][0]:.3f}, {d['score_ci95'][1]:.3f}], sigma {d['sigma']:.3f} a pair, "
                  f"{100 * d['split_share']:.0f}% split 1-1, first mover won {100 * d['first_mover_wins']:.0f}%, "
                  f"needs {d['pairs_needed']:.0f} pairs, {_n(d['pairs_to_resolve'])} to tell them apart "
                  f"(nElo {'-' if d['nelo'] is None else format(d['nelo'], '+.0f')}; "
                  f"{d['game_seconds']:.0f} s of games)")
        if out["pairs_ratio"] is not None:
            print(f"  the book needs {out['pairs_ratio']:.2f}x the pairs of the break")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
