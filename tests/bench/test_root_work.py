"""bench.root_work: the event loop's next-event searches counted in a plain
Python run of the candidates' strokes, the same records as the compiled
loop's, and bad arguments refused in one line."""

from __future__ import annotations

import pytest

from bench.root_work import SEARCHES, main, measure


def test_the_searches_of_a_few_strokes_are_counted() -> None:
    out = measure(limit=2, every=4)
    per = out["per_stroke"]
    assert out["positions"] == 2 and out["strokes"] > 0
    assert per["records"] > 2  # the cue, a contact, motion changes at least
    for kind in SEARCHES:
        assert 0 <= per[kind]["no_event"] <= per[kind]["calls"]
        assert 0 <= per[kind]["no_event_evaluations"] <= per[kind]["evaluations"]
    # Candidates pot and bank: some search finds a cushion or a pocket.
    assert per["line"]["calls"] > per["line"]["no_event"] or per["capture"]["calls"] > 0
    searched = sum(per[kind]["evaluations"] for kind in SEARCHES)
    assert 0 < per["evaluations_in_bisections"] <= per["evaluations"]
    # Each figure is rounded to 0.01 a stroke: five of them may add up to
    # 0.025 more than their rounded total.
    assert searched <= per["evaluations"] + 0.03
    assert per["bisections"] > 0
    # The plain Python loop is the compiled one's code: most strokes agree
    # bit for bit (library rounding, hypot's among it, may part a few).
    assert out["same_records"] >= 0.5


def test_bad_arguments_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--every", "0"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "--every and --limit must be at least 1" in err[-1]
