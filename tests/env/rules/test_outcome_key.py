"""``BaseReferee.outcome_key``'s contract: two shots from one position and state
with equal keys, one judged legal, get the same ruling but for where the
balls rest, and nothing is re-spotted (five balls: the same balls come
back, placed by its ``rested``).

Checked on random outcomes (the stand-in physics of the property tests)
changed in everything the key leaves out - where the balls come to rest,
cushion and centre-line events after the first contact - and on real
strokes of the physics grouped by their keys."""

from __future__ import annotations

import json
import math
import random
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from random_outcomes import random_outcome

from piramida.env.errors import PiramidaError
from piramida.env.events import Event
from piramida.env.physics import Simulator
from piramida.env.position import Position, cue_ball_of
from piramida.env.rules import get_referee
from piramida.env.rules.base import Outcome
from piramida.env.shot import Shot
from piramida.env.table import CUSHIONS

REFERENCE = Path(__file__).resolve().parents[3] / "bench" / "positions" / "reference.jsonl"
SHELF = ("free", "combined", "moscow", "nevskaya", "dynamic")


def _positions(variants: tuple[str, ...]) -> list[Position]:
    rows = [json.loads(line) for line in REFERENCE.read_text().splitlines() if line.strip()]
    out = [Position.from_dict(r["position"]) for r in rows]
    return [p for p in out if p.variant in variants]


def _key(ref: Any, pos: Position, shot: Shot, events: list[Event], after: Position | None = None,
         records: Any = None) -> Any:
    """The key of a log as the physics writes it (``after``: the position it
    leaves, for the push test of a struck ball that starts beside another;
    ``records``: the log as numbers); None for a log that drops a ball
    before the struck ball's first contact."""
    first = None
    for e in events:
        if e.type == "pocket" and first is None:
            return None
        if e.type == "ball_ball" and shot.ball in e.balls:
            first = e.balls[0] if e.balls[1] == shot.ball else e.balls[1]
            break
    pocketed = [(e.balls[0], str(e.pocket)) for e in events if e.type == "pocket"]
    off = [e.balls[0] for e in events if e.type == "off_table"]
    cue_end = None
    if after is not None:
        def cue_end() -> Any:
            return after.xy(shot.ball) if shot.ball in after else None
    return ref.outcome_key(pos, shot, Outcome(first, tuple(pocketed), tuple(off), lambda: events, records, cue_end))


def _same_but_rest(r1: Any, r2: Any) -> None:
    assert r2.legal and r2.fouls == r1.fouls
    assert r2.scored == r1.scored and r2.score == r1.score and r2.winner == r1.winner
    assert (r2.next.player, r2.next.kind) == (r1.next.player, r1.next.kind)
    assert r2.respotted == r1.respotted == {}


def _open_tables() -> list[tuple[Position, Any, Any, Simulator]]:
    """Every other reference position of the shelf variants that is neither
    a break nor a ball in hand, with its referee, frame state and physics."""
    out = []
    for pos in _positions(SHELF)[::2]:
        if not pos.is_break and pos.in_hand is None:
            ref = get_referee(pos.variant)
            out.append((pos, ref, ref.initial_state(pos), Simulator(pos)))
    return out


def _is(made: Any, judged: Any) -> None:
    """``BaseReferee.rested``'s ruling is the judged one, frame state included
    (a ruling's equality leaves the state out)."""
    assert made == judged and made.state == judged.state


def _moved(after: Position, rng: random.Random) -> Position:
    """``after`` with some balls somewhere else on the bed."""
    tab = after.table
    rad = tab.ball_radius
    final = dict(after.ball_map)
    for b in list(final):
        if rng.random() < 0.5:
            for _ in range(20):
                x, y = rng.uniform(rad, tab.width - rad), rng.uniform(rad, tab.length - rad)
                if all(math.hypot(x - ox, y - oy) >= 2 * rad for o, (ox, oy) in final.items() if o != b):
                    final[b] = (x, y)
                    break
    return after.replace(balls=tuple((b, x, y) for b, (x, y) in final.items()))


