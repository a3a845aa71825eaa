"""simulate(): the in-hand ball, errors, frozen balls, noise, the break."""

from __future__ import annotations

import math

import pytest

from piramida.env.errors import IllegalShotError
from piramida.env.physics import load_noise, simulate
from piramida.env.physics.noise import InvalidNoiseError, presets
from piramida.env.position import Position
from piramida.env.shot import Shot

BREAK = Shot("0", 90.0, 8.0, place=(0.8875, 0.6))


def test_break_from_the_rack_runs_and_keeps_every_ball():
    start = Position.start("free", seed=3)
    assert start.in_hand == "house" and "0" not in start
    r = simulate(start, BREAK)
    assert r.status == 0
    assert len(r.events) > 60
    types = {e.type for e in r.events}
    assert {"cue", "ball_ball", "cushion", "motion"} <= types
    on = set(r.final.ids)
    dropped = {b for b, _ in r.pocketed}
    assert len(on) + len(dropped) + len(r.off_table) == 16
    assert on | dropped | set(r.off_table) == set(start.ids) | {"0"}
    assert r.final.in_hand is None
    # The cue ball's first contact is the apex ball of the rack.
    first = next(e for e in r.events if e.type == "ball_ball")
    apex = min(start.balls, key=lambda b: b[2])[0]
    assert set(first.balls) == {"0", apex}
    # The log is ordered; crossings of the centre line name a direction.
    assert all(a.t <= b.t for a, b in zip(r.events, r.events[1:], strict=False))
    assert all(e.to in ("front", "rear") for e in r.events if e.type == "centre_line")


def test_ball_in_hand_needs_a_place_on_the_surface():
    start = Position.start("free")
    with pytest.raises(IllegalShotError, match="in hand"):
        simulate(start, Shot("0", 90, 3.0))
    with pytest.raises(IllegalShotError, match="off the playing surface"):
        simulate(start, Shot("0", 90, 3.0, place=(0.01, 0.5)))
    x, y = start.xy("5")
    with pytest.raises(IllegalShotError, match="overlaps ball 5"):
        simulate(start, Shot("0", 90, 3.0, place=(x + 0.03, y)))
    with pytest.raises(IllegalShotError, match="not on the table"):
        simulate(start, Shot("w1", 90, 3.0, place=(0.8, 0.5)))
    pos = Position.from_balls("free", {"0": (0.5, 0.5)})
    with pytest.raises(IllegalShotError, match="not in hand"):
        simulate(pos, Shot("0", 90, 3.0, place=(0.8, 0.5)))


def test_frozen_balls_are_reported_per_cushion(table):
    R = table.ball_radius
    pos = Position.from_balls("free", {"0": (0.8, 0.8), "3": (R, 1.0), "4": (0.5, R), "5": (0.9, 0.9)})
    r = simulate(pos, Shot("0", 45, 0.5))
    assert r.frozen["left_front"] == ("3",)
    assert r.frozen["front"] == ("4",)
    assert all(r.frozen[c] == () for c in r.frozen if c not in ("left_front", "front"))
    assert len(r.frozen) == 6


def test_noise_is_seeded_and_changes_the_shot():
    pos = Position.from_balls("free", {"0": (0.8, 0.8)})
    s = Shot("0", 80, 2.0, a=0.1, b=0.2, theta=5)
    a = simulate(pos, s, noise="amateur", seed=7)
    b = simulate(pos, s, noise="amateur", seed=7)
    c = simulate(pos, s, noise="amateur", seed=8)
    assert a.shot == b.shot and a.final.to_dict() == b.final.to_dict()
    assert a.shot != c.shot
    assert a.shot != s and math.isclose(a.shot.phi, s.phi, abs_tol=2.0)
    assert simulate(pos, s, noise="none", seed=1).shot == s
    assert simulate(pos, s).shot == s


