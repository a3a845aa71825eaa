"""The strokes of one pot, played in compiled loops where the physics can
answer for the referee: the throw correction's secant (``refined``) and
the potting range's edge search and speed checks (``Probe``).

These searches play a dozen strokes a line that differ only in direction
or pace. In Python each stroke cost about as much again as its simulation
in bookkeeping (the shot, its result, the referee's outcome key); here a
whole search is one numba call (env/physics/aiming.py) and the referee
sees only what the physics cannot settle:

- Edges and speed checks (``Probe``, around a legal pot with an outcome
  key): a stroke that ends as the reference pot ended (the same first
  contact, the same balls into the same pockets in the same order,
  nothing off the table) has the reference's outcome key
  (``CachingReferee.outcome_key``), so it is legal and worth as much: it pots,
  as ``aim.pots_as`` asks. A stroke that does not pocket the target (in
  the line's pocket where shots are called) does not pot, whatever the
  referee would say. Any other stroke stops the compiled search.
- The secant (``refined``) takes every stroke that pockets the target as
  legal and has the referee judge only the last of them, the answer (see
  ``refined`` for why that is enough). If it is not legal, the secant
  is played again in Python, judging every pot.

Where the compiled search stops, ``aim`` plays it in Python from the
start (``aim.secant``, ``aim.edge`` over ``aim.pots_as``), so every answer
and every count of strokes in a budget is the Python search's.
``COMPILED = False`` plays everything in Python (tests/agents/test_probe.py,
``bench.candidates --compare-python``).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from piramida.agents.shots.context import Context, Trial
from piramida.agents.shots.ghost import PotLine
from piramida.env.errors import PiramidaError
from piramida.env.physics.aiming import (
    ASK,
    YES,
    edge_search,
    play,
    secant_next,
    secant_search,
    stroke,
    verdict,
)
from piramida.env.physics.simulate import LoopInputs
from piramida.env.shot import Shot
from piramida.env.table import POCKETS

#: False: every stroke is played in Python (``aim.secant``, ``aim.edge``
#: over ``aim.pots_as``), the reference the compiled paths are tested and
#: benchmarked against; they give the same answers and count the same
#: strokes.
COMPILED = True
#: Iterations of the throw correction's secant (``aim.secant`` and the
#: compiled one; here because aim imports this module).
REFINE_ITERS = 7


class Secant(NamedTuple):
    """``aim.refine``'s secant for one line (``aim.secant_for``): the first
    step's ``slope`` (degrees of object-ball direction per degree of cue),
    the tolerance ``tol`` (degrees) and the direction ``want`` (degrees)
    from the target to the pocket's aim point. Here because aim imports
    this module."""

    slope: float
    tol: float
    want: float


class Reference(NamedTuple):
    """A legal trial's outcome as the compiled strokes compare it: its
    outcome key (``CachingReferee.outcome_key``, not None), the ball the struck
    ball touched first and the balls pocketed (rows of ball index, pocket
    index, in drop order), indices into the position's packed balls."""

    key: tuple[Any, ...]
    contact: int
    pocketed: np.ndarray


def reference_of(ctx: Context, tr: Trial) -> Reference | None:
    """``tr``'s ``Reference``, or None where the physics alone cannot stand
    in for the referee: it is not legal, has no outcome key, touched
    nothing or sent a ball off the table, its referee's keys read more than
    the first contact and the balls pocketed (``keys_by_pockets``: five
    balls reads the carom; a ball beside the struck one: the push test), or
    all strokes are played in Python."""
    res = tr.result
    if not COMPILED or not tr.legal or ctx.cache is None or not getattr(ctx.referee, "keys_by_pockets", False):
        return None
    if ctx.cache.start_near(ctx.pos, tr.shot)[1]:
        # A ball beside the struck one: the key reads the push test too
        # (item 19.2, where the struck ball ends), which the kernels do not.
        return None
    ids = ctx.simulate.packed(tr.shot)[1]
    # Every trial a search makes is judged with its key (``Context.judge``).
    key = tr.key
    contact = res.first_contact(tr.shot.ball)
    if key is None or contact is None or res.off_table:
        return None
    pocketed = np.array([[ids.index(b), POCKETS.index(p)] for b, p in res.pocketed], dtype=np.int64)
    return Reference(key, ids.index(contact[0]), pocketed.reshape(-1, 2))