def _rerouted(events: list[Event], cue: str, rng: random.Random) -> list[Event]:
    """The log with cushion and centre-line events after the first contact
    dropped and others added (balls still in play), pockets kept in order."""
    k = next(i for i, e in enumerate(events) if e.type == "ball_ball" and cue in e.balls)
    out = list(events[: k + 1])
    gone = {e.balls[0] for e in out if e.type in ("pocket", "off_table")}
    t = events[k].t
    on = sorted({b for e in events for b in e.balls})
    for e in events[k + 1 :]:
        if e.type in ("cushion", "centre_line") and rng.random() < 0.5:
            continue
        if rng.random() < 0.5:
            live = [b for b in on if b not in gone]
            if live:
                b = rng.choice(live)
                if rng.random() < 0.5:
                    out.append(Event(t, "cushion", (b,), cushion=rng.choice(CUSHIONS)))
                else:
                    out.append(Event(t, "centre_line", (b,), to=rng.choice(("front", "rear"))))
        t = max(t, e.t)
        out.append(Event(t, e.type, e.balls, cushion=e.cushion, pocket=e.pocket, to=e.to, from_=e.from_))
        if e.type in ("pocket", "off_table"):
            gone.add(e.balls[0])
    return out


@pytest.mark.parametrize("variant", (*SHELF, "classic71"))
def test_equal_keys_rule_alike_on_random_outcomes(variant: str) -> None:
    rng = random.Random(variant)
    ref = get_referee(variant)
    checked = 0
    for pos in _positions((variant,)) * 8:
        if pos.is_break:
            continue
        state = ref.initial_state(pos)
        balls = list(ref.allowed_cue_balls(pos))
        ball = rng.choice(balls)
        place = None
        if pos.in_hand is not None:
            ball = cue_ball_of(variant, pos.to_move)
            place = (rng.uniform(0.2, pos.table.width - 0.2), rng.uniform(0.1, 0.6))
        shot = Shot(ball=ball, phi=rng.uniform(0, 360), v=rng.uniform(0.5, 6.0), place=place)
        try:
            events, after = random_outcome(pos, shot, rng)
        except PiramidaError:  # a placement on a ball
            continue
        if variant == "classic71":
            # A call the log makes good: the first object ball that dropped.
            drops = [(e.balls[0], str(e.pocket)) for e in events if e.type == "pocket" and e.balls[0] != "0"]
            if not drops:
                continue
            shot = Shot(ball=shot.ball, phi=shot.phi, v=shot.v, place=shot.place, call=drops[0])
        try:
            ref.check_shot(state, shot)
        except PiramidaError:
            continue
        key = _key(ref, pos, shot, list(events), after)
        if key is None:
            continue
        try:
            r1 = ref.judge(pos, shot, events, after, (), state)
        except PiramidaError:
            continue
        if not r1.legal:
            continue
        assert r1.position.balls == after.balls
        for _ in range(4):
            ev2 = _rerouted(list(events), shot.ball, rng)
            after2 = _moved(after, rng)
            key2 = _key(ref, pos, shot, ev2, after2)
            if not key[-1] and key2 != key:
                continue  # nothing pocketed: the new cushions may not complete the shot
            if key2 is None and ref.start_near(pos, shot)[1]:
                continue  # moved, the struck ball now ends forward of a ball beside it: a push
            assert key2 == key
            r2 = ref.judge(pos, shot, ev2, after2, (), state)
            _same_but_rest(r1, r2)
            assert r2.position.balls == after2.balls
            _is(ref.rested(r1, after2), r2)
            checked += 1
    assert checked >= 40


def _grouped(ref: Any, pos: Position, state: Any, sim: Simulator, shots: Iterable[Shot]) -> dict[Any, list[Any]]:
    """Each stroke's ruling and final position, grouped by its outcome key
    (strokes without one left out)."""
    groups: dict[Any, list[tuple[Any, Position]]] = defaultdict(list)
    for shot in shots:
        res = sim(shot)
        key = _key(ref, pos, shot, res.rule_events, res.final, res.records)
        if key is not None:
            groups[key].append((ref.judge(pos, shot, res.rule_events, res.final, (), state), res.final))
    return groups


