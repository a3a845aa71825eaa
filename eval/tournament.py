"""Tournaments: many agents, many variants, duplicate pairs, results in
SQLite that survive a kill (eval/store.py), on Ray or in one process.

A tournament is a configuration - agent specs, variants, pairs per
pairing, noise preset, seed, format - and the games it implies:

- ``roundrobin``: every pairing of two agents; ``gauntlet``: the first agent
  against each of the others;
- each pairing plays ``pairs`` duplicate pairs per variant; pair ``k`` of
  every pairing uses the rack and noise streams of (seed, k) (env/driver.py),
  so all pairings of a variant meet the same racks;
- a game is (variant, agent a, agent b, pair, swap); with swap 1 the seats
  are exchanged;
- with a ``book`` (eval/book.py; ``{variant}`` in its path is the variant
  played) pair ``k`` starts both its games from the book's position ``k
  mod N`` instead of the rack, the noise streams seeded as from the rack;
- ``{variant}`` in an agent's spec is the variant played
  (``policy:path=models/{variant}_policy.pt``: each variant's own model), and
  ``only`` names the variants an agent plays where it is not all of them (a
  model that exists for some variants only); every agent is checked in
  every variant it plays before any game is played.

Running it stores each finished game at once, in its own transaction; a
rerun of the same configuration skips the games already stored, so a run
killed at any moment loses at most the games in flight. Runs of the same
tournament on the same file at the same time share its games: each claims a
game before playing it (eval/store.py), plays only its own claims, and when
no game is left to claim waits for those others hold (taking over the
claims of a run that died), so the games are played about once in all. With one worker and
no Ray address the games run in this process; otherwise they run as Ray
tasks on actors that build their agents once (a private local instance for
``workers``, a cluster for ``address``: eval/cluster.py), and only this
process writes to the file. A game whose actor dies is played again on a
new one.

A game's record keeps what replays it exactly: the seeds and the actions
actually played (the noise streams are keyed by seed, pair, seat and
stroke, so the same actions give the same frame).
"""

from __future__ import annotations

import hashlib
import time
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from piramida.agents.specs import AgentSpecError, for_variant, parse_spec
from piramida.env.driver import FrameDriver, Step, rack_seed
from piramida.env.errors import PiramidaError
from piramida.env.inputs import brief
from piramida.env.position import VARIANTS, Position
from piramida.env.shot import Shot
from piramida.eval.book import Book, load_book
from piramida.eval.match import play_frame
from piramida.eval.store import CLAIM_LEASE_S, GameId, Store, open_read, run_owner
from piramida.eval.version import code_version

FORMATS = ("roundrobin", "gauntlet")
MAX_PAIRS = 100_000


class TournamentError(PiramidaError):
    """A tournament configuration that cannot be run."""


