"""The event loop's culling (loop.py, docs/performance.md) changes no result.

Before a root finder runs, loop._table_next wraps the ball's path in a
capsule and skips cushions, jaws, facings, pockets and the centre line the
capsule cannot reach; the loop skips ball pairs whose capsules stay apart.
Here a reference without any culling, written out in Python over the same
root finders, must give bit for bit the same next table event on random
ball states, and a culled pair must have no contact before one of its two
balls' next table event (which recomputes the pair first). The capsule
itself must hold the path it stands for.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from piramida.env.physics import loop
from piramida.env.physics.arrays import table_arrays
from piramida.env.physics.codes import P_R, P_YC, SPINNING, STATIONARY
from piramida.env.physics.detect import capture_time, centre_time, circle_time, line_time, pair_time
from piramida.env.physics.motion import accel, classify, duration, evolve
from piramida.env.table import Table

TABLE = Table.default()
TA = table_arrays(TABLE)
P = TA.P
R = float(P[P_R])


def reference_table_next(s, m, lo, side):
    """loop._table_next for one ball (tref = 0) with every candidate
    evaluated: (t, kind, index) and the earliest event other than a
    centre-line crossing."""
    inf = math.inf
    if m < 0 or m == STATIONARY:
        return (inf, loop.K_NONE, -1), inf
    hi = duration(s, m, P)
    best, kind, idx = hi, loop.K_TRANS, -1
    if m == SPINNING:
        return (best, kind, idx), best
    out, pts = np.empty(8), np.empty(8)
    ax, ay = accel(s, m, P)
    CU, JW, FC, PK = TA.CU, TA.JW, TA.FC, TA.PK
    for c in range(CU.shape[0]):
        t = line_time(s, ax, ay, lo, hi, *CU[c, :6], R, out, pts)
        if t < best:
            best, kind, idx = t, loop.K_CUSH, c
    for q in range(JW.shape[0]):
        t = circle_time(s, ax, ay, lo, hi, JW[q, 0], JW[q, 1], R + JW[q, 2], out, pts)
        if t < best:
            best, kind, idx = t, loop.K_JAW, q
    for q in range(FC.shape[0]):
        t = line_time(s, ax, ay, lo, hi, *FC[q, :6], R, out, pts)
        if t < best:
            best, kind, idx = t, loop.K_FACE, q
    for p in range(PK.shape[0]):
        t = capture_time(s, ax, ay, lo, hi, *PK[p, :6], R, pts)
        if t < best:
            best, kind, idx = t, loop.K_CAPTURE, p
    tnc = best
    if side == 0:
        vy = s[3] + ay * lo
        side = (1 if vy > 0 else -1) if vy != 0 else (1 if ay > 0 else -1 if ay < 0 else 0)
    if side != 0:
        t = centre_time(s, ax, ay, lo, hi, P[P_YC], side, pts)
        if t < best:
            best, kind, idx = t, loop.K_CENTRE, -1
    return (best, kind, idx), tnc


def ball_state(x, y, speed, heading, wx, wy, wz):
    s = np.array([x, y, speed * math.cos(heading), speed * math.sin(heading), wx, wy, wz])
    return s, classify(s, R)


def culled_table_next(S, modes, i, lo, cap):
    n = S.shape[0]
    tref, dur = np.zeros(n), np.array([duration(S[k], modes[k], P) for k in range(n)])
    side = np.array([1 if S[k, 1] > P[P_YC] else -1 if S[k, 1] < P[P_YC] else 0 for k in range(n)])
    return loop._table_next(
        i, lo, S, modes, tref, dur, side, TA.CU, TA.JW, TA.FC, TA.PK, P, np.empty(8), np.empty(8), cap
    )


xs = st.floats(R + 0.001, TABLE.width - R - 0.001)
ys = st.floats(R + 0.001, TABLE.length - R - 0.001)
speeds = st.sampled_from([0.0, 1e-3, 0.05, 0.3, 1.0, 2.5, 6.0, 10.0])
headings = st.floats(0, 2 * math.pi)
spins = st.sampled_from([0.0, 5.0, -5.0, 60.0, -60.0, 250.0, -250.0])
fractions = st.sampled_from([0.0, 0.0, 0.1, 0.5, 0.9])


@settings(max_examples=400, deadline=None)
@given(xs, ys, speeds, headings, spins, spins, spins, fractions)
def test_table_next_equals_the_unculled_reference(x, y, v, h, wx, wy, wz, frac):
    s, m = ball_state(x, y, v, h, wx, wy, wz)
    lo = frac * duration(s, m, P) if m > STATIONARY else 0.0
    S = s[None, :].copy()
    side0 = 1 if y > P[P_YC] else -1 if y < P[P_YC] else 0
    want, _ = reference_table_next(s, m, lo, side0)
    got = culled_table_next(S, np.array([m], dtype=np.int64), 0, lo, np.empty((1, loop.NCAP)))
    assert tuple(got) == want


def test_table_next_near_pockets_and_cushions_equals_the_reference():
    """Balls aimed at every pocket and along every cushion."""
    rng = np.random.default_rng(3)
    n = 0
    for p in TABLE.pockets.values():
        mx, my = p.mouth_centre
        ax, ay = p.axis
        for _ in range(40):
            d = rng.uniform(0.05, 1.0)
            x, y = mx - ax * d + rng.normal(0, 0.03), my - ay * d + rng.normal(0, 0.03)
            if not TABLE.on_surface(x, y):
                continue
            h = math.atan2(my - y, mx - x) + rng.normal(0, 0.05)
            s, m = ball_state(x, y, rng.choice([0.4, 1.5, 4.0, 9.0]), h, *rng.normal(0, 40, 3))
            S = s[None, :].copy()
            want, _ = reference_table_next(s, m, 0.0, 1 if y > P[P_YC] else -1)
            got = culled_table_next(S, np.array([m], dtype=np.int64), 0, 0.0, np.empty((1, loop.NCAP)))
            assert tuple(got) == want
            n += 1
    assert n > 150


def _path(s, m, lo, hi, k=200):
    """Points of the ball's path between lo and hi (times from its state)."""
    out = np.empty(7)
    pts = []
    for t in np.linspace(lo, hi, k):
        evolve(s, m, t, P, out)
        pts.append((out[0], out[1]))
    return np.array(pts)


