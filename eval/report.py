"""What a results file says: per variant the ratings, the pair statistics
of every pairing, the likelihood of superiority of every agent over every
other, each agent's play statistics, the best agent where the difference
is significant, and one table of agents by variants; whether the
tournament is complete; for a sequential test (``piramida sprt``) its
verdict, LLR and bounds, and the LLR pair by pair. ``analyse`` builds it as plain data (``piramida report --json``);
``to_html`` renders it with the pictures embedded (``--html``), ``figures``
writes the pictures as PNG files and ``to_markdown`` the tables as
Markdown (``--figures``, ``--markdown``: what docs/evaluation.md shows).
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from piramida.eval.pairs import llr, pair_score, pair_stats, pentanomial, sprt_result
from piramida.eval.ratings import Game, los_matrix, rate
from piramida.eval.store import StoreError, open_read

#: A difference is significant when the likelihood of superiority is at
#: least this (the one-sided tail of a two-sided 95% test).
SIGNIFICANT_LOS = 0.975

_STATS = ("balls", "visits", "fouls", "breaks", "breaks_legal", "pot_attempts", "pots_made", "safeties")


def _score_of(winner: int | None, agent: int) -> float:
    return 0.5 if winner is None else float(winner == agent)


def first_mover(g: dict[str, Any]) -> int | None:
    """The agent who acted first in a stored game: its breaker, or in a
    game from a book position the player to move (``stats.opened``)."""
    if g["breaker"] is not None:
        return int(g["breaker"])
    opened = g["stats"].get("opened") or [0, 0]
    return g["agent_a"] if opened[0] else g["agent_b"] if opened[1] else None


def starts_line(config: dict[str, Any]) -> str:
    """Where the tournament's pairs start: the rack, or a book."""
    book = config.get("book")
    if not book:
        return "start positions: the break (a rack a pair)"
    counts = ", ".join(f"{v} {n}" for v, n in book["positions"].items())
    return f"start positions: book {book['file']} (pair k from position k mod N; positions: {counts})"


def edge_name(config: dict[str, Any]) -> str:
    """What the ratings' first-mover parameter is: the break's edge, or in
    a book's games the edge of the player to move."""
    return "first mover's edge" if config.get("book") else "breaker's edge"


def pairing_stats(games: Sequence[dict[str, Any]], a: int, b: int) -> dict[str, Any]:
    """Agent ``a``'s pair statistics against ``b`` (whole pairs only)."""
    by_pair: dict[int, list[float]] = {}
    for g in games:
        if {g["agent_a"], g["agent_b"]} == {a, b}:
            by_pair.setdefault(g["pair"], []).append(_score_of(g["winner"], a))
    counts = pentanomial(pair_score(*s) for s in by_pair.values() if len(s) == 2)
    return pair_stats(counts).to_dict()


def stored_pairing(db: str | Path, tid: int, a: str, b: str, pairs: int | None = None) -> dict[str, Any]:
    """``pairing_stats`` of the agents with specs ``a`` and ``b`` in
    tournament ``tid`` of the results file ``db`` (opened read-only), over
    its first ``pairs`` pairs where given (a sequential test reads a
    tournament that grows past them)."""
    with open_read(db) as store:
        ids = {v: k for k, v in store.agents(tid).items()}
        games = [g for g in store.games(tid) if pairs is None or g["pair"] < pairs]
    return pairing_stats(games, ids[a], ids[b])