@dataclass(frozen=True)
class TournamentConfig:
    agents: tuple[str, ...]
    variants: tuple[str, ...]
    pairs: int
    noise: str = "pro"
    seed: int = 0
    format: str = "roundrobin"
    max_shots: int = 300
    #: (agent spec, the variants it plays) for agents that play only some
    #: of ``variants``; the others play all.
    only: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: A book of start positions (eval/book.py), ``{variant}`` in the path
    #: standing for the variant played; "" starts every pair from the rack.
    book: str = ""

    def __post_init__(self) -> None:
        if len(self.agents) < 2:
            raise TournamentError(f"a tournament needs at least two agents, got {len(self.agents)}")
        if len(set(self.agents)) != len(self.agents):
            raise TournamentError("an agent spec is listed twice; give the copies different options (e.g. a seed)")
        if not self.variants:
            raise TournamentError("a tournament needs at least one variant")
        for v in self.variants:
            if v not in VARIANTS:
                raise TournamentError(f"unknown variant {brief(v, 30)}; known: {', '.join(VARIANTS)}")
        if len(set(self.variants)) != len(self.variants):
            raise TournamentError("a variant is listed twice")
        for spec, vs in self.only:
            if spec not in self.agents:
                raise TournamentError(f"only: {brief(spec, 60)} is not one of the agents")
            bad = [v for v in vs if v not in self.variants]
            if bad or not vs:
                raise TournamentError(f"only: {brief(spec, 60)} must play some of the variants "
                                      f"({', '.join(self.variants)}), got {', '.join(vs) or 'none'}")
        # Every agent in every variant it plays, before any game: a model
        # missing for one variant is one line now, not an error after the
        # other variants' games are stored.
        for a in self.agents:
            for v in self.variants_of(a):
                try:
                    parse_spec(for_variant(a, v))
                except AgentSpecError as exc:
                    where = f" in {v}" if for_variant(a, v) != a else ""
                    raise TournamentError(f"agent {a} cannot play{where}: {exc}") from None
        if not 1 <= self.pairs <= MAX_PAIRS:
            raise TournamentError(f"pairs must be from 1 to {MAX_PAIRS}, got {self.pairs}")
        if self.format not in FORMATS:
            raise TournamentError(f"format must be one of {', '.join(FORMATS)}, got {brief(self.format, 30)}")
        if not 1 <= self.max_shots <= 1000:
            raise TournamentError(f"max_shots must be from 1 to 1000, got {self.max_shots}")
        if self.noise != "none":
            from piramida.env.physics import load_noise

            load_noise(self.noise)
        # The books are read now, so that a missing or bad one is one line
        # before any game, and travel with the configuration to the Ray
        # workers, which need not see the file.
        object.__setattr__(self, "_books", self._load_books())
        object.__setattr__(self, "_models", self._model_digests())

    def _model_digests(self) -> dict[str, str]:
        models: dict[str, str] = {}
        for a in self.agents:
            for v in self.variants_of(a):
                for name in parse_spec(for_variant(a, v)).model_files():
                    if name not in models:
                        models[name] = hashlib.sha256(Path(name).read_bytes()).hexdigest()[:16]
        return models

    def models(self) -> dict[str, str]:
        """The model files the agents name (``{variant}`` filled in), each
        with the first 16 hex digits of its SHA-256."""
        got = self.__dict__.get("_models")
        if got is None:
            got = self._model_digests()
            object.__setattr__(self, "_models", got)
        return got

    def _load_books(self) -> dict[str, Book]:
        if not self.book:
            return {}
        if "{variant}" not in self.book and len(self.variants) > 1:
            raise TournamentError(
                "a book holds the positions of one variant: for several variants put {variant} in its path "
                "(books/{variant}.jsonl)"
            )
        return {v: load_book(self.book_path(v), v) for v in self.variants}

    def book_path(self, variant: str) -> str:
        """The book file of ``variant``."""
        return self.book.replace("{variant}", variant)

    def books(self) -> dict[str, Book]:
        """The books by variant (none without ``book``)."""
        got = self.__dict__.get("_books")
        if got is None:
            got = self._load_books()
            object.__setattr__(self, "_books", got)
        return got

    def start(self, variant: str, pair: int) -> Position | None:
        """The start position of pair ``pair`` in ``variant``: the book's
        position ``pair mod N``, or None (the rack)."""
        book = self.books().get(variant)
        return None if book is None else book.start(pair)

    def to_dict(self) -> dict[str, Any]:
        """The configuration as stored; its hash identifies the tournament
        (``only`` and ``book`` appear only where given, so that a
        configuration without them keeps the identity it always had). A
        book is stored as its path and, per variant, its number of
        positions and the digest of its positions: another book, or the
        same file changed, is another tournament. So are the model files
        the agents name (``models``: file -> digest): a policy or value file
        retrained under the same name plays new games instead of resuming
        the old weights' ones."""
        d = asdict(self)
        d["agents"], d["variants"] = list(self.agents), list(self.variants)
        del d["only"], d["book"]
        if self.only:
            d["only"] = {spec: list(vs) for spec, vs in self.only}
        if self.models():
            d["models"] = dict(self.models())
        if self.book:
            books = self.books()
            d["book"] = {
                "file": self.book,
                "positions": {v: len(b.positions) for v, b in books.items()},
                "digest": {v: b.digest for v, b in books.items()},
            }
        return d

    def variants_of(self, spec: str) -> tuple[str, ...]:
        """The variants agent ``spec`` plays."""
        return dict(self.only).get(spec, self.variants)

    def pairings(self, variant: str | None = None) -> list[tuple[int, int]]:
        """The pairings (agent indices); of one variant: those whose two
        agents both play it."""
        n = len(self.agents)
        if self.format == "gauntlet":
            out = [(0, j) for j in range(1, n)]
        else:
            out = [(i, j) for i in range(n) for j in range(i + 1, n)]
        if variant is None:
            return out
        plays = [variant in self.variants_of(a) for a in self.agents]
        return [(i, j) for i, j in out if plays[i] and plays[j]]

    def schedule(self) -> list[GameKey]:
        """Every game, pair by pair, so that an interrupted run leaves
        whole pairs behind it as far as possible."""
        return [
            GameKey(v, a, b, k, s)
            for k in range(self.pairs)
            for v in self.variants
            for a, b in self.pairings(v)
            for s in (0, 1)
        ]


