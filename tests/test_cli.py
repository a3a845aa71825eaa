"""The command line: help, version, show (ANSI, PNG, SVG; inline JSON, text
and files), demo, and bad input -> one line, exit 2, no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import piramida
from piramida.cli import app
from piramida.env.position import Position

runner = CliRunner()
START = Position.start("free", seed=1)
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def _bad(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    err = result.stderr.strip()
    assert len(err.splitlines()) == 1, err
    assert result.stdout == ""
    return err


def test_help_lists_the_commands() -> None:
    out = _ok("--help")
    for name in ("show", "version", "demo"):
        assert name in out


def test_version() -> None:
    assert _ok("version").strip() == piramida.__version__


def test_show_ansi_from_text_and_json() -> None:
    text_out = _ok("show", START.to_text())
    json_out = _ok("show", START.to_json())
    assert text_out == json_out
    assert "free pyramid" in text_out and "ball in hand: 0" in text_out
    for b in ("15", "12", "7"):
        assert f" {b}" in text_out


def _png_size(path: Path) -> tuple[int, int]:
    from PIL import Image

    with Image.open(path) as im:
        im.verify()
    with Image.open(path) as im:
        return im.size


def test_show_png_from_inline_text(tmp_path: Path) -> None:
    out = tmp_path / "start.png"
    assert "wrote" in _ok("show", START.to_text(), "--png", str(out))
    assert out.read_bytes()[:8] == PNG_MAGIC
    w, h = _png_size(out)
    # Horizontal table: wider than tall, big enough to read the numbers.
    assert w > 1200 and 0.5 * w < h < 0.8 * w


def test_show_png_and_svg_from_a_file(tmp_path: Path) -> None:
    pos = tmp_path / "pos.json"
    pos.write_text(START.to_json(), encoding="utf-8")
    png, svg = tmp_path / "a.png", tmp_path / "a.svg"
    _ok("show", str(pos), "--png", str(png), "--svg", str(svg), "--title", "start")
    assert png.read_bytes()[:8] == PNG_MAGIC
    text = svg.read_text(encoding="utf-8")
    assert text.lstrip().startswith("<?xml") and "<svg" in text and text.rstrip().endswith("</svg>")
    assert 50_000 < len(text) < 5_000_000


def test_show_text_file(tmp_path: Path) -> None:
    pos = tmp_path / "pos.txt"
    pos.write_text(START.to_text() + "\n", encoding="utf-8")
    assert _ok("show", str(pos)) == _ok("show", START.to_text())


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["show", "{not json"], "not valid JSON"),
        (["show", "variant=free balls=1:0.5,1.0;2:0.5,1.01"], "overlap"),
        (["show", "variant=snooker"], "unknown variant"),
        (["show", "variant=free balls=1:0.001,1.0"], "off the playing surface"),
        (["show", '{"variant": "free", "colour": 1}'], "unknown key"),
        (["show", "no/such/file.json"], "neither a file nor inline"),
        (["show", "variant=free", "--png", "x.jpg"], ".png"),
        (["show", "variant=free", "--svg", "/no/such/dir/x.svg"], "does not exist"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], words: str) -> None:
    err = _bad(*args)
    assert err.startswith("error:") and words in err


def test_demo_writes_a_picture_per_variant(tmp_path: Path) -> None:
    out = tmp_path / "new" / "demo"
    text = _ok("demo", "--out", str(out))
    pictures = sorted(out.glob("start_*.png"))
    names = {p.stem.removeprefix("start_") for p in pictures}
    assert names == set(piramida.VARIANTS)
    for p in pictures:
        assert p.read_bytes()[:8] == PNG_MAGIC
        assert str(p) in text


def test_demo_refuses_a_file_as_folder(tmp_path: Path) -> None:
    f = tmp_path / "file"
    f.write_text("x", encoding="utf-8")
    assert "not a folder" in _bad("demo", "--out", str(f))


def test_real_process_prints_no_traceback() -> None:
    # The console entry point, not the test runner: stderr and exit code.
    out = subprocess.run(
        [sys.executable, "-m", "piramida", "show", "variant=free balls=1:nan,1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2
    assert out.stderr.startswith("error:") and "must be finite" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr
