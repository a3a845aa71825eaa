"""The web API as plain functions: a request's JSON object in, a JSON object
out (docs/ui.md lists every route).

The operations mirror the command line: ``suggest`` answers what
``piramida suggest --json`` prints (``{"shots": [...]}``) plus what the page
draws; ``simulate`` what ``piramida simulate --json`` prints plus the
balls' trajectories; ``referee`` what ``piramida referee --json`` prints;
the ``Session`` methods play a frame against an agent as ``piramida play``
does, through the frame driver (env/driver.py). Every input goes through
the input layer (env/inputs.py) and the value types' own parsers, and every
refusal is a ``PiramidaError`` whose message is the one line the command
line prints after ``error:``.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from piramida.env.errors import NotFoundError
from piramida.env.inputs import (
    InvalidInputError,
    brief,
    integer,
    known_keys,
    load_json,
)
from piramida.web.guard import MAX_BUDGET_S, MAX_SIMS

#: Seeds are 64-bit numbers everywhere they are recorded (commands/common.py).
SEED_MAX = 2**63 - 1
#: Noisy samples of a shot for the cloud of resting places.
MAX_CLOUD = 2000
#: Boards also held in memory (all are in the board store); the least
#: recently used leaves memory first.
MAX_SESSIONS = 64
#: Stored games listed at once (the first by id; ``total`` counts them all).
MAX_LISTED = 2000
#: Decimals of coordinates (0.01 mm) and times (0.01 ms) sent to the page.
XY_DECIMALS = 5
T_DECIMALS = 5


class BadRequestError(InvalidInputError):
    """A request the API cannot read: not JSON, not an object, a wrong type."""


class UnknownGameError(NotFoundError):
    """A game id the server's board store does not hold."""


# ------------------------------------------------------------------ reading
def parse_body(raw: bytes | str) -> dict[str, Any]:
    """The request body as a JSON object, read by the input layer (size,
    depth, finite numbers, no duplicate keys)."""
    if isinstance(raw, bytes) and not raw.strip():
        return {}
    data = load_json(raw, "request body", BadRequestError)
    if not isinstance(data, dict):
        raise BadRequestError(f"request body must be a JSON object, got {type(data).__name__}")
    return data


def _check_keys(body: Mapping[str, Any], allowed: tuple[str, ...], what: str) -> None:
    known_keys(body, allowed, what, BadRequestError)


def _text(body: Mapping[str, Any], key: str, default: str | None = None) -> str:
    value = body.get(key, default)
    if value is None:
        raise BadRequestError(f"'{key}' is missing")
    if not isinstance(value, str):
        raise BadRequestError(f"'{key}' must be a string, got {brief(value)}")
    return value


def _int(body: Mapping[str, Any], key: str, lo: int, hi: int, default: int | None) -> int | None:
    value = body.get(key, default)
    if value is None:
        return None
    return integer(value, f"'{key}'", lo, hi, BadRequestError)


def read_position(value: Any, what: str = "position", table: Any = None) -> Any:
    """A position given as a JSON object, or as text (the one-line text form
    or JSON), as ``--position`` takes it."""
    from piramida.env.position import Position

    if value is None:
        raise BadRequestError(f"'{what}' is missing")
    if isinstance(value, dict):
        pos = Position.from_dict(value, table)
    elif isinstance(value, str):
        pos = Position.parse(value, table)
    else:
        raise BadRequestError(f"'{what}' must be a position object or its text form, got {brief(value)}")
    # A shot's outcome may hold a ball resting past a pocket's mouth line.
    return pos if what == "after" else pos.check_playable()


def read_shot(value: Any, what: str = "shot") -> Any:
    """A shot as a JSON object or as text (text form or JSON)."""
    from piramida.env.shot import Shot

    if value is None:
        raise BadRequestError(f"'{what}' is missing")
    if isinstance(value, dict):
        return Shot.from_dict(value)
    if isinstance(value, str):
        return Shot.parse(value)
    raise BadRequestError(f"'{what}' must be a shot object or its text form, got {brief(value)}")


def read_noise(body: Mapping[str, Any], default: str = "pro") -> str:
    """A noise preset name (``none`` for exact strokes), checked."""
    from piramida.env.physics import load_noise

    name = _text(body, "noise", default)
    if name != "none":
        if name not in noise_presets():
            # A page names a preset; files (even a bare name that is one in
            # the server's folder) are the command line's business.
            raise BadRequestError(f"'noise' must be a preset name ({', '.join(noise_presets())}), got {brief(name)}")
        load_noise(name)
    return name


def read_options(value: Any) -> dict[str, str]:
    """Variant options: ``["NAME=VALUE", ...]`` as ``--option`` takes them,
    or an object of name -> value."""
    from piramida.env.rules.options import parse_option_args

    if value is None:
        return {}
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return parse_option_args(value)
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if isinstance(v, bool):
                v = "true" if v else "false"
            if not isinstance(v, str | int | float):
                raise BadRequestError(f"option {brief(k, 30)} must be a string or number, got {brief(v)}")
            out[str(k)] = str(v)
        return out
    raise BadRequestError(f"'options' must be a list of NAME=VALUE or an object, got {brief(value)}")


