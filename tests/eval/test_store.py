"""The results store: resume by configuration, every game once, schema
checks, readable while written."""

from __future__ import annotations

from pathlib import Path

import pytest

from piramida.eval.store import SCHEMA_VERSION, Store, StoreError


def _game(variant: str, a: int, b: int, pair: int, swap: int, winner: int | None) -> dict:
    return {
        "variant": variant, "agent_a": a, "agent_b": b, "pair": pair, "swap": swap,
        "seat0": b if swap else a, "seat1": a if swap else b, "rack_seed": 2**63 - 1, "noise_seed": 5,
        "winner": winner, "breaker": a, "score0": 8, "score1": 3, "shots": 20,
        "stats": {"fouls": [0, 1]}, "duration_s": 0.5,
    }


def test_same_config_resumes_and_games_are_stored_once(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    cfg = {"agents": ["greedy", "random"], "variants": ["free"], "pairs": 2}
    with Store(path) as s:
        t = s.tournament(cfg, "piramida tournament ...", "0.1.0")
        a, b = s.agent(t, "greedy", "v"), s.agent(t, "random", "v")
        assert s.add_game(t, _game("free", a, b, 0, 0, a))
        assert not s.add_game(t, _game("free", a, b, 0, 0, b))  # the same game again: dropped
    with Store(path) as s:
        assert s.tournament(dict(reversed(list(cfg.items()))), "again", "0.1.0") == t  # key order does not matter
        assert s.done(t) == {("free", a, b, 0, 0)}
        other = s.tournament(cfg | {"pairs": 3}, "other", "0.1.0")
        assert other != t and s.done(other) == set()
        g = s.games(t)
        assert len(g) == 1 and g[0]["winner"] == a and g[0]["stats"] == {"fouls": [0, 1]}
        assert g[0]["rack_seed"] == 2**63 - 1
        assert s.game(g[0]["id"])["variant"] == "free"
        with pytest.raises(StoreError, match="no game 99"):
            s.game(99)


def test_refuses_files_that_are_not_results(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="not a piramida results file"):
        Store(junk)
    with pytest.raises(StoreError, match="does not exist"):
        Store(tmp_path / "missing" / "r.sqlite")
    path = tmp_path / "old.sqlite"
    with Store(path) as s:
        s.db.execute("UPDATE meta SET value = '0' WHERE key = 'schema'")
    with pytest.raises(StoreError, match=f"this piramida reads {SCHEMA_VERSION}"):
        Store(path)


def test_a_reader_sees_committed_games_while_a_writer_holds_the_file(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    with Store(path) as w, Store(path) as r:
        t = w.tournament({"x": 1}, "c", "v")
        a = w.agent(t, "greedy", "v")
        w.add_game(t, _game("free", a, a, 0, 0, None))
        assert len(r.games(t)) == 1