def test_noise_presets_load_and_bad_ones_fail(tmp_path):
    assert set(presets()) >= {"none", "pro", "amateur", "novice"}
    sig = {n: load_noise(n).sigmas for n in ("pro", "amateur", "novice")}  # type: ignore[union-attr]
    # Skill levels are ordered: every sigma grows from pro to novice.
    assert all(p < a < n for p, a, n in zip(sig["pro"], sig["amateur"], sig["novice"], strict=True))
    with pytest.raises(InvalidNoiseError, match="not found"):
        load_noise("grandmaster")
    bad = tmp_path / "bad.toml"
    bad.write_text("[noise]\nphi = -1\ntheta = 0\nv = 0\na = 0\nb = 0\n")
    with pytest.raises(InvalidNoiseError, match="phi"):
        load_noise(str(bad))


def test_json_dict_has_exactly_the_documented_keys():
    pos = Position.from_balls("free", {"0": (0.8, 0.8), "1": (0.8, 1.2)})
    d = simulate(pos, Shot("0", 90, 2.0)).to_dict()
    assert list(d) == ["events", "final", "pocketed", "off_table"]
    assert d["events"][0] == {"t": 0.0, "type": "cue", "balls": ["0"]}
    assert Position.from_dict(d["final"]).ids == ("0", "1")


def test_trajectories_follow_each_ball_to_its_rest(table):
    pos = Position.from_balls("free", {"0": (0.8, 0.8), "1": (0.8, 1.2)})
    r = simulate(pos, Shot("0", 90, 2.0))
    for b, (t, x, y) in r.trajectories.items():
        assert len(t) == len(x) == len(y) > 5
        assert (t[1:] >= t[:-1]).all()
        assert (x[-1], y[-1]) == pytest.approx(r.final.xy(b), abs=1e-9)
        assert (x[0], y[0]) == pytest.approx(pos.xy(b), abs=1e-12)


def test_launch_condition_sends_a_ball_off_the_table(table):
    import dataclasses

    phys = dataclasses.replace(table.physics, launch_speed=2.0)
    t2 = dataclasses.replace(table, physics=phys)
    pos = Position.from_balls("free", {"1": (0.8, 1.0)}, table=t2)
    r = simulate(pos, Shot("1", 180, 4.0), table=t2)
    assert r.off_table == ["1"]
    off = next(e for e in r.events if e.type == "off_table")
    assert off.cushion == "left_front"
    assert r.final.balls == ()
    # At the configured launch speed an ordinary hard shot stays on.
    r = simulate(Position.from_balls("free", {"1": (0.8, 1.0)}), Shot("1", 180, 4.0))
    assert r.off_table == [] and any(e.type == "cushion" for e in r.events)


@pytest.mark.slow
def test_pro_preset_meets_its_calibration_targets():
    from piramida.env.physics.calibrate import pot_rate, references

    straight, cut30, _ = references()
    assert 0.95 <= pot_rate(straight, "pro", 1000, 0) <= 0.99
    assert 0.70 <= pot_rate(cut30, "pro", 1000, 0) <= 0.90


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "lo", "hi"), [("amateur", 0.40, 0.50), ("novice", 0.10, 0.20)])
def test_amateur_and_novice_presets_meet_their_calibration_targets(preset, lo, hi):
    from piramida.env.physics.calibrate import pot_rate, references

    straight = references()[0]
    assert lo <= pot_rate(straight, preset, 1000, 0) <= hi


def test_events_built_by_the_physics_equal_validated_events():
    from piramida.env.events import Event

    r = simulate(Position.start("free", seed=2), BREAK)
    for e in r.events:
        again = Event.from_dict(e.to_dict())
        assert again == e and again.to_dict() == e.to_dict()
        assert type(e.t) is float and all(type(b) is str for b in e.balls)


def test_one_balls_state_is_the_same_as_in_every_balls_states():
    pos = Position.start("free", seed=2)
    r = simulate(pos, Shot(ball="0", phi=88.0, v=6.0, place=(0.9, 0.6)))
    times = [e.t for e in r.events[:40]] + [0.0, 0.37, r.duration + 1.0]
    for t in times:
        every = r.states_at(t)
        for b in pos.ids + ("0", "no such ball"):
            one = r.state_of(b, t)
            if b in every:
                assert one is not None and (one == every[b]).all()
            else:
                assert one is None