def noise_presets() -> list[str]:
    from piramida.configs import CONFIG_DIR

    names = sorted(p.stem for p in (CONFIG_DIR / "noise").glob("*.toml"))
    order = {"none": 0, "pro": 1, "amateur": 2, "novice": 3}
    return sorted(names, key=lambda n: (order.get(n, 9), n))


# ------------------------------------------------------------------ values
def _r(x: float, d: int = XY_DECIMALS) -> float:
    return round(float(x), d)


def _pt(p: Any) -> list[float]:
    return [_r(p[0]), _r(p[1])]


def position_info(position: Any) -> dict[str, Any]:
    """A position with what the page needs beside it."""
    from piramida.env.position import ball_ids, cue_ball_of

    return {
        "position": position.to_dict(),
        "text": position.to_text(),
        "missing": list(position.missing()),
        "ids": list(ball_ids(position.variant)),
        "cue": cue_ball_of(position.variant, position.to_move),
    }


def trajectories(result: Any) -> dict[str, dict[str, Any]]:
    """Each ball's path for the animation: ``t``, ``x``, ``y`` sampled at 60
    per second (plus the ends of every motion segment); a ball that did not
    move is one sample. ``gone``: the time a ball dropped or left the table
    (None while it stays)."""
    import numpy as np

    on_table = set(result.final.ids)
    out: dict[str, dict[str, Any]] = {}
    for b, (ts, xs, ys) in result.trajectories.items():
        moved = len(xs) > 1 and float(np.ptp(xs) + np.ptp(ys)) > 1e-7
        if not moved:
            ts, xs, ys = ts[:1], xs[:1], ys[:1]
        out[b] = {
            "t": [round(float(t), T_DECIMALS) for t in ts],
            "x": [_r(x) for x in xs],
            "y": [_r(y) for y in ys],
            "gone": None if b in on_table else round(float(ts[-1]), T_DECIMALS),
        }
    return out


def event_log(result: Any) -> list[dict[str, Any]]:
    """The readable events (motion changes left out), as the command prints them."""
    from piramida.env.events import describe_event

    return [
        {"t": round(e.t, T_DECIMALS), "type": e.type, "text": describe_event(e)}
        for e in result.events
        if e.type != "motion"
    ]


def simulation(result: Any, shot: Any = None) -> dict[str, Any]:
    """``piramida simulate --json`` of a result plus what the page animates."""
    out = result.to_dict()
    out["played"] = result.shot.to_text()
    if shot is not None:
        out["intended"] = shot.to_text()
    out["duration"] = round(result.duration, T_DECIMALS)
    out["log"] = event_log(result)
    out["trajectories"] = trajectories(result)
    out["start"] = {b: [tr["x"][0], tr["y"][0]] for b, tr in out["trajectories"].items()}
    return out


# ------------------------------------------------------------------ routes
def meta() -> dict[str, Any]:
    """What the page offers: variants, noise presets, agents and their keys,
    ball ids and styles, where a ball in hand may go."""
    from piramida.agents.specs import KEYS, RANKING
    from piramida.env.position import IN_HAND, VARIANTS, ball_ids, cue_ball_of, object_ball_ids
    from piramida.env.render import ball_styles
    from piramida.env.table import POCKETS

    return {
        "variants": list(VARIANTS),
        "noise": noise_presets(),
        "agents": {name: list(keys) for name, keys in KEYS.items()},
        "ranking": list(RANKING),
        "in_hand": list(IN_HAND),
        "pockets": list(POCKETS),
        "ids": {v: list(ball_ids(v)) for v in VARIANTS},
        "objects": {v: list(object_ball_ids(v)) for v in VARIANTS},
        "cue": {v: [cue_ball_of(v, 0), cue_ball_of(v, 1)] for v in VARIANTS},
        "styles": ball_styles(ball_ids("free") + ball_ids("five_ball")),
        "limits": {"sims": MAX_SIMS, "budget_s": MAX_BUDGET_S, "cloud": MAX_CLOUD, "top": 50},
    }


@lru_cache(maxsize=1)
def table() -> dict[str, Any]:
    """The default table's geometry (computed once; the answer is never
    changed by the caller: JSONResponse only reads it)."""
    from piramida.env.render import table_geometry
    from piramida.env.table import Table

    return table_geometry(Table.default())


def position(body: Mapping[str, Any]) -> dict[str, Any]:
    """``{"position": ...}`` checked: the position, its text form, the balls
    neither on the table nor on a shelf."""
    _check_keys(body, ("position",), "position request")
    return position_info(read_position(body.get("position")))


def start(body: Mapping[str, Any]) -> dict[str, Any]:
    """The start position of a variant (``{"variant", "seed"}``)."""
    from piramida.env.position import Position

    _check_keys(body, ("variant", "seed"), "start request")
    seed = _int(body, "seed", 0, SEED_MAX, 0)
    return position_info(Position.start(_text(body, "variant", "free"), seed=seed))


