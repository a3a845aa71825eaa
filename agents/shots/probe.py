"""Strokes of one pot, played in a compiled loop: ``aim.pot_line``'s search
for the edges of its potting range, and its speed checks.

The range's edge search (``aim.edge``) plays a dozen strokes a line that
differ from the centred pot only in direction or pace, and asks of each
whether it still pots the same way. In Python each such stroke costs about
twice its simulation in bookkeeping (the shot, its result, the referee's
outcome key). ``Probe`` plays them in one numba call instead and answers
from the physics alone where the answer is certain:

- the stroke ends as the reference pot ended: the same first contact, the
  same balls in the same pockets in the same order, nothing off the table.
  The referee's outcome key (``Referee.outcome_key``) is then the
  reference's, which was judged legal, so the stroke is legal and worth as
  much: it pots, as ``aim.pot_line`` asks;
- the stroke does not pocket the target (in the line's pocket where shots
  are called): it does not pot, whatever the referee would say.

Any other stroke (the target goes in, but something else happens too)
needs the referee: the compiled search stops there and ``aim.pot_line``
plays that search in Python from the start, so every answer and every
count of strokes is the one the Python search gives.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from piramida.agents.shots.context import Context, Trial
from piramida.agents.shots.ghost import PotLine
from piramida.env.errors import PiramidaError
from piramida.env.physics.codes import EV_BALL, EV_OFF, EV_POCKET
from piramida.env.physics.loop import run
from piramida.env.physics.result import state_at
from piramida.env.physics.simulate import LoopInputs
from piramida.env.shot import Shot
from piramida.env.table import POCKETS

if TYPE_CHECKING:
    from piramida.agents.shots.aim import Secant

#: False: every stroke is played in Python (``aim.secant``, ``aim.edge``
#: over ``aim.pots_as``), the reference the compiled paths are tested and
#: benchmarked against; they give the same answers and count the same
#: strokes.
COMPILED = True
#: Iterations of the throw correction's secant (``aim.secant`` and the
#: compiled one; here because aim imports this module).
REFINE_ITERS = 7

#: A probe's answers: it pots as the reference does, it does not pot, or
#: only the referee can tell.
YES, NO, ASK = 1, 0, -1


@njit(cache=True)
def _verdict(ev, nev, mode, cue, target, pocket, called, ref_contact, ref_pocketed):  # pragma: no cover - compiled
    """YES, NO or ASK for the stroke whose records are ``ev[:nev]`` and
    final modes ``mode`` (module docstring)."""
    contact = -1
    for q in range(nev):
        if ev[q, 0] == EV_BALL:
            i, j = ev[q, 2], ev[q, 3]
            if i == cue:
                contact = int(j)
                break
            if j == cue:
                contact = int(i)
                break
    out = False
    for k in range(mode.shape[0]):
        if mode[k] < 0:
            out = True
            break
    same = contact == ref_contact
    n = 0
    target_in = False
    target_ok = False
    if out:  # as ShotResult.pocketed: nothing is pocketed while every ball is in play
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


@njit(cache=True)
def _play(phi, v, S0, S, mode, cue, theta, a, b, CU, JW, FC, PK, P, ev, seg, fw, iw, mw, target, pocket, called,
          ref_contact, ref_pocketed):  # pragma: no cover - compiled
    """One stroke at direction ``phi`` (degrees, taken mod 360 as
    ``Shot.aimed`` is given it) and speed ``v``, from the states ``S0``;
    its verdict."""
    for i in range(S0.shape[0]):
        for k in range(S0.shape[1]):
            S[i, k] = S0[i, k]
        mode[i] = 0
    nev, _nseg, _status = run(S, mode, cue, math.radians(phi % 360.0), theta, v, a, b, CU, JW, FC, PK, P, ev, seg,
                              fw, iw, mw)
    return _verdict(ev, nev, mode, cue, target, pocket, called, ref_contact, ref_pocketed)


@njit(cache=True)
def _edge(phi0, sign, v, first, limit, S0, S, mode, cue, theta, a, b, CU, JW, FC, PK, P, ev, seg, fw, iw, mw, target,
          pocket, called, ref_contact, ref_pocketed):  # pragma: no cover - compiled
    """``aim.edge`` on the side ``sign`` (+1 or -1) of ``phi0``: (the edge,
    strokes played, whether every answer was certain)."""
    lo, hi, d = 0.0, 0.0, first
    has_hi = False
    n = 0
    while d <= limit:
        r = _play(phi0 + sign * d, v, S0, S, mode, cue, theta, a, b, CU, JW, FC, PK, P, ev, seg, fw, iw, mw, target,
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
        r = _play(phi0 + sign * mid, v, S0, S, mode, cue, theta, a, b, CU, JW, FC, PK, P, ev, seg, fw, iw, mw,
                  target, pocket, called, ref_contact, ref_pocketed)
        n += 1
        if r == ASK:
            return lo, n, False
        if r == YES:
            lo = mid
        else:
            hi = mid
    return lo, n, True


@njit(cache=True)
def secant_next(phi, err, prev_phi, prev_err, has_prev, slope):  # pragma: no cover - compiled
    """The throw correction's next direction (degrees) after a stroke at
    ``phi`` whose object ball went ``err`` degrees off: a secant step
    through the stroke before (``has_prev``) where the two errors differ
    and the slope has the sign of ``slope`` (the ghost-ball estimate), else
    a step along ``slope``; at most 2 degrees. Compiled, for both secants
    (``aim.secant`` calls it from Python)."""
    s = slope
    if has_prev and err != prev_err:
        s = (err - prev_err) / (phi - prev_phi)
        if s * slope <= 0:
            s = slope
    step = -err / s
    return phi + max(-2.0, min(2.0, step))


@njit(cache=True)
def _object_error(ev, nev, seg, cue, target, P, want):  # pragma: no cover - compiled
    """``aim.object_error`` of the stroke whose records are ``ev[:nev]`` and
    ``seg``: (whether there is one, the error in degrees)."""
    t = -1.0
    for q in range(nev):
        if ev[q, 0] == EV_BALL:
            i, j = ev[q, 2], ev[q, 3]
            if i == cue or j == cue:
                if (j if i == cue else i) != target:
                    return False, 0.0
                t = ev[q, 1]
                break
    if t < 0.0:
        return False, 0.0
    st = np.empty(7)
    if not state_at(seg, target, t, P, st):
        return False, 0.0
    got = math.degrees(math.atan2(st[3], st[2]))
    return True, (got - want + 180.0) % 360.0 - 180.0


@njit(cache=True)
def _pots_target(ev, nev, mode, target, pocket, called):  # pragma: no cover - compiled
    """``aim.pockets_target`` of the stroke whose records are ``ev[:nev]``."""
    out = False
    for k in range(mode.shape[0]):
        if mode[k] < 0:
            out = True
            break
    if not out:
        return False
    for q in range(nev):
        if ev[q, 0] == EV_POCKET and int(ev[q, 2]) == target:
            return int(ev[q, 4]) == pocket or not called
    return False


@njit(cache=True)
def _refine(phi, v, slope, tol, want, iters, S0, S, mode, cue, theta, a, b, CU, JW, FC, PK, P, ev, seg, fw, iw, mw,
            target, pocket, called):  # pragma: no cover - compiled
    """``aim.refine``'s secant with every stroke that pots the target taken
    as legal: (the direction of the last such stroke, its iteration or -1,
    strokes played, whether the directions stayed finite, and the last
    stroke's event and segment counts and status, whose records and final
    states are still in ``ev``, ``seg``, ``S`` and ``mode``)."""
    pts_phi = np.empty(iters)
    pts_err = np.empty(iters)
    npts = 0
    potted_phi, potted_it = 0.0, -1
    n = nev = nseg = status = 0
    for it in range(iters):
        if not math.isfinite(phi):
            return potted_phi, potted_it, n, False, nev, nseg, status
        for i in range(S0.shape[0]):
            for k in range(S0.shape[1]):
                S[i, k] = S0[i, k]
            mode[i] = 0
        nev, nseg, status = run(S, mode, cue, math.radians(phi % 360.0), theta, v, a, b, CU, JW, FC, PK, P, ev,
                                seg, fw, iw, mw)
        n += 1
        has_err, err = _object_error(ev, nev, seg[:nseg], cue, target, P, want)
        if _pots_target(ev, nev, mode, target, pocket, called):
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


class Probe:
    """Strokes that vary a legal pot (the reference trial) in direction and
    pace, played without coming back to Python (module docstring). Made by
    ``Probe.of``, which is None where the referee gives the reference no
    outcome key."""

    def __init__(self, ctx: Context, line: PotLine, ref: Trial, inputs: LoopInputs, contact: int,
                 pocketed: np.ndarray) -> None:
        self.ctx = ctx
        shot = ref.shot
        ids = inputs.ids
        self.inputs = inputs
        self.S = np.empty_like(inputs.S0)
        self.mode = np.zeros(len(ids), dtype=np.int64)
        self.cue = ids.index(shot.ball)
        self.theta = math.radians(shot.theta)
        self.a, self.b = shot.a, shot.b
        self.target = ids.index(line.target)
        self.pocket = POCKETS.index(line.pocket)
        self.called = ctx.called
        self.contact = contact
        self.pocketed = pocketed

    @classmethod
    def of(cls, ctx: Context, line: PotLine, ref: Trial) -> Probe | None:
        """A probe around ``ref`` (a legal trial of ``line`` that pots its
        target), or None where the physics alone cannot answer for the
        referee: the reference has no outcome key."""
        res = ref.result
        if not COMPILED or not ref.legal or ctx.outcome_key(ref.shot, res) is None:
            return None
        contact = res.first_contact(ref.shot.ball)
        if contact is None or res.off_table:
            return None
        inputs = ctx.simulate.loop_inputs(ref.shot)
        ids = inputs.ids
        pocketed = np.array([[ids.index(b), POCKETS.index(p)] for b, p in res.pocketed], dtype=np.int64)
        return cls(ctx, line, ref, inputs, ids.index(contact[0]), pocketed.reshape(-1, 2))

    def _args(self) -> tuple:
        i = self.inputs
        t = i.table
        return (
            i.S0, self.S, self.mode, self.cue, self.theta, self.a, self.b, t.CU, t.JW, t.FC, t.PK, t.P,
            i.ev, i.seg, i.fw, i.iw, i.mw, self.target, self.pocket, self.called, self.contact, self.pocketed,
        )

    def _count(self, n: int) -> None:
        if self.ctx.budget is not None:
            self.ctx.budget.used += n

    def edge(self, phi0: float, sign: float, v: float, first: float = 0.02, limit: float = 0.64) -> float | None:
        """``aim.edge`` of the strokes at ``phi0 + sign * d`` and speed
        ``v`` (as ``Shot.aimed`` takes them), or None where a stroke needs
        the referee (then nothing is counted in the budget)."""
        lo, n, certain = _edge(phi0, sign, v, first, limit, *self._args())
        if not certain:
            return None
        self._count(n)
        return lo

    def pots(self, phi: float, v: float) -> bool | None:
        """Whether the stroke at ``phi`` and speed ``v`` pots as the
        reference does (True), does not pot (False), or None where only the
        referee can tell (then nothing is counted)."""
        r = _play(phi, v, *self._args())
        if r == ASK:
            return None
        self._count(1)
        return r == YES




def refined(ctx: Context, line: PotLine, first: Shot, sec: Secant) -> tuple[bool, Trial | None]:
    """``aim.refine`` from its first stroke ``first`` and its secant
    ``sec`` (``aim.secant_for``), with the secant compiled: (True, its
    answer) where that is certain, (False, None) where ``aim.secant`` must
    play it in Python (nothing is counted in the budget then).

    The compiled secant takes every stroke that pockets the target as
    legal; the referee judges only the last of them, the answer. Where that
    one is legal, so was every choice the secant made on the way: a pot
    taken as legal and close enough ends the secant, and that pot is the
    last; any other pot steers it as a foul would. Where it is not legal
    (or the referee refuses it), Python plays the secant again and judges
    every pot."""
    if not COMPILED:
        return False, None
    try:
        inputs = ctx.simulate.loop_inputs(first)
    except PiramidaError:
        return False, None
    ids, t = inputs.ids, inputs.table
    if line.target not in ids:
        return False, None
    S, mode = np.empty_like(inputs.S0), np.zeros(len(ids), dtype=np.int64)
    phi, it, n, finite, nev, nseg, status = _refine(
        line.phi, first.v, sec.slope, sec.tol, sec.want, REFINE_ITERS, inputs.S0, S, mode, ids.index(first.ball),
        math.radians(first.theta), first.a, first.b, t.CU, t.JW, t.FC, t.PK, t.P, inputs.ev, inputs.seg, inputs.fw,
        inputs.iw, inputs.mw, ids.index(line.target), POCKETS.index(line.pocket), ctx.called,
    )
    if not finite:
        return False, None
    tr: Trial | None = None
    if it >= 0:
        shot = first if it == 0 else first.aimed(phi % 360.0)
        if it == n - 1:
            # The answer is the last stroke played: its records are still in
            # the buffers.
            res = ctx.simulate.result(shot, inputs, status, nev, nseg, S, mode)
        else:
            try:
                res = ctx.simulate(shot)
            except PiramidaError:
                return False, None
        tr = ctx.judge(shot, res)
        if tr is None or not tr.legal:
            return False, None
    if ctx.budget is not None:
        ctx.budget.used += n
    return True, tr


__all__ = ["ASK", "COMPILED", "NO", "REFINE_ITERS", "YES", "Probe", "refined", "secant_next"]
