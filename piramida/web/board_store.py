"""The boards of ``piramida serve`` on disk: one SQLite file (``--games``)
holding every frame played or opened on the page, so that a frame outlives
a reload, a restart of the server and any number of frames started after it.

One table, ``boards``: a board's id (unguessable, ``secrets.token_hex``),
its variant, the agent's spec, the player's seat, the noise preset, the
seed, the variant options (JSON), its move tree (JSON, web/board_tree.py)
and when it was created and last changed (UTC, ISO 8601). WAL journaling,
so that a reader never waits for a writer; one connection shared by the
server's threads behind a lock (SQLite's own lock would serialise them
anyway). ``path`` None keeps the boards in memory (a server started
without a file: they last as long as it runs).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from piramida.env.errors import PiramidaError

SCHEMA_VERSION = 1
APP_FOLDER = "piramida"
DEFAULT_NAME = "board.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS boards (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    agent TEXT NOT NULL,
    seat INTEGER NOT NULL,
    noise TEXT NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,
    tree TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);
"""


class BoardStoreError(PiramidaError):
    """A games file that cannot be opened or is not a piramida games file."""


def default_path() -> Path:
    """Where ``piramida serve`` keeps its boards unless ``--games`` says:
    ``$XDG_DATA_HOME/piramida/board.sqlite``, else
    ``~/.local/share/piramida/board.sqlite``."""
    base = os.environ.get("XDG_DATA_HOME") or ""
    root = Path(base) if base.strip() and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / APP_FOLDER / DEFAULT_NAME


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class BoardRow:
    """One stored board, its JSON columns read."""

    id: str
    variant: str
    agent: str
    seat: int
    noise: str
    seed: int
    options: dict[str, Any]
    tree: dict[str, Any]
    created: str
    updated: str


class BoardStore:
    """The boards file (or memory, for ``path`` None). Thread-safe."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = None if path is None else Path(path)
        self._lock = threading.Lock()
        target = ":memory:"
        if self.path is not None:
            if self.path.exists() and not self.path.is_file():
                raise BoardStoreError(f"{self.path} is not a file")
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise BoardStoreError(f"cannot create the folder of {self.path}: {exc.strerror or exc}") from None
            target = str(self.path)
        try:
            self.db = sqlite3.connect(target, timeout=30, isolation_level=None, check_same_thread=False)
            self.db.row_factory = sqlite3.Row
            if self.path is not None:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(_SCHEMA)
            row = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif row["value"] != str(SCHEMA_VERSION):
                raise BoardStoreError(f"{self.path}: games schema {row['value']}, this piramida reads {SCHEMA_VERSION}")
        except sqlite3.DatabaseError as exc:
            raise BoardStoreError(f"{self.path}: not a piramida games file ({exc})") from None

    def close(self) -> None:
        with self._lock:
            self.db.close()

    def save(
        self,
        board_id: str,
        variant: str,
        agent: str,
        seat: int,
        noise: str,
        seed: int,
        options: Mapping[str, Any],
        tree: Mapping[str, Any],
    ) -> None:
        """Write a board, new or changed (its creation time kept)."""
        now = _now()
        with self._lock:
            self.db.execute(
                "INSERT INTO boards (id, variant, agent, seat, noise, seed, options, tree, created, updated) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET tree = excluded.tree, updated = excluded.updated",
                (board_id, variant, agent, int(seat), noise, int(seed), json.dumps(dict(options)),
                 json.dumps(tree, separators=(",", ":")), now, now),
            )

    def load(self, board_id: str) -> BoardRow | None:
        """The board of that id, or None."""
        with self._lock:
            row = self.db.execute("SELECT * FROM boards WHERE id = ?", (board_id,)).fetchone()
        if row is None:
            return None
        return BoardRow(
            id=row["id"],
            variant=row["variant"],
            agent=row["agent"],
            seat=int(row["seat"]),
            noise=row["noise"],
            seed=int(row["seed"]),
            options=json.loads(row["options"]),
            tree=json.loads(row["tree"]),
            created=row["created"],
            updated=row["updated"],
        )

    def __len__(self) -> int:
        with self._lock:
            return int(self.db.execute("SELECT COUNT(*) FROM boards").fetchone()[0])

    def __contains__(self, board_id: object) -> bool:
        with self._lock:
            return self.db.execute("SELECT 1 FROM boards WHERE id = ?", (board_id,)).fetchone() is not None


__all__ = ["BoardRow", "BoardStore", "BoardStoreError", "SCHEMA_VERSION", "default_path"]