_CONFIG_KEYS = ("agents", "variants", "pairs", "noise", "seed", "format", "max_shots", "only", "book")


def read_toml(path: str | Path) -> dict[str, Any]:
    """A TOML file as a dict; a one-line ``TournamentError`` if it cannot be
    read or parsed."""
    from piramida.env.inputs import check_text

    p = Path(path)
    try:
        text = check_text(p.read_bytes(), str(p), TournamentError)
        return tomllib.loads(text)
    except OSError as exc:
        raise TournamentError(f"cannot read {p}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise TournamentError(f"{p}: not valid TOML: {exc}") from None


def load_config(path: str | Path) -> TournamentConfig:
    """A tournament from a TOML file (configs/tournaments/*.toml); a study's
    file (eval/study.py) is one too, its ``[study]`` table aside."""
    from piramida.env.inputs import known_keys

    data = read_toml(path)
    known_keys(data, ("tournament", "study"), str(path), TournamentError)
    return config_from_table(data.get("tournament"), str(path))


def config_from_table(sec: Any, p: str) -> TournamentConfig:
    """A tournament from the ``[tournament]`` table of file ``p``."""
    from piramida.env.inputs import known_keys

    if not isinstance(sec, dict):
        raise TournamentError(f"{p}: needs a [tournament] table")
    known_keys(sec, _CONFIG_KEYS, f"{p} [tournament]", TournamentError)
    only = sec.get("only", {})
    if not isinstance(only, dict) or not all(isinstance(v, list) for v in only.values()):
        raise TournamentError(f'{p}: [tournament.only] maps an agent spec to its variants: "SPEC" = ["free", ...]')
    try:
        return TournamentConfig(
            agents=tuple(sec["agents"]),
            variants=tuple(sec["variants"]),
            pairs=int(sec["pairs"]),
            noise=str(sec.get("noise", "pro")),
            seed=int(sec.get("seed", 0)),
            format=str(sec.get("format", "roundrobin")),
            max_shots=int(sec.get("max_shots", 300)),
            only=tuple((str(k), tuple(str(x) for x in v)) for k, v in only.items()),
            book=str(sec.get("book", "")),
        )
    except KeyError as exc:
        raise TournamentError(f"{p}: [tournament] needs {exc.args[0]}") from None
    except (TypeError, ValueError) as exc:
        raise TournamentError(f"{p}: [tournament] has a value of the wrong type ({exc})") from None


@dataclass(frozen=True)
class GameKey:
    variant: str
    a: int  # index of the pairing's first agent in the config
    b: int
    pair: int
    swap: int


@dataclass
class GameRecord:
    key: GameKey
    winner: int | None  # the config index of the winner
    breaker: int | None
    score: tuple[int, int]  # of agents a and b
    shots: int
    stats: dict[str, Any]
    duration_s: float
    actions: list[Any] = field(default_factory=list)
    node: str = ""
    #: The start position's JSON where it is a book's (None: the rack).
    start: dict[str, Any] | None = None


class AgentPool:
    """The agents of one worker, built once: one instance per spec, side of
    the pairing (an agent may meet a copy of itself) and, for a spec naming
    ``{variant}``, variant."""

    def __init__(self, specs: Sequence[str], defaults: Mapping[str, Any]) -> None:
        self.specs = list(specs)
        self.defaults = dict(defaults)
        self.cache: dict[tuple[str, int], Any] = {}

    def get(self, index: int, side: int, variant: str = "") -> Any:
        text = for_variant(self.specs[index], variant) if variant else self.specs[index]
        got = self.cache.get((text, side))
        if got is None:
            spec = parse_spec(text)
            got = self.cache[(text, side)] = spec.build(self.defaults if spec.name == "planner" else {})
        return got


def planner_defaults(cfg: TournamentConfig) -> dict[str, Any]:
    """The planner plans for the tournament's noise unless its spec says."""
    return {"noise": cfg.noise}


def play_game(cfg: TournamentConfig, key: GameKey, pool: AgentPool, node: str = "") -> GameRecord:
    """One game of the tournament."""
    t0 = time.perf_counter()
    start = cfg.start(key.variant, key.pair)
    driver = FrameDriver(key.variant, cfg.noise)
    actions: list[Any] = []
    safeties = [0, 0]
    players = [pool.get(key.a, 0, key.variant), pool.get(key.b, 1, key.variant)]

    def keep(step: Step, who: int) -> None:
        actions.append(step.action.to_dict() if isinstance(step.action, Shot) else step.action)
        intent = getattr(players[who], "last_intent", ())
        if step.ruling is not None and step.refused is None and intent and intent[0] == "safety":
            safeties[who] += 1

    rec = play_frame(
        key.variant,
        players,
        seed=cfg.seed,
        pair=key.pair,
        swap=bool(key.swap),
        noise=cfg.noise,
        max_shots=cfg.max_shots,
        on_step=keep,
        driver=driver,
        start=start,
    )
    idx = (key.a, key.b)
    stats: dict[str, Any] = {
        name: list(getattr(rec, name))
        for name in (
            "balls", "visits", "fouls", "breaks", "breaks_legal", "breaks_potting",
            "refused", "pot_attempts", "pots_made",
        )
    }
    stats["capped"] = rec.capped
    stats["safeties"] = safeties
    # Who acted first, per agent: the breaker, or a book position's player to move.
    stats["opened"] = [int(rec.opener == 0), int(rec.opener == 1)]
    return GameRecord(
        key,
        None if rec.winner is None else idx[rec.winner],
        None if rec.breaker is None else idx[rec.breaker],
        (int(rec.score[0]), int(rec.score[1])),
        rec.shots,
        stats,
        time.perf_counter() - t0,
        actions,
        node,
        None if start is None else start.to_dict(),
    )


def replay(
    variant: str,
    noise: str,
    seed: int,
    pair: int,
    actions: Iterable[Any],
    on_step: Callable[[Step], None] | None = None,
    start: Position | None = None,
) -> FrameDriver:
    """The frame a stored game played, from the rack of (seed, pair) or
    ``start``, rebuilt from its actions; ``on_step`` sees every step as it
    is replayed."""
    driver = FrameDriver(variant, noise)
    driver.reset(seed, pair, start)
    for a in actions:
        step = driver.apply(Shot.from_dict(a) if isinstance(a, dict) else str(a))
        if on_step is not None:
            on_step(step)
    return driver


def open_results(db: str | Path) -> Store:
    """An existing results file, opened read-only (``store.open_read``)."""
    return open_read(db)


@dataclass(frozen=True)
class StoredGame:
    """A game as a results file keeps it: its row, the agent specs in its
    seats, and what ``replay`` needs to rebuild the frame."""

    row: dict[str, Any]
    seats: tuple[str, str]
    noise: str
    seed: int
    actions: list[Any]
    #: The book position the game started from (None: the rack).
    start: Position | None = None

    @property
    def id(self) -> int:
        return int(self.row["id"])

    def rebuild(self, on_step: Callable[[Step], None] | None = None) -> FrameDriver:
        """The frame, replayed from the stored actions (``replay``)."""
        return replay(self.row["variant"], self.noise, self.seed, self.row["pair"], self.actions, on_step,
                      self.start)


def stored_game(db: str | Path, game_id: int) -> StoredGame:
    """Game ``game_id`` of a results file (``piramida replay``, the web
    page's stored games)."""
    import json

    with open_results(db) as store:
        g = store.game(game_id)
        names = store.agents()
        t = next(x for x in store.tournaments() if x["id"] == g["tournament_id"])
    cfg = t["config"]
    saved = json.loads(g["saved"] or "{}")
    start = saved.get("start")
    return StoredGame(g, (names[g["seat0"]], names[g["seat1"]]), cfg["noise"], cfg["seed"], saved.get("actions", []),
                      None if start is None else Position.from_dict(start))


def stored_games(db: str | Path, variant: str | None = None) -> list[dict[str, Any]]:
    """The games of a results file in short, by id: ``id``, ``tournament``,
    ``variant``, ``pair``, ``agents`` (the pairing), ``seats`` (the specs
    of p0 and p1), ``score`` (by seat), ``winner`` (a spec or None),
    ``result`` (``p0 wins``, ``p1 wins`` or ``draw``), ``shots``."""
    with open_results(db) as store:
        names = store.agents()
        rows = store.games(variant=variant)
    out = []
    for g in rows:
        seats = (g["seat0"], g["seat1"])
        by_agent = {g["agent_a"]: g["score0"], g["agent_b"]: g["score1"]}
        won = g["winner"]
        out.append({
            "id": g["id"],
            "tournament": g["tournament_id"],
            "variant": g["variant"],
            "pair": g["pair"],
            "agents": [names[g["agent_a"]], names[g["agent_b"]]],
            "seats": [names[s] for s in seats],
            "score": [by_agent[s] for s in seats],
            "winner": None if won is None else names[won],
            "result": "draw" if won is None else f"p{seats.index(won)} wins",
            "shots": g["shots"],
        })
    return out


# ------------------------------------------------------------------ running
@dataclass
class Progress:
    """What a progress display needs: counts, timing, standings."""

    total: int
    done_before: int
    done: int = 0
    started: float = field(default_factory=time.perf_counter)
    points: dict[str, float] = field(default_factory=dict)
    games: dict[str, int] = field(default_factory=dict)
    #: Ray workers that died in this run (their games were played again).
    workers_lost: int = 0

    def add(self, cfg: TournamentConfig, rec: GameRecord) -> None:
        self.done += 1
        for i in (rec.key.a, rec.key.b):
            name = cfg.agents[i]
            self.games[name] = self.games.get(name, 0) + 1
            pts = 0.5 if rec.winner is None else float(rec.winner == i)
            self.points[name] = self.points.get(name, 0.0) + pts

    @property
    def rate(self) -> float:
        dt = time.perf_counter() - self.started
        return self.done / dt if dt > 0 else 0.0

    @property
    def eta_s(self) -> float | None:
        left = self.total - self.done_before - self.done
        return left / self.rate if self.rate > 0 else None


def _record_row(ids: Sequence[int], cfg: TournamentConfig, rec: GameRecord) -> dict[str, Any]:
    import json

    k = rec.key
    seats = (ids[k.b], ids[k.a]) if k.swap else (ids[k.a], ids[k.b])
    return {
        "variant": k.variant,
        "agent_a": ids[k.a],
        "agent_b": ids[k.b],
        "pair": k.pair,
        "swap": k.swap,
        "seat0": seats[0],
        "seat1": seats[1],
        "rack_seed": rack_seed(cfg.seed, k.pair),
        "noise_seed": cfg.seed,
        "winner": None if rec.winner is None else ids[rec.winner],
        "breaker": None if rec.breaker is None else ids[rec.breaker],
        "score0": rec.score[0],
        "score1": rec.score[1],
        "shots": rec.shots,
        "stats": rec.stats,
        "duration_s": rec.duration_s,
        "saved": json.dumps({"actions": rec.actions} | ({} if rec.start is None else {"start": rec.start})),
        "node": rec.node,
    }


#: Seconds between looks at games other runs hold.
CLAIM_POLL_S = 1.0


class Claims:
    """The games one run plays: each claimed in the file before it is given
    out (``next``), so that runs on one file share the work; the claims
    renewed from a thread while the run lasts, and dropped at its end."""

    def __init__(self, store: Store, tid: int, ids: Sequence[int], todo: Sequence[GameKey],
                 limit: int | None) -> None:
        from collections import deque

        self.store, self.tid, self.ids = store, tid, ids
        self.owner = run_owner()
        self.queue = deque(todo)
        self.busy: deque[GameKey] = deque()  # held by other runs; looked at again later
        self.left = len(todo) if limit is None else limit
        self._stop: Any = None

    def game_id(self, k: GameKey) -> GameId:
        return (k.variant, self.ids[k.a], self.ids[k.b], k.pair, k.swap)

    def next(self) -> GameKey | None:
        """The next game for this run, claimed; None when none is left to
        claim now (``waiting`` says whether others' claims may yet be)."""
        while self.queue and self.left > 0:
            key = self.queue.popleft()
            got = self.store.claim(self.tid, self.game_id(key), self.owner)
            if got == "mine":
                self.left -= 1
                return key
            if got == "busy":
                self.busy.append(key)
        return None

    @property
    def queued(self) -> bool:
        """Whether games are left to claim (within the run's limit)."""
        return bool(self.queue) and self.left > 0

    @property
    def waiting(self) -> bool:
        """Whether games held by other runs may still come to this one."""
        return bool(self.busy) and self.left > 0

    def look_again(self) -> None:
        """After a pause: the games other runs held go back to the queue
        (stored ones are dropped by ``next``, lapsed claims taken)."""
        time.sleep(CLAIM_POLL_S)
        self.queue.extend(self.busy)
        self.busy.clear()

    def __enter__(self) -> Claims:
        import threading

        stop = self._stop = threading.Event()
        path, owner = self.store.path, self.owner

        def renew() -> None:
            with Store(path) as s:
                while not stop.wait(CLAIM_LEASE_S / 4):
                    s.renew(owner)

        threading.Thread(target=renew, name="claims", daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self.store.release(self.owner)


def _has_work(cfg: TournamentConfig, db: str | Path) -> bool:
    """Whether ``db`` lacks a game of ``cfg`` (read-only: nothing is
    written before Ray is known to start)."""
    if not Path(db).exists():
        return True
    with open_read(db) as store:
        tid = store.tournament_id(cfg.to_dict())
        return tid is None or len(store.done(tid)) < len(cfg.schedule())


def run_tournament(
    cfg: TournamentConfig,
    db: str | Path,
    *,
    workers: int | None = 1,
    address: str | None = None,
    command: str = "",
    on_game: Callable[[Progress], None] | None = None,
    limit: int | None = None,
) -> tuple[int, Progress]:
    """Play the games of ``cfg`` not yet in ``db``; returns the
    tournament's id and the progress. ``limit`` stops after that many new
    games (tests, a run in parts).

    One worker and no address: the games run in this process. More
    workers: on a private local Ray instance of that many CPUs. An
    ``address``: on the Ray cluster there, on all its CPUs or at most
    ``workers`` (eval/cluster.py). Ray is started, and an address checked,
    before anything is written to ``db``, so a cluster that cannot be
    reached leaves no tournament behind."""
    from contextlib import ExitStack

    from piramida.eval.cluster import check_reachable, ray_workers

    if workers is not None and workers < 1:
        raise TournamentError(f"workers must be at least 1, got {workers}")
    use_ray = address is not None or (workers or 1) > 1
    if address is not None:
        check_reachable(address)
    with ExitStack() as stack:
        n = 1
        if use_ray and _has_work(cfg, db):
            n = stack.enter_context(ray_workers(workers, address))
        with Store(db) as store:
            tid = store.tournament(cfg.to_dict(), command, code_version())
            ids = [store.agent(tid, spec, code_version()) for spec in cfg.agents]
            done = store.done(tid)
            todo = [
                k for k in cfg.schedule()
                if (k.variant, ids[k.a], ids[k.b], k.pair, k.swap) not in done
            ]
            prog = Progress(len(cfg.schedule()), len(done))

            def finish(rec: GameRecord) -> None:
                store.add_game(tid, _record_row(ids, cfg, rec))
                prog.add(cfg, rec)
                if on_game is not None:
                    on_game(prog)

            if todo:
                with Claims(store, tid, ids, todo, limit) as claims:
                    if not use_ray:
                        pool = AgentPool(cfg.agents, planner_defaults(cfg))
                        while True:
                            key = claims.next()
                            if key is not None:
                                finish(play_game(cfg, key, pool, "local"))
                            elif claims.waiting:
                                claims.look_again()
                            else:
                                break
                    else:
                        _run_on_ray(cfg, claims, n, finish, prog)
    return tid, prog


#: Workers that may die in one run before it stops (their games are played
#: again on new workers each time).
MAX_LOST_WORKERS = 20
#: Seconds to wait for a new worker when no game is running.
WORKER_START_S = 300.0


def _run_on_ray(
    cfg: TournamentConfig,
    claims: Claims,
    n: int,
    finish: Callable[[GameRecord], None],
    prog: Progress,
) -> None:
    """Play the games ``claims`` gives on ``n`` Ray actors. A game whose
    actor dies (its process killed, its node lost) is played again first (it
    stays claimed) and a new actor takes the dead one's place; a game that
    raises is an error of the game and ends the run. Only this process
    writes the results, so a game is stored once whatever happened to the
    actor that played it."""
    from collections import deque

    import ray
    from ray.exceptions import NodeDiedError, RayActorError, WorkerCrashedError

    actor_cls = ray.remote(num_cpus=1, max_restarts=0)(_Worker)
    again: deque[GameKey] = deque()  # games of dead actors, still claimed
    idle: list[Any] = []
    # A reference in flight -> its actor and its game (None: the actor's
    # readiness, for an actor that replaced a dead one).
    running: dict[Any, tuple[Any, GameKey | None]] = {}

    def give(actor: Any) -> None:
        key = again.popleft() if again else claims.next()
        if key is None:
            idle.append(actor)
        else:
            running[actor.play.remote(key)] = (actor, key)

    for _ in range(n):
        give(actor_cls.remote(cfg))  # type: ignore[attr-defined]
    while True:
        if idle and (again or claims.queued or claims.waiting):
            if not (again or claims.queued):  # only games other runs hold: look at them again
                if not running:
                    time.sleep(CLAIM_POLL_S)
                claims.queue.extend(claims.busy)
                claims.busy.clear()
            waiting, idle[:] = list(idle), []
            for actor in waiting:
                give(actor)
        playing = any(key is not None for _, key in running.values())
        if not (playing or again or claims.queued or claims.waiting):
            break
        if not running:
            continue
        timeout = CLAIM_POLL_S if idle and claims.waiting else None if playing else WORKER_START_S
        ready, _ = ray.wait(list(running), num_returns=1, timeout=timeout)
        if not ready:
            if timeout == CLAIM_POLL_S:
                continue
            raise TournamentError(
                f"no Ray worker started in {WORKER_START_S:.0f} s to play the games left; "
                "the games played are stored: the same command resumes"
            )
        actor, key = running.pop(ready[0])
        try:
            rec = ray.get(ready[0])
        except (RayActorError, WorkerCrashedError, NodeDiedError):
            prog.workers_lost += 1
            if prog.workers_lost > MAX_LOST_WORKERS:
                raise TournamentError(
                    f"{prog.workers_lost} Ray workers died; the games played are stored: the same command resumes"
                ) from None
            if key is not None:
                again.append(key)
            ray.kill(actor, no_restart=True)
            fresh = actor_cls.remote(cfg)  # type: ignore[attr-defined]
            running[fresh.ready.remote()] = (fresh, None)
            continue
        if key is not None:
            finish(rec)
        give(actor)
    for actor in [a for a, _ in running.values()] + idle:  # workers no game was left for
        ray.kill(actor, no_restart=True)


class _Worker:
    """A Ray actor: the tournament's agents built once, games on request."""

    def __init__(self, cfg: TournamentConfig) -> None:
        import ray

        self.cfg = cfg
        self.pool = AgentPool(cfg.agents, planner_defaults(cfg))
        self.node = ray.get_runtime_context().get_node_id()

    def ready(self) -> bool:
        return True

    def play(self, key: GameKey) -> GameRecord:
        return play_game(self.cfg, key, self.pool, self.node)
