"""Bank shots (agents/banks.py): the mirror geometry, the simulated aim
correction, and the planner's bank candidates."""

from __future__ import annotations

import math

import pytest

from piramida.agents.base import GameView
from piramida.agents.shots.banks import bank_lines, many_banks, refine_bank
from piramida.agents.shots.candidates import BANK_SPEEDS, candidates
from piramida.agents.shots.context import Budget, Context
from piramida.agents.shots.ghost import aim_point, cue_speed_for, pot_lines
from piramida.env.game import Game
from piramida.env.physics import simulate
from piramida.env.position import Position
from piramida.env.position_sets import SETS, load_positions
from piramida.env.table import Table

T = Table.default()
R = T.ball_radius
# The target in the rear half, its direct pots into the middle pockets
# blocked by 9 and 10; 7 and 8 sit on its paths to the rear corners.
BALLS = {"0": (0.9, 1.0), "5": (0.9, 2.6), "7": (0.45, 3.07), "8": (1.33, 3.07),
         "9": (0.45, 2.19), "10": (1.34, 2.19)}


def _pos() -> Position:
    return Position.from_balls("combined", BALLS)


def test_bank_lines_reflect_like_a_mirror() -> None:
    pos = _pos()
    lines = bank_lines(pos, "0")
    assert lines, "no bank found"
    assert all(b.difficulty <= c.difficulty for b, c in zip(lines, lines[1:], strict=False))
    for ln in lines:
        cushion = T.cushions[ln.bank]
        nx, ny = cushion.normal
        tp = pos.xy(ln.target)
        ap = aim_point(T.pockets[ln.pocket], T)

        def depth(p: tuple[float, float], c=cushion) -> float:
            return (p[0] - c.start[0]) * c.normal[0] + (p[1] - c.start[1]) * c.normal[1] - R

        # The image is the aim point mirrored in the line one radius off the nose.
        assert math.isclose(depth(ln.aim), -depth(ap), abs_tol=1e-9)
        # Where the path to the image crosses that line, the angles of
        # incidence and reflection are equal.
        f = depth(tp) / (depth(tp) - depth(ln.aim))
        b = (tp[0] + (ln.aim[0] - tp[0]) * f, tp[1] + (ln.aim[1] - tp[1]) * f)
        assert abs(depth(b)) < 1e-9
        d_in = (b[0] - tp[0], b[1] - tp[1])
        d_out = (ap[0] - b[0], ap[1] - b[1])
        tangent = (-ny, nx)

        def ang(d: tuple[float, float], t=tangent) -> float:
            return abs(d[0] * t[0] + d[1] * t[1]) / math.hypot(*d)

        assert math.isclose(ang(d_in), ang(d_out), rel_tol=1e-9)
        # Both legs counted in the path length.
        assert math.isclose(
            ln.object_distance, math.dist(tp, b) + math.dist(b, ap), rel_tol=1e-9
        )
        # Harder than any direct pot of the position with a shorter path.
        direct = pot_lines(pos, "0")
        assert all(ln.difficulty > d.difficulty for d in direct if d.object_distance <= ln.object_distance)


def test_refine_bank_corrects_the_aim_until_it_pots() -> None:
    pos = _pos()
    game = Game.new("combined", position=pos)
    ctx = Context(GameView.of(game))
    line = bank_lines(pos, "0")[0]
    v = cue_speed_for(line, T) * BANK_SPEEDS[-1]
    # The mirror aim alone misses: the cushion is not a mirror.
    plain = simulate(pos, ctx.shot(line, line.phi, v, None))
    assert line.target not in [b for b, _ in plain.pocketed]
    tr = refine_bank(ctx, line, None, v)
    assert tr is not None
    res = simulate(pos, tr.shot)
    assert (line.target, line.pocket) in res.pocketed
    events = [e for e in res.events if line.target in e.balls and e.type == "cushion"]
    assert events and events[0].cushion == line.bank


def test_planner_bank_candidates_pot_and_are_legal() -> None:
    pos = _pos()
    game = Game.new("combined", position=pos)
    view = GameView.of(game)
    cands = candidates(view, "pro", budget=Budget(None, 400))
    banks = [c for c in cands if c.line is not None and c.line.bank is not None]
    assert banks
    for c in banks:
        assert c.line is not None and c.line.bank is not None and c.spin == "bank"
        res = simulate(pos, c.shot)
        ruling = game.referee.judge(pos, c.shot, res.events, res.final, (), game.state)
        assert ruling.legal and c.line.target in ruling.scored[0]


