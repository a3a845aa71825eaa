"""bench.ab: an older commit's code is the one its runs import, the rounds'
summary, and one-line errors."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.ab import ABError, import_layout, main, summary, unpack


def test_the_old_trees_code_is_the_one_imported(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    full = unpack("HEAD", tree)
    assert len(full) == 40 and (tree / "pyproject.toml").is_file()
    layout = import_layout(tree, tmp_path / "import")
    env = {**os.environ, "PYTHONPATH": f"{layout}{os.pathsep}{tree}"}
    probe = "import piramida, piramida.env.physics, piramida.agents.shots, bench; " \
            "print(piramida.__file__, piramida.env.physics.__file__, piramida.agents.shots.__file__, bench.__file__)"
    out = subprocess.run([sys.executable, "-c", probe], cwd=layout, env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    assert [p.startswith(str(layout)) for p in out[:3]] == [True, True, True]
    assert out[3].startswith(str(tree))
    # Through the links, the files are the old tree's.
    assert Path(out[1]).resolve() == (tree / "env" / "physics" / "__init__.py").resolve()


def test_the_summary_of_the_rounds() -> None:
    s = summary([1.0, 2.0, 0.5])
    assert math.isclose(s["geomean_ratio"], 1.0) and s["median_ratio"] == 1.0
    assert (s["min_ratio"], s["max_ratio"]) == (0.5, 2.0)
    with pytest.raises(ABError, match="no round"):
        summary([])


def test_a_failing_benchmark_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # (A bad commit or round count: tests/bench/test_comparison_errors.py.)
    assert main(["HEAD", "--rounds", "1", "--", "no_such_bench_module"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith("bench.ab: the old run failed") and "no_such_bench_module" in err[-1]


def test_a_field_is_a_dotted_path() -> None:
    from bench.ab import field_of

    obj = {"results": [{"rate": 3.5}, {"rate": 7.0}], "mean_ms": 2.0}
    assert field_of(obj, "results.1.rate") == 7.0 and field_of(obj, "mean_ms") == 2.0
    with pytest.raises(KeyError):
        field_of(obj, "results.0.nope")
