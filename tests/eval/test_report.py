"""The report: it reads a results file without changing it (another
program's SQLite file stays byte for byte the same, a file that cannot be
written is read), flags an unfinished tournament, gives the likelihood of
superiority between every two agents and names a best agent only where
the difference is significant."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from piramida.cli import app
from piramida.eval import store as store_module
from piramida.eval.report import analyse, summary, to_html
from piramida.eval.store import Store, StoreError, open_read

runner = CliRunner()
STATS = {k: [1, 1] for k in ("balls", "visits", "fouls", "breaks", "breaks_legal", "pot_attempts", "pots_made",
                              "safeties")}


def _results(path: Path, agents: list[str], pairs: int, played: int, winner: Callable[[str, str, int, int], str]) -> None:
    """A round robin on free with ``pairs`` pairs per pairing of which the
    first ``played`` are stored; ``winner(a, b, pair, swap)`` names each
    game's winner. The breaker is the agent in seat 0."""
    cfg = {"agents": agents, "variants": ["free"], "pairs": pairs, "noise": "pro", "seed": 0,
           "format": "roundrobin", "max_shots": 300}
    with Store(path) as s:
        t = s.tournament(cfg, "piramida tournament --agents " + ",".join(agents), "test")
        ids = {n: s.agent(t, n, "test") for n in agents}
        for i, a in enumerate(agents):
            for b in agents[i + 1:]:
                for k in range(played):
                    for swap in (0, 1):
                        seats = (ids[b], ids[a]) if swap else (ids[a], ids[b])
                        s.add_game(t, {
                            "variant": "free", "agent_a": ids[a], "agent_b": ids[b], "pair": k, "swap": swap,
                            "seat0": seats[0], "seat1": seats[1], "rack_seed": k, "noise_seed": 0,
                            "winner": ids[winner(a, b, k, swap)], "breaker": seats[0], "score0": 8, "score1": 2,
                            "shots": 10, "stats": STATS, "duration_s": 0.1,
                        })


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_report_leaves_another_programs_sqlite_file_byte_for_byte_unchanged(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE people (name TEXT)")
    con.execute("INSERT INTO people VALUES ('Ann')")
    con.commit()
    con.close()
    before = _digest(other)
    res = runner.invoke(app, ["report", str(other)])
    assert res.exit_code == 2 and res.stderr.count("\n") == 1
    assert "not a piramida results file" in res.stderr
    assert _digest(other) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite"]  # no journal or WAL files
    assert sqlite3.connect(other).execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_report_does_not_write_a_results_file_and_reads_one_it_cannot_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "r.sqlite"
    _results(db, ["greedy", "random"], 3, 3, lambda a, b, k, s: "greedy")
    before = _digest(db)
    res = runner.invoke(app, ["report", str(db), "--bootstrap", "10"])
    assert res.exit_code == 0, res.output
    assert _digest(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.sqlite"]  # no -wal or -shm left beside it
    # Where the file or its folder cannot be written (a read-only mount),
    # the file is opened immutable: no lock or journal is attempted.
    uris: list[str] = []
    real_connect = sqlite3.connect

    def spy(database: str, *args: object, **kwargs: object) -> sqlite3.Connection:
        uris.append(database)
        return real_connect(database, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store_module.os, "access", lambda *a, **k: False)
    monkeypatch.setattr(store_module.sqlite3, "connect", spy)
    rep = analyse(str(db), bootstrap=10)
    assert rep["games"] == 6 and uris and uris[-1].endswith("?mode=ro&immutable=1")
    assert _digest(db) == before
    with open_read(db) as s, pytest.raises(sqlite3.OperationalError, match="readonly"):
        s.db.execute("CREATE TABLE x (y)")


def test_a_results_file_of_no_schema_is_refused_on_reading(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    con = sqlite3.connect(db)
    for t in ("meta (key, value)", "tournaments (id)", "agents (id)", "games (id)"):
        con.execute(f"CREATE TABLE {t}")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="no schema version"):
        open_read(db)


def test_an_unfinished_tournament_is_flagged(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    _results(db, ["greedy", "random"], 4, 2, lambda a, b, k, s: "greedy")
    rep = analyse(str(db), bootstrap=10)
    assert rep["complete"] is False and rep["games"] == 4 and rep["expected_games"] == 8
    assert "4 of 8 games stored (unfinished" in summary(rep)
    assert "unfinished" in to_html(rep)
    db2 = tmp_path / "done.sqlite"
    _results(db2, ["greedy", "random"], 2, 2, lambda a, b, k, s: "greedy")
    rep2 = analyse(str(db2), bootstrap=10)
    assert rep2["complete"] is True and "complete: 4 of 4 games" in summary(rep2)


def test_best_is_claimed_only_where_significant_and_los_covers_every_two_agents(tmp_path: Path) -> None:
    # "strong" wins every game; x and y split every pair (each wins the
    # frame it breaks).
    def winner(a: str, b: str, k: int, swap: int) -> str:
        if "strong" in (a, b):
            return "strong"
        return b if swap else a

    db = tmp_path / "r.sqlite"
    _results(db, ["strong", "x", "y"], 12, 12, winner)
    rep = analyse(str(db), bootstrap=20)
    d = rep["variants"]["free"]
    assert rep["best"]["free"] == d["best"]
    assert d["best"]["leaders"] == ["strong"] and d["best"]["significant"] is True
    los = d["los_matrix"]
    assert set(los) == {"strong", "x", "y"} and all(set(row) == set(los) for row in los.values())
    assert los["strong"]["x"] > 0.975 and los["x"]["y"] == pytest.approx(0.5)
    for a in los:
        assert los[a][a] is None
        for b in los:
            if a != b:
                assert los[a][b] + los[b][a] == pytest.approx(1.0, abs=1e-9)
    # Without the strong agent: two equal agents are co-leaders.
    db2 = tmp_path / "tie.sqlite"
    _results(db2, ["x", "y"], 4, 4, winner)
    tie = analyse(str(db2), bootstrap=20)["variants"]["free"]["best"]
    assert sorted(tie["leaders"]) == ["x", "y"] and tie["significant"] is False
    assert tie["text"].startswith("no significant leader")
    # Few pairs are not enough either, however one-sided: two won pairs.
    db3 = tmp_path / "few.sqlite"
    _results(db3, ["strong", "x"], 2, 2, winner)
    few = analyse(str(db3), bootstrap=20)["variants"]["free"]
    assert few["best"]["significant"] is False
    assert few["pairs"]["strong vs x"]["score_ci95"][0] < 0.5
    lo, hi = few["ratings"]["x"]["ci95"]
    assert hi - lo > 100  # not of width zero, as a bootstrap of identical pairs is
    text = summary(analyse(str(db), bootstrap=20))
    assert "best: strong (significantly ahead" in text and "LOS" in text