def test_the_compiled_bank_miss_is_the_event_logs() -> None:
    # bank_miss reads the leg after the cushion from the event records and
    # samples it in compiled code; miss_after on the event log with the
    # Python loop must give the same floats (None alike), over strokes
    # around the banks of the played positions (balls near cushions).
    import json
    from pathlib import Path

    from piramida.agents.shots import banks
    from piramida.agents.shots.lines import lines_for
    from piramida.env.events import Event

    rows = (Path(__file__).resolve().parents[2] / "bench" / "positions" / "played.jsonl").read_text().splitlines()
    checked = found = 0
    for line_text in rows[::4]:
        pos = Position.from_dict(json.loads(line_text)["position"])
        if pos.is_break or pos.in_hand is not None:
            continue
        ctx = Context(GameView.for_position(pos))
        for line in lines_for(ctx, bank_lines)[:3]:
            aim = aim_point(ctx.table.pockets[line.pocket], ctx.table)
            for k, dphi in ((1.0, 0.0), (1.3, -0.4), (1.8, 0.3)):
                res = ctx.simulated(ctx.shot(line, line.phi + dphi, cue_speed_for(line, ctx.table) * k, None))
                assert res is not None
                got = banks.bank_miss(res, line, aim)

                def starts(e: Event, line: object = line) -> bool | None:
                    if e.type == "ball_ball" and line.struck in e.balls:  # type: ignore[attr-defined]
                        return None
                    return e.type == "cushion" and e.cushion == line.bank  # type: ignore[attr-defined]

                saved = banks.same_as_python
                banks.same_as_python = lambda: False  # the Python loop of closest_miss
                try:
                    want = banks.miss_after(res, line.target, aim, starts)
                finally:
                    banks.same_as_python = saved
                assert got == want, (pos.to_text(), line.description, k, dphi)
                checked += 1
                found += got is not None
    assert checked > 100 and found > checked // 2


@pytest.mark.parametrize("name", ["reference", "played"])
def test_many_banks_are_python_bank_lines_merged(name: str) -> None:
    # Every ball struck at every other (free pyramid's search), and one ball
    # at some of them: the compiled banks, merged, are bank_lines' to the
    # last bit and in the same order.
    found = 0
    for k, row in enumerate(load_positions(SETS[name])):
        pos = row["position"]
        ids = list(pos.ids)
        pairs = [(s, [b for b in ids if b != s]) for s in ids] if k % 2 == 0 else [(ids[-1], ids[::2])]
        want = [ln for s, targets in pairs for ln in bank_lines(pos, s, targets)]
        want.sort(key=lambda ln: ln.difficulty)
        assert many_banks(pos, pairs) == want
        assert many_banks(pos, pairs, 3) == want[:3]
        found += len(want)
    assert found > 1000


def test_compiled_bank_secant_answers_as_python_does() -> None:
    # refine_bank's compiled secant against Python's (secant_aim with the
    # same miss and pocketing tests): the same stroke and value, and the
    # same strokes counted, over the easiest banks of the reference set.
    from piramida.agents.shots.aim import pockets_target
    from piramida.agents.shots.banks import BANK_ITERS, bank_miss, secant_aim
    from piramida.agents.shots.lines import struck_pairs

    found = tried = 0
    for row in load_positions(SETS["reference"])[::3]:
        pos = row["position"]
        if pos.in_hand is not None or pos.is_break:
            continue
        view = GameView.for_position(pos)
        for line in many_banks(pos, struck_pairs(Context(view)), 3) or []:
            for k in BANK_SPEEDS:
                v = cue_speed_for(line, pos.table) * k
                fast, slow = Context(view, Budget(None, 10_000)), Context(view, Budget(None, 10_000))
                got = refine_bank(fast, line, None, v)
                aim = aim_point(pos.table.pockets[line.pocket], pos.table)
                want = secant_aim(
                    slow, line, None, v, lambda res, ln=line, a=aim: bank_miss(res, ln, a),
                    lambda res, ln=line, c=slow: pockets_target(res, ln, c.called), BANK_ITERS,
                )
                assert (got is None) == (want is None)
                if got is not None and want is not None:
                    assert got.shot == want.shot and got.value == want.value
                    found += 1
                assert fast.budget is not None and slow.budget is not None
                assert fast.budget.used == slow.budget.used
                tried += 1
    assert tried > 50 and found > 10
