"""One rating list pooled over several results files (eval/pooled.py,
``piramida report A B``): the same spec in two files is one player, the
fit matches the logistic closed form where there is one, the files are
only read, and every way the files can be wrong is one line."""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from piramida.cli import app
from piramida.eval.pooled import PooledError, pooled, pooled_text
from piramida.eval.store import Store

runner = CliRunner()
STATS = {k: [1, 1] for k in ("balls", "visits", "fouls", "breaks", "breaks_legal", "pot_attempts", "pots_made")}


def _file(path: Path, pairs: list[tuple[str, str, float]], noise: str = "pro", variant: str = "free") -> None:
    """A results file with one gauntlet per first agent: the pairs given
    as (a, b, a's pair score in 0, 1/2, 1), each stored as its two games
    (a 1-1 pair: each won the game it played in seat 0)."""
    agents = sorted({x for a, b, _ in pairs for x in (a, b)})
    cfg = {"agents": agents, "variants": [variant], "pairs": len(pairs), "noise": noise, "seed": 0,
           "format": "roundrobin", "max_shots": 300}
    with Store(path) as s:
        t = s.tournament(cfg, "piramida tournament", "test")
        ids = {n: s.agent(t, n, "test") for n in agents}
        for k, (a, b, score) in enumerate(pairs):
            for swap in (0, 1):
                seats = (ids[b], ids[a]) if swap else (ids[a], ids[b])
                won = {1.0: ids[a], 0.0: ids[b]}.get(score, seats[0])
                s.add_game(t, {
                    "variant": variant, "agent_a": ids[a], "agent_b": ids[b], "pair": k, "swap": swap,
                    "seat0": seats[0], "seat1": seats[1], "rack_seed": k, "noise_seed": 0, "winner": won,
                    "breaker": seats[0], "score0": 8, "score1": 2, "shots": 10, "stats": STATS, "duration_s": 0.1,
                })


def _elo(score: float) -> float:
    """The logistic closed form: the Elo difference of a mean pair score."""
    return 400 * math.log10(score / (1 - score))


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_two_files_sharing_an_agent_give_the_closed_form_chain(tmp_path: Path) -> None:
    # File 1: A beats B 3:1 in pairs; file 2: B scores 0.7 a pair against C.
    one, two = tmp_path / "one.sqlite", tmp_path / "two.sqlite"
    _file(one, [("A", "B", 1.0)] * 3 + [("A", "B", 0.0)])
    _file(two, [("B", "C", 1.0)] * 5 + [("C", "B", 0.0)] + [("B", "C", 0.5)] * 2 + [("C", "B", 1.0), ("B", "C", 0.0)])
    before = {p: _digest(p) for p in (one, two)}
    rep = pooled([one, two], bootstrap=50)
    (g,) = rep["groups"]
    r = {n: a["elo"] for n, a in g["agents"].items()}
    assert sorted(r, key=lambda n: -r[n]) == ["A", "B", "C"]
    assert g["anchor"] == "B" and r["B"] == 0.0  # no greedy or random: the agent of the most pairs
    assert r["A"] - r["B"] == pytest.approx(_elo(0.75), abs=1e-6)
    # B's pairs against C (some stored from C's side): 6 won, 2 split, 2 lost: 0.7 a pair.
    assert r["B"] - r["C"] == pytest.approx(_elo(0.7), abs=1e-6)
    assert not g["prior"] and g["pairs"] == 14
    assert g["los"]["A"]["C"] > g["los"]["A"]["B"] > 0.5 > g["los"]["C"]["A"]
    for name, a in g["agents"].items():
        assert a["ci95"][0] < a["elo"] < a["ci95"][1] or name == "B"
    assert [f["pairs"] for f in rep["files"]] == [4, 10]
    # Read, never written: the files are as they were, no journal beside them.
    assert {p: _digest(p) for p in (one, two)} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.sqlite", "two.sqlite"]