def agent_stats(games: Sequence[dict[str, Any]], agent: int) -> dict[str, Any]:
    """Play statistics of one agent over its games."""
    tot = dict.fromkeys(_STATS, 0)
    frames = won = broke = won_broke = one_visit = shots = 0
    for g in games:
        if agent not in (g["agent_a"], g["agent_b"]):
            continue
        side = 0 if g["agent_a"] == agent else 1
        st = g["stats"]
        for k in _STATS:
            tot[k] += int(st.get(k, [0, 0])[side])
        frames += 1
        shots += g["shots"]
        won += g["winner"] == agent
        if g["breaker"] == agent:
            broke += 1
            won_broke += g["winner"] == agent
        if g["winner"] == agent and int(st["visits"][side]) == 1:
            one_visit += 1

    def ratio(n: float, d: float) -> float | None:
        return n / d if d else None

    return {
        "frames": frames,
        "win_rate": ratio(won, frames),
        "pot_rate": ratio(tot["pots_made"], tot["pot_attempts"]),
        "balls_per_visit": ratio(tot["balls"], tot["visits"]),
        "fouls_per_frame": ratio(tot["fouls"], frames),
        "safeties_per_frame": ratio(tot["safeties"], frames),
        "break_legal": ratio(tot["breaks_legal"], tot["breaks"]),
        "won_breaking": ratio(won_broke, broke),
        "won_in_one_visit": ratio(one_visit, frames),
        "mean_shots": ratio(shots, frames),
    }


def variant_agents(config: dict[str, Any], variant: str) -> list[str]:
    """The agents of a tournament's configuration that play ``variant``
    (its ``only`` table names those that play some variants only)."""
    only = config.get("only") or {}
    return [a for a in config["agents"] if variant in only.get(a, config["variants"])]


def expected_games(config: dict[str, Any]) -> int:
    """How many games a tournament's configuration implies."""
    total = 0
    first = config["agents"][0]
    for v in config["variants"]:
        names = variant_agents(config, v)
        n = len(names)
        if config.get("format") == "gauntlet":
            pairings = n - 1 if first in names else 0
        else:
            pairings = n * (n - 1) // 2
        total += pairings
    return total * int(config["pairs"]) * 2


def best_of(ratings: dict[str, Any], los: dict[str, dict[str, float | None]]) -> dict[str, Any]:
    """The best agent of a variant, claimed only where significant: the
    agent of the highest Elo and every agent it does not beat with a
    likelihood of superiority of ``SIGNIFICANT_LOS`` (from their pairs, or
    from the ratings where they never met). One leader: ``significant``;
    several: co-leaders, the top and those it is not significantly ahead
    of (pair results need not be transitive: an agent rated between two
    co-leaders may be significantly behind the top)."""
    if not ratings:
        return {"leaders": [], "significant": False, "text": "no games"}
    order = sorted(ratings, key=lambda n: -ratings[n]["elo"])
    top = order[0]
    leaders = [top] + [n for n in order[1:] if (los[top].get(n) or 0.0) < SIGNIFICANT_LOS]
    if len(leaders) == 1:
        text = f"{top} (significantly ahead of every other agent)"
    else:
        others = ", ".join(leaders[1:-1])
        rest = f"{others} and {leaders[-1]}" if others else leaders[-1]
        text = f"no significant leader: {top} (highest Elo) is not significantly ahead of {rest}"
    return {"leaders": leaders, "significant": len(leaders) == 1, "text": text}