def _beside_a_legal_one(groups: dict[Any, list[Any]]) -> Iterator[tuple[Any, Any, Position]]:
    """(the first legal ruling of a key, a ruling of the same key, that
    stroke's final position) for every key with a legal stroke."""
    for members in groups.values():
        legal = [m for m in members if m[0].legal]
        if legal:
            for r, final in members:
                yield legal[0][0], r, final


def test_equal_keys_rule_alike_on_real_strokes() -> None:
    """Strokes from every angle a degree apart: those with equal keys,
    grouped, rule alike wherever one of them is legal."""
    checked = 0
    for pos, ref, state, sim in _open_tables():
        shots = (Shot(ball=ball, phi=float(k), v=3.0) for ball in ref.allowed_cue_balls(pos)[:2] for k in range(360))
        for first, r, final in _beside_a_legal_one(_grouped(ref, pos, state, sim, shots)):
            _same_but_rest(first, r)
            assert r.position.balls == final.balls
            _is(ref.rested(first, final), r)
            checked += 1
    assert checked >= 100


def test_misses_share_one_key_and_rule_alike() -> None:
    """Strokes that complete and drop nothing have one key a decision
    whichever ball was struck (free pyramid), from wherever it was placed
    (a ball in hand), touched first or called (classic pyramid), and rule
    alike; from the house the key tells whether the ball touched first lay
    in the house (item 21.2)."""
    from piramida.env.table import POCKETS

    checked = hand = 0
    for variant, step in (("free", 3), ("combined", 3), ("moscow", 3), ("classic71", 2)):
        for pos in [p for p in _positions((variant,)) if not p.is_break][:8]:
            ref, sim = get_referee(variant), Simulator(pos)
            balls = ref.allowed_cue_balls(pos)[:3]
            places: list[Any] = [None]
            if pos.in_hand is not None:
                balls = (cue_ball_of(variant, pos.to_move),)
                t = pos.table
                spots = [(t.width * k / 6, t.house_line * j / 4) for k in range(1, 6) for j in (1, 2, 3)]
                places = [xy for xy in spots if all(math.hypot(xy[0] - x, xy[1] - y) > 0.07 for _, x, y in pos.balls)]
            objs = [b for b in pos.ids if b != "0"]
            calls = [(b, p) for b in objs for p in POCKETS] if variant == "classic71" else [None]
            shots = [
                Shot(ball=balls[k % len(balls)], phi=float(k), v=3.0, call=calls[k % len(calls)],
                     place=places[k % len(places)])
                for k in range(0, 360, step)
            ]
            groups = _grouped(ref, pos, ref.initial_state(pos), sim, shots)
            missed = [g for key, g in groups.items() if not key[-1]]
            assert len(missed) <= 2 if pos.in_hand is not None else len(missed) <= 1
            for first, r, final in _beside_a_legal_one(groups):
                _same_but_rest(first, r)
                _is(ref.rested(first, final), r)
                checked += 1
                hand += pos.in_hand is not None
    assert checked >= 100 and hand >= 20, (checked, hand)
    pos = next(p for p in _positions(("combined",)) if not p.is_break and p.in_hand is None)
    ref = get_referee("combined")

    def onto(ball: str) -> list[Event]:
        return [Event(0.0, "cue", ("0",)), Event(0.1, "ball_ball", ("0", ball)),
                Event(0.2, "cushion", (ball,), cushion="left_front"), Event(0.3, "cushion", (ball,), cushion="front")]

    def key(p: Position, shot: Shot, ball: str) -> Any:
        return ref.outcome_key(p, shot, Outcome(ball, (), (), lambda: onto(ball)))

    shot = Shot(ball="0", phi=10.0, v=2.0)
    assert key(pos, shot, "1") is not None and key(pos, shot, "1") == key(pos, shot, "2")
    # From the house: ball a out of it, ball b moved into it (item 21.2).
    t = pos.table
    out = [(b, x, y) for b, x, y in pos.balls if b != "0" and y > t.house_line + 0.1]
    a, b = out[0][0], out[1][0]
    hand = pos.replace(in_hand="house", balls=tuple(out[:1]) + ((b, 0.9, 0.3),))
    assert t.in_house(*hand.xy(b)) and not t.in_house(*hand.xy(a))
    placed = Shot(ball="0", phi=90.0, v=2.0, place=(0.3, 0.2))
    elsewhere = Shot(ball="0", phi=90.0, v=2.0, place=(1.4, 0.2))
    assert key(hand, placed, a) is not None and key(hand, placed, a) == key(hand, elsewhere, a)
    assert key(hand, placed, b) is not None and key(hand, placed, a) != key(hand, placed, b)


