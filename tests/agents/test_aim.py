import math

import pytest

from piramida.agents.shots.ghost import aim_point, path_clear, pot_lines
from piramida.env.position import Position
from piramida.env.table import Table

T = Table.default()
R = T.ball_radius


def test_straight_shot_toward_a_pocket_has_zero_cut_and_points_at_the_pocket():
    rr = T.pockets["rr"]
    ap = aim_point(rr, T)
    # Target on the rr pocket axis, struck ball further back on the same line.
    ux, uy = -rr.axis[0], -rr.axis[1]
    tgt = (ap[0] + ux * 0.6, ap[1] + uy * 0.6)
    cue = (ap[0] + ux * 1.2, ap[1] + uy * 1.2)
    p = Position.from_balls("free", {"0": cue, "5": tgt})
    lines = [ln for ln in pot_lines(p, "0") if ln.pocket == "rr"]
    assert len(lines) == 1
    ln = lines[0]
    assert ln.cut == pytest.approx(0.0, abs=1e-6)
    assert ln.approach == pytest.approx(0.0, abs=1e-4)
    assert ln.phi == pytest.approx(45.0, abs=1e-6)
    # Ghost ball touches the target on the far side from the pocket.
    assert math.dist(ln.ghost, tgt) == pytest.approx(2 * R)


def test_blocked_paths_are_not_offered():
    rr = T.pockets["rr"]
    ap = aim_point(rr, T)
    ux, uy = -rr.axis[0], -rr.axis[1]
    tgt = (ap[0] + ux * 0.6, ap[1] + uy * 0.6)
    cue = (ap[0] + ux * 1.2, ap[1] + uy * 1.2)
    blocker = (ap[0] + ux * 0.9, ap[1] + uy * 0.9)
    p = Position.from_balls("free", {"0": cue, "5": tgt, "6": blocker})
    assert not [ln for ln in pot_lines(p, "0") if ln.target == "5" and ln.pocket == "rr"]
    assert not path_clear(cue, tgt, [blocker], R)


def test_corner_pocket_rejects_balls_arriving_along_the_cushion():
    # Object ball frozen to the rear cushion, far from rr: its path to rr runs
    # along the cushion, 45 degrees off the pocket axis - the jaws block it.
    p = Position.from_balls("free", {"0": (0.9, 2.0), "5": (0.9, T.length - R)})
    assert not [ln for ln in pot_lines(p, "0") if ln.target == "5" and ln.pocket in ("rr", "rl")]


def test_lines_are_sorted_easiest_first():
    p = Position.start("free", seed=3).replace(in_hand=None, is_break=False)
    p = p.with_balls({**p.ball_map, "0": (0.5, 1.0)})
    lines = pot_lines(p, "0")
    assert all(a.difficulty <= b.difficulty for a, b in zip(lines, lines[1:], strict=False))


def test_the_compiled_path_test_agrees_with_path_clear() -> None:
    import numpy as np

    from piramida.agents.shots.ghost import path_clear_of

    rng = np.random.default_rng(7)
    agree = blocked = 0
    for _ in range(400):
        xy = np.column_stack([rng.uniform(0.05, 1.7, 12), rng.uniform(0.05, 3.5, 12)])
        a, b = xy[0], xy[1]
        others = [tuple(p) for p in xy[2:]]
        want = path_clear(tuple(a), tuple(b), others, R)
        got = path_clear_of(xy, 0, 1, a[0], a[1], b[0], b[1], 2 * R)
        agree += got == want
        blocked += not want
    assert agree == 400 and 50 < blocked < 350


def test_lines_among_placed_balls_are_the_placed_positions_lines() -> None:
    from piramida.agents.shots.context import Context
    from piramida.agents.shots.ghost import lines_among, object_legs
    from piramida.agents.shots.lines import hand_placements, targets_for
    from piramida.env.position_sets import load_positions
    from piramida.env.view import GameView

    found = 0
    for r in load_positions():
        view = GameView.for_position(r["position"])
        p = view.position
        if p.in_hand is None:
            continue
        ctx = Context(view)
        ball = ctx.cue_balls()[0]
        legs, targets = object_legs(p), targets_for(ctx, ball)
        for xy in hand_placements(ctx, ball)[:6]:
            placed = p.replace(balls=p.balls + ((ball, xy[0], xy[1]),), in_hand=None)
            want = pot_lines(placed, ball, targets, legs)
            found += len(want)
            assert lines_among({**p.ball_map, ball: xy}, p.table, ball, targets, legs) == want
        if found >= 30:
            break
    assert found >= 30


def test_compiled_placement_search_is_the_python_one() -> None:
    """``hand_lines``' compiled comparison of placements chooses what
    ``placed_lines`` does in Python, line for line and in the same order,
    on every ball-in-hand reference position and on the same positions
    with the balls scattered; it answers by itself nearly everywhere."""
    import random

    from piramida.agents.shots import lines
    from piramida.agents.shots.context import Context
    from piramida.agents.shots.ghost import object_legs
    from piramida.env.position_sets import load_positions
    from piramida.env.view import GameView

    rng = random.Random(3)
    checked = answered = 0
    for r in load_positions():
        view = GameView.for_position(r["position"])
        p = view.position
        if p.in_hand is None:
            continue
        for k in range(4):
            if k:
                t, rad = p.table, p.table.ball_radius
                moved: list[tuple[str, float, float]] = []
                for b, x, y in p.balls:
                    for _ in range(30):
                        nx, ny = rng.uniform(rad, t.width - rad), rng.uniform(rad, t.length - rad)
                        if all(math.hypot(nx - ox, ny - oy) > 2 * rad + 1e-3 for _, ox, oy in moved):
                            x, y = nx, ny
                            break
                    moved.append((b, x, y))
                view = GameView.for_position(p.replace(balls=tuple(moved)))
            ctx = Context(view)
            for ball in ctx.cue_balls()[:1]:
                legs, targets = object_legs(ctx.pos), lines.targets_for(ctx, ball)
                spots = lines.hand_placements(ctx, ball)
                want = lines.placed_lines(ctx, ball, targets, legs, spots)
                got = lines.searched_placements(ctx, ball, targets, legs, spots)
                answered += got is not None
                assert lines.hand_lines(ctx, ball) == want
                if got is not None:
                    assert got == want
                checked += 1
    assert checked >= 150 and answered >= checked - 2


def test_near_paths_finds_path_clears_blockers() -> None:
    """``ghost.near_paths`` (every ball to every pocket in one call) names
    the balls ``path_clear`` finds in the way, on random tables."""
    import numpy as np

    from piramida.agents.shots.ghost import near_paths

    t = Table.default()
    R = t.ball_radius
    aims = [aim_point(p, t) for p in t.pockets.values()]
    rng = np.random.default_rng(11)
    seen = 0
    for _ in range(60):
        xy = np.column_stack([rng.uniform(R, t.width - R, 14), rng.uniform(R, t.length - R, 14)])
        got = near_paths(xy, np.array(aims), 2 * R)
        for i in range(len(xy)):
            for j, ap in enumerate(aims):
                for k in range(len(xy)):
                    if k != i:
                        alone = path_clear(tuple(xy[i]), ap, [tuple(xy[k])], R)
                        assert got[i, j, k] == (not alone)
                        seen += not alone
                assert not got[i, j, i]
    assert seen > 200
