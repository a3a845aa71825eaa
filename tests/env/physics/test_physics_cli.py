"""``piramida simulate`` (piramida/commands/simulate.py)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from piramida.cli import app
from piramida.env.events import events_from_list
from piramida.env.position import Position

runner = CliRunner()
POS = Position.from_balls("free", {"0": (0.8875, 0.5), "1": (0.8875, 1.5)}).to_text()


def test_json_output_is_exactly_the_documented_object():
    res = runner.invoke(app, ["simulate", "--position", POS, "--shot", "ball=0 phi=90 v=3", "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert list(d) == ["events", "final", "pocketed", "off_table"]
    events = events_from_list(d["events"])
    assert events[0].type == "cue"
    assert any(e.type == "ball_ball" and set(e.balls) == {"0", "1"} for e in events)
    assert Position.from_dict(d["final"]).ids == ("0", "1")


def test_readable_output_and_noise_seed_reproduce():
    args = ["simulate", "--position", POS, "--shot", "ball=0 phi=90 v=3", "--noise", "novice", "--seed", "4"]
    a = runner.invoke(app, args)
    b = runner.invoke(app, args)
    assert a.exit_code == 0, a.output
    assert a.stdout == b.stdout
    assert "played: ball=0" in a.stdout
    assert "ball 0 hits ball 1" in a.stdout and "final: variant=free" in a.stdout


def test_pictures_are_written(tmp_path):
    png, gif = tmp_path / "s.png", tmp_path / "s.gif"
    res = runner.invoke(
        app,
        ["simulate", "--position", POS, "--shot", "ball=0 phi=90 v=1.5", "--png", str(png), "--gif", str(gif)],
    )
    assert res.exit_code == 0, res.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    from PIL import Image

    with Image.open(gif) as im:
        assert im.format == "GIF" and im.n_frames > 10


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    res = runner.invoke(app, ["simulate", "--position", POS, "--shot", "ball=1 phi=90 v=3 place=0.5,0.5"])
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1 and "not in hand" in res.stderr
    res = runner.invoke(app, ["simulate", "--position", POS, "--shot", "ball=0 phi=90 v=3", "--noise", "nope"])
    assert res.exit_code == 2 and "not found" in res.stderr
    res = runner.invoke(
        app, ["simulate", "--position", POS, "--shot", "ball=0 phi=90 v=3", "--png", str(tmp_path / "x.gif")]
    )
    assert res.exit_code == 2 and ".png" in res.stderr
