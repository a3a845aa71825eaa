"""One rating list from the pairs of several results files, as Ordo
makes one from many PGN files (``piramida report A.sqlite B.sqlite``).

Every whole duplicate pair of every tournament of every file is one
result: agent A's pair score s against B (the mean of its two game
scores: 0, 1/4, 1/2, 3/4 or 1; eval/pairs.py). An agent is its spec: the
same spec in two files is the same player. Pairs are pooled per variant
and noise preset (strengths in free pyramid say nothing of combined).

The model is the logistic one of Elo on the pair: E[s] = 1 / (1 + exp(-(r_A
- r_B))), fitted by maximum likelihood with each pair a fractional
Bernoulli trial (log-likelihood s log p + (1 - s) log(1 - p), as Ordo and
BayesElo count a draw as half a win), Newton's method, one agent anchored
at 0. For a single pairing the fit is the closed form r_A - r_B =
logit(mean pair score); on a chain A-B, B-C it is that on each link. In
Elo: 400 / ln 10 times the logistic scale.

The maximum-likelihood ratings are finite only where no group of agents
scored nothing against the rest (the graph of "scored against" is
strongly connected); otherwise every pairing that met gets one virtual
drawn pair, BayesElo's prior, and the report says so.

A rating's 95% interval is the hull of two: the normal approximation from
the log-likelihood's curvature at the fit (the inverse Hessian, the anchor
fixed), and a bootstrap that resamples the pairs of each pairing in each
file (``bootstrap`` times, refitted each time). The curvature takes a pair
as a Bernoulli trial of variance p (1 - p); a pair's score varies less
where many pairs split 1-1, and the bootstrap sees that, but it fails on
small or one-sided samples (every resample the same), where the curvature
does not. The LOS of A over B is Phi(d / sd), d the difference of their
ratings and sd the larger of its two standard deviations (curvature,
bootstrap).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np

from piramida.env.errors import PiramidaError
from piramida.eval.store import StoreError, open_read

ELO_PER_NAT = 400 / math.log(10)
Z95 = 1.959964
#: Virtual drawn pairs per pairing where the maximum likelihood is infinite.
PRIOR_PAIRS = 1.0
#: The anchors tried in order when none is named.
ANCHORS = ("greedy", "random")


class PooledError(PiramidaError):
    """Results files that cannot be pooled into one rating list."""


@dataclass(frozen=True)
class PairResult:
    """One whole duplicate pair: ``a``'s pair score against ``b``."""

    file: int
    variant: str
    noise: str
    a: str
    b: str
    score: float
    #: The unit a bootstrap resamples within: (file, pairing).
    group: tuple[int, str, str]


def read_pairs(paths: Sequence[str | Path]) -> tuple[list[PairResult], list[dict[str, Any]]]:
    """The whole pairs of every tournament of every file (each opened
    read-only), and per file its tournaments, games and pairs."""
    pairs: list[PairResult] = []
    files: list[dict[str, Any]] = []
    for i, path in enumerate(paths):
        with open_read(path) as store:
            tournaments = store.tournaments()
            if not tournaments:
                raise StoreError(f"{path}: no tournament stored yet")
            names = store.agents()
            games = store.games()
        noise = {t["id"]: str(t["config"].get("noise", "pro")) for t in tournaments}
        by_pair: dict[tuple[int, str, int, int, int], list[float]] = {}
        for g in games:
            key = (g["tournament_id"], g["variant"], g["agent_a"], g["agent_b"], g["pair"])
            won = g["winner"]
            by_pair.setdefault(key, []).append(0.5 if won is None else float(won == g["agent_a"]))
        n = 0
        for (tid, variant, a, b, _), scores in sorted(by_pair.items()):
            if len(scores) != 2:
                continue  # an unfinished pair
            sa, sb = names[a], names[b]
            lo, hi = sorted((sa, sb))
            pairs.append(PairResult(i, variant, noise[tid], sa, sb, sum(scores) / 2, (i, lo, hi)))
            n += 1
        files.append({"path": str(path), "tournaments": len(tournaments), "games": len(games), "pairs": n})
    return pairs, files