@pytest.mark.parametrize("variant", ["free", "combined", "moscow"])
def test_a_ball_beside_the_struck_one_keys_by_the_push_test(variant: str) -> None:
    """A struck ball that starts beside another (within item 19.2's push
    distance): strokes that push have no key; the others are keyed as if
    no ball were near, and equal keys rule alike wherever one is legal
    (real strokes every 2 degrees at two speeds, some into the ball beside
    it, some away)."""
    from piramida.env.table import Table

    ref = get_referee(variant)
    R = Table.default().ball_radius
    cue = cue_ball_of(variant, 0) if variant != "free" else "3"
    balls = {cue: (0.9, 1.5), "5": (1.3, 2.8), "9": (0.4, 2.4), "11": (1.5, 0.9), "12": (0.3, 3.2)}
    gap = 2 * R + 0.2 * R
    balls["7"] = (0.9 + gap * math.cos(math.radians(70)), 1.5 + gap * math.sin(math.radians(70)))
    pos = Position.from_balls(variant, balls)
    state, sim = ref.initial_state(pos), Simulator(pos)
    assert ref.start_near(pos, Shot(ball=cue, phi=0.0, v=1.0))[1]
    groups: dict[Any, list[Any]] = defaultdict(list)
    pushed = keyed = 0
    for k in range(0, 360, 2):
        for v in (1.5, 4.0):
            shot = Shot(ball=cue, phi=float(k), v=v)
            res = sim(shot)
            key = _key(ref, pos, shot, res.rule_events, res.final, res.records)
            # The log alone (no records) keys alike.
            assert _key(ref, pos, shot, res.rule_events, res.final) == key
            ruling = ref.judge(pos, shot, res.rule_events, res.final, (), state)
            if "push" in ruling.fouls:
                assert key is None
                pushed += 1
            if key is not None:
                keyed += 1
                groups[key].append((ruling, res.final))
    checked = 0
    for first, r, final in _beside_a_legal_one(groups):
        _same_but_rest(first, r)
        assert r.position.balls == final.balls
        _is(ref.rested(first, final), r)
        checked += 1
    assert pushed >= 20 and keyed >= 60 and checked >= 40, (pushed, keyed, checked)


