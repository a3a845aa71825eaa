"""Results in SQLite: tournaments, agents and games, written so that a run
killed at any moment loses at most the games in flight and never stores a
game twice.

- One file holds many tournaments; a tournament is identified by the hash
  of its configuration (agents, variants, pairs, noise, seed, format), so
  rerunning the same command finds it and resumes, and a different one
  gets its own rows.
- A game's identity is (tournament, variant, pairing, pair, swap); the
  table has it as a UNIQUE key and games are inserted with INSERT OR
  IGNORE, each in its own transaction, so a replayed game is dropped.
- WAL journaling: readers (``piramida report`` during a run) do not block
  the one writer.
- Runs of one tournament on one file share its games: a run claims a game
  (``claim``: a row of ``claims`` naming the run and when the claim lapses)
  before playing it and plays only games it holds; the row goes when the
  game is stored. A run renews its claims while it runs; the claim of a run
  that was killed lapses (at once where its process is known to be gone on
  this host, else after the lease) and another run takes the game.
- ``sequential`` keeps a sequential test's parameters (``piramida sprt``)
  for the report's verdict.
- ``meta.schema`` holds the schema version; a file of another version is
  refused with one line.
- A file opened to be read (``open_read``: ``piramida report``, ``replay``,
  the web page) is opened read-only (SQLite's ``mode=ro``; with
  ``immutable=1`` where the file or its folder cannot be written, as on a
  read-only mount): no table is added, the journal mode is left as it is,
  and a file that is not a results file is refused unchanged.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import sqlite3
import time
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from piramida.env.errors import NotFoundError, PiramidaError

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    config TEXT NOT NULL,
    command TEXT NOT NULL,
    version TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS agents (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    spec TEXT NOT NULL,
    version TEXT NOT NULL,
    UNIQUE (tournament_id, spec)
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    variant TEXT NOT NULL,
    agent_a INTEGER NOT NULL REFERENCES agents(id),
    agent_b INTEGER NOT NULL REFERENCES agents(id),
    pair INTEGER NOT NULL,
    swap INTEGER NOT NULL,
    seat0 INTEGER NOT NULL REFERENCES agents(id),
    seat1 INTEGER NOT NULL REFERENCES agents(id),
    rack_seed INTEGER NOT NULL,
    noise_seed INTEGER NOT NULL,
    winner INTEGER REFERENCES agents(id),
    breaker INTEGER REFERENCES agents(id),
    score0 INTEGER NOT NULL,
    score1 INTEGER NOT NULL,
    shots INTEGER NOT NULL,
    stats TEXT NOT NULL,
    duration_s REAL NOT NULL,
    saved TEXT,
    node TEXT,
    created TEXT NOT NULL,
    UNIQUE (tournament_id, variant, agent_a, agent_b, pair, swap)
);
CREATE INDEX IF NOT EXISTS games_by_variant ON games (tournament_id, variant);
CREATE TABLE IF NOT EXISTS claims (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    variant TEXT NOT NULL,
    agent_a INTEGER NOT NULL,
    agent_b INTEGER NOT NULL,
    pair INTEGER NOT NULL,
    swap INTEGER NOT NULL,
    owner TEXT NOT NULL,
    expires REAL NOT NULL,
    PRIMARY KEY (tournament_id, variant, agent_a, agent_b, pair, swap)
);
CREATE TABLE IF NOT EXISTS sequential (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments(id),
    params TEXT NOT NULL
);
"""

#: A game's identity in a tournament: (variant, agent_a, agent_b, pair, swap).
GameId = tuple[str, int, int, int, int]

#: Seconds a claim holds without being renewed.
CLAIM_LEASE_S = 120.0

GAME_FIELDS = (
    "variant", "agent_a", "agent_b", "pair", "swap", "seat0", "seat1", "rack_seed", "noise_seed",
    "winner", "breaker", "score0", "score1", "shots", "stats", "duration_s", "saved", "node",
)


class StoreError(PiramidaError):
    """A results file that cannot be opened, is not ours, or is of another
    schema version."""


class GameNotFoundError(StoreError, NotFoundError):
    """A game id the results file does not hold."""


