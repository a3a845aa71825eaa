"""Families of strokes from one position, played in one compiled call:
what an aiming search asks of many strokes that differ only in direction
or pace, without coming back to Python for each.

The answers are the physics' own (no rules here): for each stroke, which
ball the struck ball touches first, which balls drop where and in what
order, what leaves the table, and where the object ball heads just after
it is struck. ``agents/shots/probe.py`` decides when these answer for the
referee.

- ``play``: one stroke, and its ``verdict`` against a reference outcome:
  YES (it ends as the reference did: the same first contact, the same
  balls into the same pockets in the same order, nothing off the table),
  NO (the target does not drop, in the given pocket where that is asked),
  ASK (the target drops, but something else differs).
- ``edge_search``: how far the direction may move one way and still get
  YES (doubling steps, then two bisections); stops at the first ASK.
- ``secant_search``: a secant on the cue direction that drives the object
  ball's direction just after contact (``object_error``) onto an aim
  direction, taking every stroke that pockets the target as the answer
  so far (``pots_target``); ``secant_next`` is one step of it.

Every stroke starts from the states at rest ``S0`` (copied into ``S``)
and is played by ``loop.run`` with the caller's buffers, as
``Simulator`` plays it: the same numbers give the same results. They live
beside the event loop so that the cached machine code, which has the loop
compiled in, is dropped with the physics' when any physics module changes
(env/kernel_cache.py).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from piramida.env.physics.codes import EV_OFF, EV_POCKET
from piramida.env.physics.loop import run
from piramida.env.physics.result import first_contact, state_at

#: ``verdict``'s answers: as the reference, the target does not drop, or
#: something else differs.
YES, NO, ASK = 1, 0, -1


@njit(cache=True, error_model="numpy")
def any_out(mode):  # pragma: no cover - compiled
    """Whether some ball ended out of play (pocketed or off the table): as
    ``ShotResult.pocketed``, nothing is pocketed while every ball is in."""
    for k in range(mode.shape[0]):
        if mode[k] < 0:
            return True
    return False


@njit(cache=True, error_model="numpy")
def verdict(ev, nev, mode, cue, target, pocket, called, ref_contact, ref_pocketed):  # pragma: no cover - compiled
    """YES, NO or ASK for the stroke of ball ``cue`` whose records are
    ``ev[:nev]`` and final modes ``mode``, against the reference's first
    contact (a ball index) and pocketed balls (rows of ball index, pocket
    index in drop order); the target is asked for in ``pocket`` where
    ``called`` (module docstring)."""
    contact, _t = first_contact(ev, nev, cue)
    same = contact == ref_contact
    n = 0
    target_in = False
    target_ok = False
    if any_out(mode):
        for q in range(nev):
            typ = ev[q, 0]
            if typ == EV_POCKET:
                b, p = int(ev[q, 2]), int(ev[q, 4])
                if not target_in and b == target:
                    target_in = True
                    target_ok = p == pocket or not called
                if n >= ref_pocketed.shape[0] or ref_pocketed[n, 0] != b or ref_pocketed[n, 1] != p:
                    same = False
                n += 1
            elif typ == EV_OFF:
                same = False
    if n != ref_pocketed.shape[0]:
        same = False
    if same:
        return YES
    if target_in and target_ok:
        return ASK
    return NO


@njit(cache=True, error_model="numpy")
def stroke(phi, v, S0, S, mode, cue, theta, a, b, CU, JW, FC, PK, P, ev, seg, fw, iw, mw):  # pragma: no cover - compiled
    """Ball ``cue`` struck at direction ``phi`` (degrees, taken mod 360 as
    ``Shot.aimed`` is given it) and speed ``v`` from the states ``S0``:
    ``loop.run``'s (event count, segment count, status), its records in
    ``ev`` and ``seg`` and the final states in ``S`` and ``mode``. The one
    kernel here that calls the loop: each kernel that links the loop's code
    in costs seconds to compile on an empty cache."""
    for i in range(S0.shape[0]):
        for k in range(S0.shape[1]):
            S[i, k] = S0[i, k]
        mode[i] = 0
    return run(S, mode, cue, math.radians(phi % 360.0), theta, v, a, b, CU, JW, FC, PK, P, ev, seg, fw, iw, mw)


@njit(cache=True, error_model="numpy")
def play(phi, v, S0, S, mode, cue, theta, a, b, CU, JW, FC, PK, P, ev, seg, fw, iw, mw, target, pocket, called,
         ref_contact, ref_pocketed):  # pragma: no cover - compiled
    """One stroke (``stroke``) and its ``verdict``."""
    nev, _nseg, _status = stroke(phi, v, S0, S, mode, cue, theta, a, b, CU, JW, FC, PK, P, ev, seg, fw, iw, mw)
    return verdict(ev, nev, mode, cue, target, pocket, called, ref_contact, ref_pocketed)


@njit(cache=True, error_model="numpy")
def edge_search(phi0, sign, v, first, limit, S0, S, mode, cue, theta, a, b, CU, JW, FC, PK, P, ev, seg, fw, iw, mw,
                target, pocket, called, ref_contact, ref_pocketed):  # pragma: no cover - compiled
    """How far (degrees) the direction may move from ``phi0`` to the side
    ``sign`` (+1 or -1) and every stroke still get YES: steps of ``first``
    doubling while at most ``limit``, then two bisections (the edge search
    of agents/shots/aim.py). (The edge, strokes played, False if a stroke
    got ASK: the search stopped there.)"""
    lo, hi, d = 0.0, 0.0, first
    has_hi = False
    n = 0
    while d <= limit:
        r = play(phi0 + sign * d, v, S0, S, mode, cue, theta, a, b, CU, JW, FC, PK, P, ev, seg, fw, iw, mw, target,
                 pocket, called, ref_contact, ref_pocketed)
        n += 1
        if r == ASK:
            return lo, n, False
        if r == YES:
            lo, d = d, 2 * d
        else:
            hi = d
            has_hi = True
            break
    if not has_hi:
        return lo, n, True
    for _ in range(2):
        mid = 0.5 * (lo + hi)
        r = play(phi0 + sign * mid, v, S0, S, mode, cue, theta, a, b, CU, JW, FC, PK, P, ev, seg, fw, iw, mw,
                 target, pocket, called, ref_contact, ref_pocketed)
        n += 1
        if r == ASK:
            return lo, n, False
        if r == YES:
            lo = mid
        else:
            hi = mid
    return lo, n, True


@njit(cache=True, error_model="numpy")
def secant_next(phi, err, prev_phi, prev_err, has_prev, slope):  # pragma: no cover - compiled
    """The throw correction's next direction (degrees) after a stroke at
    ``phi`` whose object ball went ``err`` degrees off: a secant step
    through the stroke before (``has_prev``) where the two errors differ
    and the slope has the sign of ``slope`` (the ghost-ball estimate), else
    a step along ``slope``; at most 2 degrees. Compiled, for both secants
    (agents/shots/aim.py calls it from Python)."""
    s = slope
    if has_prev and err != prev_err:
        s = (err - prev_err) / (phi - prev_phi)
        if s * slope <= 0:
            s = slope
    step = -err / s
    return phi + max(-2.0, min(2.0, step))


@njit(cache=True, error_model="numpy")
def object_error(ev, nev, seg, cue, target, P, want):  # pragma: no cover - compiled
    """Degrees between the direction of ball ``target`` just after ball
    ``cue`` first touches it and the direction ``want``, for the stroke
    whose records are ``ev[:nev]`` and ``seg``: (False, 0) where ``cue``
    touches another ball first or none, or ``target`` has no state then."""
    contact, t = first_contact(ev, nev, cue)
    if contact != target:
        return False, 0.0
    st = np.empty(7)
    if not state_at(seg, target, t, P, st):
        return False, 0.0
    got = math.degrees(math.atan2(st[3], st[2]))
    return True, (got - want + 180.0) % 360.0 - 180.0


@njit(cache=True, error_model="numpy")
def pots_target(ev, nev, mode, target, pocket, called):  # pragma: no cover - compiled
    """Whether ball ``target`` drops (the first time it does, into
    ``pocket`` where ``called``) in the stroke whose records are
    ``ev[:nev]`` and final modes ``mode``."""
    if not any_out(mode):
        return False
    for q in range(nev):
        if ev[q, 0] == EV_POCKET and int(ev[q, 2]) == target:
            return int(ev[q, 4]) == pocket or not called
    return False


@njit(cache=True, error_model="numpy")
def secant_search(phi, v, slope, tol, want, iters, S0, S, mode, cue, theta, a, b, CU, JW, FC, PK, P, ev, seg, fw, iw,
                  mw, target, pocket, called):  # pragma: no cover - compiled
    """The throw correction's secant (agents/shots/aim.py): up to ``iters``
    strokes from direction ``phi``, each next one by ``secant_next`` on the
    object error against ``want``, stopping at a stroke that pockets the
    target with an error under ``tol`` (or none), or any stroke with an
    error under ``tol / 2``; after a stroke with no error, halfway back to
    the stroke before. (The direction of the last stroke that pocketed the
    target, its iteration or -1, strokes played, whether the directions
    stayed finite, and the last stroke's event and segment counts and
    status, whose records and final states are still in ``ev``, ``seg``,
    ``S`` and ``mode``.)"""
    pts_phi = np.empty(iters)
    pts_err = np.empty(iters)
    npts = 0
    potted_phi, potted_it = 0.0, -1
    n = nev = nseg = status = 0
    for it in range(iters):
        if not math.isfinite(phi):
            return potted_phi, potted_it, n, False, nev, nseg, status
        nev, nseg, status = stroke(phi, v, S0, S, mode, cue, theta, a, b, CU, JW, FC, PK, P, ev, seg, fw, iw, mw)
        n += 1
        has_err, err = object_error(ev, nev, seg[:nseg], cue, target, P, want)
        if pots_target(ev, nev, mode, target, pocket, called):
            potted_phi, potted_it = phi, it
            if not has_err or abs(err) < tol:
                break
        if not has_err:
            if npts == 0:
                return potted_phi, potted_it, n, True, nev, nseg, status
            # Overshot into another ball or a miss: go back halfway.
            phi = 0.5 * (phi + pts_phi[npts - 1])
            continue
        pts_phi[npts] = phi
        pts_err[npts] = err
        npts += 1
        if abs(err) < tol * 0.5:
            break
        if npts >= 2:
            phi = secant_next(phi, err, pts_phi[npts - 2], pts_err[npts - 2], True, slope)
        else:
            phi = secant_next(phi, err, 0.0, 0.0, False, slope)
    return potted_phi, potted_it, n, True, nev, nseg, status


__all__ = [
    "ASK",
    "NO",
    "YES",
    "any_out",
    "edge_search",
    "first_contact",
    "object_error",
    "play",
    "pots_target",
    "secant_next",
    "secant_search",
    "stroke",
    "verdict",
]
