"""The input layer (env/inputs.py): limits that every parser inherits."""

from __future__ import annotations

import pytest

from piramida.env.inputs import (
    MAX_DEPTH,
    MAX_INT_DIGITS,
    MAX_TEXT_CHARS,
    InvalidInputError,
    check_text,
    integer,
    known_keys,
    load_json,
    number,
    one_line,
)


def test_plain_json_reads_as_json() -> None:
    assert load_json('{"a": [1, 2.5, "x", null, true]}', "t") == {"a": [1, 2.5, "x", None, True]}


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('{"a": 1, "a": 2}', "given twice"),
        ('{"a": {"b": 1, "b": 1}}', "given twice"),
        ("[NaN]", "finite"),
        ("[Infinity]", "finite"),
        ("[-Infinity]", "finite"),
        ("[1e400]", "too large"),
        ("[" + "9" * (MAX_INT_DIGITS + 1) + "]", "too large"),
        ("[" * 5000 + "]" * 5000, "nested 5000 levels"),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "nested"),
        ("{", "not valid JSON"),
        ("", "not valid JSON"),
    ],
)
def test_json_refusals(text: str, match: str) -> None:
    with pytest.raises(InvalidInputError, match=match) as info:
        load_json(text, "thing")
    assert "\n" not in str(info.value)


def test_depth_ignores_brackets_in_strings() -> None:
    deep_in_string = '["' + "[" * 100 + '"]'
    assert load_json(deep_in_string, "t") == ["[" * 100]
    assert load_json('["\\"[[[[["]', "t") == ['"[[[[[']


def test_deepest_allowed_nesting_reads() -> None:
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert load_json(text, "t") is not None


def test_text_checks() -> None:
    with pytest.raises(InvalidInputError, match="UTF-8"):
        check_text(b"\xff\xfe", "file")
    with pytest.raises(InvalidInputError, match="UTF-8"):
        check_text("a\udcffb", "argument")  # how the OS hands over non-UTF-8 bytes
    with pytest.raises(InvalidInputError, match="NUL"):
        check_text("a\x00b", "x")
    with pytest.raises(InvalidInputError, match="too long"):
        check_text("x" * (MAX_TEXT_CHARS + 1), "x")
    assert check_text("пирамида".encode(), "x") == "пирамида"


def test_numbers() -> None:
    assert number(3, "n", 0, 5) == 3.0
    for bad, match in ((True, "must be a number"), ("1", "must be a number"), (float("nan"), "finite"),
                       (10**400, "too large"), (7, r"in \[0, 5\]")):
        with pytest.raises(InvalidInputError, match=match):
            number(bad, "n", 0, 5)
    assert integer(4, "k", 0, 9) == 4
    with pytest.raises(InvalidInputError, match="integer"):
        integer(4.0, "k", 0, 9)
    with pytest.raises(InvalidInputError, match="in"):
        integer(10**300, "k", 0, 9)


def test_known_keys_names_the_unknown_and_the_known() -> None:
    with pytest.raises(InvalidInputError, match="'z'.*known: a, b"):
        known_keys({"a": 1, "z": 2}, ("a", "b"), "thing")


def test_one_line_folds_and_cuts() -> None:
    assert one_line("a\n  b\tc") == "a b c"
    assert len(one_line("x" * 1000)) == 400