def analyse(db: str, tournament: int | None = None, bootstrap: int = 200) -> dict[str, Any]:
    """The report of one tournament in ``db`` (the latest by default); the
    file is opened read-only."""
    with open_read(db) as store:
        ts = store.tournaments()
        if not ts:
            raise StoreError(f"{db}: no tournament stored yet")
        t = next((x for x in ts if x["id"] == tournament), None) if tournament is not None else ts[-1]
        if t is None:
            raise StoreError(f"{db}: no tournament {tournament} (stored: {', '.join(str(x['id']) for x in ts)})")
        names = store.agents(t["id"])
        games = store.games(t["id"])
        seq = store.sequential(t["id"])
    if seq is None and " sprt " in f" {t['command']} ":
        seq = sprt_params(t["command"])
    variants: dict[str, Any] = {}
    anchor = "greedy" if "greedy" in names.values() else None
    for v in t["config"]["variants"]:
        vg = [g for g in games if g["variant"] == v]
        rgames = [
            Game(names[first], names[g["agent_b"] if first == g["agent_a"] else g["agent_a"]],
                 _score_of(g["winner"], first), f"{g['agent_a']}-{g['agent_b']}-{g['pair']}")
            for g in vg if (first := first_mover(g)) is not None
        ]
        ratings, edge = rate(rgames, anchor=anchor, bootstrap=bootstrap) if rgames else ({}, 0.0)
        playing = set(variant_agents(t["config"], v))
        ids = sorted(a for a in names if names[a] in playing)
        met = {frozenset((g["agent_a"], g["agent_b"])) for g in vg}
        stats = {(a, b): pairing_stats(vg, a, b) for a in ids for b in ids if a != b and frozenset((a, b)) in met}
        pairs = {f"{names[a]} vs {names[b]}": stats[(a, b)] for i, a in enumerate(ids) for b in ids[i + 1:]
                 if (a, b) in stats}
        matrix = {names[a]: {names[b]: stats[(a, b)]["score"] if (a, b) in stats else None for b in ids} for a in ids}
        # The likelihood of superiority: from the pairs two agents played
        # (the pair is the unit), from the ratings where they never met.
        by_rating = los_matrix(rgames, anchor) if rgames else {}
        los: dict[str, dict[str, float | None]] = {
            names[a]: {
                names[b]: None if a == b else stats[(a, b)]["los"] if (a, b) in stats
                else by_rating.get(names[a], {}).get(names[b])
                for b in ids
            }
            for a in ids
        }
        rated = {n: {"elo": r.elo, "ci95": list(r.ci95), "games": r.games} for n, r in ratings.items()}
        variants[v] = {
            "games": len(vg),
            "ratings": rated,
            "breaker_edge_elo": edge,
            "pairs": pairs,
            "score_matrix": matrix,
            "los_matrix": los,
            "best": best_of(rated, los),
            "agents": {names[a]: agent_stats(vg, a) for a in ids},
        }
    expected = expected_games(t["config"])
    out = {
        "tournament": {k: t[k] for k in ("id", "config", "command", "version", "created")},
        "games": len(games),
        "expected_games": expected,
        "complete": len(games) >= expected,
        "variants": variants,
        "best": {v: d["best"] for v, d in variants.items()},
    }
    if seq is not None and len(t["config"]["agents"]) == 2:
        ids = {spec: i for i, spec in names.items()}
        a, b = (ids[x] for x in t["config"]["agents"])
        cap = int(t["config"]["pairs"])
        out["sprt"] = sprt_report([g for g in games if g["pair"] < cap], a, b, seq)
    return out


#: The most points of the LLR curve kept (pairs spread evenly).
LLR_POINTS = 400


def sprt_params(command: str) -> dict[str, float]:
    """A sequential test's parameters read from its stored command line
    (files written before they were kept apart); the command's defaults
    where it gave none."""
    import shlex

    params = {"elo0": 0.0, "elo1": 20.0, "alpha": 0.05, "beta": 0.05}
    try:
        words = shlex.split(command)
    except ValueError:
        return params
    for i, w in enumerate(words):
        name, eq, value = w.partition("=")
        if not eq and i + 1 < len(words):
            value = words[i + 1]
        key = name.removeprefix("--")
        if name.startswith("--") and key in params:
            try:
                params[key] = float(value)
            except ValueError:
                pass
    return params


def sprt_report(games: Sequence[dict[str, Any]], a: int, b: int, params: dict[str, Any]) -> dict[str, Any]:
    """A sequential test's state: the verdict (``H0``, ``H1`` or ``none``),
    the LLR and its bounds on the whole pairs stored, and the LLR after each
    pair in the order the pairs were played (``llr_curve``: [pairs, LLR])."""
    by_pair: dict[int, list[float]] = {}
    for g in sorted(games, key=lambda g: g["id"]):
        if {g["agent_a"], g["agent_b"]} == {a, b}:
            by_pair.setdefault(g["pair"], []).append(_score_of(g["winner"], a))
    scores = [pair_score(*s) for _, s in sorted(by_pair.items()) if len(s) == 2]
    e0, e1, al, be = (float(params[k]) for k in ("elo0", "elo1", "alpha", "beta"))
    counts = [0] * 5
    curve: list[list[float]] = [[0, 0.0]]
    step = max(1, math.ceil(len(scores) / LLR_POINTS))
    for i, x in enumerate(scores, 1):
        counts[round(4 * x)] += 1
        if i % step == 0 or i == len(scores):
            curve.append([i, llr(counts, e0, e1)])
    res = sprt_result(counts, e0, e1, al, be)
    return {"elo0": e0, "elo1": e1, "alpha": al, "beta": be, "result": res["result"], "llr": res["llr"],
            "bounds": res["bounds"], "pairs": res["pairs"], "pentanomial": counts, "llr_curve": curve}


