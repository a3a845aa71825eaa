"""``piramida calibrate breaks``: which opening stroke wins most, found
offline.

The break is the one position every frame starts from (the full pyramid,
the coloured ball in hand in the house; docs/game_rules.md §4.2), and in free pyramid
it decides the frame: in planner-vs-greedy games at ``pro`` the player who
did not break ran out 7 balls on average on the open table he was left
(docs/agents.md, "The break"). The planner's decision-time search tries a
handful of strokes at the apex ball; this study searches the whole family
of strokes a player would consider, so that the planner can start its
search from the best of them (``configs/agents/break_book.toml``, read by
``agents/break_book.py``).

Stage 1 plays every stroke of a grid - spots across the house, each outer
ball of the rack facing the house as the object ball, full to thin
contacts, soft to hard - ``--samples`` times under the noise preset. Then
``--rounds`` rounds of local search play the neighbourhood (spot, aim,
speed, draw or follow) of the ``--refine`` best so far, each round with
half the steps and twice the samples. The ``--final`` best are played
``--final-samples`` times. Each
sample is judged by the variant's referee and scored by the planner's own
value of the ruling (``PlannerAgent.valuation.ruling_value``: the frame-winning
chance of the race model in free pyramid), so the book ranks strokes the
way the planner would. Sample ``k`` of every stroke plays the rack of seed
``k + 1`` with the same noise seed (common random numbers, which make the
ranking sharper than the sample counts suggest). The racks differ only in
their labels, which the physics does not depend on (docs/physics.md,
"Simultaneous contacts"), so only the noise differs between samples and no
averaging over labellings is needed; the labels still change which
numbered ball a rule or the planner's value sees.

    piramida calibrate breaks --variant free [--samples 12] [--workers 2] [--write] [--out FILE]

``--write`` replaces the variant's entries in the book with the final
``--keep`` strokes; ``--out FILE`` writes the full ranking as JSON. Without
them the best strokes are only printed.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

#: Contact offsets as a fraction of a ball's width (0: full, +-0.9: thin).
OFFSETS = (-0.9, -0.6, -0.3, 0.0, 0.3, 0.6, 0.9)
SPEEDS = (2.0, 3.0, 4.5, 6.5, 8.0)
#: Spots across the house, as offsets from the long axis (m), 8 cm short
#: of the house line.
SPOTS = (0.0, -0.2, 0.2, -0.45, 0.45, -0.76, 0.76)


def outer_balls(pos: Any) -> dict[str, tuple[float, float]]:
    """The rack's balls an object ball can be struck on from the house: the
    apex and the two sides of each row, named by row (1 = apex) and side."""
    by_row: dict[float, list[tuple[float, float]]] = {}
    for _, x, y in pos.balls:
        by_row.setdefault(round(y, 4), []).append((x, y))
    out: dict[str, tuple[float, float]] = {}
    for i, y in enumerate(sorted(by_row)):
        row = sorted(by_row[y])
        if len(row) == 1:
            out[f"row{i + 1}"] = row[0]
        else:
            out[f"row{i + 1}L"] = row[0]
            out[f"row{i + 1}R"] = row[-1]
    return out


def grid(pos: Any, spots: Sequence[float] = SPOTS) -> list[dict[str, Any]]:
    t = pos.table
    R = t.ball_radius
    strokes = []
    for dx in spots:
        place = (t.width / 2 + dx, t.house_line - 0.08)
        if not (R < place[0] < t.width - R):
            continue
        for name, tp in outer_balls(pos).items():
            d = math.hypot(tp[0] - place[0], tp[1] - place[1])
            base = math.degrees(math.atan2(tp[1] - place[1], tp[0] - place[0]))
            for off in OFFSETS:
                phi = base + math.degrees(math.asin(max(-0.99, min(0.99, off * 2 * R / d))))
                for v in SPEEDS:
                    strokes.append(
                        {"target": name, "off": off, "place": place, "phi": phi % 360.0, "v": v, "b": 0.0}
                    )
    return strokes


def neighbours(s: dict[str, Any], scale: float, house_line: float) -> list[dict[str, Any]]:
    """Small moves of one stroke, ``scale`` times the first round's steps:
    the spot across (4 cm) and along (3 cm) the table, the aim (0.15
    degrees), the speed (15%) and the draw or follow (0.3 of the radius)."""
    out = []
    x, y = s["place"]
    for dx in (-0.04 * scale, 0.0, 0.04 * scale):
        for dy in (-0.03 * scale, 0.0, 0.03 * scale):
            yy = y + dy
            if not yy < house_line - 0.001:
                continue
            for dphi in (-0.15 * scale, 0.0, 0.15 * scale):
                for fv in (1.0 - 0.15 * scale, 1.0, 1.0 + 0.15 * scale):
                    for db in (-0.3 * scale, 0.0, 0.3 * scale):
                        out.append(
                            {
                                **s,
                                "place": (round(x + dx, 5), round(yy, 5)),
                                "phi": round((s["phi"] + dphi) % 360.0, 5),
                                "v": round(min(8.0, s["v"] * fv), 4),
                                "b": round(max(-0.6, min(0.6, s["b"] + db)), 3),
                            }
                        )
    return out


def _key(r: dict[str, Any]) -> tuple[float, ...]:
    return (round(r["place"][0], 4), round(r["place"][1], 4), round(r["phi"], 4), r["v"], r["b"])


def _best_unique(rows: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
    seen, out = set(), []
    for r in sorted(rows, key=lambda r: -r["value"]):
        if _key(r) not in seen:
            seen.add(_key(r))
            out.append(r)
        if len(out) >= k:
            break
    return out


_W: dict[str, Any] = {}


def _init(variant: str) -> None:
    from piramida.agents.planner import Allowance, PlannerAgent
    from piramida.env.physics import load_noise

    _W.update(
        variant=variant,
        racks={},
        planner=PlannerAgent(budget=Allowance(budget_s=None, n_sims=10**9), noise="pro"),
        noise=load_noise("pro"),
    )


def _rack(k: int) -> tuple[Any, Any]:
    """Sample ``k``'s start position and decision context: the rack of seed
    ``k + 1``. The break itself does not depend on the labels
    (docs/physics.md, "Simultaneous contacts"); a variant whose rules read
    the numbers still sees a different rack per sample."""
    from piramida.agents.shots.context import Context
    from piramida.env.position import Position
    from piramida.env.view import GameView

    got = _W["racks"].get(k)
    if got is None:
        pos = Position.start(_W["variant"], seed=k + 1)
        got = _W["racks"][k] = (pos, Context(GameView.for_position(pos)))
    return got


def evaluate(job: tuple[dict[str, Any], int]) -> dict[str, Any]:
    """One stroke over ``n`` noisy samples, each on its own rack: legal
    share, share on which the breaker scored, the planner's mean value."""
    from piramida.env.errors import PiramidaError
    from piramida.env.physics import simulate
    from piramida.env.shot import Shot

    s, n = job
    pl, noise = _W["planner"], _W["noise"]
    vals, legal, scored = [], 0, 0
    for k in range(n):
        pos, ctx = _rack(k)
        shot = Shot(ball=ctx.view.cue_balls[0], phi=s["phi"], v=s["v"], b=s["b"], place=tuple(s["place"]))
        try:
            r = simulate(pos, shot, noise=noise, seed=7919 * k + 11)
            ru = ctx.referee.judge(pos, r.shot, r.events, r.final, (), ctx.state)
        except PiramidaError:
            vals.append(0.0)
            continue
        legal += int(ru.legal)
        pend = getattr(ru.state, "pending", None)
        # A свояк in the one-cue-ball pyramids scores through the ball taken
        # from the table after the shot (docs/game_rules.md §5.2).
        owed = pend.balls_owed()[ctx.me] if pend is not None else 0
        scored += int(bool(ru.legal and (ru.scored.get(ctx.me) or owed)))
        vals.append(pl.valuation.ruling_value(ctx, ru))
    return {**s, "samples": n, "value": float(np.mean(vals)), "p_legal": legal / n, "p_pot": scored / n}