class Probe:
    """Strokes that vary a legal pot (the reference trial) in direction and
    pace, played without coming back to Python (module docstring). Made by
    ``Probe.of``, which is None where the referee gives the reference no
    outcome key."""

    def __init__(self, ctx: Context, line: PotLine, ref: Trial, inputs: LoopInputs, like: Reference) -> None:
        self.ctx = ctx
        shot = ref.shot
        ids = inputs.ids
        self.inputs = inputs
        # ``stroke`` fills both from the states at rest before each stroke.
        self.S = np.empty(inputs.S0.shape)
        self.mode = np.empty(len(ids), dtype=np.int64)
        self.cue = ids.index(shot.ball)
        self.theta = math.radians(shot.theta)
        self.a, self.b = shot.a, shot.b
        self.target = ids.index(line.target)
        self.pocket = POCKETS.index(line.pocket)
        self.called = ctx.called
        self.like = like
        self.args = self._args()

    @classmethod
    def of(cls, ctx: Context, line: PotLine, ref: Trial) -> Probe | None:
        """A probe around ``ref`` (a legal trial of ``line`` that pots its
        target), or None where the physics alone cannot answer for the
        referee (``reference_of``)."""
        like = reference_of(ctx, ref)
        return cls(ctx, line, ref, ctx.simulate.loop_inputs(ref.shot), like) if like is not None else None

    def _args(self) -> tuple:
        """The kernels' arguments after the stroke's direction and pace
        (made once: a probe plays a pot's edges and speed checks)."""
        i = self.inputs
        t = i.table
        return (
            i.S0, self.S, self.mode, self.cue, self.theta, self.a, self.b, t.CU, t.JW, t.FC, t.PK, t.P,
            i.ev, i.seg, i.fw, i.iw, i.mw, self.target, self.pocket, self.called, self.like.contact,
            self.like.pocketed,
        )

    def _count(self, n: int) -> None:
        if self.ctx.budget is not None:
            self.ctx.budget.used += n

    def edge(self, phi0: float, sign: float, v: float, first: float = 0.02, limit: float = 0.64) -> float | None:
        """``aim.edge`` of the strokes at ``phi0 + sign * d`` and speed
        ``v`` (as ``Shot.aimed`` takes them), or None where a stroke needs
        the referee (then nothing is counted in the budget)."""
        lo, n, certain = edge_search(phi0, sign, v, first, limit, *self.args)
        if not certain:
            return None
        self._count(n)
        return lo

    def pots(self, phi: float, v: float) -> bool | None:
        """Whether the stroke at ``phi`` and speed ``v`` pots as the
        reference does (True), does not pot (False), or None where only the
        referee can tell (then nothing is counted)."""
        r = play(phi, v, *self.args)
        if r == ASK:
            return None
        self._count(1)
        return r == YES

    def trial(self, shot: Shot) -> tuple[bool, Trial | None]:
        """``aim.pots_as`` of ``shot``, the reference's stroke aimed
        elsewhere: (True, the trial, or None where it does not pot) where
        the physics answers, (False, None) where only the referee can
        (then nothing is counted)."""
        i, t = self.inputs, self.inputs.table
        S, mode = np.empty(i.S0.shape), np.empty(len(i.ids), dtype=np.int64)  # filled by ``stroke``
        nev, nseg, status = stroke(
            shot.phi, shot.v, i.S0, S, mode, self.cue, self.theta, self.a, self.b, t.CU, t.JW, t.FC, t.PK, t.P,
            i.ev, i.seg, i.fw, i.iw, i.mw,
        )
        like = self.like
        r = verdict(i.ev, nev, mode, self.cue, self.target, self.pocket, self.called, like.contact, like.pocketed)
        if r == ASK:
            return False, None
        self._count(1)
        if r != YES:
            return True, None
        return True, self.ctx.known(shot, self.ctx.simulate.result(shot, i, status, nev, nseg, S, mode), like.key)




def refined(
    ctx: Context, line: PotLine, first: Shot, sec: Secant, like: Reference | None = None
) -> tuple[bool, Trial | None]:
    """``aim.refine`` from its first stroke ``first`` and its secant
    ``sec`` (``aim.secant_for``), with the secant compiled: (True, its
    answer) where that is certain, (False, None) where ``aim.secant`` must
    play it in Python (nothing is counted in the budget then). ``like``: the
    ``Reference`` of a legal trial of the same ball, placement and call (a
    position variant's own pot) whose outcome the answer likely repeats;
    where it does, the answer takes that trial's ruling without the
    referee computing the key again (``Context.known``).

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
    S, mode = np.empty(inputs.S0.shape), np.empty(len(ids), dtype=np.int64)  # filled by ``stroke``
    phi, it, n, finite, nev, nseg, status = secant_search(
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
            if like is not None and verdict(
                inputs.ev, nev, mode, ids.index(first.ball), ids.index(line.target), POCKETS.index(line.pocket),
                ctx.called, like.contact, like.pocketed,
            ) == YES:
                # It ended as ``like`` did: the same outcome key.
                tr = ctx.known(shot, res, like.key)
        else:
            try:
                res = ctx.simulate(shot)
            except PiramidaError:
                return False, None
        if tr is None:
            tr = ctx.judge(shot, res)
        if tr is None or not tr.legal:
            return False, None
    if ctx.budget is not None:
        ctx.budget.used += n
    return True, tr


__all__ = ["COMPILED", "REFINE_ITERS", "Probe", "Reference", "reference_of", "refined", "secant_next"]