def sprt_line(s: dict[str, Any]) -> str:
    """The verdict of a sequential test in one line."""
    verdict = {"H1": f"H1 accepted (Elo >= {s['elo1']:g})", "H0": f"H0 accepted (Elo <= {s['elo0']:g})",
               "none": "undecided"}[s["result"]]
    return (f"sequential test Elo [{s['elo0']:g}, {s['elo1']:g}], alpha {s['alpha']:g}, beta {s['beta']:g}: "
            f"{verdict} after {s['pairs']} pairs; LLR {s['llr']:+.2f} (bounds {s['bounds'][0]:+.2f}, "
            f"{s['bounds'][1]:+.2f})")


def llr_png(s: dict[str, Any]) -> bytes:
    """The LLR of a sequential test after each pair, with its bounds."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7.0, 3.2))
    xs = [p for p, _ in s["llr_curve"]]
    ax.plot(xs, [v for _, v in s["llr_curve"]], color="C0", lw=1.2, label="LLR")
    for y, name in zip(s["bounds"], ("accept H0", "accept H1"), strict=True):
        ax.axhline(y, color="C3" if y < 0 else "C2", ls="--", lw=0.9, label=f"{name} ({y:+.2f})")
    ax.axhline(0.0, color="0.7", lw=0.6)
    ax.set_xlabel("pairs")
    ax.set_ylabel("log-likelihood ratio")
    ax.set_title(f"SPRT Elo [{s['elo0']:g}, {s['elo1']:g}]: {s['result'] if s['result'] != 'none' else 'undecided'}",
                 fontsize=9)
    ax.legend(fontsize=8, loc="best")
    out = png_bytes(fig)
    plt.close(fig)
    return out


def status_line(rep: dict[str, Any]) -> str:
    """One line on whether the tournament is complete."""
    if rep["complete"]:
        return f"complete: {rep['games']} of {rep['expected_games']} games"
    sequential = " sprt " in f" {rep['tournament']['command']} "
    why = ("a sequential test stops when it decides" if sequential
           else "unfinished: the same command resumes it")
    return f"{rep['games']} of {rep['expected_games']} games stored ({why})"


def png_bytes(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return buf.getvalue()


def pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def heatmap_png(variant: str, matrix: dict[str, dict[str, float | None]]) -> bytes:
    """The score matrix (row agent's pair score against the column agent)
    as PNG bytes."""
    import numpy as np

    plt = pyplot()
    names = list(matrix)
    data = np.array([[np.nan if matrix[a][b] is None else matrix[a][b] for b in names] for a in names], dtype=float)
    fig, ax = plt.subplots(figsize=(1.2 + 0.9 * len(names), 0.9 + 0.7 * len(names)))
    im = ax.imshow(data, vmin=0, vmax=1, cmap="RdYlGn")
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(len(names)), names, fontsize=8)
    for i in range(len(names)):
        for j in range(len(names)):
            if not math.isnan(data[i, j]):
                ax.text(j, i, f"{data[i, j]:.2f}", ha="center", va="center", fontsize=8)
    ax.set_title(f"{variant}: pair score of the row agent against the column agent", fontsize=9)
    fig.colorbar(im, ax=ax, fraction=0.04)
    out = png_bytes(fig)
    plt.close(fig)
    return out


def heatmap(variant: str, matrix: dict[str, dict[str, float | None]]) -> str:
    """``heatmap_png`` as base64 (for the HTML page)."""
    return base64.b64encode(heatmap_png(variant, matrix)).decode()


def ratings_png(rep: dict[str, Any]) -> bytes:
    """Every agent's Elo (greedy = 0) with its 95% interval, one row of
    markers per agent and a colour per variant."""
    plt = pyplot()
    variants = rep["variants"]
    names = sorted({n for d in variants.values() for n in d["ratings"]},
                   key=lambda n: -max(d["ratings"].get(n, {"elo": -1e9})["elo"] for d in variants.values()))
    fig, ax = plt.subplots(figsize=(7.5, 0.9 + 0.55 * len(names)))
    k = max(1, len(variants))
    for j, (v, d) in enumerate(variants.items()):
        label: str | None = v
        for i, n in enumerate(names):
            r = d["ratings"].get(n)
            if r is None or not all(math.isfinite(x) for x in (r["elo"], *r["ci95"])):
                continue
            y = i + (j - (k - 1) / 2) * 0.22
            ax.errorbar(r["elo"], y, xerr=[[r["elo"] - r["ci95"][0]], [r["ci95"][1] - r["elo"]]], fmt="o",
                        color=f"C{j}", capsize=3, label=label)
            label = None  # one legend entry per variant
    ax.axvline(0.0, color="0.6", lw=0.8)
    ax.set_yticks(range(len(names)), names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("Elo (greedy = 0), 95% interval by bootstrap over pairs")
    ax.legend(fontsize=8, loc="lower right")
    out = png_bytes(fig)
    plt.close(fig)
    return out


def figures(rep: dict[str, Any], out_dir: str | Path) -> list[Path]:
    """Write the report's pictures into ``out_dir``: ``ratings.png`` and a
    ``score_VARIANT.png`` per variant; the paths written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "ratings.png"]
    written[0].write_bytes(ratings_png(rep))
    for v, d in rep["variants"].items():
        path = out / f"score_{v}.png"
        path.write_bytes(heatmap_png(v, d["score_matrix"]))
        written.append(path)
    return written


