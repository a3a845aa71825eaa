"""``report`` on a sequential test's file: the verdict, LLR and bounds, and
the LLR curve in the HTML page."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from piramida.cli import app
from piramida.eval.report import analyse, sprt_params

runner = CliRunner()


def _sprt(db: Path, max_pairs: int) -> None:
    res = runner.invoke(app, ["sprt", "greedy", "random", "--elo1", "400", "--batch", "1", "--max-pairs",
                              str(max_pairs), "--seed", "3", "--db", str(db), "--no-progress"])
    assert res.exit_code == 0, res.output


def test_report_shows_the_verdict_and_embeds_the_llr_plot(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    _sprt(db, 8)
    res = runner.invoke(app, ["report", str(db), "--bootstrap", "0", "--html", str(tmp_path / "r.html")])
    assert res.exit_code == 0, res.output
    line = next(x for x in res.output.splitlines() if x.startswith("sequential test"))
    assert "Elo [0, 400], alpha 0.05, beta 0.05: H1 accepted (Elo >= 400)" in line
    assert "bounds -2.94, +2.94" in line
    s = analyse(str(db), bootstrap=0)["sprt"]
    assert s["result"] == "H1" and s["llr"] >= s["bounds"][1] > 0
    assert s["llr_curve"][0] == [0, 0.0] and s["llr_curve"][-1][0] == s["pairs"] == sum(s["pentanomial"])
    assert abs(s["llr_curve"][-1][1] - s["llr"]) < 1e-9
    page = (tmp_path / "r.html").read_text()
    assert "Sequential test" in page and "alt='LLR'" in page
    # A tournament that is not a sequential test has no verdict.
    runner.invoke(app, ["tournament", "--agents", "greedy,random", "--pairs", "1", "--db", str(tmp_path / "t.sqlite"),
                        "--no-progress"])
    assert "sprt" not in analyse(str(tmp_path / "t.sqlite"), bootstrap=0)


def test_an_undecided_test_and_a_file_without_kept_parameters(tmp_path: Path) -> None:
    db = tmp_path / "u.sqlite"
    _sprt(db, 1)
    s = analyse(str(db), bootstrap=0)["sprt"]
    assert s["result"] == "none" and s["pairs"] == 1
    # A file whose parameters were not kept apart: read from the command.
    with sqlite3.connect(db) as con:
        con.execute("DELETE FROM sequential")
        con.execute("UPDATE tournaments SET command = 'piramida sprt greedy random --elo1 400 --max-pairs 1'")
    s2 = analyse(str(db), bootstrap=0)["sprt"]
    assert (s2["elo0"], s2["elo1"], s2["alpha"]) == (0.0, 400.0, 0.05) and s2["llr"] == s["llr"]
    assert sprt_params("piramida sprt a b --elo0=5 --beta 0.1") == {"elo0": 5.0, "elo1": 20.0, "alpha": 0.05,
                                                                     "beta": 0.1}
