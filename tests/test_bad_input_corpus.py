"""Zero tracebacks and zero multi-line errors on bad input.

Every line of ``tests/cli/bad_inputs.txt`` is a malformed command line. Each
runs in-process (typer's CliRunner) and must end with exit status 2, nothing
on stdout and exactly one line on stderr starting with ``error: `` - no
traceback, no usage box, no internal error. Every line of
``tests/cli/good_inputs.txt`` is an odd but valid command line that must be
accepted (exit 0).

Corpus format: one command line a line, split with ``shlex`` (``#`` starts
a comment); ``{name}`` placeholders inside a word are replaced after
splitting (see ``_placeholders``), so a placeholder may expand to text with
spaces, quotes or braces. A line ending in ``# owner: NAME`` is a known
failure whose root lies in code owned by NAME: it is expected to fail
(``xfail``, not strict) until that owner fixes it.

The fixture files under ``{tmp}`` are built once per session by
``_build_fixtures``. Commands that would do heavy work (play, match,
suggest, demo, bench) must refuse their bad input before any simulation;
the per-case timeout catches one that does not.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from piramida.cli import app

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CORPUS = HERE / "cli" / "bad_inputs.txt"
ACCEPTED = HERE / "cli" / "good_inputs.txt"
_OWNER = re.compile(r"#\s*owner:\s*([\w-]+)\s*$")

runner = CliRunner()

VALID_POS = (
    '{"variant": "combined", "balls": {"0": [0.95, 2.05], "3": [1.3, 2.95], "8": [0.35, 2.45]}, '
    '"shelves": [["1", "2", "5"], ["4", "6"]], "score": [3, 2], "owed": [0, 0], "to_move": 0, '
    '"in_hand": null, "break": false}'
)
NOISE_OK = "[noise]\nphi = 0.5\ntheta = 0.0\nv = 0.1\na = 0.01\nb = 0.6\n"


def _read_corpus(path: Path) -> list[tuple[int, str, str | None]]:
    """(line number, command line, owner or None) for every non-comment line."""
    out = []
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _OWNER.search(line)
        out.append((n, line, m.group(1) if m else None))
    return out


def _cases(path: Path) -> list:
    params = []
    for n, line, owner in _read_corpus(path):
        marks = [pytest.mark.xfail(strict=False, reason=f"owner: {owner}")] if owner else []
        params.append(pytest.param(line, marks=marks, id=f"L{n}:{line[:60]}"))
    return params


def _placeholders(tmp: Path) -> dict[str, str]:
    from piramida.env.position import Position

    return {
        "{tmp}": str(tmp),
        "{repo}": str(REPO),
        "{ex}": str(REPO / "docs" / "examples"),
        "{ff}": os.fsdecode(b"\xff"),  # a non-UTF-8 byte as the OS hands it over
        "{nul}": "\x00",
        "{deep}": "[" * 5000 + "]" * 5000,
        "{deepobj}": '{"a":' * 5000 + "1" + "}" * 5000,
        "{long}": "x" * 2_000_000,
        "{e400}": "1" + "0" * 400,
        "{free}": Position.start("free", seed=0).to_text(),
        "{freej}": Position.start("free", seed=0).to_json(),
        "{five}": Position.start("five_ball").to_text(),
        "{shot}": "ball=0 phi=70.08 v=1 a=0 b=0 theta=0",
    }


def _expand(line: str, subs: dict[str, str]) -> list[str]:
    words = shlex.split(line, comments=True)
    out = []
    for w in words:
        for k, v in subs.items():
            if k in w:
                w = w.replace(k, v)
        out.append(w)
    return out


def _build_fixtures(d: Path) -> None:
    def w(name: str, data: str | bytes) -> None:
        p = d / name
        if isinstance(data, str):
            p.write_text(data, encoding="utf-8")
        else:
            p.write_bytes(data)

    # --- positions
    w("a=b.json", VALID_POS)
    w("pos_text", "variant=free balls=0:0.5,1.0;3:1.0,3.0 in_hand=- to_move=1")
    w("bom.json", b"\xef\xbb\xbf" + VALID_POS.encode())
    w("crlf.json", VALID_POS.replace(", ", ",\r\n") + "\r\n")
    w("corrupt.json", '{"variant": "free", "balls": {"1": [0.5,')
    w("corrupt.pt", b"PK\x03\x04 not a whole torch file")
    w("empty.json", "")
    w("blank.txt", "   \n\t\n")
    w("huge.json", b" " * 4_000_001 + VALID_POS.encode())
    w("toolong.json", " " * 1_500_000 + VALID_POS)
    w("binary.bin", bytes(range(256)) * 16)
    w("latin1.json", '{"variant": "free", "balls": {}, "x": "\xe9"}'.encode("latin-1"))
    w("utf16.json", VALID_POS.encode("utf-16"))
    w("nul.json", VALID_POS[:-1] + ', "\x00": 1}')
    w("deep.json", "[" * 5000 + "]" * 5000)
    w("deepobj.json", '{"a":' * 5000 + "1" + "}" * 5000)
    w("dupkey.json", '{"variant": "free", "variant": "combined", "balls": {}}')
    w("dupball.json", '{"variant": "free", "balls": {"1": [0.5, 1.0], "1": [1.0, 3.0]}}')
    w("nan.json", '{"variant": "free", "balls": {"1": [NaN, 1.0]}}')
    w("inf.json", '{"variant": "free", "balls": {"1": [0.5, Infinity]}}')
    w("bigfloat.json", '{"variant": "free", "balls": {"1": [0.5, 1e400]}}')
    w("bigint.json", '{"variant": "free", "score": [1' + "0" * 400 + ", 0]}")
    w("array.json", "[]")
    w("overlap.json", '{"variant": "free", "balls": {"1": [0.5, 1.0], "2": [0.5, 1.03]}}')
    w("offtable.json", '{"variant": "free", "balls": {"1": [-0.5, 1.0]}}')
    w("unknownkey.json", '{"variant": "free", "balls": {}, "colour": "red"}')
    w("trailing.json", VALID_POS + " x")
    w("five.json", '{"variant": "five_ball", "balls": {"r1": [0.8875, 0.8875]}, "in_hand": "house"}')
    w("free_pos.json", '{"variant": "free", "balls": {"0": [0.95, 2.05], "3": [1.3, 2.95]}}')
    w("afile.txt", "just a file\n")
    (d / "adir").mkdir()
    (d / "adir.json").mkdir()
    (d / "adir.png").mkdir()
    (d / "adir.toml").mkdir()
    os.mkfifo(d / "fifo")
    os.symlink(d / "loop", d / "loop")
    os.symlink(d / "nowhere.json", d / "dangling.json")
    # --- shots
    w("shot=ok.txt", "ball=0 phi=70.08 v=1 a=0 b=0 theta=0")
    w("shot_nan.json", '{"ball": "0", "phi": NaN, "v": 1}')
    w("shot_big.json", '{"ball": "0", "phi": 1e400, "v": 1}')
    w("shot_dup.json", '{"ball": "0", "phi": 90, "v": 1, "v": 2}')
    w("shot_deep.json", '{"ball": "0", "phi": 90, "v": 1, "place": ' + "[" * 5000 + "]" * 5000 + "}")
    w("shot_bad.txt", "ball=0 phi=ninety v=1")
    # --- event logs
    w("ev_obj.json", '{"t": 0, "type": "cue", "balls": ["0"]}')
    w("ev_order.json", '[{"t": 1.0, "type": "cue", "balls": ["0"]}, {"t": 0.5, "type": "cushion", "balls": ["0"], "cushion": "rear"}]')
    w("ev_nan.json", '[{"t": NaN, "type": "cue", "balls": ["0"]}]')
    w("ev_dup.json", '[{"t": 0, "t": 1, "type": "cue", "balls": ["0"]}]')
    w("ev_deep.json", "[" * 5000 + "]" * 5000)
    w("ev_type.json", '[{"t": 0, "type": "explosion", "balls": ["0"]}]')
    w("ev_huge.json", b"[" + b'{"t": 0, "type": "cue", "balls": ["0"]},' * 110_000 + b"{}]")
    w("ev_corrupt.json", '[{"t": 0, "type": "cue", "balls": ["0"]')
    # --- noise presets
    w("noise_ok.toml", NOISE_OK)
    w("noise_plain", NOISE_OK)
    w("noise_unknown.toml", NOISE_OK + "spin = 0.1\n")
    w("noise_section.toml", NOISE_OK + "[extra]\nx = 1\n")
    w("noise_nosection.toml", "phi = 0.1\ntheta = 0.1\nv = 0.1\na = 0.1\nb = 0.1\n")
    w("noise_notable.toml", "noise = 1\n")
    w("noise_missing.toml", "[noise]\nphi = 0.1\ntheta = 0.1\nv = 0.1\na = 0.1\n")
    w("noise_huge.toml", NOISE_OK.replace("phi = 0.5", "phi = 1e308"))
    w("noise_nan.toml", NOISE_OK.replace("phi = 0.5", "phi = nan"))
    w("noise_inf.toml", NOISE_OK.replace("v = 0.1", "v = inf"))
    w("noise_neg.toml", NOISE_OK.replace("v = 0.1", "v = -0.1"))
    w("noise_str.toml", NOISE_OK.replace("phi = 0.5", 'phi = "0.5"'))
    w("noise_bool.toml", NOISE_OK.replace("phi = 0.5", "phi = true"))
    w("noise_bigint.toml", NOISE_OK.replace("phi = 0.5", "phi = 1" + "0" * 400))
    w("noise_array.toml", NOISE_OK.replace("phi = 0.5", "phi = [0.5]"))
    w("noise_table.toml", NOISE_OK.replace("phi = 0.5", "phi = {x = 1}"))
    w("noise_over.toml", NOISE_OK.replace("a = 0.01", "a = 0.7"))
    w("noise_garbage.toml", "[noise\nphi = = 1\n")
    w("noise_empty.toml", "")
    w("noise_binary.toml", bytes(range(256)))
    w("noise_latin1.toml", "# caf\xe9\n".encode("latin-1") + NOISE_OK.encode())
    w("noise_nul.toml", NOISE_OK + "# \x00\n")
    w("noise_dup.toml", NOISE_OK + "phi = 0.1\n")
    w("noise_deep.toml", "[noise]\nphi = " + "[" * 5000 + "]" * 5000 + "\n")
    w("noise_long.toml", "#" * 2_000_000 + "\n" + NOISE_OK)


@pytest.fixture(scope="module")
def subs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("corpus")
    _build_fixtures(d)
    return _placeholders(d)


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Nothing a case writes may land in the repository; no debug tracebacks.
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PIRAMIDA_DEBUG", raising=False)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("line", _cases(CORPUS))
def test_bad_input_is_one_line_and_exit_2(line: str, subs: dict[str, str]) -> None:
    args = _expand(line, subs)
    result = runner.invoke(app, args)
    err = result.stderr
    assert "Traceback" not in result.output, result.output[-2000:]
    assert result.exit_code == 2, f"exit {result.exit_code}; stderr: {err[-1000:]!r}; stdout: {result.stdout[-500:]!r}"
    assert result.stdout == "", result.stdout[-1000:]
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err[-2000:]
    assert lines[0].startswith("error: ") and not lines[0].startswith("error: internal error"), lines[0]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("line", _cases(ACCEPTED))
def test_odd_but_valid_input_is_accepted(line: str, subs: dict[str, str]) -> None:
    args = _expand(line, subs)
    result = runner.invoke(app, args)
    assert result.exit_code == 0, f"exit {result.exit_code}; stderr: {result.stderr[-1000:]!r}"
    assert result.stdout.strip(), "nothing on stdout"


def test_corpus_size() -> None:
    assert len(_read_corpus(CORPUS)) >= 300
    assert len(_read_corpus(ACCEPTED)) >= 10