class MissingResultsError(StoreError, NotFoundError):
    """A results file that is not there (to be read, not created)."""


def config_key(config: Mapping[str, Any]) -> str:
    """The identity of a tournament: a hash of its canonical JSON."""
    text = json.dumps(config, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Store:
    """One results file. Use as a context manager or call ``close``."""

    def __init__(self, path: str | Path, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        if self.path.exists() and not self.path.is_file():
            raise StoreError(f"{self.path} is not a file")
        if readonly:
            self._open_read()
            return
        if not self.path.parent.is_dir():
            raise StoreError(f"cannot create {self.path}: folder {str(self.path.parent)!r} does not exist")
        try:
            self.db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            self.db.row_factory = sqlite3.Row
            self._set_up()
            row = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif row["value"] != str(SCHEMA_VERSION):
                raise StoreError(
                    f"{self.path}: results schema {row['value']}, this piramida reads {SCHEMA_VERSION}"
                )
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a piramida results file ({exc})") from None

    def _set_up(self, wait_s: float = 30.0) -> None:
        """WAL mode and the tables. Two runs opening a new file at once can
        meet SQLite's "database is locked" here without its busy handler
        being asked (switching the journal mode, or a read lock that cannot
        become a write lock): tried again until ``wait_s`` have passed."""
        deadline = time.monotonic() + wait_s
        while True:
            try:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")
                self.db.executescript(_SCHEMA)
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def _open_read(self) -> None:
        path = self.path.resolve()
        uri = path.as_uri() + "?mode=ro"
        if not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)) or _wal_idle(path):
            # A file that cannot be written (no lock or journal files can
            # be made there, as on a read-only mount), or a WAL file no
            # program has open (``_wal_idle``): read as immutable.
            uri += "&immutable=1"
        try:
            self.db = sqlite3.connect(uri, uri=True, timeout=30, isolation_level=None)
            self.db.row_factory = sqlite3.Row
            tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            missing = sorted({"meta", "tournaments", "agents", "games"} - tables)
            if missing:
                self.db.close()
                raise StoreError(f"{self.path}: not a piramida results file (no table {', '.join(missing)})")
            row = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a piramida results file ({exc})") from None
        if row is None or row["value"] != str(SCHEMA_VERSION):
            self.db.close()
            got = "no schema version" if row is None else f"results schema {row['value']}"
            raise StoreError(f"{self.path}: {got}, this piramida reads {SCHEMA_VERSION}")

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # ------------------------------------------------------------ tournaments
    def tournament(self, config: Mapping[str, Any], command: str, version: str) -> int:
        """The id of the tournament with this configuration, created if new."""
        key = config_key(config)
        with self._tx() as db:
            db.execute(
                "INSERT OR IGNORE INTO tournaments (key, config, command, version, created) VALUES (?, ?, ?, ?, ?)",
                (key, json.dumps(config, sort_keys=True), command, version, _now()),
            )
            row = db.execute("SELECT id FROM tournaments WHERE key = ?", (key,)).fetchone()
        return int(row["id"])

    def tournament_id(self, config: Mapping[str, Any]) -> int | None:
        """The id of the tournament with this configuration, or None."""
        row = self.db.execute("SELECT id FROM tournaments WHERE key = ?", (config_key(config),)).fetchone()
        return None if row is None else int(row["id"])

    def resize(self, config: Mapping[str, Any]) -> int | None:
        """Give the stored tournament that differs from ``config`` only in
        its number of pairs ``config``'s number, keeping its games; its id,
        or None when there is none. A sequential test rerun with another cap
        then continues the same sequence: pair k's rack and noise depend on
        the seed and k alone, not on how many pairs there are."""
        same = {k: v for k, v in config.items() if k != "pairs"}
        for t in self.tournaments():
            old = {k: v for k, v in t["config"].items() if k != "pairs"}
            if old == same and t["config"].get("pairs") != config.get("pairs"):
                with self._tx() as db:
                    db.execute(
                        "UPDATE tournaments SET key = ?, config = ? WHERE id = ?",
                        (config_key(config), json.dumps(config, sort_keys=True), t["id"]),
                    )
                return int(t["id"])
        return None

    def tournaments(self) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT * FROM tournaments ORDER BY id").fetchall()
        return [dict(r) | {"config": json.loads(r["config"])} for r in rows]

    def agent(self, tournament_id: int, spec: str, version: str) -> int:
        with self._tx() as db:
            db.execute(
                "INSERT OR IGNORE INTO agents (tournament_id, spec, version) VALUES (?, ?, ?)",
                (tournament_id, spec, version),
            )
            row = db.execute(
                "SELECT id FROM agents WHERE tournament_id = ? AND spec = ?", (tournament_id, spec)
            ).fetchone()
        return int(row["id"])

    def agents(self, tournament_id: int | None = None) -> dict[int, str]:
        """Agent id -> spec."""
        if tournament_id is None:
            rows = self.db.execute("SELECT id, spec FROM agents").fetchall()
        else:
            rows = self.db.execute("SELECT id, spec FROM agents WHERE tournament_id = ?", (tournament_id,)).fetchall()
        return {int(r["id"]): str(r["spec"]) for r in rows}

    # ------------------------------------------------------------------ games
    def done(self, tournament_id: int) -> set[tuple[str, int, int, int, int]]:
        """The keys (variant, agent_a, agent_b, pair, swap) already stored."""
        rows = self.db.execute(
            "SELECT variant, agent_a, agent_b, pair, swap FROM games WHERE tournament_id = ?", (tournament_id,)
        ).fetchall()
        return {(r[0], r[1], r[2], r[3], r[4]) for r in rows}

    def add_game(self, tournament_id: int, game: Mapping[str, Any]) -> bool:
        """Store one game (and drop its claim); False when it was stored
        already."""
        missing = [f for f in GAME_FIELDS if f not in game and f not in ("saved", "node", "breaker", "winner")]
        if missing:
            raise StoreError(f"a game record needs {', '.join(missing)}")
        values = [game.get(f) for f in GAME_FIELDS]
        values[GAME_FIELDS.index("stats")] = json.dumps(game["stats"], sort_keys=True)
        with self._tx() as db:
            cur = db.execute(
                f"INSERT OR IGNORE INTO games (tournament_id, {', '.join(GAME_FIELDS)}, created) "
                f"VALUES (?, {', '.join('?' for _ in GAME_FIELDS)}, ?)",
                (tournament_id, *values, _now()),
            )
            db.execute(
                "DELETE FROM claims WHERE tournament_id = ? AND variant = ? AND agent_a = ? AND agent_b = ? "
                "AND pair = ? AND swap = ?",
                (tournament_id, game["variant"], game["agent_a"], game["agent_b"], game["pair"], game["swap"]),
            )
        return cur.rowcount == 1

    # ----------------------------------------------------------------- claims
    def claim(self, tournament_id: int, game: GameId, owner: str, lease_s: float = CLAIM_LEASE_S) -> str:
        """Claim a game for run ``owner``: ``"mine"`` (claimed now, or held
        already), ``"done"`` (stored) or ``"busy"`` (held by another run
        whose claim has not lapsed)."""
        where = "tournament_id = ? AND variant = ? AND agent_a = ? AND agent_b = ? AND pair = ? AND swap = ?"
        args = (tournament_id, *game)
        with self._tx() as db:
            if db.execute(f"SELECT 1 FROM games WHERE {where}", args).fetchone() is not None:
                return "done"
            row = db.execute(f"SELECT owner, expires FROM claims WHERE {where}", args).fetchone()
            if row is not None and row["owner"] != owner and not claim_lapsed(row["owner"], row["expires"]):
                return "busy"
            db.execute(
                "INSERT OR REPLACE INTO claims (tournament_id, variant, agent_a, agent_b, pair, swap, owner, expires) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (*args, owner, time.time() + lease_s),
            )
        return "mine"

    def renew(self, owner: str, lease_s: float = CLAIM_LEASE_S) -> None:
        """Extend every claim of run ``owner``."""
        with self._tx() as db:
            db.execute("UPDATE claims SET expires = ? WHERE owner = ?", (time.time() + lease_s, owner))

    def release(self, owner: str) -> None:
        """Drop every claim of run ``owner`` (the games it did not finish)."""
        with self._tx() as db:
            db.execute("DELETE FROM claims WHERE owner = ?", (owner,))

    def claims(self, tournament_id: int) -> list[dict[str, Any]]:
        """The claims on the tournament's games (games being played)."""
        if not self._has_table("claims"):
            return []
        rows = self.db.execute("SELECT * FROM claims WHERE tournament_id = ?", (tournament_id,)).fetchall()
        return [dict(r) for r in rows]

    # ------------------------------------------------------ sequential tests
    def set_sequential(self, tournament_id: int, params: Mapping[str, Any]) -> None:
        """Keep a sequential test's parameters (elo0, elo1, alpha, beta)."""
        with self._tx() as db:
            db.execute("INSERT OR REPLACE INTO sequential (tournament_id, params) VALUES (?, ?)",
                       (tournament_id, json.dumps(dict(params), sort_keys=True)))

    def sequential(self, tournament_id: int) -> dict[str, Any] | None:
        """A sequential test's parameters, or None (not a sequential test,
        or a file written before they were kept)."""
        if not self._has_table("sequential"):
            return None
        row = self.db.execute("SELECT params FROM sequential WHERE tournament_id = ?", (tournament_id,)).fetchone()
        return None if row is None else dict(json.loads(row["params"]))

    def _has_table(self, name: str) -> bool:
        return self.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                               (name,)).fetchone() is not None

    def games(self, tournament_id: int | None = None, variant: str | None = None) -> list[dict[str, Any]]:
        sql, args = "SELECT * FROM games WHERE 1=1", []
        if tournament_id is not None:
            sql += " AND tournament_id = ?"
            args.append(tournament_id)
        if variant is not None:
            sql += " AND variant = ?"
            args.append(variant)
        rows = self.db.execute(sql + " ORDER BY id", args).fetchall()
        return [dict(r) | {"stats": json.loads(r["stats"])} for r in rows]

    def game(self, game_id: int) -> dict[str, Any]:
        row = self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFoundError(f"{self.path}: no game {game_id}")
        return dict(row) | {"stats": json.loads(row["stats"])}


