"""The strategy study: which strategy wins in which variant, and how sure
that is. A study is a tournament (eval/tournament.py: it stores every game
once and resumes) and a list of contrasts, an agent against its baseline
(search against greedy, learning against search); ``analyse_study`` answers
per variant:

- the ranking with 95% intervals (eval/report.py's ratings), the best agent
  where it is significantly ahead, and every difference that is significant
  (likelihood of superiority at least ``SIGNIFICANT_LOS``);
- the break: the share of frames the breaker wins, the breaker's edge in
  Elo, and the share of duplicate pairs that split 1-1 with each side
  winning the frame it broke (such a pair says nothing about which agent is
  stronger, so the pairs that carry the difference are the others);
- each contrast's pair score, Elo and LOS from the pairs the two played;
- the play: shots per frame, fouls and safeties per frame, pot rate;

and then across variants a few sentences drawn from those numbers. Rendered
as text (``study_text``), JSON (the dict itself), HTML with the charts
embedded (``study_html``) and Markdown (``study_markdown``).
"""

from __future__ import annotations

import base64
import html
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from piramida.eval.report import (
    SIGNIFICANT_LOS,
    analyse,
    pairing_stats,
    png_bytes,
    pyplot,
    ratings_png,
    status_line,
)
from piramida.eval.store import StoreError, open_read
from piramida.eval.tournament import TournamentConfig, TournamentError, config_from_table, read_toml


@dataclass(frozen=True)
class Contrast:
    """An agent against its baseline, e.g. search over greedy."""

    label: str
    agent: str
    baseline: str


@dataclass(frozen=True)
class Study:
    tournament: TournamentConfig
    contrasts: tuple[Contrast, ...]


def load_study(path: str | Path) -> Study:
    """A study from a TOML file: a ``[tournament]`` table and a ``[study]``
    table of ``contrasts`` ({label, agent, baseline}, agents of the
    tournament)."""
    from piramida.env.inputs import known_keys

    p = str(path)
    data = read_toml(path)
    known_keys(data, ("tournament", "study"), p, TournamentError)
    cfg = config_from_table(data.get("tournament"), p)
    sec = data.get("study", {})
    if not isinstance(sec, dict):
        raise TournamentError(f"{p}: [study] must be a table")
    known_keys(sec, ("contrasts",), f"{p} [study]", TournamentError)
    contrasts = []
    for c in sec.get("contrasts", []):
        if not isinstance(c, dict) or set(c) != {"label", "agent", "baseline"}:
            raise TournamentError(f"{p}: a contrast is {{ label = ..., agent = ..., baseline = ... }}, got {c!r}")
        for k in ("agent", "baseline"):
            if c[k] not in cfg.agents:
                raise TournamentError(f"{p}: contrast {c['label']!r}: {c[k]!r} is not one of the agents")
        contrasts.append(Contrast(str(c["label"]), str(c["agent"]), str(c["baseline"])))
    return Study(cfg, tuple(contrasts))