def _fmt(x: Any, spec: str = ".2f") -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "-"
    return format(x, spec)


def to_html(rep: dict[str, Any]) -> str:
    """A self-contained HTML page (pictures embedded, no outside links)."""
    e = html.escape
    t = rep["tournament"]
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>piramida tournament report</title>",
        "<style>body{font-family:sans-serif;margin:2em;max-width:72em}table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#eee}"
        "td:first-child,th:first-child{text-align:left}</style></head><body>",
        f"<h1>Tournament {t['id']}</h1><p>{rep['games']} games; agents {e(', '.join(t['config']['agents']))}; "
        f"noise {e(str(t['config']['noise']))}; seed {t['config']['seed']}; code {e(t['version'])}</p>"
        f"<p><code>{e(t['command'])}</code></p><p>{e(status_line(rep))}</p><p>{e(starts_line(t['config']))}</p>",
    ]
    if "sprt" in rep:
        png = base64.b64encode(llr_png(rep["sprt"])).decode()
        parts.append(f"<h2>Sequential test</h2><p>{e(sprt_line(rep['sprt']))}; pentanomial "
                     f"{rep['sprt']['pentanomial']}</p><img alt='LLR' src='data:image/png;base64,{png}'>")
    variants = rep["variants"]
    names = sorted({n for d in variants.values() for n in d["agents"]})
    parts.append("<h2>Agents by variant (Elo, greedy = 0)</h2><table><tr><th>agent</th>")
    parts += [f"<th>{e(v)}</th>" for v in variants]
    parts.append("</tr>")
    for n in names:
        parts.append(f"<tr><td>{e(n)}</td>")
        for d in variants.values():
            r = d["ratings"].get(n)
            parts.append(f"<td>{_fmt(r['elo'], '+.0f') if r else '-'}</td>")
        parts.append("</tr>")
    parts.append("</table>")
    parts.append("<h2>Best per variant</h2><ul>")
    parts += [f"<li>{e(v)}: {e(d['best']['text'])}</li>" for v, d in variants.items()]
    parts.append("</ul>")
    if any(d["ratings"] for d in variants.values()):
        parts.append(f"<img alt='ratings' src='data:image/png;base64,{base64.b64encode(ratings_png(rep)).decode()}'>")
    for v, d in variants.items():
        parts.append(f"<h2>{e(v)}</h2><p>{d['games']} games; {edge_name(t['config'])} "
                     f"{_fmt(d['breaker_edge_elo'], '+.0f')} Elo; "
                     f"best: {e(d['best']['text'])}</p>")
        parts.append("<table><tr><th>agent</th><th>Elo</th><th>95% interval</th><th>games</th></tr>")
        for n, r in sorted(d["ratings"].items(), key=lambda kv: -kv[1]["elo"]):
            parts.append(f"<tr><td>{e(n)}</td><td>{_fmt(r['elo'], '+.0f')}</td>"
                         f"<td>[{_fmt(r['ci95'][0], '+.0f')}, {_fmt(r['ci95'][1], '+.0f')}]</td><td>{r['games']}</td></tr>")
        parts.append("</table>")
        parts.append(f"<img alt='score matrix {e(v)}' src='data:image/png;base64,{heatmap(v, d['score_matrix'])}'>")
        parts.append("<table><tr><th>pairing</th><th>pairs</th><th>pentanomial</th><th>score</th><th>95%</th>"
                     "<th>Elo</th><th>nElo</th><th>LOS</th></tr>")
        for name, p in d["pairs"].items():
            parts.append(f"<tr><td>{e(name)}</td><td>{p['pairs']}</td><td>{p['pentanomial']}</td>"
                         f"<td>{_fmt(p['score'], '.3f')}</td><td>[{_fmt(p['score_ci95'][0], '.3f')}, "
                         f"{_fmt(p['score_ci95'][1], '.3f')}]</td><td>{_fmt(p['elo'], '+.0f')}</td>"
                         f"<td>{_fmt(p['nelo'], '+.0f')}</td><td>{_fmt(p['los'], '.3f')}</td></tr>")
        parts.append("</table>")
        los = d["los_matrix"]
        parts.append("<table><tr><th>LOS: row stronger than column</th>"
                     + "".join(f"<th>{e(b)}</th>" for b in los) + "</tr>")
        for a, row in los.items():
            parts.append(f"<tr><td>{e(a)}</td>" + "".join(f"<td>{_fmt(x, '.3f')}</td>" for x in row.values()) + "</tr>")
        parts.append("</table>")
        cols = ("win_rate", "pot_rate", "balls_per_visit", "fouls_per_frame", "safeties_per_frame",
                "break_legal", "won_breaking", "won_in_one_visit", "mean_shots")
        parts.append("<table><tr><th>agent</th>" + "".join(f"<th>{c.replace('_', ' ')}</th>" for c in cols) + "</tr>")
        for n, st in d["agents"].items():
            parts.append(f"<tr><td>{e(n)}</td>" + "".join(f"<td>{_fmt(st[c])}</td>" for c in cols) + "</tr>")
        parts.append("</table>")
    parts.append("</body></html>")
    return "".join(parts)