def _seg_dist(px, py, c):
    return math.sqrt(loop._pt_seg2(px, py, c[0], c[1], c[2], c[3]))


@settings(max_examples=200, deadline=None)
@given(xs, ys, speeds, headings, spins, spins, spins, fractions)
def test_the_capsule_holds_the_path_to_the_next_motion_event(x, y, v, h, wx, wy, wz, frac):
    s, m = ball_state(x, y, v, h, wx, wy, wz)
    lo = frac * duration(s, m, P) if m > STATIONARY else 0.0
    side0 = 1 if y > P[P_YC] else -1 if y < P[P_YC] else 0
    _, tnc = reference_table_next(s, m, lo, side0)
    cap = np.empty((1, loop.NCAP))
    culled_table_next(s[None, :].copy(), np.array([m], dtype=np.int64), 0, lo, cap)
    c = cap[0]
    end = tnc if math.isfinite(tnc) else lo
    for px, py in _path(s, max(m, 0), lo, end):
        assert _seg_dist(px, py, c) <= c[4] + 1e-9
        assert c[5] - 1e-9 <= px <= c[6] + 1e-9 and c[7] - 1e-9 <= py <= c[8] + 1e-9


def reference_pair_time(S, modes, i, j):
    """loop.pair_next at T = 0 without the capsule test."""
    mi, mj = modes[i], modes[j]
    if mi < 0 or mj < 0 or (mi <= SPINNING and mj <= SPINNING):
        return math.inf
    hi = min(duration(S[i], mi, P), duration(S[j], mj, P))
    si, sj = np.empty(7), np.empty(7)
    evolve(S[i], mi, 0.0, P, si)
    evolve(S[j], mj, 0.0, P, sj)
    aix, aiy = accel(S[i], mi, P)
    ajx, ajy = accel(S[j], mj, P)
    return pair_time(si, aix, aiy, sj, ajx, ajy, hi, 2.0 * R, np.empty(8), np.empty(8))