def test_the_cli_pools_files_and_names_the_anchor(tmp_path: Path) -> None:
    one, two = tmp_path / "one.sqlite", tmp_path / "two.sqlite"
    _file(one, [("greedy", "planner", 0.0)] * 3 + [("greedy", "planner", 1.0)])
    _file(two, [("random", "greedy", 0.0)] * 3 + [("random", "greedy", 0.5)])
    res = runner.invoke(app, ["report", str(one), str(two), "--bootstrap", "20"])
    assert res.exit_code == 0, res.output
    assert "Elo with greedy = 0" in res.stdout and "pooled over 2 files" in res.stdout
    lines = res.stdout.splitlines()
    ranked = [ln.split()[1] for ln in lines if ln.strip()[:2].strip().isdigit() and "pairs" in ln]
    assert ranked == ["planner", "greedy", "random"]
    res = runner.invoke(app, ["report", str(one), str(two), "--anchor", "random", "--json", "--bootstrap", "0"])
    assert res.exit_code == 0

    g = json.loads(res.stdout)["groups"][0]
    assert g["anchor"] == "random" and g["agents"]["random"]["elo"] == 0.0
    # random scored 0.5 of 4 pairs against greedy.
    assert g["agents"]["greedy"]["elo"] == pytest.approx(_elo(1 - 0.5 / 4), abs=1e-6)
    # One file with --pool: its pairs as one list, the closed form of its one pairing.
    res = runner.invoke(app, ["report", str(one), "--pool", "--json", "--bootstrap", "0"])
    g = json.loads(res.stdout)["groups"][0]
    assert g["agents"]["planner"]["elo"] - g["agents"]["greedy"]["elo"] == pytest.approx(_elo(0.75), abs=1e-6)


def test_an_agent_that_won_every_pair_gets_a_finite_rating_with_the_prior_said(tmp_path: Path) -> None:
    one = tmp_path / "one.sqlite"
    _file(one, [("greedy", "random", 1.0)] * 5)
    rep = pooled([one], bootstrap=20)
    (g,) = rep["groups"]
    assert g["prior"] is True and math.isfinite(g["agents"]["random"]["elo"]) and g["agents"]["random"]["elo"] < 0
    # One virtual drawn pair: 5.5 of 6.
    assert -g["agents"]["random"]["elo"] == pytest.approx(_elo(5.5 / 6), abs=1e-6)
    assert "virtual drawn pair" in pooled_text(rep)


def test_variants_and_noise_presets_get_their_own_lists(tmp_path: Path) -> None:
    one, two = tmp_path / "one.sqlite", tmp_path / "two.sqlite"
    _file(one, [("greedy", "random", 1.0)] * 3 + [("greedy", "random", 0.5)])
    _file(two, [("greedy", "random", 0.5)] * 4, noise="amateur")
    rep = pooled([one, two], bootstrap=0)
    assert [(g["variant"], g["noise"]) for g in rep["groups"]] == [("free", "amateur"), ("free", "pro")]


def _one_line(args: list[str]) -> str:
    res = runner.invoke(app, ["report", *args])
    assert res.exit_code == 2 and res.stdout == "" and res.stderr.count("\n") == 1, (args, res.output)
    return res.stderr


def test_bad_files_and_options_are_one_line(tmp_path: Path) -> None:
    good = tmp_path / "good.sqlite"
    _file(good, [("greedy", "random", 1.0)] * 2 + [("greedy", "random", 0.0)])
    other = tmp_path / "other.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE people (name TEXT)")
    con.commit()
    con.close()
    before = _digest(other)
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n")
    empty = tmp_path / "empty.sqlite"
    Store(empty).close()
    assert "missing.sqlite: no such results file" in _one_line([str(good), str(tmp_path / "missing.sqlite")])
    assert "not a piramida results file" in _one_line([str(good), str(other)])
    assert _digest(other) == before
    assert "not a piramida results file" in _one_line([str(text), str(good)])
    assert "no tournament stored yet" in _one_line([str(good), str(empty)])
    assert "--html reads one tournament" in _one_line([str(good), str(good), "--html", str(tmp_path / "r.html")])
    assert "--anchor wizard played no whole pair" in _one_line([str(good), str(good), "--anchor", "wizard"])
    assert "--anchor is for a pooled report" in _one_line([str(good), "--anchor", "greedy"])
    apart = tmp_path / "apart.sqlite"
    _file(apart, [("planner", "policy", 1.0), ("planner", "policy", 0.0)])
    assert "no pairs link these groups" in _one_line([str(good), str(apart)])
    with pytest.raises(PooledError, match="no pairs link"):
        pooled([good, apart], bootstrap=0)
