"""The three ways to compare an older commit with the working tree
(``bench.ab``, ``bench.interleave``, ``bench.interleave_env``) refuse a
commit git does not know and a round count below one in one line each."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bench import ab, interleave, interleave_env


@pytest.mark.parametrize("main", [ab.main, interleave.main, interleave_env.main], ids=["ab", "interleave", "env"])
def test_a_bad_commit_or_round_count_is_one_line(main: Callable[[list[str]], int],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["no-such-commit", "--rounds", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a commit" in err
    assert main(["HEAD", "--rounds", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--rounds must be at least 1" in err