def test_no_key_where_the_rules_read_more() -> None:
    """Breaks, strokes that pocket nothing or send a ball off the table, an
    owed ball and the variants whose rules read the whole log have none."""
    pos = next(p for p in _positions(("combined",)) if not p.is_break and p.in_hand is None)
    ref = get_referee("combined")
    shot = Shot(ball="0", phi=10.0, v=2.0)
    pot = Outcome("1", (("1", "fl"),), ())
    assert ref.outcome_key(pos, shot, pot) is not None
    assert ref.outcome_key(pos, shot, Outcome("1", (), ())) is None
    # Nothing pocketed: a key only where the log completes the shot (item
    # 20: here ball 1 rebounds from one cushion onto another, 2a).
    touch = Event(0.1, "ball_ball", ("0", "1"))
    two = [Event(0.0, "cue", ("0",)), touch, Event(0.2, "cushion", ("1",), cushion="left_front"),
           Event(0.3, "cushion", ("1",), cushion="front")]
    assert ref.outcome_key(pos, shot, Outcome("1", (), (), lambda: two)) is not None
    assert ref.outcome_key(pos, shot, Outcome("1", (), (), lambda: two[:3])) is None
    assert ref.outcome_key(pos, shot, Outcome("1", (("1", "fl"),), ("2",))) is None
    assert ref.outcome_key(pos.replace(is_break=True), shot, pot) is None
    assert ref.outcome_key(pos.replace(owed=(1, 1)), shot, pot) is None
    p = next(p for p in _positions(("five_ball",)) if not p.is_break)
    five = get_referee("five_ball")
    cue = five.allowed_cue_balls(p)[0]
    assert five.outcome_key(p, Shot(ball=cue, phi=0.0, v=2.0), Outcome("r1", (("r1", "fl"),), ())) is None
    # Classic pyramid: only where the called ball drops where it was called
    # and the cue ball stays up.
    p = next(p for p in _positions(("classic71",)) if not p.is_break and p.in_hand is None)
    classic = get_referee("classic71")
    ball = next(b for b in p.ids if b != "0")
    called = Shot(ball="0", phi=0.0, v=2.0, call=(ball, "fl"))
    assert classic.outcome_key(p, called, Outcome(ball, ((ball, "fl"),), ())) is not None
    assert classic.outcome_key(p, called, Outcome(ball, ((ball, "rr"),), ())) is None
    assert classic.outcome_key(p, called, Outcome(ball, ((ball, "fl"), ("0", "rr")), ())) is None


def test_noisy_samples_rule_as_the_first_legal_one_rested() -> None:
    """A planner's noisy samples of a pot (found on a half-degree scan):
    each sample's ruling is the first legal sample's of the same key,
    rested where its balls stop."""
    checked = 0
    for pos, ref, state, sim in _open_tables():
        ball = ref.allowed_cue_balls(pos)[0]
        pots = [s for s in (Shot(ball=ball, phi=0.5 * k, v=3.0) for k in range(720)) if sim(s).pocketed][::7]
        for shot in pots:
            first: dict[Any, Any] = {}
            for seed in range(8):
                res = sim(shot, "pro", seed)
                key = _key(ref, pos, res.shot, res.rule_events)
                if key is None:
                    continue
                full = ref.judge(pos, res.shot, res.rule_events, res.final, (), state)
                if key in first:
                    _is(ref.rested(first[key], res.final), full)
                    checked += 1
                elif full.legal:
                    first[key] = full
    assert checked >= 50


def test_five_ball_keys_rule_alike_and_rested_places_the_balls_back() -> None:
    """Five balls: strokes with equal keys (the carom's kinds included),
    one of them legal, rule alike but for where the balls rest, and
    ``rested`` places the reds and the yellow that came back as the rule
    does, whatever the others' places. The strokes: the toolbox's pots in
    every five-ball reference position, each turned a little both ways."""
    from piramida.agents.shots import PLANNER, candidates
    from piramida.env.view import GameView

    ref = get_referee("five_ball")
    checked = respotted = 0
    for pos in _positions(("five_ball",)):
        if pos.is_break:
            continue
        pots = [c.shot for c in candidates(GameView.for_position(pos), "pro", PLANNER) if c.kind == "pot"]
        shots = (s.aimed((s.phi + d) % 360.0) for s in pots for d in (-0.06, -0.03, 0.0, 0.03, 0.06))
        groups = _grouped(ref, pos, ref.initial_state(pos), Simulator(pos), shots)
        for first, r, final in _beside_a_legal_one(groups):
            assert r.legal and r.fouls == first.fouls and r.score == first.score
            assert (r.next.player, r.next.kind) == (first.next.player, first.next.kind)
            assert r.scored == first.scored and set(r.respotted) == set(first.respotted)
            _is(ref.rested(first, final), r)
            checked += 1
            respotted += bool(r.respotted)
    assert checked >= 100 and respotted >= 50, (checked, respotted)


