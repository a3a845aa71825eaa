"""Every candidate shot of a decision, with a fixed-length feature vector.

``candidates(view, noise)`` is where every agent's search starts:

- direct pots: the easiest open lines (``lines.candidate_lines``, ball in
  hand placed behind the ghost ball) made to pot by ``aim.pot_line``
  (throw-corrected, centred, scored), the best ``keep_pots`` kept; for the
  best ``spin_lines`` of them, position variants re-refined from the
  corrected aim (follow, draw, pace);
- свояк lines (``svoyak``, on request) and one-cushion banks (``banks``,
  when no direct pot is ``bank_when`` likely);
- safeties: strokes at the nearest clear balls (``strokes.safety_pairs``);
- the break: the break book's strokes on a full rack
  (agents/break_book.py), greedy's stroke and, without a book entry, a
  family of strokes at the apex ball; on a rack of a few balls the pots
  too;
- a plain shot at the nearest ball when nothing else is found.

Which of them and how many is a ``Search``: ``PLANNER`` (the default),
``WIDE`` and ``LEAN`` (the planner's with other widths) or ``GREEDY``
(lazy: the easiest lines until two sure pots, a safety only when nothing
pots). Every candidate is legal by the referee's
``check_shot`` and unique by its stroke.

The skill enters through the pot-probability model of the noise preset
(``probability.PotModel``): the estimate that ranks the pots, the chance
of the next pot. Each ``Candidate`` carries its ``Shot``, the noise-free
``Trial`` of it (simulated and judged), a pot-probability estimate and
``features`` (made when first read: a policy reads them, greedy and the
planner never do), a vector laid out as ``FEATURES`` (version
``LAYOUT_VERSION``): what kind of shot, struck and target ball, pocket,
cut, distances, the estimate, the stroke's pace and spin, where the
struck ball comes to rest without noise and the easiest next pot from
there, whether the referee passes it, its value, and whether it is a
safety. The noise-free strokes that only
describe a candidate (safeties and breaks are not simulated by the search)
are not counted in a budget.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import partial

import numpy as np

from piramida.agents.base import GameView
from piramida.agents.break_book import book_shots
from piramida.agents.shots.aim import AimedPot, pot_line, refine, secant_for
from piramida.agents.shots.banks import bank_lines, many_banks, refine_bank
from piramida.agents.shots.context import Budget, Context, Trial
from piramida.agents.shots.ghost import PotLine, cue_speed_for
from piramida.agents.shots.lines import candidate_lines, lines_for, struck_pairs
from piramida.agents.shots.probability import PotModel, easiest_difficulties, easiest_difficulty
from piramida.agents.shots.probe import reference_of
from piramida.agents.shots.strokes import (
    best_break,
    break_family,
    fallback,
    safety_pairs,
    safety_shots,
)
from piramida.agents.shots.svoyak import refine_svoyak, svoyak_lines, svoyak_speed
from piramida.env.errors import PiramidaError
from piramida.env.physics import Noise
from piramida.env.position import Position, ball_ids, cue_ball_of, object_ball_ids
from piramida.env.shot import Shot
from piramida.env.table import POCKETS

XY = tuple[float, float]

#: Lines refined into candidates, and of those the easiest given spin
#: variants: 4, 4 and 2, where ``WIDE``'s 16, 12 and 9 take 1.5 to 1.7
#: times as long a decision; at 1 s a decision the wide search is worth
#: about 0.05 a pair against greedy in free pyramid and nothing measurable
#: in combined and classic71 (docs/agents.md).
MAX_LINES = 4
SPIN_LINES = 2
#: (b, speed factor, name): the variants of a centred pot re-refined for
#: position.
SPINS: tuple[tuple[float, float, str], ...] = (
    (0.35, 1.0, "follow"),
    (-0.35, 1.25, "draw"),
    (0.0, 1.5, "firm stun"),
    (0.0, 0.7, "soft"),
    (0.3, 0.75, "soft follow"),
    (-0.6, 1.4, "deep draw"),
)
#: Centred pots kept as candidates (best by ``aim.pot_line``'s score).
KEEP_POTS = 4
#: Safeties: strokes (contact offset in ball diameters, speed m/s) at each
#: of the nearest ``SAFETY_BALLS`` clear balls, twice as many balls when no
#: direct pot is ``SAFETY_WHEN`` likely or none is open.
SAFETY_BALLS = 3
SAFETY_STROKES: tuple[tuple[float, float], ...] = ((0.0, 2.5), (0.5, 3.5))
SAFETY_WHEN = 0.0
#: Banks are looked for when no direct pot is this likely; this many of the
#: easiest are refined, at these speed factors.
BANK_WHEN = 0.5
BANK_LINES = 3
BANK_SPEEDS = (1.3, 1.8)
#: A break with at most this many object balls on the table also gets pot
#: candidates (item 12.1 (1)).
SPARSE_RACK = 3
#: Share of a budget candidate generation may use before evaluation.
GEN_SHARE = 0.5
#: A pot this likely is "sure"; below ``LIKELY`` a lazy search looks at
#: more lines.
SURE = 0.9
LIKELY = 0.6


@dataclass(frozen=True)
class Search:
    """What ``candidates`` looks for, and how far.

    Pots: up to ``2 * max_lines`` lines, easiest first, stopping after
    ``pots_enough`` pots (None: ``max_lines``) or ``sure_enough`` sure ones
    (None: ``max(3, keep_pots - 2)``); with ``lazy`` past ``max_lines``
    lines only while nothing ``LIKELY`` turned up. The best ``keep_pots``
    (None: all) are kept, the best ``spin_lines`` of them with ``spins``
    variants. ``svoyaks`` and ``banks``: lines refined (0: none).
    Safeties: ``safety_strokes`` at the nearest ``safety_balls`` clear balls
    (twice as many when no pot is ``safety_when`` likely); with
    ``safety_if_no_pot`` only when no pot was found. The break: the book
    (``book``), greedy's stroke, and the apex family (``breaks``, where the
    book has nothing); with ``sparse_rack_pots`` a rack of a few balls gets
    its pots."""

    max_lines: int = MAX_LINES
    keep_pots: int | None = KEEP_POTS
    pots_enough: int | None = None
    sure_enough: int | None = None
    lazy: bool = False
    spin_lines: int = SPIN_LINES
    spins: tuple[tuple[float, float, str], ...] = SPINS
    svoyaks: int = 0
    banks: int = BANK_LINES
    bank_when: float = BANK_WHEN
    safety_balls: int = SAFETY_BALLS
    safety_strokes: tuple[tuple[float, float], ...] = SAFETY_STROKES
    safety_when: float = SAFETY_WHEN
    safety_if_no_pot: bool = False
    breaks: bool = True
    book: bool = True
    sparse_rack_pots: bool = True
    gen_share: float = GEN_SHARE


#: The planner's search (the default).
PLANNER = Search()
#: The planner's with four times the lines, three times the pots kept and
#: nine of them varied. The shipped policies were trained on its candidates
#: and name it.
WIDE = Search(max_lines=16, keep_pots=12, spin_lines=9)
#: Greedy's: the easiest 8 lines (16 while nothing likely pots), stopping at
#: two sure pots; full and half-ball safeties at 2.5 and 4.5 m/s on the
#: five nearest balls only when nothing pots; its own break stroke.
GREEDY = Search(
    max_lines=8,
    keep_pots=None,
    pots_enough=10**9,
    sure_enough=2,
    lazy=True,
    spin_lines=0,
    banks=0,
    safety_balls=5,
    safety_strokes=((0.0, 2.5), (0.0, 4.5), (0.5, 2.5), (0.5, 4.5), (-0.5, 2.5), (-0.5, 4.5)),
    safety_if_no_pot=True,
    breaks=False,
    book=False,
    sparse_rack_pots=False,
)

#: The policies' lean search: the planner's without banks. In free pyramid
#: it costs about 5 ms a decision against the wide search's 15
#: (``piramida bench candidates --search lean``), so that an environment
#: offering it runs about twice as many steps a CPU second
#: (docs/training.md, "Environment speed"). Not the planner's: without
#: banks a planner on it loses to one with them in every variant
#: (docs/agents.md).
LEAN = replace(PLANNER, banks=0)

#: The searches by the names a policy file, a training config or an agent
#: spec gives them (``planner:search=wide``, ``policy:...:search=lean``).
SEARCHES: dict[str, Search] = {"planner": PLANNER, "wide": WIDE, "lean": LEAN, "greedy": GREEDY}

#: The layout of ``Candidate.features``; ``LAYOUT_VERSION`` changes with it.
FEATURES: tuple[str, ...] = (
    "is_pot",  # a direct pot (1), else 0
    "is_bank",
    "is_svoyak",
    "is_safety",
    "is_break",
    "struck",  # index in env.position.ball_ids(variant); -1: none
    "target",  # the ball aimed at first; -1: none
    "pocket",  # index in env.table.POCKETS; -1: none
    "cut",  # degrees
    "cue_distance",  # struck ball to the ghost ball, m
    "object_distance",  # target to the pocket (both legs of a bank; the struck ball's path of a свояк), m
    "difficulty",  # ghost.pot_lines' difficulty of the line; 0 without one
    "p_pot",  # pot-probability estimate (0 for safeties and breaks)
    "half_width",  # a centred pot's range of directions that pot, either side of the aim, degrees (else 0)
    "v",  # cue speed, m/s
    "b",  # tip offset, follow + / draw -, ball radii
    "from_hand",  # the struck ball is placed (ball in hand)
    "rest_on_table",  # the struck ball is on the table after the noise-free stroke
    "rest_x",  # where it rests, m (0 when it is not on the table)
    "rest_y",
    "next_open",  # an open pot for it from there
    "next_difficulty",  # the easiest one's difficulty (0 when none)
    "next_p",  # and its pot probability
    "legal",  # the referee passes the noise-free stroke
    "value",  # its value for the shooter (Context.value)
)
LAYOUT_VERSION = 1
_INDEX = {name: i for i, name in enumerate(FEATURES)}


@dataclass(frozen=True)
class Candidate:
    """One candidate shot: the stroke, what kind of shot it is, the line it
    plays (pots), its spin's name, a pot-probability estimate ``p``, the
    score ``aim.pot_line`` gave it and its potting range's half-width and
    speed hits (centred pots), the noise-free trial, the ball it is aimed
    at and the feature vector (``FEATURES``)."""

    shot: Shot
    kind: str  # "pot", "safety" or "break"
    line: PotLine | None = None
    spin: str = "stun"
    p: float = 0.0
    score: float | None = None
    half_width: float | None = None
    speed_hits: int | None = None
    trial: Trial | None = field(default=None, compare=False, repr=False)
    target: str | None = None
    #: How the feature vector is made when it is first read (``describe``).
    features_of: Callable[[Candidate], np.ndarray] | None = field(default=None, compare=False, repr=False)

    @property
    def features(self) -> np.ndarray:
        """The feature vector (``FEATURES``), made when first read and kept:
        a policy reads it, greedy and the planner never do."""
        got = self.__dict__.get("_features")
        if got is None:
            got = self.features_of(self) if self.features_of is not None else np.zeros(0)
            object.__setattr__(self, "_features", got)
        return got


@dataclass(frozen=True)
class Offer:
    """What a caller that offers at most ``k`` of a decision's candidates
    keeps of them (``select``): up to ``safeties`` safeties, and the other
    candidates, in the search's order, filling the rest.

    Given to ``candidates``, the search makes only what ``select`` keeps:
    it stops making position variants (the last of the other candidates)
    once the others fill what ``select`` leaves them, and describes only
    the candidates kept. The answer is ``select`` of the whole search's
    candidates, the same strokes with the same feature vectors
    (tests/agents/test_offer.py): a policy that sees at most ``k``
    options a decision (agents/policy_obs.py) need not wait for the
    variants it would never see, about ten a free-pyramid decision."""

    k: int
    safeties: int

    def select(self, cands: Sequence[Candidate]) -> list[Candidate]:
        """At most ``k`` of ``cands`` (a decision's candidates, in the
        search's order): up to ``safeties`` safeties, the others in order
        filling the rest, then the safeties."""
        k = self.k
        if len(cands) <= k:
            return list(cands)
        safeties = [c for c in cands if c.kind == "safety"][: self.safeties]
        others = [c for c in cands if c.kind != "safety"]
        return others[: k - len(safeties)] + safeties[: k - min(len(others), k - len(safeties))]


def spin_name(b: float) -> str:
    return "follow" if b > 0.15 else ("draw" if b < -0.15 else "stun")


def candidates(
    view: GameView,
    noise: str | Noise | None = "pro",
    search: Search = PLANNER,
    budget: Budget | None = None,
    offer: Offer | None = None,
) -> list[Candidate]:
    """Every candidate shot of a shot decision in ``view`` for a player of
    skill ``noise`` (a preset name, a .toml file, a Noise, or None for no
    noise), as ``search`` says (see the module docstring); with ``offer``,
    only those ``offer.select`` keeps of them."""
    return generate(Context(view, budget, PotModel.of(noise)), search, offer)


def generate(ctx: Context, search: Search, offer: Offer | None = None) -> list[Candidate]:
    """``candidates`` in a decision context (its model is the skill; its
    budget counts the search's noise-free strokes)."""
    gen = _Generation(ctx, search, offer)
    gen.run()
    # ``select`` reads only the candidates' kinds and order. What it drops
    # is a safety after every safety it keeps, a break after every break it
    # keeps, or a pot, which carries its trial: describing only the kept
    # ones judges each of them as describing them all would.
    kept = gen.out if offer is None else offer.select(gen.out)
    book = NextPots()
    return [describe(ctx, c, book) for c in kept]


class _Generation:
    """One run of the search: the candidates so far, unique and legal."""

    def __init__(self, ctx: Context, search: Search, offer: Offer | None = None) -> None:
        self.ctx = ctx
        self.search = search
        self.offer = offer
        self.out: list[Candidate] = []
        #: The strokes so far: two shots are equal when every field is
        #: (as their texts are: ``Shot.to_text`` writes floats exactly).
        self.seen: set[Shot] = set()

    def add(self, c: Candidate) -> None:
        if not self.ctx.legal(c.shot):
            return
        if c.shot not in self.seen:
            self.seen.add(c.shot)
            self.out.append(c)

    def spent(self) -> bool:
        return self.ctx.spent(self.search.gen_share)

    def run(self) -> None:
        ctx, search = self.ctx, self.search
        if ctx.pos.is_break and ctx.view.variant != "five_ball":
            self.breaks()
            return
        refined = self.pots()
        for c in self.svoyaks():
            self.add(c)
        if ctx.best_p < search.bank_when:
            for c in self.banks():
                self.add(c)
        # With candidates already, the safeties do not depend on the
        # variants: made first, they tell how many others an offer keeps.
        safeties = self.safeties(refined) if self.out else None
        self.variants(refined, self.room_for_others(safeties), safeties or [])
        if safeties is None:
            safeties = self.safeties(refined)
        for c in safeties:
            self.add(c)
        if not self.out:
            try:
                self.add(Candidate(fallback(ctx), "safety"))
            except PiramidaError:
                pass

    def breaks(self) -> None:
        """The break (docs/game_rules.md §4.2): the break book's strokes for
        a full rack, greedy's stroke at the rack and, where the book has
        none, a family of strokes at the apex ball, all evaluated. Where the
        book has strokes the family is left out: the book searched it
        thousands of times wider, and a break costs enough to simulate that
        1 s buys each candidate only a few samples."""
        ctx, search = self.ctx, self.search
        cue = ctx.first_cue_ball()
        booked = book_shots(ctx.pos, cue) if search.book else []
        for shot in booked:
            self.add(Candidate(shot, "break"))
        objs = set(object_ball_ids(ctx.view.variant))
        if search.sparse_rack_pots and sum(b in objs for b in ctx.pos.ids) <= SPARSE_RACK:
            # A rack of a few balls (a re-rack late in a frame, a position
            # given by hand): three object balls at cushions (item 12.1 (2))
            # is out of reach or nearly, so a legal break is mostly a pot
            # (12.1 (1)); the pots go first, so that a small budget samples
            # them.
            self.pots()
        best = best_break(ctx)
        if best is not None:
            self.add(Candidate(best.shot, "break", trial=best))
        else:
            self.add(Candidate(fallback(ctx), "break"))
        if search.breaks and not booked:
            for shot in break_family(ctx):
                self.add(Candidate(shot, "break"))

    def pots(self) -> list[tuple[PotLine, XY | None, Trial, float]]:
        """``aim.pot_line``'s strokes for the easiest lines, the best
        ``keep_pots`` by its score, added as candidates; returns them (line,
        placement, trial, estimate) for the spin variants."""
        ctx, search = self.ctx, self.search
        enough = search.max_lines if search.pots_enough is None else search.pots_enough
        keep = search.keep_pots
        sure_enough = search.sure_enough
        if sure_enough is None:
            sure_enough = max(3, (keep if keep is not None else search.max_lines) - 2)
        found: list[tuple[PotLine, XY | None, AimedPot]] = []
        sure = 0
        for k, (line, place) in enumerate(candidate_lines(ctx, 2 * search.max_lines)):
            if self.spent() and found:
                break
            if len(found) >= enough or sure >= sure_enough:
                break
            if search.lazy and k >= search.max_lines and ctx.best_p >= LIKELY:
                break
            got = pot_line(ctx, line, place)
            if got is None:
                continue
            found.append((line, place, got))
            ctx.best_p = max(ctx.best_p, got.p)
            sure += got.p >= SURE
        found.sort(key=lambda f: -f[2].score)
        kept = found if keep is None else found[:keep]
        for line, _place, a in kept:
            tr = a.trial
            self.add(
                Candidate(
                    tr.shot, "pot", line, spin_name(tr.shot.b), a.p, a.score, a.half_width, a.speed_hits,
                    trial=tr, target=line.target,
                )
            )
        return [(ln, pl, a.trial, a.p) for ln, pl, a in kept]

    def safeties(self, refined: list[tuple[PotLine, XY | None, Trial, float]]) -> list[Candidate]:
        """Strokes at the nearest clear balls (``search.safety_strokes``),
        twice as many balls when no pot is ``safety_when`` likely or no
        candidate was found; none with ``safety_if_no_pot`` and a pot."""
        ctx, search = self.ctx, self.search
        if search.safety_if_no_pot and refined:
            return []
        few = search.safety_balls if ctx.best_p >= search.safety_when else 2 * search.safety_balls
        pairs = safety_pairs(ctx)[: few if self.out else 2 * search.safety_balls]
        return [Candidate(shot, "safety", target=target) for shot, target in safety_shots(ctx, pairs, search.safety_strokes)]

    def room_for_others(self, safeties: list[Candidate] | None) -> int | None:
        """How many candidates other than safeties the offer keeps, given
        the safeties still to be added; None without an offer (or before
        the safeties are known)."""
        if self.offer is None or safeties is None:
            return None
        seen = set(self.seen)
        n = 0
        for c in safeties:  # as ``add`` will take them
            if c.shot not in seen and self.ctx.legal(c.shot):
                seen.add(c.shot)
                n += 1
        return self.offer.k - min(n, self.offer.safeties)

    def variants(
        self,
        refined: list[tuple[PotLine, XY | None, Trial, float]],
        room: int | None = None,
        safeties: Sequence[Candidate] = (),
    ) -> None:
        """Position play: each spin and pace of ``spins`` re-refined from the
        corrected aim of the best ``spin_lines`` pots, added as they come;
        with ``room`` (``room_for_others``), only until the candidates other
        than safeties fill it, unless one still to be made could be one of
        ``safeties``' strokes (``collides``)."""
        lines = refined[: self.search.spin_lines]
        for i, (line, place, tr, p) in enumerate(lines):
            like = reference_of(self.ctx, tr)
            start = replace(line, phi=tr.shot.phi)
            sec = secant_for(self.ctx, start)
            for j, (b, k, name) in enumerate(self.search.spins):
                if self.spent():
                    break
                if room is not None and len(self.out) >= room:
                    if not self.collides(lines, i, j, safeties):
                        return
                    room = None
                alt = refine(self.ctx, start, place, tr.shot.v * k, like, sec=sec, b=b)
                if alt is not None:
                    self.add(Candidate(alt.shot, "pot", line, name, p, trial=alt, target=line.target))

    def collides(
        self, lines: list[tuple[PotLine, XY | None, Trial, float]], i: int, j: int, safeties: Sequence[Candidate]
    ) -> bool:
        """Whether a variant not yet made (spin ``j`` on of line ``i``, and
        every spin of the lines after it) could be one of ``safeties``'
        strokes: then it would keep that safety out, and leave room for
        one more. A variant's strokes differ from the template ``ctx.shot``
        makes for it only in direction, so no field but the direction
        equal to a safety's, no such variant."""
        sig = {_fixed(c.shot) for c in safeties}
        spins = self.search.spins
        for line, place, tr, _p in lines[i:]:
            for b, k, _name in spins[j:]:
                if _fixed(self.ctx.shot(line, 0.0, tr.shot.v * k, place, b=b)) in sig:
                    return True
            j = 0
        return False

    def svoyaks(self) -> list[Candidate]:
        """The struck ball in off an object ball (shots/svoyak.py), where it
        scores: free pyramid (any ball pocketed on a legal shot,
        docs/game_rules.md §5.1) and the свояк of combined, Moscow, Nevskaya
        and dynamic (§5.2-§5.5); the easiest ``svoyaks`` lines that go in
        without noise. Not with the cue ball in hand."""
        ctx = self.ctx
        ref = ctx.referee
        if self.search.svoyaks <= 0 or ctx.pos.in_hand is not None or ctx.called:
            return []
        if not (getattr(ref, "any_ball_scores", False) or getattr(ref, "svoyak", False)):
            return []
        out: list[Candidate] = []
        for line in lines_for(ctx, svoyak_lines)[: self.search.svoyaks]:
            v0 = svoyak_speed(line, ctx.table)
            # Stun at the pace that gets there, firmer, then with draw (a
            # ball still rolling at contact follows through off the line).
            for k, b in ((1.0, 0.0), (1.4, 0.0), (1.2, -0.3)):
                if self.spent():
                    return out
                tr = refine_svoyak(ctx, line, None, v0 * k, b=b)
                if tr is not None:
                    p = ctx.model.chance(line.difficulty)
                    c = Candidate(tr.shot, "pot", line, spin_name(tr.shot.b), p, trial=tr, target=line.target)
                    out.append(c)
                    break
        return out

    def banks(self) -> list[Candidate]:
        """One-cushion banks (shots/banks.py) that pot without noise, the
        easiest ``banks``; not with the cue ball in hand."""
        ctx = self.ctx
        if ctx.pos.in_hand is not None or self.search.banks <= 0:
            return []
        out: list[Candidate] = []
        lines = many_banks(ctx.pos, struck_pairs(ctx), self.search.banks)
        if lines is None:
            lines = lines_for(ctx, bank_lines)[: self.search.banks]
        for line in lines:
            for k in BANK_SPEEDS:
                if self.spent():
                    return out
                tr = refine_bank(ctx, line, None, cue_speed_for(line, ctx.table) * k)
                if tr is not None:
                    p = ctx.model.chance(line.difficulty)
                    out.append(Candidate(tr.shot, "pot", line, "bank", p, trial=tr, target=line.target))
                    break
        return out


_FIXED = tuple(f.name for f in fields(Shot) if f.name != "phi")


def _fixed(shot: Shot) -> tuple[object, ...]:
    """Every field of ``shot`` but its direction."""
    return tuple(getattr(shot, name) for name in _FIXED)


def describe(ctx: Context, c: Candidate, book: NextPots | None = None) -> Candidate:
    """``c`` with its noise-free trial (simulated here, uncounted, if the
    search did not) and its feature vector (``feature_vector``, made when
    first read; with ``book``, the decision's candidates' next pots are
    found together)."""
    tr = c.trial if c.trial is not None else ctx.judged(c.shot)
    slot = book.add(tr, c.shot.ball) if book is not None else None
    return _with_trial(c, tr, partial(feature_vector, ctx, book=book, slot=slot))


def _with_trial(c: Candidate, trial: Trial | None, features_of: Callable[[Candidate], np.ndarray]) -> Candidate:
    """``dataclasses.replace(c, trial=trial, features_of=features_of)``,
    without features already made: a copy of the fields, where ``replace``
    would call the generated ``__init__`` (a decision describes a few dozen
    candidates)."""
    out = object.__new__(Candidate)
    d = out.__dict__
    d.update(c.__dict__)
    d.pop("_features", None)
    d["trial"] = trial
    d["features_of"] = features_of
    return out


class NextPots:
    """The easiest next pot from where each of a decision's candidates
    leaves its struck ball, found for all of them in one compiled call
    (``easiest_difficulties``) when the first feature vector is read: a
    policy reads them all. It keeps each candidate's trial and struck
    ball, not the candidate, whose feature maker keeps it: no reference
    cycle, so a decision's objects are freed as soon as it is done with,
    not by the garbage collector."""

    def __init__(self) -> None:
        self.asked: list[tuple[Trial | None, str]] = []
        self.found: list[float | None] | None = None

    def add(self, trial: Trial | None, ball: str) -> int:
        """Slot of the candidate whose trial is ``trial``, struck ball ``ball``."""
        self.asked.append((trial, ball))
        return len(self.asked) - 1

    def difficulty(self, slot: int, c: Candidate, after: Position) -> float | None:
        """``easiest_difficulty(after, [c.shot.ball])``, ``after`` being
        where ``c``'s trial leaves the balls (``c`` is the candidate of
        ``slot``, or a copy of it)."""
        trial, ball = self.asked[slot]
        if trial is not c.trial or ball != c.shot.ball:
            return easiest_difficulty(after, [c.shot.ball])
        if self.found is None:
            slots: list[int] = []
            items: list[tuple[Position, str]] = []
            for k, (t, b) in enumerate(self.asked):
                if t is not None and b in t.rest:
                    slots.append(k)
                    items.append((t.rest, b))
            found: list[float | None] = [None] * len(self.asked)
            for k, d in zip(slots, easiest_difficulties(items), strict=True):
                found[k] = d
            self.found = found
        return self.found[slot]


def feature_vector(
    ctx: Context, c: Candidate, book: NextPots | None = None, slot: int | None = None
) -> np.ndarray:
    """``c``'s features (``FEATURES``) in its decision ``ctx`` (``book``
    and ``slot``: its decision's next pots, found together, and its place
    among them)."""
    tr = c.trial
    # Filled as a list, made an array once: a policy reads a few dozen a decision.
    f = [0.0] * _N_FEATURES
    ln = c.line
    kind = c.kind
    if ln is not None and ln.bank is not None:
        kind = "bank"
    elif ln is not None and ln.svoyak:
        kind = "svoyak"
    f[_KIND_COLUMN[kind]] = 1.0
    rows = _ball_rows(ctx.view.variant)
    shot = c.shot
    f[_STRUCK] = rows.get(shot.ball, -1.0)
    f[_TARGET] = rows.get(c.target, -1.0) if c.target is not None else -1.0
    if ln is not None:
        f[_POCKET] = _POCKET_ROWS.get(ln.pocket, -1.0)
        f[_CUT] = ln.cut
        f[_CUE_DISTANCE] = ln.cue_distance
        f[_OBJECT_DISTANCE] = ln.object_distance
        f[_DIFFICULTY] = ln.difficulty
    else:
        f[_POCKET] = -1.0
    f[_P_POT] = c.p
    f[_HALF_WIDTH] = c.half_width or 0.0
    f[_V] = shot.v
    f[_B] = shot.b
    f[_FROM_HAND] = float(shot.place is not None)
    if tr is not None:
        after = tr.rest
        f[_LEGAL] = float(tr.legal)
        f[_VALUE] = tr.value
        if shot.ball in after:
            x, y = after.xy(shot.ball)
            f[_REST_ON_TABLE] = 1.0
            f[_REST_X], f[_REST_Y] = x, y
        ball, passes = next_pot_ball(ctx, tr, shot.ball)
        if ball in after:
            if book is not None and slot is not None and not passes:
                d = book.difficulty(slot, c, after)
            else:
                d = easiest_difficulty(after, [ball])
            if d is not None:
                f[_NEXT_OPEN] = -1.0 if passes else 1.0
                f[_NEXT_DIFFICULTY] = d
                f[_NEXT_P] = ctx.model.chance(d)
    return np.array(f)


def next_pot_ball(ctx: Context, trial: Trial, struck: str) -> tuple[str, bool]:
    """The ball whose easiest pot from the trial's table the ``next_*``
    features describe, and whether the opponent strikes it: the struck
    ball, except in five balls after a stroke that hands the table over.
    There each player strikes his own white (docs/game_rules.md §5.7), so
    a safety is described by the pot it leaves the opponent's white."""
    if ctx.view.variant != "five_ball":
        return struck, False
    nxt = trial.ruling.next
    if nxt.player is None or int(nxt.player) == ctx.me:
        return struck, False
    return cue_ball_of("five_ball", int(nxt.player)), True


# ``feature_vector``'s columns, looked up once: a policy reads a few dozen
# vectors a decision, a learner millions.
_N_FEATURES = len(FEATURES)
_KIND_COLUMN = {kind: _INDEX["is_" + kind] for kind in ("pot", "bank", "svoyak", "safety", "break")}
(_STRUCK, _TARGET, _POCKET, _CUT, _CUE_DISTANCE, _OBJECT_DISTANCE, _DIFFICULTY, _P_POT, _HALF_WIDTH, _V, _B,
 _FROM_HAND, _REST_ON_TABLE, _REST_X, _REST_Y, _NEXT_OPEN, _NEXT_DIFFICULTY, _NEXT_P, _LEGAL, _VALUE) = (
    _INDEX[name] for name in (
        "struck", "target", "pocket", "cut", "cue_distance", "object_distance", "difficulty", "p_pot",
        "half_width", "v", "b", "from_hand", "rest_on_table", "rest_x", "rest_y", "next_open",
        "next_difficulty", "next_p", "legal", "value",
    )
)
_POCKET_ROWS = {name: float(k) for k, name in enumerate(POCKETS)}
_BALL_ROWS: dict[str, dict[str, float]] = {}


def _ball_rows(variant: str) -> dict[str, float]:
    """Ball id -> its index in ``ball_ids(variant)`` (as a float feature)."""
    got = _BALL_ROWS.get(variant)
    if got is None:
        got = _BALL_ROWS[variant] = {b: float(k) for k, b in enumerate(ball_ids(variant))}
    return got


#: For a reader's convenience: a feature's column.
def column(name: str) -> int:
    """The column of feature ``name`` in ``Candidate.features``."""
    return _INDEX[name]


__all__ = [
    "BANK_LINES",
    "BANK_SPEEDS",
    "BANK_WHEN",
    "FEATURES",
    "GEN_SHARE",
    "GREEDY",
    "KEEP_POTS",
    "LAYOUT_VERSION",
    "LEAN",
    "MAX_LINES",
    "NextPots",
    "Offer",
    "PLANNER",
    "SAFETY_BALLS",
    "SAFETY_STROKES",
    "SAFETY_WHEN",
    "SEARCHES",
    "SPINS",
    "SPIN_LINES",
    "WIDE",
    "Candidate",
    "Search",
    "candidates",
    "column",
    "describe",
    "feature_vector",
    "generate",
    "next_pot_ball",
    "spin_name",
]