def run_owner() -> str:
    """A name for one run that claims games: host, process id and a random
    part (``HOST/PID/HEX``)."""
    return f"{socket.gethostname()}/{os.getpid()}/{uuid.uuid4().hex[:12]}"


def claim_lapsed(owner: str, expires: float) -> bool:
    """Whether a claim no longer holds: its lease ran out, or its run's
    process on this host is gone (killed runs free their games at once)."""
    if expires < time.time():
        return True
    host, _, rest = owner.partition("/")
    pid = rest.partition("/")[0]
    if host != socket.gethostname() or not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def _wal_idle(path: Path) -> bool:
    """Whether ``path`` is a WAL-mode file (bytes 18-19 of the header are
    2) without its ``-wal`` file beside it: SQLite keeps that file while any
    connection has the database open and removes it when the last one
    closes, so no program is writing it. Read-only, SQLite would make the
    ``-wal`` and ``-shm`` files and leave them; read as immutable it makes
    none. (A rollback-journal file is read under a shared lock, which
    makes no file.)"""
    try:
        with open(path, "rb") as f:
            head = f.read(20)
    except OSError:
        return False
    return head[18:20] == b"\x02\x02" and not Path(f"{path}-wal").exists()


def open_read(db: str | Path) -> Store:
    """An existing results file, opened read-only (see the module
    docstring): a missing file is a ``MissingResultsError``, anything but
    a SQLite file of ours a one-line ``StoreError``."""
    if not Path(db).is_file():
        raise MissingResultsError(f"{db}: no such results file")
    try:
        with open(db, "rb") as f:
            head = f.read(16)
    except OSError as exc:
        raise StoreError(f"{db}: cannot read it ({exc.strerror or exc})") from None
    if head != b"SQLite format 3\x00":
        raise StoreError(f"{db}: not a piramida results file (file is not a database)")
    return Store(db, readonly=True)