def _ranker(body: Mapping[str, Any]) -> tuple[Any, int]:
    from piramida.agents.specs import parse_duration
    from piramida.agents.suggestions import ranking_agent
    from piramida.web.guard import agent_spec

    budget = body.get("budget", "1s")
    if isinstance(budget, int | float) and not isinstance(budget, bool):
        budget = f"{budget}s"
    if not isinstance(budget, str):
        raise BadRequestError(f"'budget' must be like 1s or 500ms, got {brief(budget)}")
    budget_s = parse_duration(budget, "budget")
    if budget_s > MAX_BUDGET_S:
        raise BadRequestError(f"budget must be at most {MAX_BUDGET_S:g}s here, got {brief(budget, 30)}")
    sims = _int(body, "sims", 1, MAX_SIMS, None)
    top = _int(body, "top", 1, 50, 3)
    seed = _int(body, "seed", 0, SEED_MAX, 0)
    noise = read_noise(body)
    # The page names shipped models only, never a file of the server's.
    agent = agent_spec(_text(body, "agent", "planner"))
    return ranking_agent(agent, budget_s, noise, seed or 0, sims), int(top or 3)


def suggest(body: Mapping[str, Any]) -> dict[str, Any]:
    """``{"position", "sims" | "budget", "noise", "top", "seed", "agent",
    "variant"}`` -> ``{"value_meaning", "shots", "search"}`` exactly as
    ``piramida suggest --json`` prints it (agents/suggestions.py), plus
    ``draw`` (one entry per shot: aim line, ghost ball, object ball,
    noise-free paths) and ``position``."""
    _check_keys(
        body,
        ("position", "sims", "budget", "noise", "top", "seed", "agent", "variant"),
        "suggest request",
    )
    ranker, top = _ranker(body)
    variant = body.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise BadRequestError(f"'variant' must be a string, got {brief(variant)}")
    return suggestion_answer(read_position(body.get("position")), ranker, top, variant)


def suggestion_answer(pos: Any, ranker: Any, top: int, variant: str | None = None) -> dict[str, Any]:
    """The suggestions for ``pos`` as /api/suggest answers them."""
    from piramida.agents.suggestions import plan_geometry, suggestions_for

    found = suggestions_for(pos, ranker, top, variant)
    draw = []
    for p in found.plans:
        geo = plan_geometry(pos, p)
        draw.append(
            {
                "struck": geo["struck"],
                "object": geo["object"],
                "start": _pt(geo["start"]),
                "aim": [_pt(geo["aim"][0]), _pt(geo["aim"][1])],
                "ghost": None if geo["ghost"] is None else _pt(geo["ghost"]),
                "paths": {b: [_pt(q) for q in pts] for b, pts in geo["paths"].items()},
                "kind": p.kind,
                "samples": p.samples,
                "shot": p.shot.to_dict(),
            }
        )
    return found.to_dict() | {"draw": draw, "position": pos.to_dict()}


def cloud(body: Mapping[str, Any]) -> dict[str, Any]:
    """``{"position", "shot", "noise", "n", "seed", "object"}``: the shot
    played ``n`` times under the noise; where the struck ball and the object
    ball (given, or the first ball the exact shot meets) come to rest, and
    how often each drops in which pocket or leaves the table."""
    from piramida.env.physics import simulate, simulate_batch
    from piramida.env.physics.batch import OFF, ON_TABLE
    from piramida.env.table import POCKETS

    _check_keys(body, ("position", "shot", "noise", "n", "seed", "object"), "cloud request")
    pos = read_position(body.get("position"))
    shot = read_shot(body.get("shot"))
    noise = read_noise(body)
    n = int(_int(body, "n", 1, MAX_CLOUD, 200) or 200)
    seed = int(_int(body, "seed", 0, SEED_MAX, 0) or 0)
    exact = simulate(pos, shot)
    obj = body.get("object")
    if obj is None:
        obj = next(
            (
                e.balls[1] if e.balls[0] == shot.ball else e.balls[0]
                for e in exact.events
                if e.type == "ball_ball" and shot.ball in e.balls
            ),
            None,
        )
    elif not isinstance(obj, str) or obj not in pos:
        raise BadRequestError(f"'object' must be a ball on the table, got {brief(obj)}")
    balls = [shot.ball] + ([obj] if obj is not None else [])
    batch = simulate_batch(pos, [shot] * n, noise="none" if noise == "none" else noise,
                           seeds=[seed * 1_000_003 + k for k in range(n)])
    rest: dict[str, list[list[float]]] = {b: [] for b in balls}
    pocketed: dict[str, dict[str, int]] = {b: {} for b in balls}
    off = dict.fromkeys(balls, 0)
    for k in range(len(batch)):
        ids = batch.ids[k]
        for b in balls:
            if b not in ids:
                continue
            j = ids.index(b)
            w = int(batch.where[k, j])
            if w == ON_TABLE:
                rest[b].append(_pt(batch.xy[k, j]))
            elif w == OFF:
                off[b] += 1
            elif w >= 0:
                name = POCKETS[w]
                pocketed[b][name] = pocketed[b].get(name, 0) + 1
    return {
        "shot": shot.to_text(),
        "noise": noise,
        "n": n,
        "struck": shot.ball,
        "object": obj,
        "rest": rest,
        "pocketed": pocketed,
        "off": off,
        "exact": {b: _pt(exact.final.xy(b)) if b in exact.final else None for b in balls},
    }