@settings(max_examples=400, deadline=None)
@given(xs, ys, speeds, headings, spins, spins, st.floats(0.07, 1.2), headings, speeds, headings, spins)
def test_a_culled_pair_has_no_contact_before_a_table_event(x, y, v, h, wx, wz, d, bearing, v2, h2, w2):
    s1, m1 = ball_state(x, y, v, h, wx, 0.0, wz)
    x2, y2 = x + d * math.cos(bearing), y + d * math.sin(bearing)
    if not (R < x2 < TABLE.width - R and R < y2 < TABLE.length - R):
        return
    s2, m2 = ball_state(x2, y2, v2, h2, 0.0, w2, 0.0)
    S = np.array([s1, s2])
    modes = np.array([m1, m2], dtype=np.int64)
    cap = np.empty((2, loop.NCAP))
    tnc = []
    for k in range(2):
        culled_table_next(S, modes, k, 0.0, cap)
        side = 1 if S[k, 1] > P[P_YC] else -1 if S[k, 1] < P[P_YC] else 0
        tnc.append(reference_table_next(S[k], modes[k], 0.0, side)[1])
    want = reference_pair_time(S, modes, 0, 1)
    culled = loop._apart(cap, 0, 1, 2 * R + loop.CULL) or math.isinf(
        loop.pair_next(0, 1, 0.0, S, modes, np.zeros(2), np.array([duration(S[k], modes[k], P) for k in range(2)]),
                        P, np.empty(7), np.empty(7), np.empty(8), np.empty(8), cap)
    )
    if culled:
        assert want == math.inf or want > min(tnc)
    else:
        assert loop.pair_next(
            0, 1, 0.0, S, modes, np.zeros(2), np.array([duration(S[k], modes[k], P) for k in range(2)]),
            P, np.empty(7), np.empty(7), np.empty(8), np.empty(8), cap,
        ) == want


def test_a_path_crossing_a_line_beyond_its_end_is_not_searched() -> None:
    # A capsule whose segment runs from above the middle of a unit line
    # (normal +y, tangent +x, from the origin) to below the line past its
    # end: its extent along the line overlaps the line's, but the part
    # within reach of the line lies past the end, where no contact counts.
    cap = np.array([0.5, 0.5, 1.5, -0.1, 0.01, 0.0, 0.0, 0.0, 0.0])
    assert loop._misses_line(cap, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0, R)
    # The same path crossing inside the line's extent is searched.
    cap2 = np.array([0.2, 0.5, 0.8, -0.1, 0.01, 0.0, 0.0, 0.0, 0.0])
    assert not loop._misses_line(cap2, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0, R)
    # A segment that leaves the band at a shallow slope (less than CLIP_DD
    # of approach over its length) is not clipped, since its rounding would
    # matter: searched, though the clipped part would lie past the end.
    r = 0.001
    near = R + r + loop.CULL
    d0, d1 = near - 0.2 * loop.CLIP_DD, near + 0.5 * loop.CLIP_DD
    cap3 = np.array([1.5, d0, 0.5, d1, r, 0.0, 0.0, 0.0, 0.0])
    assert not loop._misses_line(cap3, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0, R)
    # The same segment leaving the band steeply is clipped and not searched.
    cap4 = np.array([1.5, d0, 0.5, d0 + 10 * loop.CLIP_DD, r, 0.0, 0.0, 0.0, 0.0])
    assert loop._misses_line(cap4, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0, R)