def _mean(xs: Sequence[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def break_stats(games: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The break in one variant's games: the share of frames the breaker
    won (a draw half), and of the whole duplicate pairs, the share that
    split 1-1 with each side winning the frame it broke."""
    broke = [g for g in games if g["breaker"] is not None]
    won = [1.0 if g["winner"] == g["breaker"] else 0.5 if g["winner"] is None else 0.0 for g in broke]
    pairs: dict[tuple[int, int, int], list[dict[str, Any]]] = {}
    for g in games:
        pairs.setdefault((g["agent_a"], g["agent_b"], g["pair"]), []).append(g)
    whole = [p for p in pairs.values() if len(p) == 2]
    split = sum(all(g["winner"] is not None and g["winner"] == g["breaker"] for g in p) for p in whole)
    return {
        "frames": len(broke),
        "breaker_wins": _mean(won),
        "pairs": len(whole),
        "split_by_break": split,
        "split_share": split / len(whole) if whole else None,
    }


def play_stats(games: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Frame length, fouls, safeties and pot rate over one variant's games
    (both players together)."""
    n = len(games)

    def total(key: str) -> int:
        return sum(sum(int(x) for x in g["stats"].get(key, [0, 0])) for g in games)

    attempts = total("pot_attempts")
    return {
        "frames": n,
        "shots_per_frame": sum(g["shots"] for g in games) / n if n else None,
        "fouls_per_frame": total("fouls") / n if n else None,
        "safeties_per_frame": total("safeties") / n if n else None,
        "pot_rate": total("pots_made") / attempts if attempts else None,
        "drawn": sum(g["winner"] is None for g in games) / n if n else None,
    }


def analyse_study(db: str | Path, study: Study, bootstrap: int = 200) -> dict[str, Any]:
    """The study's answers from its results file (opened read-only)."""
    cfg = study.tournament
    with open_read(db) as store:
        tid = store.tournament_id(cfg.to_dict())
        if tid is None:
            raise StoreError(f"{db}: holds no game of this study yet (piramida study --config ... plays it)")
        names = store.agents(tid)
        games = store.games(tid)
    rep = analyse(str(db), tid, bootstrap)
    ids = {spec: i for i, spec in names.items()}
    variants: dict[str, Any] = {}
    for v, d in rep["variants"].items():
        vg = [g for g in games if g["variant"] == v]
        ranking = [{"agent": n, "elo": r["elo"], "ci95": r["ci95"], "games": r["games"]}
                   for n, r in sorted(d["ratings"].items(), key=lambda kv: -kv[1]["elo"])]
        order = [r["agent"] for r in ranking]
        significant = [
            {"stronger": a, "weaker": b, "los": d["los_matrix"][a][b]}
            for a in order for b in order
            if a != b and (d["los_matrix"][a][b] or 0.0) >= SIGNIFICANT_LOS
        ]
        contrasts = []
        for c in study.contrasts:
            if not (v in cfg.variants_of(c.agent) and v in cfg.variants_of(c.baseline)):
                continue
            st = pairing_stats(vg, ids[c.agent], ids[c.baseline])
            los = st["los"]
            contrasts.append({
                "label": c.label, "agent": c.agent, "baseline": c.baseline, "pairs": st["pairs"],
                "score": st["score"], "score_ci95": st["score_ci95"], "elo": st["elo"], "elo_ci95": st["elo_ci95"],
                "los": los,
                "significant": los is not None and (los >= SIGNIFICANT_LOS or los <= 1 - SIGNIFICANT_LOS),
            })
        variants[v] = {
            "games": len(vg),
            "ranking": ranking,
            "best": d["best"],
            "significant": significant,
            "los_matrix": d["los_matrix"],
            "pairs": d["pairs"],
            "break": break_stats(vg) | {"edge_elo": d["breaker_edge_elo"]},
            "contrasts": contrasts,
            "play": play_stats(vg),
            "agents": {n: {k: st[k] for k in ("mean_shots", "pot_rate", "fouls_per_frame", "safeties_per_frame",
                                               "win_rate")} for n, st in d["agents"].items()},
        }
    out = {
        "tournament": rep["tournament"],
        "games": rep["games"],
        "expected_games": rep["expected_games"],
        "complete": rep["complete"],
        "status": status_line(rep),
        "contrasts": [c.label for c in study.contrasts],
        "variants": variants,
    }
    out["findings"] = findings(out)
    return out


# ---------------------------------------------------------------- sentences
def _span(variants: dict[str, Any], get: Any) -> tuple[tuple[str, float], tuple[str, float]] | None:
    """(variant, value) of the lowest and the highest of ``get``."""
    vals = [(v, x) for v, d in variants.items() if (x := get(d)) is not None and math.isfinite(x)]
    if len(vals) < 2:
        return None
    return min(vals, key=lambda t: t[1]), max(vals, key=lambda t: t[1])


def _pearson(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    n = len(xs)
    if n < 3:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return None
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / math.sqrt(sxx * syy)


def findings(res: dict[str, Any]) -> list[str]:
    """A few sentences on what differs across variants, each drawn from the
    numbers of ``res`` (nothing is said that they do not show)."""
    variants = res["variants"]
    out: list[str] = []
    if not variants:
        return out
    sig = {v: d["best"]["leaders"][0] for v, d in variants.items() if d["best"]["significant"]}
    if sig:
        by_agent: dict[str, list[str]] = {}
        for v, a in sig.items():
            by_agent.setdefault(a, []).append(v)
        named = "; ".join(f"{a} in {', '.join(vs)}" for a, vs in by_agent.items())
        rest = [v for v in variants if v not in sig]
        tail = f"; in {', '.join(rest)} no agent is significantly ahead of all others" if rest else ""
        out.append(f"A significant leader in {len(sig)} of {len(variants)} variants: {named}{tail}.")
    else:
        out.append(f"In none of the {len(variants)} variants is one agent significantly ahead of all others.")
    for label in res["contrasts"]:
        rows = {v: c for v, d in variants.items() for c in d["contrasts"] if c["label"] == label and c["pairs"]}
        if not rows:
            continue
        n_sig = sum(c["significant"] and c["score"] > 0.5 for c in rows.values())
        n_neg = sum(c["significant"] and c["score"] < 0.5 for c in rows.values())
        if len(rows) == 1:
            (v, c), = rows.items()
            out.append(f"{label.capitalize()}: pair score {c['score']:.3f} [{c['score_ci95'][0]:.3f}, "
                       f"{c['score_ci95'][1]:.3f}] in {v}, {'significant' if c['significant'] else 'not significant'}.")
            continue
        lo = min(rows.items(), key=lambda kv: kv[1]["score"])
        hi = max(reversed(rows.items()), key=lambda kv: kv[1]["score"])
        if lo[1]["score"] == hi[1]["score"]:
            out.append(f"{label.capitalize()}: the same pair score, {lo[1]['score']:.3f}, in all {len(rows)} "
                       f"variants ({', '.join(rows)}); significantly above 1/2 in {n_sig}.")
            continue
        apart = hi[1]["score_ci95"][0] > lo[1]["score_ci95"][1]
        out.append(
            f"{label.capitalize()}: a pair score from {lo[1]['score']:.3f} [{lo[1]['score_ci95'][0]:.3f}, "
            f"{lo[1]['score_ci95'][1]:.3f}] ({lo[0]}) to {hi[1]['score']:.3f} [{hi[1]['score_ci95'][0]:.3f}, "
            f"{hi[1]['score_ci95'][1]:.3f}] ({hi[0]}); significantly above 1/2 in {n_sig} of {len(rows)} variants"
            + (f", below in {n_neg}" if n_neg else "")
            + (" (the two intervals do not overlap: the variants differ)." if apart
               else " (the intervals overlap: these pairs do not show the variants to differ).")
        )
    bw = _span(variants, lambda d: d["break"]["breaker_wins"])
    sp = _span(variants, lambda d: d["break"]["split_share"])
    if bw and sp:
        out.append(
            f"The breaker wins {100 * bw[0][1]:.0f}% of frames in {bw[0][0]} and {100 * bw[1][1]:.0f}% in "
            f"{bw[1][0]}; {100 * sp[1][1]:.0f}% of the pairs in {sp[1][0]} split 1-1 with each side winning its "
            f"break (against {100 * sp[0][1]:.0f}% in {sp[0][0]}), so only "
            f"{100 * (1 - sp[1][1]):.0f}% of its pairs carry a difference between the agents."
        )
    sh = _span(variants, lambda d: d["play"]["shots_per_frame"])
    fo = _span(variants, lambda d: d["play"]["fouls_per_frame"])
    sa = _span(variants, lambda d: d["play"]["safeties_per_frame"])
    po = _span(variants, lambda d: d["play"]["pot_rate"])
    if sh and fo and po:
        text = (f"Frames run from {sh[0][1]:.1f} shots ({sh[0][0]}) to {sh[1][1]:.1f} ({sh[1][0]}); fouls per frame "
                f"from {fo[0][1]:.2f} ({fo[0][0]}) to {fo[1][1]:.2f} ({fo[1][0]})")
        if sa and sa[1][1] > 0:
            text += f"; safeties per frame from {sa[0][1]:.2f} ({sa[0][0]}) to {sa[1][1]:.2f} ({sa[1][0]})"
        out.append(text + f"; pots made per attempt from {po[0][1]:.2f} ({po[0][0]}) to {po[1][1]:.2f} ({po[1][0]}).")
    pts = [(d["play"]["shots_per_frame"], d["break"]["breaker_wins"]) for d in variants.values()
           if d["play"]["shots_per_frame"] is not None and d["break"]["breaker_wins"] is not None]
    r = _pearson([p[0] for p in pts], [p[1] for p in pts])
    if r is not None and abs(r) >= 0.5:
        trend = "falls" if r < 0 else "rises"
        why = (" (consistent with the opponent getting more visits to the table in a longer frame)"
               if r < 0 else "")
        out.append(f"Across the {len(pts)} variants the breaker's share of frames {trend} with the length of "
                   f"the frame (Pearson r = {r:+.2f}){why}.")
    return out


# ------------------------------------------------------------------ render
def _f(x: Any, spec: str = ".2f") -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "-"
    return format(x, spec)


def _ci(c: dict[str, Any]) -> str:
    lo, hi = c["score_ci95"]
    return f"{_f(c['score'], '.3f')} [{_f(lo, '.3f')}, {_f(hi, '.3f')}]"


def study_text(res: dict[str, Any]) -> str:
    """The study as text for the terminal."""
    lines = [f"study: {res['status']}"]
    for v, d in res["variants"].items():
        lines.append(f"{v}: {d['games']} games")
        lines.append("  ranking (Elo, greedy = 0, 95% interval):")
        for i, r in enumerate(d["ranking"], 1):
            lines.append(f"    {i} {r['agent']:<40} {_f(r['elo'], '+5.0f')} [{_f(r['ci95'][0], '+.0f')}, "
                         f"{_f(r['ci95'][1], '+.0f')}]")
        lines.append(f"  best: {d['best']['text']}")
        sig = ", ".join(f"{s['stronger']} > {s['weaker']} ({100 * s['los']:.1f}%)" for s in d["significant"])
        lines.append(f"  significant (LOS >= {100 * SIGNIFICANT_LOS:.1f}%): {sig or 'none'}")
        b = d["break"]
        lines.append(f"  break: the breaker wins {_f(b['breaker_wins'] and 100 * b['breaker_wins'], '.0f')}% of "
                     f"frames (edge {_f(b['edge_elo'], '+.0f')} Elo); {b['split_by_break']} of {b['pairs']} pairs "
                     f"({_f(b['split_share'] and 100 * b['split_share'], '.0f')}%) split 1-1 by the break")
        for c in d["contrasts"]:
            lines.append(f"  {c['label']}: pair score {_ci(c)}, Elo {_f(c['elo'], '+.0f')}, LOS "
                         f"{_f(c['los'] and 100 * c['los'], '.1f')}%, {c['pairs']} pairs")
        p = d["play"]
        lines.append(f"  play: {_f(p['shots_per_frame'], '.1f')} shots, {_f(p['fouls_per_frame'])} fouls, "
                     f"{_f(p['safeties_per_frame'])} safeties per frame; pot rate {_f(p['pot_rate'])}")
    if res["findings"]:
        lines.append("across variants:")
        lines += [f"  - {s}" for s in res["findings"]]
    return "\n".join(lines)


def study_markdown(res: dict[str, Any]) -> str:
    """The study's tables as Markdown (docs/evaluation.md): agents by
    variant, then one row per variant of the break, the contrasts and the
    play, and the findings."""
    variants = res["variants"]
    out = [f"{res['status'][0].upper()}{res['status'][1:]}; noise {res['tournament']['config']['noise']}, "
           f"seed {res['tournament']['config']['seed']}, code {res['tournament']['version']}.", "",
           "| agent | " + " | ".join(variants) + " |", "|---|" + "---|" * len(variants)]
    names = list(dict.fromkeys(r["agent"] for d in variants.values() for r in d["ranking"]))
    for n in names:
        cells = []
        for d in variants.values():
            r = next((x for x in d["ranking"] if x["agent"] == n), None)
            lead = "**" if r and d["best"]["significant"] and d["best"]["leaders"][0] == n else ""
            cells.append(f"{lead}{_f(r['elo'], '+.0f')}{lead} [{_f(r['ci95'][0], '+.0f')}, "
                         f"{_f(r['ci95'][1], '+.0f')}]" if r else "-")
        out.append(f"| `{n}` | " + " | ".join(cells) + " |")
    labels = res["contrasts"]
    out += ["", "| variant | breaker wins | pairs split 1-1 by the break | " + " | ".join(labels)
            + " | shots/frame | fouls/frame | safeties/frame | pot rate |",
            "|---|---|---|" + "---|" * len(labels) + "---|---|---|---|"]
    for v, d in variants.items():
        b, p = d["break"], d["play"]
        cs = {c["label"]: c for c in d["contrasts"]}
        cells = [f"{_ci(cs[lab])}{' *' if cs[lab]['significant'] else ''}" if lab in cs else "-" for lab in labels]
        out.append(f"| {v} | {_f(b['breaker_wins'])} | {b['split_by_break']}/{b['pairs']} | " + " | ".join(cells)
                   + f" | {_f(p['shots_per_frame'], '.1f')} | {_f(p['fouls_per_frame'])} | "
                   f"{_f(p['safeties_per_frame'])} | {_f(p['pot_rate'])} |")
    out += ["", "Best per variant: " + "; ".join(f"{v}: {d['best']['text']}" for v, d in variants.items()) + ".",
            ""]
    out += [f"- {s}" for s in res["findings"]]
    return "\n".join(out) + "\n"


def contrasts_png(res: dict[str, Any]) -> bytes:
    """Each contrast's pair score with its 95% interval, per variant."""
    plt = pyplot()
    variants = list(res["variants"])
    labels = res["contrasts"]
    fig, ax = plt.subplots(figsize=(7.5, 3.4))
    k = max(1, len(labels))
    for j, lab in enumerate(labels):
        xs, ys, lo, hi = [], [], [], []
        for i, v in enumerate(variants):
            c = next((c for c in res["variants"][v]["contrasts"] if c["label"] == lab and c["pairs"]), None)
            if c is None:
                continue
            xs.append(i + (j - (k - 1) / 2) * 0.18)
            ys.append(c["score"])
            lo.append(c["score"] - c["score_ci95"][0])
            hi.append(c["score_ci95"][1] - c["score"])
        if xs:
            ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", capsize=3, color=f"C{j}", label=lab)
    ax.axhline(0.5, color="0.6", lw=0.8)
    ax.set_xticks(range(len(variants)), variants, fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("pair score, 95% interval")
    ax.legend(fontsize=8, loc="lower right")
    out = png_bytes(fig)
    plt.close(fig)
    return out


def play_png(res: dict[str, Any]) -> bytes:
    """Per variant: the breaker's share of frames and of pairs split 1-1 by
    the break, shots, fouls and safeties per frame, pot rate."""
    plt = pyplot()
    variants = list(res["variants"])
    panels = [
        ("breaker wins (share of frames)", lambda d: d["break"]["breaker_wins"]),
        ("pairs split 1-1 by the break", lambda d: d["break"]["split_share"]),
        ("shots per frame", lambda d: d["play"]["shots_per_frame"]),
        ("fouls per frame", lambda d: d["play"]["fouls_per_frame"]),
        ("safeties per frame", lambda d: d["play"]["safeties_per_frame"]),
        ("pots made per attempt", lambda d: d["play"]["pot_rate"]),
    ]
    fig, axes = plt.subplots(2, 3, figsize=(10, 5.2))
    for ax, (title, get) in zip(axes.flat, panels, strict=True):
        vals = [get(res["variants"][v]) for v in variants]
        ax.bar(range(len(variants)), [0 if x is None else x for x in vals], color="C0")
        ax.set_xticks(range(len(variants)), variants, rotation=40, ha="right", fontsize=7)
        ax.set_title(title, fontsize=9)
    fig.tight_layout()
    out = png_bytes(fig)
    plt.close(fig)
    return out


def study_html(res: dict[str, Any]) -> str:
    """A self-contained HTML page of the study (charts embedded)."""
    e = html.escape
    t = res["tournament"]

    def img(alt: str, png: bytes) -> str:
        return f"<img alt='{e(alt)}' src='data:image/png;base64,{base64.b64encode(png).decode()}'>"

    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>piramida strategy study</title>",
        "<style>body{font-family:sans-serif;margin:2em;max-width:72em}table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#eee}"
        "td:first-child,th:first-child{text-align:left}</style></head><body>",
        f"<h1>Strategy study</h1><p>{e(res['status'])}; agents {e(', '.join(t['config']['agents']))}; noise "
        f"{e(str(t['config']['noise']))}; seed {t['config']['seed']}; code {e(t['version'])}</p>"
        f"<p><code>{e(t['command'])}</code></p>",
        "<h2>What differs across variants</h2><ul>" + "".join(f"<li>{e(s)}</li>" for s in res["findings"]) + "</ul>",
    ]
    if any(d["ranking"] for d in res["variants"].values()):
        rated = {v: {"ratings": {r["agent"]: r for r in d["ranking"]}} for v, d in res["variants"].items()}
        parts.append(img("ratings", ratings_png({"variants": rated})))
    if res["contrasts"]:
        parts.append("<h2>Contrasts</h2>" + img("contrasts", contrasts_png(res)))
    parts.append("<h2>Break and play</h2>" + img("break and play", play_png(res)))
    for v, d in res["variants"].items():
        parts.append(f"<h2>{e(v)}</h2><p>{d['games']} games; best: {e(d['best']['text'])}</p>")
        parts.append("<table><tr><th>agent</th><th>Elo</th><th>95% interval</th><th>games</th></tr>")
        for r in d["ranking"]:
            parts.append(f"<tr><td>{e(r['agent'])}</td><td>{_f(r['elo'], '+.0f')}</td><td>[{_f(r['ci95'][0], '+.0f')}, "
                         f"{_f(r['ci95'][1], '+.0f')}]</td><td>{r['games']}</td></tr>")
        parts.append("</table>")
        sig = "; ".join(f"{s['stronger']} &gt; {s['weaker']} (LOS {s['los']:.3f})" for s in d["significant"])
        parts.append(f"<p>Significant differences: {sig or 'none'}</p>")
        b = d["break"]
        parts.append(f"<p>The breaker wins {_f(b['breaker_wins'])} of frames (edge {_f(b['edge_elo'], '+.0f')} Elo); "
                     f"{b['split_by_break']} of {b['pairs']} pairs split 1-1 by the break.</p>")
        if d["contrasts"]:
            parts.append("<table><tr><th>contrast</th><th>pairs</th><th>pair score [95%]</th><th>Elo</th>"
                         "<th>LOS</th></tr>")
            for c in d["contrasts"]:
                parts.append(f"<tr><td>{e(c['label'])}</td><td>{c['pairs']}</td><td>{_ci(c)}</td>"
                             f"<td>{_f(c['elo'], '+.0f')}</td><td>{_f(c['los'], '.3f')}</td></tr>")
            parts.append("</table>")
        p = d["play"]
        parts.append(f"<p>{_f(p['shots_per_frame'], '.1f')} shots, {_f(p['fouls_per_frame'])} fouls and "
                     f"{_f(p['safeties_per_frame'])} safeties per frame; pot rate {_f(p['pot_rate'])}.</p>")
    parts.append("</body></html>")
    return "".join(parts)