def simulate(body: Mapping[str, Any]) -> dict[str, Any]:
    """``{"position", "shot", "noise", "seed"}`` -> ``piramida simulate
    --json``'s object plus ``played``, ``duration``, ``log`` (the readable
    events) and ``trajectories`` (for the animation)."""
    from piramida.env.physics import simulate as run

    _check_keys(body, ("position", "shot", "noise", "seed"), "simulate request")
    pos = read_position(body.get("position"))
    shot = read_shot(body.get("shot"))
    noise = read_noise(body, "none")
    seed = _int(body, "seed", 0, SEED_MAX, None)
    result = run(pos, shot, noise=None if noise == "none" else noise, seed=seed)
    return simulation(result, shot)


def referee(body: Mapping[str, Any]) -> dict[str, Any]:
    """``{"variant", "before", "shot", "events", "after", "options"}`` ->
    the ruling as ``piramida referee --json`` prints it, plus ``summary``."""
    from piramida.env.events import events_from_json, events_from_list
    from piramida.env.rules import get_referee

    _check_keys(body, ("variant", "before", "shot", "events", "after", "options"), "referee request")
    variant = _text(body, "variant")
    ref = get_referee(variant, read_options(body.get("options")))
    before = read_position(body.get("before"), "before", ref.table)
    after = read_position(body.get("after"), "after", ref.table)
    if before.variant != variant:
        raise BadRequestError(f"--before is a {before.variant} position, not {variant}")
    shot = read_shot(body.get("shot"))
    events = body.get("events")
    if isinstance(events, str):
        log = events_from_json(events)
    elif isinstance(events, list):
        log = events_from_list(events)
    else:
        raise BadRequestError(f"'events' must be a list of events or its JSON text, got {brief(events)}")
    state = ref.initial_state(before)
    ref.check_shot(state, shot)
    ruling = ref.judge(before, shot, log, after, (), state)
    return ruling.to_dict() | {"summary": ruling.summary()}


def tolerance(body: Mapping[str, Any]) -> dict[str, Any]:
    """``{"position", "shot", "options"}`` -> how much error in aim (phi,
    degrees), pace (v, a fraction of it), side (a) and height (b) the shot
    tolerates before its outcome changes (agents/tolerance.py: per
    parameter ``{"minus", "plus", "lo", "hi", "at_limit"}``, null for a
    called shot that misses its call), plus ``ruling``: the referee's
    summary of the exact stroke under the variant's options (null, with
    ``refused``, where the referee refuses the shot)."""
    from piramida.agents.tolerance import tolerance as windows
    from piramida.env.errors import PiramidaError
    from piramida.env.rules import get_referee

    _check_keys(body, ("position", "shot", "options"), "tolerance request")
    pos = read_position(body.get("position"))
    shot = read_shot(body.get("shot"))
    ref = get_referee(pos.variant, read_options(body.get("options")))
    found = windows(pos, shot)
    ruling, refused = None, None
    try:
        state = ref.initial_state(pos)
        ref.check_shot(state, shot)
        result = found.exact
        ruling = ref.judge(pos, shot, result.events, result.final, (), state).summary()
    except PiramidaError as exc:
        # The physics answers for any stroke; the rules may not allow it.
        refused = str(exc)
    return found.to_dict() | {"ruling": ruling, "refused": refused}


# ------------------------------------------------------------------ play
#: Shots one analyse request looks at, at most (the page asks again for the rest).
MAX_ANALYSE = 12