def _tables(pairs: Sequence[PairResult], names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Pairs played (n) and score won (S) by every ordered two agents."""
    idx = {n: i for i, n in enumerate(names)}
    k = len(names)
    n = np.zeros((k, k))
    s = np.zeros((k, k))
    for p in pairs:
        i, j = idx[p.a], idx[p.b]
        n[i, j] += 1
        n[j, i] += 1
        s[i, j] += p.score
        s[j, i] += 1 - p.score
    return n, s


def _reach(adj: np.ndarray, start: int) -> set[int]:
    seen, todo = {start}, [start]
    while todo:
        i = todo.pop()
        for j in np.nonzero(adj[i])[0]:
            if int(j) not in seen:
                seen.add(int(j))
                todo.append(int(j))
    return seen


def connected(n: np.ndarray) -> bool:
    """Whether every agent is linked to every other through pairs played."""
    return len(_reach(n > 0, 0)) == len(n)


def finite_mle(n: np.ndarray, s: np.ndarray) -> bool:
    """Whether the maximum-likelihood ratings are finite: every agent
    reaches every other along "scored something against" (the graph is
    strongly connected; Zermelo 1929, Ford 1957)."""
    adj = (s > 0) & (n > 0)
    k = len(n)
    return len(_reach(adj, 0)) == k and len(_reach(adj.T, 0)) == k


def fit(n: np.ndarray, s: np.ndarray, anchor: int) -> tuple[np.ndarray, np.ndarray, bool]:
    """Strengths (logistic scale, ``anchor`` at 0), their covariance from
    the inverse curvature (the anchor's row and column 0), and whether the
    virtual draws were added."""
    k = len(n)
    prior = not finite_mle(n, s)
    if prior:
        met = (n > 0).astype(float)
        n = n + PRIOR_PAIRS * met
        s = s + PRIOR_PAIRS * met / 2
    free = [i for i in range(k) if i != anchor]
    theta = np.zeros(k)
    hess = np.eye(len(free))
    for _ in range(200):
        d = theta[:, None] - theta[None, :]
        p = 1 / (1 + np.exp(-d))
        grad = (s - n * p).sum(axis=1)
        w = n * p * (1 - p)
        h = np.diag(w.sum(axis=1)) - w  # minus the log-likelihood's Hessian
        hess = h[np.ix_(free, free)]
        step = np.linalg.solve(hess, grad[free])
        # Damped where a step is long (far from the fit, the curvature is flat).
        big = float(np.max(np.abs(step))) if len(step) else 0.0
        if big > 2.0:
            step *= 2.0 / big
        theta[free] += step
        if big < 1e-12:
            break
    cov = np.zeros((k, k))
    cov[np.ix_(free, free)] = np.linalg.inv(hess)
    return theta, cov, prior


def _components(n: np.ndarray, names: list[str]) -> list[list[str]]:
    left = set(range(len(names)))
    out = []
    while left:
        part = _reach(n > 0, min(left))
        out.append(sorted(names[i] for i in part))
        left -= part
    return out


def pick_anchor(names: Sequence[str], wanted: str | None, pairs_of: dict[str, int]) -> str:
    """``wanted``, else greedy, else random, else the agent of the most
    pairs (the first by name among equals)."""
    if wanted is not None:
        if wanted not in names:
            raise PooledError(f"--anchor {wanted} played no whole pair in these files (agents: {', '.join(names)})")
        return wanted
    for a in ANCHORS:
        if a in names:
            return a
    return min(names, key=lambda x: (-pairs_of[x], x))


def rate_group(
    pairs: Sequence[PairResult], anchor: str | None = None, bootstrap: int = 200, seed: int = 0
) -> dict[str, Any]:
    """The rating list of one variant's pairs (see the module docstring)."""
    names = sorted({p.a for p in pairs} | {p.b for p in pairs})
    n, s = _tables(pairs, names)
    if not connected(n):
        parts = " | ".join(", ".join(c) for c in _components(n, names))
        raise PooledError(f"no pairs link these groups of agents, so they have no common rating list: {parts}")
    pairs_of = {x: int(n[i].sum()) for i, x in enumerate(names)}
    anchor = pick_anchor(names, anchor, pairs_of)
    ai = names.index(anchor)
    theta, cov, prior = fit(n, s, ai)
    elo = theta * ELO_PER_NAT
    k = len(names)
    var_diff = (np.diag(cov)[:, None] + np.diag(cov)[None, :] - 2 * cov) * ELO_PER_NAT**2
    samples = np.zeros((0, k))
    if bootstrap > 0:
        rng = np.random.default_rng(seed)
        groups: dict[tuple[int, str, str], list[PairResult]] = {}
        for p in pairs:
            groups.setdefault(p.group, []).append(p)
        runs = []
        for _ in range(bootstrap):
            picked = [g[i] for g in groups.values() for i in rng.integers(len(g), size=len(g))]
            bn, bs = _tables(picked, names)
            runs.append(fit(bn, bs, ai)[0] * ELO_PER_NAT)
        samples = np.array(runs)
    agents: dict[str, Any] = {}
    for i, x in enumerate(names):
        half = Z95 * math.sqrt(max(0.0, cov[i, i])) * ELO_PER_NAT
        lo, hi = elo[i] - half, elo[i] + half
        if len(samples):
            lo = min(lo, float(np.percentile(samples[:, i], 2.5)))
            hi = max(hi, float(np.percentile(samples[:, i], 97.5)))
        agents[x] = {"elo": float(elo[i]), "ci95": [lo, hi], "pairs": pairs_of[x],
                     "score": float(s[i].sum() / n[i].sum())}
    phi = NormalDist().cdf
    los: dict[str, dict[str, float | None]] = {}
    for i, x in enumerate(names):
        los[x] = {}
        for j, y in enumerate(names):
            if i == j:
                los[x][y] = None
                continue
            sd = math.sqrt(max(0.0, float(var_diff[i, j])))
            if len(samples):
                sd = max(sd, float(np.std(samples[:, i] - samples[:, j])))
            d = float(elo[i] - elo[j])
            los[x][y] = phi(d / sd) if sd > 0 else 0.5 + 0.5 * math.copysign(1.0, d) * (d != 0)
    pairings = []
    for i, x in enumerate(names):
        for j in range(i + 1, k):
            if n[i, j] > 0:
                pairings.append({"agents": [x, names[j]], "pairs": int(n[i, j]), "score": float(s[i, j] / n[i, j])})
    return {"anchor": anchor, "pairs": len(pairs), "prior": prior, "agents": agents, "los": los,
            "pairings": pairings}


def pooled(paths: Sequence[str | Path], anchor: str | None = None, bootstrap: int = 200) -> dict[str, Any]:
    """The pooled report of ``paths``: the files read, and per variant and
    noise preset a rating list with intervals and LOS (``rate_group``)."""
    pairs, files = read_pairs(paths)
    if not pairs:
        raise PooledError(f"no whole pair in {', '.join(str(p) for p in paths)}: nothing to rate")
    keys = sorted({(p.variant, p.noise) for p in pairs})
    everyone = sorted({p.a for p in pairs} | {p.b for p in pairs})
    if anchor is not None:
        pick_anchor(everyone, anchor, {})  # one line naming the agents there are
    groups = []
    for variant, noise in keys:
        these = [p for p in pairs if (p.variant, p.noise) == (variant, noise)]
        names = {p.a for p in these} | {p.b for p in these}
        # A list the named anchor is not in takes the default anchor.
        here = anchor if anchor in names else None
        groups.append({"variant": variant, "noise": noise} | rate_group(these, here, bootstrap))
    return {"files": files, "method": METHOD, "bootstrap": bootstrap, "groups": groups}


METHOD = ("maximum likelihood on whole duplicate pairs (expected pair score = logistic of the Elo difference); "
          "95% interval: the hull of a pair bootstrap and the inverse curvature's normal approximation")


def _fmt(x: float) -> str:
    return f"{x:+.0f}" if math.isfinite(x) else "-"


def pooled_text(rep: dict[str, Any]) -> str:
    """The pooled report as text for the terminal."""
    files = "; ".join(f"{f['path']} ({f['tournaments']} tournament{'s' * (f['tournaments'] != 1)}, "
                      f"{f['pairs']} pairs)" for f in rep["files"])
    lines = [f"pooled over {len(rep['files'])} files: {files}", f"method: {rep['method']} ({rep['bootstrap']} resamples)"]
    for g in rep["groups"]:
        note = "; with one virtual drawn pair a pairing (someone scored nothing against the rest)" if g["prior"] else ""
        lines.append(f"{g['variant']} (noise {g['noise']}): {g['pairs']} pairs, Elo with {g['anchor']} = 0{note}")
        order = sorted(g["agents"], key=lambda x: -g["agents"][x]["elo"])
        width = max(len(x) for x in order)
        for rank, x in enumerate(order, 1):
            r = g["agents"][x]
            lines.append(f"  {rank:>2} {x:<{width}}  {_fmt(r['elo']):>6} [{_fmt(r['ci95'][0])}, {_fmt(r['ci95'][1])}]"
                         f"  pairs {r['pairs']:>5}  score {r['score']:.3f}")
        lines.append("  LOS, % (row agent stronger than column agent):")
        lines.append("  " + " " * (width + 4) + " ".join(f"{j:>5}" for j in range(1, len(order) + 1)))
        for rank, x in enumerate(order, 1):
            cells = " ".join("    -" if (v := g["los"][x][y]) is None else f"{100 * v:5.1f}" for y in order)
            lines.append(f"  {rank:>2} {x:<{width}} {cells}")
    return "\n".join(lines)


__all__ = [
    "METHOD",
    "PairResult",
    "PooledError",
    "connected",
    "finite_mle",
    "fit",
    "pick_anchor",
    "pooled",
    "pooled_text",
    "rate_group",
    "read_pairs",
]
