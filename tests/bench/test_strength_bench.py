"""``python -m bench.strength``: a one-pair run of two measurements writes
each as its own section, with the agents it promises and the first agent's
pair score as the stored games give it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import strength
from piramida.eval.store import open_read


def test_each_measurement_is_its_section_with_the_first_agents_score(tmp_path: Path) -> None:
    out = tmp_path / "strength.json"
    rc = strength.main(["--variant", "free", "--only", "tenth_rollouts,policy_greedy", "--pairs", "1", "--rollouts", "40",
                        "--workers", "1", "--dir", str(tmp_path), "--out", str(out), "--json"])
    assert rc == 0
    results = json.loads(out.read_text())["results"]
    assert sorted(results) == ["free: policy_greedy", "free: tenth_rollouts"]
    tenth = results["free: tenth_rollouts"]["results"]
    assert tenth["agents"] == ["planner:rollouts=4:value=models/free_value.pt:prior=models/free_policy.pt", "planner:rollouts=40"]
    assert results["free: policy_greedy"]["results"]["agents"] == ["policy:path=models/free_policy.pt", "greedy"]
    for name in ("tenth_rollouts", "policy_greedy"):
        row = results[f"free: {name}"]["results"]
        assert row["pairs"] == 1 and sum(row["pentanomial"]) == 1
        with open_read(tmp_path / f"free-{name}-31.sqlite") as store:
            ids = {spec: i for i, spec in store.agents().items()}
            games = store.games()
        assert len(games) == 2
        first = ids[row["agents"][0]]
        won = sum(1.0 if g["winner"] == first else 0.5 if g["winner"] is None else 0.0 for g in games)
        assert row["score"] == pytest.approx(won / 2)


def test_an_unknown_measurement_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        strength.main(["--only", "equal_time,fast"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.endswith("unknown measurement fast; known: equal_time, equal_time_1s, tenth_rollouts, fortieth_rollouts, planner_4x, policy_greedy, policy_planner")


def test_too_few_rollouts_for_a_fortieth_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        strength.main(["--rollouts", "39"])
    assert exc.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].endswith("--rollouts must be at least 40 (a fortieth is one sample), got 39")


def test_the_guided_planners_keys_make_their_own_section(tmp_path: Path) -> None:
    out = tmp_path / "strength.json"
    rc = strength.main(["--variant", "free", "--only", "tenth_rollouts,policy_greedy", "--pairs", "1", "--rollouts", "40",
                        "--blend", "1", "--top", "2", "--workers", "1", "--dir", str(tmp_path), "--out", str(out), "--json"])
    assert rc == 0
    results = json.loads(out.read_text())["results"]
    # The policy alone has no planner to give the keys to: its section is the plain one.
    assert sorted(results) == ["free: policy_greedy", "free: tenth_rollouts, blend 1, top 2"]
    assert results["free: policy_greedy"]["results"]["agents"] == ["policy:path=models/free_policy.pt", "greedy"]
    assert (tmp_path / "free-policy_greedy-31.sqlite").is_file()
    assert results["free: tenth_rollouts, blend 1, top 2"]["results"]["agents"] == [
        "planner:rollouts=4:value=models/free_value.pt:prior=models/free_policy.pt:blend=1:top=2", "planner:rollouts=40"]
    assert (tmp_path / "free-tenth_rollouts-blend1-top2-31.sqlite").is_file()


def test_a_top_below_one_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        strength.main(["--top", "0"])
    assert exc.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].endswith("--top must be at least 1, got 0")
