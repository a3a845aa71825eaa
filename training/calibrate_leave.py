"""``piramida calibrate leave``: fit a noise preset's pot-probability model
(agents/shots/probability.py) to real potting.

The agents turn geometry into chances with one model per noise preset
(``PotModel``): the chance that the easiest open pot of difficulty ``d``
goes in (``d50``, ``k``), the chance of a centred pot from its potting
range (``line_sigma``), and the chance that a shot later in a visit pots
(``q`` per variant). This measures all three under the preset: in seeded
positions (``piramida.env.position_sets.reference_position``, pyramid
variants, no ball in hand, not a break) greedy playing for the preset picks its shot, the shot
is played ``--samples`` times under the preset's noise (the frame driver's
noise streams, env/driver.py), and the share that scores is set against
the position's easiest difficulty and against greedy's estimate of its
pot; from the first ``--visits`` samples that score, greedy plays on (both
seats are greedy) until the visit ends, and the later shots' pot rate per
variant is ``q``. A shot scores when it is legal and the shooter scored or
is owed a ball (a свояк, docs/game_rules.md §5.2).

``d50`` and ``k`` are the least-squares fit of ``1 / (1 + (d / d50) ** k)``
to the positions' shares; ``line_sigma`` that of ``PotModel.line``; the
model greedy played with is the one being refitted (``--write`` replaces
it), so a second run starts from the first one's fit.

    piramida calibrate leave --noise pro [--positions 300] [--samples 16] [--visits 4] [--write] [--out FILE]

``--write`` stores the fit in ``configs/agents/pot_model.toml``; ``--out
FILE`` writes the fit with every position's measurements as JSON. Without
them the fit is only printed.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

#: Later shots of a visit played at most.
VISIT_CAP = 12


def _scores(ruling: Any, player: int) -> bool:
    from piramida.agents.planner_value import balls_owed

    return bool(ruling.legal and (ruling.scored.get(player) or balls_owed(ruling)[player] > 0))


def measure(n: int, samples: int, noise_name: str, visits: int, start: int = 1000) -> list[dict[str, Any]]:
    from piramida.agents.greedy import GreedyAgent
    from piramida.agents.shots.probability import easiest_difficulty
    from piramida.env.driver import FrameDriver
    from piramida.env.errors import PiramidaError
    from piramida.env.position_sets import reference_position as make
    from piramida.env.view import GameView

    drivers: dict[str, FrameDriver] = {}
    out: list[dict[str, Any]] = []
    greedy = GreedyAgent(noise=noise_name)
    i = start
    try:
        from tqdm import tqdm

        bar: Any = tqdm(total=n, desc=f"positions ({noise_name})", file=sys.stderr)
    except ImportError:  # pragma: no cover
        bar = None
    while len(out) < n:
        pos = make(i)
        i += 1
        if pos.variant == "five_ball" or pos.in_hand is not None or pos.is_break:
            continue
        view = GameView.for_position(pos)
        ref = view.referee
        cues = [c for c in ref.allowed_cue_balls(pos) if c in pos]
        targets = [b for b in pos.ids if not (pos.variant == "classic71" and b == "0")]
        d = easiest_difficulty(pos, cues, targets)
        if d is None:
            continue
        shot = greedy.act(view)
        cand = greedy.last_candidate
        pot = cand is not None and cand.kind == "pot" and cand.half_width is not None
        # Sample k is the shot under the preset's noise: the frame driver's
        # stroke of (seed i, pair k) from the position.
        driver = drivers.setdefault(pos.variant, FrameDriver(pos.variant, noise_name))
        hits = later_pots = later_shots = 0
        played = 0
        for k in range(samples):
            game = driver.reset(i, k, position=pos)
            try:
                r = driver.apply(shot).ruling
            except PiramidaError:
                continue
            assert r is not None
            played += 1
            if not _scores(r, view.player):
                continue
            hits += 1
            if k >= visits:
                continue
            # The visit goes on: greedy at both seats (a choice after a
            # свояк), until a shot of the shooter's does not score.
            shots = 0
            for _ in range(4 * VISIT_CAP):
                if game.over or shots >= VISIT_CAP:
                    break
                v2 = GameView.of(game)
                if v2.kind == "choice":
                    driver.apply(greedy.act(v2))
                    continue
                if v2.kind != "shot" or v2.player != view.player:
                    break
                shots += 1
                try:
                    r2 = driver.apply(greedy.act(v2)).ruling
                except PiramidaError:
                    break
                assert r2 is not None
                if not _scores(r2, view.player):
                    break
                later_pots += 1
            later_shots += shots
        out.append(
            {
                "index": i - 1,
                "variant": pos.variant,
                "difficulty": d,
                "rate": hits / max(played, 1),
                "half_width": cand.half_width if pot and cand is not None else None,
                "speed_hits": cand.speed_hits if pot and cand is not None else None,
                "later_pots": later_pots,
                "later_shots": later_shots,
            }
        )
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    return out


def curve(d: np.ndarray, d50: float, k: float) -> np.ndarray:
    return 1.0 / (1.0 + (d / d50) ** k)


def fit_curve(rows: list[dict[str, Any]]) -> tuple[float, float, float]:
    """(mse, d50, k): least squares over a grid."""
    d = np.array([r["difficulty"] for r in rows])
    y = np.array([r["rate"] for r in rows])
    best = (np.inf, 0.0, 0.0)
    for d50 in np.geomspace(50, 50000, 300):
        for k in np.linspace(0.3, 4.0, 75):
            err = float(np.mean((curve(d, d50, k) - y) ** 2))
            if err < best[0]:
                best = (err, float(d50), float(k))
    return best


_ERF = np.vectorize(math.erf)


def line_chance(half: np.ndarray, hits: np.ndarray, sigma: float) -> np.ndarray:
    """``PotModel.line`` over arrays."""
    p_phi = np.where(half > 0, _ERF(half / (sigma * math.sqrt(2.0))), 0.2)
    return p_phi * (1 + hits) / 3.0


def fit_line(rows: list[dict[str, Any]]) -> tuple[float, float, int]:
    """(mse, line_sigma, pots): least squares over a grid, on the
    positions where greedy played a centred pot."""
    pots = [r for r in rows if r["half_width"] is not None]
    if not pots:
        return (math.nan, math.nan, 0)
    half = np.array([r["half_width"] for r in pots])
    hits = np.array([r["speed_hits"] for r in pots])
    y = np.array([r["rate"] for r in pots])
    best = (np.inf, 0.0)
    for sigma in np.geomspace(0.001, 2.0, 400):
        err = float(np.mean((line_chance(half, hits, float(sigma)) - y) ** 2))
        if err < best[0]:
            best = (err, float(sigma))
    return (best[0], best[1], len(pots))


def q_by_variant(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for v in sorted({r["variant"] for r in rows}):
        pots = sum(r["later_pots"] for r in rows if r["variant"] == v)
        shots = sum(r["later_shots"] for r in rows if r["variant"] == v)
        out[v] = {"q": pots / shots if shots else math.nan, "later_shots": shots}
    return out


def report(rows: list[dict[str, Any]], old: Any) -> dict[str, Any]:
    d = np.array([r["difficulty"] for r in rows])
    y = np.array([r["rate"] for r in rows])
    err, d50, k = fit_curve(rows)
    lerr, sigma, npots = fit_line(rows)
    edges = np.quantile(d, np.linspace(0, 1, 7))
    bands = []
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        m = (d >= lo) & (d <= hi)
        bands.append(
            {
                "difficulty": [round(float(lo)), round(float(hi))],
                "positions": int(m.sum()),
                "measured": round(float(y[m].mean()), 3),
                "model_played": round(float(np.mean([old.chance(float(x)) for x in d[m]])), 3),
                "fitted": round(float(curve(d[m], d50, k).mean()), 3),
            }
        )
    old_err = float(np.mean((np.array([old.chance(float(x)) for x in d]) - y) ** 2))
    return {
        "d50": d50,
        "k": k,
        "mse": err,
        "mse_of_the_model_played": old_err,
        "line_sigma": sigma,
        "line_mse": lerr,
        "line_pots": npots,
        "q": q_by_variant(rows),
        "bands": bands,
        "model_played": {"preset": old.preset, "d50": old.d50, "k": old.k, "line_sigma": old.line_sigma,
                         "q": dict(old.q), "scaled": old.scaled},
    }


def _toml_number(x: float) -> str:
    return repr(round(float(x), 6))


def write_model(name: str, noise: Any, fit: dict[str, Any], meta: dict[str, Any]) -> Path:
    """Replace (or add) preset ``name``'s entry of configs/agents/pot_model.toml."""
    import tomllib

    from piramida.agents.shots.probability import MODEL_PATH, SIGMA_KEYS

    data: dict[str, Any] = {}
    if MODEL_PATH.is_file():
        data = tomllib.loads(MODEL_PATH.read_text(encoding="utf-8"))
    data[name] = {
        "noise": dict(zip(SIGMA_KEYS, noise.sigmas, strict=True)),
        "d50": fit["d50"],
        "k": fit["k"],
        "line_sigma": fit["line_sigma"],
        "q": {v: row["q"] for v, row in fit["q"].items() if math.isfinite(row["q"])},
        **meta,
    }
    lines = [
        "# The pot-probability model of each noise preset (agents/shots/probability.py):",
        "# d50 and k of the next-pot curve 1 / (1 + (d / d50) ** k), the aim error",
        "# line_sigma (degrees) of a centred pot's estimate, and q, the chance that a",
        "# shot later in a visit pots, by variant. Written by",
        "#     piramida calibrate leave --noise NAME --write",
        "# ('--out FILE' keeps the measurements); 'noise' is the preset fitted (a",
        "# preset whose sigmas differ is scaled from the nearest fit).",
    ]
    for preset in sorted(data):
        e = data[preset]
        lines += ["", f"[{preset}]"]
        lines.append("noise = { " + ", ".join(f"{k} = {_toml_number(e['noise'][k])}" for k in SIGMA_KEYS) + " }")
        for key in ("d50", "k", "line_sigma"):
            lines.append(f"{key} = {_toml_number(e[key])}")
        for key in ("positions", "samples", "visits", "seed_start"):
            if key in e:
                lines.append(f"{key} = {int(e[key])}")
        lines.append("q = { " + ", ".join(f"{v} = {_toml_number(q)}" for v, q in sorted(e["q"].items())) + " }")
    MODEL_PATH.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return MODEL_PATH
