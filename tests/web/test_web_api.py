"""The web API (piramida/web): it answers what the command line prints,
refuses bad input with the command line's one line as HTTP 400, and plays
a frame against an agent with undo, save and load."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from piramida.cli import app
from piramida.env.game import Game
from piramida.env.position import Position

ROOT = Path(__file__).resolve().parents[2]
MIDGAME = ROOT / "docs" / "examples" / "combined_midgame.json"
EVENTS = ROOT / "docs" / "examples" / "combined_events.json"
AFTER = ROOT / "docs" / "examples" / "combined_after.json"
SHOT = "ball=0 phi=70.08 v=1 a=0 b=0 theta=0"
OVERLAP = "variant=free balls=1:0.5,1.0;2:0.5,1.05"
runner = CliRunner()


def cli(*args: str) -> tuple[int, str, str]:
    res = runner.invoke(app, list(args))
    return res.exit_code, res.stdout, res.stderr


def midgame() -> dict[str, Any]:
    return json.loads(MIDGAME.read_text(encoding="utf-8"))


# ------------------------------------------------------------------ the page
def test_the_page_and_its_files_are_served(client: Any) -> None:
    import urllib.request

    modules = sorted((ROOT / "piramida" / "web" / "static" / "js").glob("*.js"))
    assert any(m.name == "main.js" for m in modules)
    files = [("", "text/html"), ("static/style.css", "text/css")]
    files += [(f"static/js/{m.name}", "javascript") for m in modules]  # module scripts need a JavaScript type
    for path, kind in files:
        with urllib.request.urlopen(client.url + "/" + path, timeout=30) as r:
            assert r.status == 200 and kind in r.headers["Content-Type"]
            body = r.read().decode()
        # Offline: nothing is fetched from another host.
        assert "http://" not in body.replace("http://www.w3.org", "") and "https://" not in body, path


def test_meta_and_geometry(client: Any) -> None:
    meta = client.get("/api/meta")
    assert "free" in meta["variants"] and "five_ball" in meta["variants"]
    assert meta["noise"][:2] == ["none", "pro"]
    assert set(meta["agents"]) >= {"random", "greedy", "planner"}
    geo = client.get("/api/table")
    assert set(geo["pockets"]) == {"fl", "fr", "ml", "mr", "rl", "rr"}
    assert len(geo["cushions"]) == 6
    assert geo["width"] == pytest.approx(1.775)
    for p in geo["pockets"].values():
        assert len(p["jaws"]) == 2 and len(p["hole"]) > 4 and len(p["opening"]) > 4
    assert geo["lines"]["house"] == pytest.approx(geo["length"] / 4)


def test_position_checked_and_its_text_form(client: Any) -> None:
    pos = Position.from_dict(midgame())
    got = client.post("/api/position", {"position": pos.to_text()})
    assert got["text"] == pos.to_text()
    assert Position.from_dict(got["position"]) == pos
    assert set(got["missing"]) == set(pos.missing())
    start = client.post("/api/start", {"variant": "classic71"})
    assert start["position"] == Position.start("classic71").to_dict()


# ------------------------------------------------------------------ the same answers as the CLI
def test_suggest_answers_what_the_cli_prints(client: Any) -> None:
    code, out, err = cli("suggest", "--position", str(MIDGAME), "--sims", "60", "--json")
    assert code == 0, err
    got = client.post("/api/suggest", {"position": midgame(), "sims": 60})
    printed = json.loads(out)
    assert got["shots"] == printed["shots"] and got["value_meaning"] == printed["value_meaning"]
    # The same search, but for the time it took.
    assert {k: v for k, v in got["search"].items() if k != "time_s"} == {
        k: v for k, v in printed["search"].items() if k != "time_s"
    }
    assert len(got["shots"]) == len(got["draw"]) == 3
    for shot, d in zip(got["shots"], got["draw"], strict=True):
        assert d["struck"] == "0" and d["start"] == pytest.approx([0.95, 2.05])
        assert len(d["aim"]) == 2 and d["paths"]["0"][0] == pytest.approx([0.95, 2.05])
        assert d["shot"]["phi"] == pytest.approx(float(shot["shot"].split("phi=")[1].split()[0]))


def test_simulate_answers_what_the_cli_prints(client: Any) -> None:
    code, out, err = cli("simulate", "--position", str(MIDGAME), "--shot", SHOT, "--json")
    assert code == 0, err
    got = client.post("/api/simulate", {"position": midgame(), "shot": SHOT})
    assert {k: got[k] for k in ("events", "final", "pocketed", "off_table")} == json.loads(out)
    assert [e["text"] for e in got["log"]] == [
        "cue strikes ball 0",
        "ball 0 hits ball 3",
        "ball 3 hits cushion rear",
        "ball 3 drops in pocket rr",
    ]
    tr = got["trajectories"]
    assert len(tr["0"]["t"]) > 100 and len(tr["8"]["t"]) == 1  # 8 does not move
    assert tr["3"]["gone"] == pytest.approx(got["log"][-1]["t"]) and tr["0"]["gone"] is None
    # 60 samples a second (plus the ends of each motion segment).
    steps = [b - a for a, b in zip(tr["0"]["t"], tr["0"]["t"][1:], strict=False)]
    assert max(steps) <= 1 / 60 + 1e-4


def test_referee_answers_what_the_cli_prints(client: Any) -> None:
    code, out, err = cli(
        "referee", "--variant", "combined", "--before", str(MIDGAME), "--shot", SHOT,
        "--events", str(EVENTS), "--after", str(AFTER), "--json",
    )
    assert code == 0, err
    got = client.post(
        "/api/referee",
        {
            "variant": "combined",
            "before": midgame(),
            "shot": SHOT,
            "events": json.loads(EVENTS.read_text()),
            "after": json.loads(AFTER.read_text()),
        },
    )
    summary = got.pop("summary")
    assert got == json.loads(out)
    assert summary.startswith("legal | p0 scored 3")


def test_cloud_counts_every_sample(client: Any) -> None:
    got = client.post("/api/cloud", {"position": midgame(), "shot": SHOT, "n": 50, "noise": "amateur"})
    assert got["struck"] == "0" and got["object"] == "3" and got["n"] == 50
    for b in ("0", "3"):
        total = len(got["rest"][b]) + sum(got["pocketed"][b].values()) + got["off"][b]
        assert total == 50
    assert got["pocketed"]["3"].get("rr", 0) > 0


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    ("args", "path", "body"),
    [
        (("suggest", "--position", OVERLAP, "--sims", "10"), "/api/suggest", {"position": OVERLAP, "sims": 10}),
        (("suggest", "--position", str(MIDGAME), "--agent", "nope"), "/api/suggest",
         {"position": midgame(), "agent": "nope"}),
        (("suggest", "--position", str(MIDGAME), "--agent", "greedy"), "/api/suggest",
         {"position": midgame(), "agent": "greedy"}),
        (("suggest", "--position", "variant=free balls=-"), "/api/suggest", {"position": "variant=free balls=-"}),
        (("simulate", "--position", str(MIDGAME), "--shot", "ball=0 phi=90 v=99"), "/api/simulate",
         {"position": midgame(), "shot": "ball=0 phi=90 v=99"}),
        (("simulate", "--position", str(MIDGAME), "--shot", "ball=7 phi=90 v=1"), "/api/simulate",
         {"position": midgame(), "shot": "ball=7 phi=90 v=1"}),
        (("show", '{"variant": "free", "balls": {"3": [0.5, 1.0], "3": [0.6, 2.0]}}'), "/api/position",
         {"position": '{"variant": "free", "balls": {"3": [0.5, 1.0], "3": [0.6, 2.0]}}'}),
        (("play", "--agents", "greedy,nope"), "/api/play/new", {"agent": "nope"}),
        (("play", "--variant", "snooker", "--agents", "greedy,greedy"), "/api/play/new",
         {"variant": "snooker", "agent": "greedy"}),
    ],
)
def test_bad_input_is_the_cli_line_as_400(client: Any, args: tuple[str, ...], path: str, body: Any) -> None:
    code, out, err = cli(*args)
    assert code == 2 and out == "", (out, err)
    assert client.bad(path, body) == err.strip().removeprefix("error: ")


@pytest.mark.parametrize(
    ("path", "raw", "says"),
    [
        ("/api/suggest", b"{not json", "request body is not valid JSON"),
        ("/api/suggest", b"[1, 2]", "must be a JSON object"),
        ("/api/suggest", b'{"position": "variant=free", "sims": 1e400}', "too large"),
        ("/api/suggest", b'{"position": "variant=free", "sims": 10, "sims": 20}', "given twice"),
        ("/api/suggest", b'{"position": "variant=free", "colour": 1}', "unknown key"),
        ("/api/suggest", b'{"sims": 10}', "'position' is missing"),
        ("/api/suggest", b'{"position": 7, "sims": 10}', "'position' must be"),
        ("/api/suggest", b'{"position": "variant=free balls=1:0.5,1.0", "sims": 0}', "'sims' must be in"),
        ("/api/simulate", b'{"position": "variant=free balls=1:0.5,1.0", "shot": "ball=1 phi=NaN v=1"}', "phi"),
        ("/api/cloud", b'{"position": "variant=free balls=1:0.5,1.0", "shot": "ball=1 phi=0 v=1", "n": 5000}', "'n'"),
        ("/api/play/new", b'{"agent": "planner:sims=x"}', "planner:sims"),
        ("/api/play/load", b'{"game": {"hello": 1}}', "not a saved piramida game"),
        ("/api/referee", b'{"variant": "free"}', "'before' is missing"),
        ("/api/suggest", b"[" * 40 + b"]" * 40, "nested"),
    ],
)
def test_bad_requests_are_one_line(client: Any, path: str, raw: bytes, says: str) -> None:
    assert says in client.bad(path, raw=raw)


def test_unknown_routes_and_games_are_404(client: Any) -> None:
    assert "no such page" in client.bad("/api/nothing", status=404)
    assert "no game" in client.bad("/api/play/0123456789abcdef", status=404)
    assert "not allowed" in client.bad("/api/meta", body={}, status=405)


# ------------------------------------------------------------------ play
def test_a_frame_against_greedy_with_undo_save_and_load(client: Any) -> None:
    st = client.post("/api/play/new", {"agent": "greedy", "seat": 0, "position": midgame(), "variant": "combined"})[
        "state"
    ]
    assert st["to_act"] == "you" and st["next"]["kind"] == "shot" and not st["can_undo"]
    gid = st["id"]
    # A choice where a shot is due, and the agent's turn taken: refused, nothing changes.
    assert "not a choice" in client.bad(f"/api/play/{gid}/choose", {"choice": "shoot"})
    assert "your turn" in client.bad(f"/api/play/{gid}/agent", {})
    res = client.post(f"/api/play/{gid}/shot", {"shot": SHOT})
    step = res["step"]
    assert step["who"] == "you" and step["summary"].startswith("legal | p0 scored 3")
    assert step["ruling"]["score"] == [4, 2] and step["simulation"]["log"][-1]["text"].endswith("rr")
    st = res["state"]
    assert st["score"] == [4, 2] and st["can_undo"]
    # Miss on purpose until the agent has had a turn: a slow shot that touches nothing is a foul.
    while st["to_act"] == "you" and st["next"]["kind"] == "shot":
        st = client.post(f"/api/play/{gid}/shot", {"shot": "ball=0 phi=180 v=0.05"})["state"]
    played = 0
    while st["to_act"] == "agent" and played < 30:
        st = client.post(f"/api/play/{gid}/agent")["state"]
        played += 1
    saved = client.get(f"/api/play/{gid}/save")
    # The same JSON as `piramida play --save`: it loads and replays to the same state.
    game = Game.from_dict(saved)
    assert game.score == tuple(st["score"]) and len(game.history) == st["actions"]
    loaded = client.post("/api/play/load", {"game": json.dumps(saved), "agent": "greedy"})["state"]
    assert loaded["text"] == st["text"] and loaded["actions"] == st["actions"] and loaded["id"] != gid
    # Undo takes back the player's last action and the agent's after it.
    undone = client.post(f"/api/play/{gid}/undo")["state"]
    assert undone["to_act"] == "you" and undone["actions"] < st["actions"]
    while client.request(f"/api/play/{gid}/undo", {})[0] == 200:
        pass
    first = client.get(f"/api/play/{gid}")
    assert first["actions"] == 0 and first["score"] == [3, 2] and not first["can_undo"]


def test_the_agent_plays_its_choices_and_a_foul_gives_you_choices(client: Any) -> None:
    # Free pyramid, the agent to break from the rack of seed 0: it breaks,
    # then it is ours or it keeps the table; a foul of ours gives it a choice.
    st = client.post("/api/play/new", {"agent": "random", "seat": 1, "seed": 4, "noise": "pro"})["state"]
    gid = st["id"]
    seen_choice = False
    for _ in range(40):
        if st["over"]:
            break
        if st["to_act"] == "agent":
            st = client.post(f"/api/play/{gid}/agent")["state"]
        elif st["next"]["kind"] == "choice":
            seen_choice = True
            assert st["next"]["choices"]
            st = client.post(f"/api/play/{gid}/choose", {"choice": st["next"]["choices"][0]})["state"]
        else:
            st = client.post(f"/api/play/{gid}/shot", {"shot": _a_legal_looking_shot(st)})["state"]
    assert seen_choice, "random fouls; its fouls give us choices"


def _a_legal_looking_shot(st: dict[str, Any]) -> str:
    """A firm shot at the first ball on the table, from the ball to strike."""
    import math

    pos = st["position"]
    cue = st["cue_balls"][0] if st["cue_balls"] else st["cue"]
    start = pos["balls"].get(cue)
    place = ""
    if start is None:
        start = [0.8875, 0.5]
        place = " place=0.8875,0.5"
    target = next(xy for b, xy in pos["balls"].items() if b != cue)
    phi = math.degrees(math.atan2(target[1] - start[1], target[0] - start[0]))
    return f"ball={cue} phi={phi:.3f} v=2{place}"
