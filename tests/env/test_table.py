"""The table: config numbers (docs/game_rules.md §1), pockets and jaws, markings,
house and frozen-ball semantics, and config errors."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from piramida.configs import CONFIG_DIR
from piramida.env.errors import InvalidTableError
from piramida.env.table import CUSHIONS, POCKETS, Table

TOML = (CONFIG_DIR / "tables" / "russian_12ft.toml").read_text(encoding="utf-8")


def _dot(a: tuple[float, float], b: tuple[float, float]) -> float:
    return a[0] * b[0] + a[1] * b[1]


def _dist(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def test_rules_numbers(table: Table) -> None:
    # docs/game_rules.md §1 table of defaults.
    assert (table.length, table.width) == (3.550, 1.775)
    assert table.ball_radius * 2 == pytest.approx(0.068)
    assert table.ball_mass == 0.280
    assert table.corner_mouth == 0.0725
    assert table.middle_mouth == 0.0805
    assert table.middle_jaw_radius == 0.011
    assert table.corner_jaw_radius == 0.011
    assert table.cushion_height == pytest.approx(0.66 * 0.068)


def test_six_pockets_and_six_cushions(table: Table) -> None:
    assert sorted(table.pockets) == sorted(POCKETS) == ["fl", "fr", "ml", "mr", "rl", "rr"]
    assert sorted(table.cushions) == sorted(CUSHIONS)
    kinds = {p.name: p.kind for p in table.pockets.values()}
    assert kinds == {
        "fl": "corner",
        "fr": "corner",
        "rl": "corner",
        "rr": "corner",
        "ml": "middle",
        "mr": "middle",
    }


@pytest.mark.parametrize("name", POCKETS)
def test_pocket_mouth_measures_the_config(table: Table, name: str) -> None:
    p = table.pockets[name]
    j1, j2 = p.jaws
    gap = _dist(j1.centre, j2.centre) - j1.radius - j2.radius
    want = table.corner_mouth if p.kind == "corner" else table.middle_mouth
    assert gap == pytest.approx(want, abs=1e-12)
    assert p.mouth == want
    # The mouth centre is halfway between the jaws.
    mid = ((j1.centre[0] + j2.centre[0]) / 2, (j1.centre[1] + j2.centre[1]) / 2)
    assert _dist(mid, p.mouth_centre) < 1e-12


@pytest.mark.parametrize("name", CUSHIONS)
def test_jaws_tangent_to_nose_line_at_segment_ends(table: Table, name: str) -> None:
    c = table.cushions[name]
    jaws = [j for p in table.pockets.values() for j in p.jaws if j.cushion == name]
    assert len(jaws) == 2, "a cushion segment ends in exactly two jaws"
    for end in (c.start, c.end):
        near = [j for j in jaws if _dist(j.centre, end) < 2 * j.radius]
        assert len(near) == 1
        j = near[0]
        # Tangent at the end: the centre is one jaw radius behind the nose
        # line, straight behind the segment's end point.
        behind = _dot((end[0] - j.centre[0], end[1] - j.centre[1]), c.normal)
        assert behind == pytest.approx(j.radius, abs=1e-12)
        assert _dist(j.centre, end) == pytest.approx(j.radius, abs=1e-12)


def test_each_pocket_is_formed_by_two_different_cushions(table: Table) -> None:
    for p in table.pockets.values():
        a, b = table.cushion_of_pocket_side(p.name)
        assert a != b and {a, b} <= set(CUSHIONS)


@pytest.mark.parametrize("name", POCKETS)
def test_pocket_axis_points_out_of_the_table(table: Table, name: str) -> None:
    p = table.pockets[name]
    assert math.hypot(*p.axis) == pytest.approx(1.0)
    centre = table.centre_spot
    out = (p.mouth_centre[0] - centre[0], p.mouth_centre[1] - centre[1])
    assert _dot(p.axis, out) > 0
    deep = (p.mouth_centre[0] + p.axis[0] * p.depth, p.mouth_centre[1] + p.axis[1] * p.depth)
    assert not (0 <= deep[0] <= table.width and 0 <= deep[1] <= table.length)
    # A point inside along the axis (u < 0) is on the table side.
    u, v = p.local(p.mouth_centre[0] - p.axis[0] * 0.1, p.mouth_centre[1] - p.axis[1] * 0.1)
    assert u == pytest.approx(-0.1) and v == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("name", POCKETS)
def test_facings_run_along_the_axis_one_mouth_apart(table: Table, name: str) -> None:
    p = table.pockets[name]
    (a0, a1), (b0, b1) = p.facings
    for s, e in p.facings:
        d = ((e[0] - s[0]) / p.depth, (e[1] - s[1]) / p.depth)
        assert d == pytest.approx(p.axis)
    across = (-p.axis[1], p.axis[0])
    assert abs(_dot((b0[0] - a0[0], b0[1] - a0[1]), across)) == pytest.approx(p.mouth)
    (c0, c1) = p.capture_line
    assert _dist(c0, c1) == pytest.approx(p.mouth)
    assert p.local(*c0)[0] == pytest.approx(p.capture_depth)


def test_markings(table: Table) -> None:
    W, L = table.width, table.length
    # docs/game_rules.md §1 (seed 004 item 2).
    assert table.centre_spot == (W / 2, L / 2)
    assert table.front_spot == (W / 2, L / 4)
    assert table.rear_spot == (W / 2, 3 * L / 4)
    assert table.centre_line == L / 2
    assert table.house_line == L / 4
    assert table.spot_line == ((W / 2, 3 * L / 4), (W / 2, L))


def test_in_house_boundary(table: Table) -> None:
    # A ball on the house line is outside the house (items 10.1-10.2, 1.4).
    h = table.house_line
    assert not table.in_house(0.9, h)
    assert table.in_house(0.9, math.nextafter(h, 0.0))
    assert not table.in_house(0.9, math.nextafter(h, 10.0))
    assert table.in_house(0.9, table.ball_radius)
    assert not table.in_rear_house(0.9, table.rear_line)
    assert table.in_rear_house(0.9, math.nextafter(table.rear_line, 10.0))


def test_frozen_cushion(table: Table) -> None:
    r, W, L = table.ball_radius, table.width, table.length
    assert table.frozen_cushion(r, 1.0) == "left_front"
    assert table.frozen_cushion(r, 2.5) == "left_rear"
    assert table.frozen_cushion(W - r, 1.0) == "right_front"
    assert table.frozen_cushion(W - r, 2.5) == "right_rear"
    assert table.frozen_cushion(0.9, r) == "front"
    assert table.frozen_cushion(0.9, L - r) == "rear"
    assert table.frozen_cushion(0.9, L / 2) is None
    # Within the tolerance is frozen; beyond it is not.
    assert table.frozen_cushion(r + 0.5e-4, 1.0) == "left_front"
    assert table.frozen_cushion(r + 2e-4, 1.0) is None
    # Beside the middle pocket there is no cushion, only the mouth.
    assert table.frozen_cushion(r, L / 2) is None


def test_on_surface(table: Table) -> None:
    r, W, L = table.ball_radius, table.width, table.length
    assert table.on_surface(r, r)
    assert table.on_surface(W / 2, L / 2)
    assert not table.on_surface(r * 0.5, 1.0)
    assert not table.on_surface(-0.1, 1.0)
    assert not table.on_surface(W / 2, L + 0.01)
    assert not table.on_surface(float("nan"), 1.0)
    # A ball hanging in the middle pocket mouth, short of the capture line.
    ml = table.pockets["ml"]
    assert table.on_surface(ml.mouth_centre[0] + ml.axis[0] * 0.01, ml.mouth_centre[1])
    assert not table.on_surface(
        ml.mouth_centre[0] + ml.axis[0] * (ml.capture_depth + 0.01), ml.mouth_centre[1]
    )


def test_load_by_name_and_path(table: Table) -> None:
    by_path = Table.load(CONFIG_DIR / "tables" / "russian_12ft.toml")
    assert by_path == table
    assert Table.load("russian_12ft") == table


# ----------------------------------------------------------------- errors
def _write(tmp_path: Path, text: str, name: str = "t.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_missing_file_names_it(tmp_path: Path) -> None:
    path = tmp_path / "nope.toml"
    with pytest.raises(InvalidTableError, match="not found") as info:
        Table.load(path)
    assert str(path) in str(info.value)
    with pytest.raises(InvalidTableError, match="no_such_table"):
        Table.load("no_such_table")


def test_missing_key_names_file_and_key(tmp_path: Path) -> None:
    text = TOML.replace("mouth = 0.0725\n", "")
    assert text != TOML
    path = _write(tmp_path, text)
    with pytest.raises(InvalidTableError) as info:
        Table.load(path)
    msg = str(info.value)
    assert str(path) in msg and "'mouth'" in msg and "[pockets.corner]" in msg


def test_missing_section_names_it(tmp_path: Path) -> None:
    start = TOML.index("[physics]")
    path = _write(tmp_path, TOML[:start])
    with pytest.raises(InvalidTableError, match=r"missing section \[physics\]"):
        Table.load(path)


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ("width = 1.775", "width = -1.775", "width"),
        ("width = 1.775", 'width = "wide"', "width"),
        ("mass = 0.280", "mass = nan", "mass"),
        ("mu_s = 0.2", "mu_s = true", "mu_s"),
        ('cushion_model = "han2005"', 'cushion_model = "rubber"', "cushion_model"),
        ("mouth = 0.0805", "mouth = 0.060", "mouth"),
        ("length = 3.550", "length = 2.0", "length"),
    ],
)
def test_bad_value_names_file_and_key(tmp_path: Path, old: str, new: str, key: str) -> None:
    assert old in TOML
    path = _write(tmp_path, TOML.replace(old, new, 1))
    with pytest.raises(InvalidTableError) as info:
        Table.load(path)
    msg = str(info.value)
    assert str(path) in msg and key in msg


def test_invalid_toml(tmp_path: Path) -> None:
    path = _write(tmp_path, "[table\nname = ")
    with pytest.raises(InvalidTableError, match="not valid TOML"):
        Table.load(path)
