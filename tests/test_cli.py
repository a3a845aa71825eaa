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
        (["show", "variant=free", "--svg", "/dev/null/x.svg"], "is not a folder"),
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
    # the closing tournament: its results file and report
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "planner:sims=30" in page and "data:image/png;base64," in page
    assert (out / "results.sqlite").is_file() and "report ->" in text
    # The last line says how to start the web page.
    last = text.strip().splitlines()[-1]
    assert last.startswith("the web page (docs/ui.md): ") and "piramida serve" in last


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


# ------------------------------------------------------------------ frames through the driver
SHOT_LINE = (
    r"^ {0,3}\d+  p[01] ball=\S+ phi=-?\d+\.\d v=\d+\.\d\d( place=\S+)?( call=\S+)?  ->  \S.*$"
)
CHOICE_LINE = r"^       p[01] chooses \S+$"


def test_play_prints_a_line_per_shot_and_choice_and_plays_the_drivers_frame(tmp_path: Path) -> None:
    import json
    import re

    from piramida.agents import make_agent
    from piramida.env.driver import FrameDriver

    save = tmp_path / "game.json"
    args = [
        "play",
        "--agents",
        "greedy,random",
        "--noise",
        "pro",
        "--seed",
        "3",
        "--max-shots",
        "6",
    ]
    out = _ok(*args, "--save", str(save))
    assert out == _ok(*args)  # the same seed, the same frame
    *lines, last = out.strip().splitlines()
    assert lines and all(re.match(SHOT_LINE, ln) or re.match(CHOICE_LINE, ln) for ln in lines), out
    assert re.match(r"^(winner p[01]|draw|stopped); score \d+-\d+ after \d+ shots$", last), last
    # The frame is the frame driver's frame of the seed (pair 0).
    drv = FrameDriver("free", "pro")
    game = drv.reset(3)
    drv.play([make_agent("greedy"), make_agent("random")], max_shots=6)
    assert json.loads(save.read_text(encoding="utf-8"))["history"] == game.to_dict()["history"]


def test_the_demo_frame_is_the_first_game_of_the_demo_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import re

    from piramida.agents import make_agent
    from piramida.commands import demo
    from piramida.eval.match import play_frame

    demo._frame(tmp_path, 0)
    text = capsys.readouterr().out.strip().splitlines()
    assert text[0] == "free pyramid, greedy (p0) vs random (p1), noise pro, seed 0:"
    for ln in text[1:-1]:
        assert re.match(
            r"^(  +\d+\. p[01] \((greedy|random)\) \S.*|  p[01] \((greedy|random)\) chooses \S+"
            r"|      picture -> \S+\.png)$",
            ln,
        ), ln
    m = re.match(r"^  frame over after (\d+) shots: .*, score (\d+)-(\d+)$", text[-1])
    assert m, text[-1]
    rec = play_frame(
        "free",
        [make_agent("greedy"), make_agent("random")],
        seed=0,
        pair=0,
        swap=False,
        noise="pro",
        max_shots=demo.FRAME_MAX_SHOTS,
    )
    assert (rec.shots, *rec.score) == tuple(int(x) for x in m.groups())
    assert len(list(tmp_path.glob("frame_shot*.png"))) == min(rec.shots, demo.FRAME_PICTURES)


def test_bench_is_a_command_of_a_source_checkout_only(monkeypatch: pytest.MonkeyPatch) -> None:
    # In this checkout bench/ is there, so the benchmarks are commands; a
    # package installed from a wheel has no bench/, and says so in one line.
    import typer

    from piramida.cli import OneLineErrors
    from piramida.commands import bench

    assert bench._repo_root() is not None
    assert "bench" in _ok("--help")
    monkeypatch.setattr(bench, "_repo_root", lambda: None)
    installed = typer.Typer(cls=OneLineErrors, add_completion=False)
    bench.register(installed)
    assert installed.registered_groups == []
    for name in ("version", "show"):
        installed.command(name)(lambda: None)
    res = runner.invoke(installed, ["bench", "physics", "--help"])
    assert res.exit_code == 2 and "benchmarks need a source checkout" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_agents_lists_every_agent_and_key() -> None:
    from typer.testing import CliRunner

    from piramida.agents.specs import KEYS
    from piramida.cli import app

    res = CliRunner().invoke(app, ["agents"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    for name, keys in KEYS.items():
        assert any(line.split()[0] == name for line in lines if line and not line.startswith(" ")), name
        for k in keys:
            assert any(line.split()[0] == k for line in lines if line.startswith("  ")), (name, k)