def to_markdown(rep: dict[str, Any]) -> str:
    """The report's tables as Markdown: agents by variant, then per variant
    the ratings, every pairing's pair statistics and the play statistics."""
    t = rep["tournament"]
    variants = rep["variants"]
    out = [
        f"Tournament {t['id']}: {status_line(rep)}; noise {t['config']['noise']}, seed {t['config']['seed']}, "
        f"code {t['version']}.",
        *(["", f"{starts_line(t['config'])}."] if t["config"].get("book") else []),
        *(["", f"{sprt_line(rep['sprt'])}."] if "sprt" in rep else []),
        "",
        "| agent | " + " | ".join(variants) + " |",
        "|---|" + "---|" * len(variants),
    ]
    names = sorted({n for d in variants.values() for n in d["ratings"]},
                   key=lambda n: -sum(d["ratings"].get(n, {"elo": 0.0})["elo"] for d in variants.values()))
    for n in names:
        cells = []
        for d in variants.values():
            r = d["ratings"].get(n)
            cells.append(f"{_fmt(r['elo'], '+.0f')} [{_fmt(r['ci95'][0], '+.0f')}, {_fmt(r['ci95'][1], '+.0f')}]"
                         if r else "-")
        out.append(f"| `{n}` | " + " | ".join(cells) + " |")
    for v, d in variants.items():
        out += ["", f"**{v}**: {d['games']} games, {edge_name(t['config'])} {_fmt(d['breaker_edge_elo'], '+.0f')} Elo; "
                f"best: {d['best']['text']}.", "",
                "| pairing | pairs | pentanomial [0, 0.5, 1, 1.5, 2] | score | 95% | Elo | nElo | LOS |",
                "|---|---|---|---|---|---|---|---|"]
        for name, p in d["pairs"].items():
            out.append(f"| {name} | {p['pairs']} | {p['pentanomial']} | {_fmt(p['score'], '.3f')} | "
                       f"[{_fmt(p['score_ci95'][0], '.3f')}, {_fmt(p['score_ci95'][1], '.3f')}] | "
                       f"{_fmt(p['elo'], '+.0f')} | {_fmt(p['nelo'], '+.0f')} | {_fmt(p['los'], '.3f')} |")
        los = d["los_matrix"]
        out += ["", "| LOS (row stronger than column) | " + " | ".join(f"`{b}`" for b in los) + " |",
                "|---|" + "---|" * len(los)]
        for a, row in los.items():
            out.append(f"| `{a}` | " + " | ".join(_fmt(x, ".3f") for x in row.values()) + " |")
        cols = ("win_rate", "pot_rate", "balls_per_visit", "fouls_per_frame", "safeties_per_frame", "break_legal",
                "won_breaking", "won_in_one_visit", "mean_shots")
        out += ["", "| agent | " + " | ".join(c.replace("_", " ") for c in cols) + " |",
                "|---|" + "---|" * len(cols)]
        for n, st in d["agents"].items():
            out.append(f"| `{n}` | " + " | ".join(_fmt(st[c]) for c in cols) + " |")
    return "\n".join(out) + "\n"