class Session:
    """A board (docs/ui.md, "The analysis board"): a frame between the
    page's player (``seat``) and an agent, kept as a move tree
    (web/board_tree.py) in the board store. The frame driver plays on from
    the tree's cursor: the player's actions are applied strictly (an
    illegal one is refused with the referee's line and changes nothing), the
    agent's as ``piramida play`` takes them; an action played from a node
    that already has one starts a variation. A stored tournament game is a
    read-only board (``agent_spec`` None): it can be stepped through and
    analysed, not played on."""

    def __init__(
        self,
        driver: Any,
        agent_spec: Any,
        seat: int,
        noise: str,
        seed: int,
        tree: Any = None,
        board_id: str | None = None,
        store: Any = None,
    ) -> None:
        from piramida.web.analysis import win_chance
        from piramida.web.board_tree import Tree

        self.id = board_id or secrets.token_hex(8)
        self.driver = driver
        self.spec = agent_spec
        self.agent = None if agent_spec is None else agent_spec.build()
        self.seat = seat
        self.noise = noise
        self.seed = seed
        self.store = store
        self.lock = threading.Lock()
        self.tree = tree if tree is not None else Tree.start(driver.game, win_chance(driver.game))
        reset = getattr(self.agent, "reset", None)
        if callable(reset):
            reset(driver.agent_seed(1 - seat))

    @classmethod
    def restore(cls, row: Any, store: Any) -> Session:
        """The board of a store row (``board_store.BoardRow``), its driver
        at the tree's cursor."""
        from piramida.agents.specs import parse_spec
        from piramida.env.driver import FrameDriver
        from piramida.web.board_tree import Tree

        tree = Tree.from_dict(row.tree)
        spec = None if tree.info.get("readonly") else parse_spec(row.agent)
        driver = FrameDriver(row.variant, row.noise, row.options)
        driver.resume(tree.game_at(tree.cursor), row.seed)
        return cls(driver, spec, row.seat, row.noise, row.seed, tree, row.id, store)

    def persist(self) -> None:
        if self.store is not None:
            g = self.game
            self.store.save(self.id, g.variant, "" if self.spec is None else str(self.spec), self.seat,
                            self.noise, self.seed, g.options, self.tree.to_dict())

    @property
    def game(self) -> Any:
        return self.driver.game

    @property
    def readonly(self) -> bool:
        return self.spec is None

    def who(self, seat: int) -> str:
        names = self.tree.info.get("names")
        if names:
            return str(names[seat])
        return "you" if seat == self.seat else "agent"

    def to_act(self) -> str:
        g = self.game
        if g.over:
            return "none"
        if self.readonly:
            return "nobody"
        return "you" if self.driver.seat_to_act() == self.seat else "agent"

    def _mine(self) -> int | None:
        """The last node on the cursor's path played by the player."""
        mine = [k for k in self.tree.path(self.tree.cursor)[1:] if self.tree.node(k)["seat"] == self.seat]
        return mine[-1] if mine and not self.readonly else None

    def state(self) -> dict[str, Any]:
        from piramida.env.view import GameView

        g = self.game
        view = GameView.of(g)
        nxt = g.state.next
        last = next((r for r in reversed(g.rulings) if r is not None), None)
        node = self.tree.node(self.tree.cursor)
        return {
            "id": self.id,
            "variant": g.variant,
            "agent": self.who(1 - self.seat) if self.readonly else str(self.spec),
            "seat": self.seat,
            "noise": self.noise,
            "seed": self.seed,
            "over": g.over,
            "winner": g.winner,
            "score": list(g.score),
            "shots": g.shots,
            "actions": len(g.history),
            "to_act": self.to_act(),
            "next": nxt.to_dict(),
            "cue_balls": list(view.cue_balls),
            "last_ruling": None if last is None else last.summary(),
            "can_undo": self._mine() is not None,
            "node": self.tree.cursor,
            "leaf": not node["children"],
            "readonly": self.readonly,
            "wp": node.get("wp"),
        } | position_info(g.position)

    def board(self) -> dict[str, Any]:
        """The move tree as the page reads it (``Tree.page``), the win
        bar's model (or why there is none) and the loss labels' thresholds."""
        from piramida.web.analysis import LABELS, THRESHOLDS, value_file, why_no_value

        model = value_file(self.game.variant)
        return self.tree.page(self.who) | {
            "win": {"model": None if model is None else f"models/{model.name}",
                    "why": why_no_value(self.game.variant)},
            "labels": list(LABELS),
            "thresholds": {k: list(v) for k, v in THRESHOLDS.items()},
            "readonly": self.readonly,
            "names": [self.who(0), self.who(1)],
        }

    def view(self) -> dict[str, Any]:
        """``GET /api/play/{id}``: the state and the board."""
        return self.state() | {"board": self.board()}

    def _add(self, parent: int, entry: Mapping[str, Any], ruling: Any, seat: int, game: Any,
             step: Any = None) -> int:
        """A node for an action just played, ``game`` the game after it."""
        from piramida.web.analysis import win_chance
        from piramida.web.board_tree import action_fields, state_fields

        fields = action_fields(entry, ruling, seat) | state_fields(game) | {"seat": seat, "wp": win_chance(game)}
        if step is not None and step.refused is not None:
            fields |= {"refused": _action_text(step.refused), "reason": step.reason}
        return self.tree.add(parent, entry, fields)

    def _step(self, step: Any) -> dict[str, Any]:
        node = self._add(self.tree.cursor, self.game.history[-1], step.ruling, step.seat, self.game, step)
        self.persist()
        out: dict[str, Any] = {
            "seat": step.seat,
            "who": self.who(step.seat),
            "kind": step.kind,
            "action": _action_text(step.action),
            "brief": step.action if isinstance(step.action, str) else brief_shot(step.action),
            "refused": None if step.refused is None else _action_text(step.refused),
            "reason": step.reason,
            "ruling": None,
            "summary": None,
            "foul": False,
            "simulation": None,
            "node": node,
        }
        if step.ruling is not None:
            out["ruling"] = step.ruling.to_dict()
            out["summary"] = step.ruling.summary()
            out["foul"] = not step.ruling.legal
        elif step.kind == "lag":
            out["summary"] = "lag shot"
        elif step.kind == "choice":
            out["summary"] = f"p{step.seat} chooses {step.action}"
        if step.result is not None:
            before = step.position
            out["simulation"] = simulation(step.result)
            out["before"] = before.to_dict()
        return {"step": out, "state": self.state(), "board": self.board()}

    def _refuse_readonly(self) -> None:
        if self.readonly:
            raise BadRequestError("this board is a stored game: step through it and analyse it, it cannot be played on")

    def shot(self, body: Mapping[str, Any]) -> dict[str, Any]:
        _check_keys(body, ("shot",), "shot request")
        shot = read_shot(body.get("shot"))
        self._refuse_readonly()
        if self.to_act() != "you":
            raise BadRequestError(self._not_yours())
        if self.game.state.next.kind == "choice":
            raise BadRequestError(f"a choice is due, not a shot: {', '.join(self.game.legal_choices())}")
        return self._step(self.driver.apply(shot))

    def choose(self, body: Mapping[str, Any]) -> dict[str, Any]:
        _check_keys(body, ("choice",), "choice request")
        choice = _text(body, "choice")
        self._refuse_readonly()
        if self.to_act() != "you":
            raise BadRequestError(self._not_yours())
        nxt = self.game.state.next
        if nxt.kind != "choice":
            raise BadRequestError(f"a {nxt.kind} is due, not a choice")
        if choice not in nxt.choices:
            raise BadRequestError(f"choice {brief(choice, 40)} is not offered; the choices: {', '.join(nxt.choices)}")
        return self._step(self.driver.apply(choice))

    def agent_acts(self) -> dict[str, Any]:
        self._refuse_readonly()
        if self.to_act() != "agent":
            raise BadRequestError(self._not_yours(agent=True))
        return self._step(self.driver.act(self.agent))

    def _not_yours(self, agent: bool = False) -> str:
        if self.game.over:
            return "the frame is over"
        return "it is your turn, not the agent's" if agent else "it is the agent's turn"

    def _node(self, value: Any) -> int:
        n = int(integer(value, "'node'", 0, SEED_MAX, BadRequestError))
        if n >= len(self.tree):
            raise BadRequestError(f"no node {n} in this frame: its nodes are 0 to {len(self.tree) - 1}")
        return n

    def _move_to(self, n: int) -> None:
        self.tree.goto(n)
        self.driver.resume(self.tree.game_at(n), self.driver.seed, self.driver.pair)

    def hint(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """``{"sims" | "budget", "noise", "top", "seed", "agent"}``: suggestions
        for the frame's position at the cursor, as /api/suggest answers them.
        The frame's own position is used as it stands: a shot may leave a
        ball resting a little past a mouth line, which a position given from
        outside may not have (``Position.check_playable``)."""
        _check_keys(body, ("sims", "budget", "noise", "top", "seed", "agent"), "hint request")
        if self.to_act() != "you":
            raise BadRequestError(f"a hint is for your shot: {self._not_yours()}")
        if self.game.state.next.kind != "shot":
            raise BadRequestError(f"a hint is for a shot; a {self.game.state.next.kind} is due")
        ranker, top = _ranker(body)
        return suggestion_answer(self.game.position, ranker, top)

    def goto(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """``{"node": N}``: the cursor to node N (any node of the tree)."""
        _check_keys(body, ("node",), "goto request")
        if body.get("node") is None:
            raise BadRequestError("'node' is missing")
        self._move_to(self._node(body.get("node")))
        self.persist()
        return {"state": self.state(), "board": self.board()}

    def undo(self) -> dict[str, Any]:
        """The cursor back to before the player's last action on its path
        (and the agent's after it); the line stays in the tree."""
        mine = self._mine()
        if mine is None:
            raise BadRequestError("nothing of yours to undo")
        self._move_to(self.tree.node(mine)["parent"])
        self.persist()
        return {"state": self.state(), "board": self.board()}

    def analyse(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """``{"node": N}`` or ``{}``: the loss of node N's shot against the
        best suggestion (web/analysis.py), or of up to ``MAX_ANALYSE`` shots
        of the cursor's line not analysed yet, each kept in the store.
        ``pending``: the line's shots still without an analysis."""
        from piramida.env.errors import PiramidaError
        from piramida.env.shot import Shot
        from piramida.web.analysis import analyse_shot

        _check_keys(body, ("node",), "analyse request")
        if body.get("node") is not None:
            n = self._node(body.get("node"))
            if self.tree.node(n)["kind"] != "shot":
                raise BadRequestError(f"node {n} is {_a(self.tree.node(n)['kind'])}, not a shot: only shots are analysed")
            todo = [n]
        else:
            todo = [k for k in self.tree.line() if self.tree.node(k)["kind"] == "shot"
                    and self.tree.node(k)["analysis"] is None][:MAX_ANALYSE]
        done = []
        for n in todo:
            node = self.tree.node(n)
            if node["analysis"] is None:
                before = self.tree.game_at(node["parent"])
                try:
                    node["analysis"] = analyse_shot(before, Shot.from_dict(node["entry"]["shot"]), self.noise, self.seed)
                except PiramidaError as exc:
                    node["analysis"] = {"error": str(exc).splitlines()[0] if str(exc) else type(exc).__name__,
                                        "label": None, "loss": None}
            done.append(n)
        if done:
            self.persist()
        pending = sum(1 for k in self.tree.line()
                      if self.tree.node(k)["kind"] == "shot" and self.tree.node(k)["analysis"] is None)
        return {"analysed": done, "pending": pending, "board": self.board()}

    def save(self) -> dict[str, Any]:
        return self.game.to_dict()

    def history(self) -> list[dict[str, Any]]:
        """The actions up to the cursor, as the log shows played steps:
        ``seat``, ``who``, ``kind``, ``action``, ``brief``, ``summary``,
        ``foul``, ``node``."""
        out = []
        for k in self.tree.path(self.tree.cursor)[1:]:
            n = self.tree.node(k)
            out.append({"seat": n["seat"], "who": self.who(n["seat"]), "kind": n["kind"], "action": n["action"],
                        "brief": n["brief"], "summary": n["summary"], "foul": n["foul"], "node": k})
        return out

    def add_history(self, saved: Mapping[str, Any]) -> None:
        """The actions of a saved game (checked) as the tree's first line,
        from its root; the driver at its end."""
        from piramida.web.board_tree import replay

        node, last = self.tree.cursor, None
        for entry, ruling, seat, game in replay(saved):
            node = self._add(node, entry, ruling, seat, game)
            last = game
        if last is not None:
            self.driver.resume(last, self.driver.seed, self.driver.pair)


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def brief_shot(shot: Any) -> str:
    """The shot in short, as ``piramida play`` prints it."""
    from piramida.web.board_tree import brief_shot as short

    return short(shot)


def _action_text(action: Any) -> str:
    if isinstance(action, str):
        return action
    to_text = getattr(action, "to_text", None)
    return str(to_text()) if callable(to_text) else brief(action)


class Sessions:
    """The boards, by id: in the board store (``store``, web/board_store.py;
    in memory when None), the ``limit`` used most recently also in memory
    (an evicted one is rebuilt from the store when asked for)."""

    def __init__(self, store: Any = None, limit: int = MAX_SESSIONS) -> None:
        from piramida.web.board_store import BoardStore

        self.store = store if store is not None else BoardStore(None)
        self.limit = limit
        self._games: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._games)

    def _cache(self, s: Session) -> None:
        self._games[s.id] = s
        self._games.move_to_end(s.id)
        for gid in list(self._games):
            if len(self._games) <= self.limit:
                break
            # A board in use stays, so that no second copy of it is rebuilt meanwhile.
            if not self._games[gid].lock.locked():
                del self._games[gid]

    def add(self, s: Session) -> Session:
        s.store = self.store
        s.persist()
        with self._lock:
            self._cache(s)
        return s

    def get(self, game_id: str) -> Session:
        with self._lock:
            s = self._games.get(game_id)
            if s is not None:
                self._games.move_to_end(game_id)
                return s
            row = self.store.load(game_id)
            if row is None:
                raise UnknownGameError(f"no game {brief(game_id, 40)} on this server (start a new one)")
            s = Session.restore(row, self.store)
            self._cache(s)
            return s


def _play_settings(body: Mapping[str, Any]) -> tuple[Any, int, str, int, dict[str, str]]:
    from piramida.web.guard import agent_spec

    # The page names shipped models only, never a file of the server's.
    spec = agent_spec(_text(body, "agent", "greedy"))
    seat = int(_int(body, "seat", 0, 1, 0) or 0)
    noise = read_noise(body, "none")
    seed = int(_int(body, "seed", 0, SEED_MAX, 0) or 0)
    options = read_options(body.get("options"))
    return spec, seat, noise, seed, options


def new_game(sessions: Sessions, body: Mapping[str, Any]) -> dict[str, Any]:
    """``{"variant", "agent", "seat", "noise", "seed", "options",
    "position"}``: a frame against the agent (the frame driver's frame of
    the seed, as ``piramida play --seed``; or from ``position``), a new
    board in the store."""
    from piramida.env.driver import FrameDriver

    _check_keys(body, ("variant", "agent", "seat", "noise", "seed", "options", "position"), "new game request")
    spec, seat, noise, seed, options = _play_settings(body)
    variant = _text(body, "variant", "free")
    driver = FrameDriver(variant, noise, options)
    pos = None
    if body.get("position") is not None:
        pos = read_position(body.get("position"))
        if pos.variant != variant:
            raise BadRequestError(f"the position is a {pos.variant} position, not {variant}")
    driver.reset(seed, position=pos)
    s = sessions.add(Session(driver, spec, seat, noise, seed))
    return {"state": s.state(), "board": s.board()}


def _board_of_saved(saved: Any, spec: Any, seat: int, noise: str, seed: int, info: Mapping[str, Any]) -> Session:
    from piramida.env.driver import FrameDriver
    from piramida.env.game import Game
    from piramida.web.analysis import win_chance
    from piramida.web.board_tree import Tree

    game = Game.from_dict(saved)  # every entry checked here, once
    start = Game.from_dict(game.to_dict() | {"history": []})
    driver = FrameDriver(game.variant, noise, game.options)
    driver.resume(start, seed)
    s = Session(driver, spec, seat, noise, seed, Tree.start(start, win_chance(start), info))
    s.add_history(game.to_dict())
    return s


def load_game(sessions: Sessions, body: Mapping[str, Any]) -> dict[str, Any]:
    """``{"game": <a saved game, as piramida play --save writes it>, "agent",
    "seat", "noise", "seed"}``: go on with a saved frame, a new board whose
    first line is its actions. ``history``: those actions, as
    ``Session.history`` lists them."""
    from piramida.env.game import InvalidSaveError

    _check_keys(body, ("game", "agent", "seat", "noise", "seed", "options"), "load request")
    spec, seat, noise, seed, _ = _play_settings(body)
    saved = body.get("game")
    if isinstance(saved, str):
        saved = load_json(saved, "saved game", InvalidSaveError)
    s = sessions.add(_board_of_saved(saved, spec, seat, noise, seed, {}))
    return {"state": s.state(), "history": s.history(), "board": s.board()}


# ------------------------------------------------------------------ stored games
class UnservedError(NotFoundError):
    """A results file the server was not started with."""


class Results:
    """The results files named by ``piramida serve --db``, by the name given
    there: the only files the page may read (it names one, never a path)."""

    def __init__(self, paths: Iterable[str | Path] = ()) -> None:
        self.paths: dict[str, Path] = {}
        for p in paths:
            self.paths.setdefault(str(Path(p)), Path(p))

    def names(self) -> list[str]:
        return list(self.paths)

    def path(self, name: str | None) -> Path:
        """The file of ``name``; with one file served, ``name`` may be left out."""
        if not self.paths:
            raise UnservedError("no results files are served here (start the page with piramida serve --db FILE)")
        if name is None:
            if len(self.paths) == 1:
                return next(iter(self.paths.values()))
            raise BadRequestError(f"'db' is missing: name one of {', '.join(map(brief, self.paths))}")
        got = self.paths.get(name)
        if got is None:
            raise UnservedError(f"results file {brief(name)} is not served here; served: {', '.join(map(brief, self.paths))}")
        return got


def _query_text(query: Mapping[str, Any], key: str) -> str | None:
    value = query.get(key)
    if value is not None and not isinstance(value, str):
        raise BadRequestError(f"'{key}' must be a string, got {brief(value)}")
    return value


def list_games(results: Results, query: Mapping[str, Any]) -> dict[str, Any]:
    """``?db=NAME&variant=V`` (both optional): the stored games of one
    served results file or of all, as ``eval.tournament.stored_games``
    lists them, each with its ``db``; ``dbs``: the served names."""
    from piramida.env.position import VARIANTS
    from piramida.eval.tournament import stored_games

    _check_keys(query, ("db", "variant"), "games request")
    variant = _query_text(query, "variant") or None
    if variant is not None and variant not in VARIANTS:
        raise BadRequestError(f"unknown variant {brief(variant, 30)}; known: {', '.join(VARIANTS)}")
    name = _query_text(query, "db")
    names = results.names() if name is None else [name]
    games: list[dict[str, Any]] = []
    for n in names:
        games += [{"db": n} | g for g in stored_games(results.path(n), variant)]
    return {"dbs": results.names(), "total": len(games), "games": games[:MAX_LISTED]}


def stored_game(results: Results, query: Mapping[str, Any], game_id: str) -> dict[str, Any]:
    """``GET /api/games/{id}?db=NAME``: the stored game rebuilt from its
    actions (``eval.tournament``'s ``stored_game`` and ``replay``, as
    ``piramida replay``), as ``piramida replay --save`` writes it."""
    from piramida.eval.tournament import stored_game as read

    _check_keys(query, ("db",), "game request")
    gid = _stored_id(game_id)
    return read(results.path(_query_text(query, "db")), gid).rebuild().game.to_dict()


def _stored_id(game_id: str) -> int:
    if not (game_id.isascii() and game_id.isdigit()) or len(game_id) > 19:
        raise BadRequestError(f"a game id is a whole number from 1, got {brief(game_id, 30)}")
    return int(integer(int(game_id), "the game id", 1, SEED_MAX, BadRequestError))


def stored_board(results: Results, sessions: Sessions, query: Mapping[str, Any], game_id: str) -> dict[str, Any]:
    """``POST /api/games/{id}/board?db=NAME``: the stored game as a
    read-only board (its actions the tree's line, the seats named by their
    agents), to step through and analyse."""
    from piramida.eval.tournament import stored_game as read

    _check_keys(query, ("db",), "board request")
    gid = _stored_id(game_id)
    name = _query_text(query, "db")
    stored = read(results.path(name), gid)
    saved = stored.rebuild().game.to_dict()
    info = {"readonly": True, "names": list(stored.seats), "source": f"stored game {gid}"}
    s = sessions.add(_board_of_saved(saved, None, 0, stored.noise, stored.seed, info))
    return {"state": s.state(), "board": s.board()}
