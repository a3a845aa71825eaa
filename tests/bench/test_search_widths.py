"""bench.search_widths: narrower settings of the planner's search list
fewer candidates, and bad settings are refused in one line."""

from __future__ import annotations

import pytest

from bench.search_widths import main, measure, parse_width, search_of


def test_narrower_searches_list_fewer_candidates_on_the_same_positions() -> None:
    widths = (("planner", {}), ("no variants", {"spin_lines": 0}), ("greedy", {}))
    out = measure(widths, limit=4)
    rows = {r["width"]: r for r in out["widths"]}
    assert out["positions"] == 4 and list(rows) == ["planner", "no variants", "greedy"]
    assert rows["planner"]["ratio_to_first"] == 1.0
    assert rows["planner"]["mean_candidates"] > rows["no variants"]["mean_candidates"] > 0
    assert rows["greedy"]["mean_candidates"] <= rows["no variants"]["mean_candidates"]
    assert all(r["mean_ms"] > 0 for r in rows.values())


def test_settings_are_read_and_checked() -> None:
    assert parse_width("w:spin_lines=4,bank_when=0.25") == ("w", {"spin_lines": 4, "bank_when": 0.25})
    s = search_of("w", {"spins": 2, "max_lines": 10})
    planner = search_of("planner", {})
    assert s.spins == planner.spins[:2] and s.max_lines == 10 and s.keep_pots == planner.keep_pots
    for bad in ({"lazy": 1}, {"safety_strokes": 1}, {"nope": 3}):
        with pytest.raises(ValueError, match="unknown Search field"):
            search_of("w", bad)
    for text in ("w:spins", ":spins=1", "w:spins=x"):
        with pytest.raises(ValueError):
            parse_width(text)


def test_a_bad_width_is_one_line_from_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--width", "w:lazy=1", "--limit", "1"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "unknown Search field(s) lazy" in err[-1] and "Traceback" not in "".join(err)