def los_table(los: dict[str, dict[str, float | None]]) -> list[str]:
    """The LOS matrix as text rows: row agent ``i`` stronger than column
    agent ``j``, in %, the columns numbered as the rows."""
    names = list(los)
    width = max(len(n) for n in names)
    lines = [" " * (width + 4) + " ".join(f"{j + 1:>5}" for j in range(len(names)))]
    for i, a in enumerate(names):
        cells = " ".join("    -" if (x := los[a][b]) is None else f"{100 * x:5.1f}" for b in names)
        lines.append(f"{i + 1:>2} {a:<{width}} {cells}")
    return lines


def summary(rep: dict[str, Any]) -> str:
    """The report as text for the terminal."""
    config = rep["tournament"]["config"]
    lines = [f"tournament {rep['tournament']['id']}: {status_line(rep)}", starts_line(config)]
    if "sprt" in rep:
        lines.append(sprt_line(rep["sprt"]))
    for v, d in rep["variants"].items():
        lines.append(f"{v}: {d['games']} games, {edge_name(config)} {_fmt(d['breaker_edge_elo'], '+.0f')} Elo")
        for n, r in sorted(d["ratings"].items(), key=lambda kv: -kv[1]["elo"]):
            st = d["agents"][n]
            lines.append(
                f"  {n:<28} Elo {_fmt(r['elo'], '+5.0f')} [{_fmt(r['ci95'][0], '+.0f')}, {_fmt(r['ci95'][1], '+.0f')}]"
                f"  win {_fmt(st['win_rate'])}  pot {_fmt(st['pot_rate'])}  balls/visit {_fmt(st['balls_per_visit'])}"
                f"  fouls/frame {_fmt(st['fouls_per_frame'])}"
            )
        lines.append(f"  best: {d['best']['text']}")
        if len(d["los_matrix"]) > 1:
            lines.append("  LOS, % (row agent stronger than column agent):")
            lines += ["    " + row for row in los_table(d["los_matrix"])]
    return "\n".join(lines)