def test_five_ball_keys_tell_the_caroms_apart() -> None:
    pos = next(p for p in _positions(("five_ball",)) if not p.is_break and p.in_hand is None)
    ref = get_referee("five_ball")
    cue = ref.allowed_cue_balls(pos)[0]
    shot = Shot(ball=cue, phi=0.0, v=2.0, call=("r1", "fl"))
    start = [Event(0.0, "cue", (cue,)), Event(0.1, "ball_ball", (cue, "r1"))]
    drop = [Event(0.5, "pocket", ("r1",), pocket="fl")]
    carom = start + [Event(0.3, "ball_ball", (cue, "y"))] + drop
    plain = ref.outcome_key(pos, shot, Outcome("r1", (("r1", "fl"),), (), lambda: start + drop))
    onto = ref.outcome_key(pos, shot, Outcome("r1", (("r1", "fl"),), (), lambda: carom))
    assert plain is not None and onto is not None and plain != onto
    # No key where the rules read more: the cue ball pocketed, no call.
    assert ref.outcome_key(pos, shot, Outcome("r1", (("r1", "fl"), (cue, "rr")), (), lambda: carom)) is None
    uncalled = Shot(ball=cue, phi=0.0, v=2.0)
    assert ref.outcome_key(pos, uncalled, Outcome("r1", (("r1", "fl"),), (), lambda: carom)) is None


def test_pots_of_one_shape_rule_alike_but_for_the_balls() -> None:
    """Shelf variants: pots whose keys differ only in which balls played
    which part (``BaseReferee.shape``) rule alike but for those balls, and
    ``relabeled`` makes each one's ruling, frame state included, from the
    first legal one's. Real strokes: every struck ball the rules allow,
    from every angle, in every shelf variant, open tables and a ball in
    hand."""
    checked = relabelled = 0
    for variant in SHELF:
        for pos in [p for p in _positions((variant,)) if not p.is_break][:25]:
            ref, sim, state = get_referee(variant), Simulator(pos), get_referee(variant).initial_state(pos)
            balls = ref.allowed_cue_balls(pos)[:4]
            place = None
            if pos.in_hand is not None:
                balls = (cue_ball_of(variant, pos.to_move),)
                place = (pos.table.width / 2, pos.table.house_line / 2)
            first: dict[Any, tuple[Any, tuple[str, ...]]] = {}
            for k in range(0, 720):
                shot = Shot(ball=balls[k % len(balls)], phi=0.5 * k, v=(2.0, 3.5)[k % 2], place=place)
                try:
                    res = sim(shot)
                except PiramidaError:
                    continue
                key = _key(ref, pos, shot, res.rule_events)
                shaped = ref.shape(pos, key) if key is not None else None
                if shaped is None:
                    continue
                full = ref.judge(pos, shot, res.rule_events, res.final, (), state)
                got = first.get(shaped[0])
                if got is None:
                    if full.legal and full.penalty is None:
                        first[shaped[0]] = (full, shaped[1])
                    continue
                made = ref.relabeled(got[0], got[1], shaped[1], res.final)
                _is(made, full)
                checked += 1
                relabelled += got[1] != shaped[1]
    assert checked >= 100 and relabelled >= 50, (checked, relabelled)
    # Where the rules tell balls apart there are no shapes: a свояк in
    # combined, balls scored by their numbers, five balls.
    pos = next(p for p in _positions(("combined",)) if not p.is_break and p.in_hand is None)
    ref = get_referee("combined")
    assert ref.shape(pos, ("0", None, None, None, "1", (("1", "fl"),))) is not None
    assert ref.shape(pos, ("0", None, None, None, "1", (("1", "fl"), ("0", "fr")))) is None
    assert ref.shape(pos, ("", None, None, None, False, ())) is None
    points = get_referee("free", {"scoring": "points", "points_target": 71})
    assert points.shape(pos, ("0", None, None, None, "1", (("1", "fl"),))) is None
    assert get_referee("five_ball").shape(pos, ("w", None, None, None, "r1", (("r1", "fl"),))) is None