def run_stage(pool: Any, strokes: list[dict[str, Any]], n: int, desc: str) -> list[dict[str, Any]]:
    try:
        from tqdm import tqdm

        it: Any = tqdm(pool.map(evaluate, [(s, n) for s in strokes], chunksize=8), total=len(strokes), desc=desc, file=sys.stderr)
    except ImportError:  # pragma: no cover
        it = pool.map(evaluate, [(s, n) for s in strokes], chunksize=8)
    out = list(it)
    out.sort(key=lambda r: -r["value"])
    return out


def study(
    variant: str, samples: int, refine: int, rounds: int, final: int, final_samples: int, workers: int
) -> dict[str, Any]:
    from piramida.env.position import Position

    pos = Position.start(variant, seed=1)
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers, initializer=_init, initargs=(variant,)) as pool:
        s1 = run_stage(pool, grid(pos), samples, "grid")
        rows = s1
        # Local search: the neighbourhoods of the best so far, each round
        # with half the steps and twice the samples.
        for i in range(rounds):
            n = samples * 2 ** (i + 1)
            best = _best_unique(rows, refine)
            near = [nb for r in best for nb in neighbours(r, 0.5**i, pos.table.house_line)]
            near = list({_key(r): r for r in near}.values())
            rows = run_stage(pool, near, n, f"round {i + 1}")
        s3 = run_stage(pool, _best_unique(rows, final), final_samples, "final")
    return {
        "variant": variant,
        "noise": "pro",
        "samples": samples,
        "final_samples": final_samples,
        "rounds": rounds,
        "grid_strokes": len(s1),
        "wall_s": round(time.perf_counter() - t0, 1),
        "grid_best": s1[:10],
        "final": s3,
    }


def pick(rows: list[dict[str, Any]], keep: int) -> list[dict[str, Any]]:
    """The ``keep`` best strokes, one per object ball and spot first (near
    copies of the best add little to the planner's choice), then the rest
    by value."""
    ranked = sorted(rows, key=lambda r: -r["value"])
    seen: set[tuple[str, float]] = set()
    first, rest = [], []
    for r in ranked:
        fam = (r["target"], round(r["place"][0], 1))
        (rest if fam in seen else first).append(r)
        seen.add(fam)
    return (first + rest)[:keep]
