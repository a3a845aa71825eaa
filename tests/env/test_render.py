"""Pictures: the RGB array, overlays, files and the text picture."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from piramida.env.position import Position
from piramida.env.render import (
    COLOURED_BALL,
    Overlay,
    draw_position,
    render_ansi,
    render_rgb,
)
from piramida.env.render.common import drawing_point, extent

START = Position.start("classic71")


def _pixel_of(p: Position, img: np.ndarray, x: float, y: float) -> np.ndarray:
    """The pixel at table point (x, y) in render_rgb's picture."""
    t = p.table
    x0, x1, y0, y1 = extent(t, panel=False)
    X, Y = drawing_point(t, x, y)
    h, w = img.shape[:2]
    return img[int((y1 - Y) / (y1 - y0) * h), int((X - x0) / (x1 - x0) * w)]


def _hex(colour: str) -> np.ndarray:
    return np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)])


def test_rgb_array_shape_and_balls() -> None:
    p = Position.from_balls("free", {"0": (0.5, 0.5), "5": (1.2, 3.0)})
    img = render_rgb(p)
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    h, w = img.shape[:2]
    assert w > h > 0.45 * w
    cloth = _pixel_of(p, img, 1.2, 1.5)
    assert cloth[1] > cloth[0] and cloth[1] > cloth[2]  # green
    # Just off centre, away from the number, each ball shows its colour.
    r = p.table.ball_radius
    coloured = _pixel_of(p, img, 0.5 + 0.6 * r, 0.5)
    assert np.abs(coloured.astype(int) - _hex(COLOURED_BALL)).max() < 40
    white = _pixel_of(p, img, 1.2 + 0.6 * r, 3.0)
    assert white.min() > 200
    # The empty table is the same picture without them.
    empty = render_rgb(Position("free", ()))
    assert empty.shape == img.shape
    assert not np.array_equal(empty, img)
    assert _pixel_of(p, empty, 0.5 + 0.6 * r, 0.5)[1] > _pixel_of(p, empty, 0.5 + 0.6 * r, 0.5)[0]


def test_rgb_with_overlays_has_the_same_size() -> None:
    p = Position.from_balls("free", {"0": (0.5, 0.5)})
    plain = render_rgb(p)
    drawn = render_rgb(p, [Overlay.path([(0.5, 0.5), (1.5, 3.0)], colour="#ff0000")])
    assert drawn.shape == plain.shape
    mid = _pixel_of(p, drawn, 1.0, 1.75)
    assert mid[0] > 180 and mid[1] < 120


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_draw_position_writes_by_extension(tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"p.{suffix}"
    ov = [
        Overlay.aim((0.9, 0.4), (0.9, 2.6)),
        Overlay.ghost((0.9, 2.6)),
        Overlay.marker((0.2, 3.4), label="rl"),
        Overlay.text((0.9, 1.0), "note"),
    ]
    assert draw_position(START, ov, path=out, title="t") is None
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == "png" else b"<svg" in data[:2000]


def test_draw_position_returns_a_figure_and_refuses_other_formats(tmp_path: Path) -> None:
    fig = draw_position(START)
    assert fig is not None and len(fig.axes) == 1
    with pytest.raises(ValueError, match="png or svg"):
        draw_position(START, path=tmp_path / "p.jpg")


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: Overlay("arrow", ((0, 0),)), "kind 'arrow'"),
        (lambda: Overlay.path([(0, 0)]), "at least 2"),
        (lambda: Overlay("ghost", ((0, 0), (1, 1))), "needs 1"),
        (lambda: Overlay.marker((float("nan"), 0)), "non-finite"),
        (lambda: Overlay.text((0, 0), ""), "needs a label"),
    ],
)
def test_bad_overlays(make, match: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=match):
        make()


def test_ansi_picture() -> None:
    text = render_ansi(START)
    lines = text.splitlines()
    board = [ln for ln in lines if ln.startswith(("|", "O"))]
    assert len({len(ln) for ln in board}) == 1, "ragged picture"
    body = " ".join(board)
    for b in range(1, 16):
        assert f" {b} " in body or f" {b}|" in body, b
    assert "classic pyramid" in text and "ball in hand: 0" in text
    five = render_ansi(Position.start("five_ball"))
    for b in ("r1", "r2", " y"):
        assert b in five
    shelves = Position("free", (), shelves=(("3", "7"), ()), score=(2, 0), to_move=1)
    s = render_ansi(shelves)
    assert "player 1: score 2  shelf 3 7" in s and "> player 2" in s


def test_drawn_cushions_follow_the_table_geometry() -> None:
    from piramida.env.render.common import cushion_polygon, pocket_polygons

    t = START.table
    eps = 1e-9
    for name, c in t.cushions.items():
        poly = cushion_polygon(t, name)
        # Nothing of a cushion is drawn on the playing surface...
        assert not any(eps < x < t.width - eps and eps < y < t.length - eps for x, y in poly)
        # ...and its nose runs exactly between the segment's ends.
        assert any(math.dist(p, c.start) < 1e-12 for p in poly)
        assert any(math.dist(p, c.end) < 1e-12 for p in poly)
    for p in t.pockets.values():
        opening, _ = pocket_polygons(p)
        for start, end in p.facings:
            assert any(math.dist(q, start) < 1e-12 for q in opening)
            assert any(math.dist(q, end) < 1e-12 for q in opening)


def test_table_geometry_is_what_the_pictures_draw() -> None:
    import json

    from piramida.env.render import table_geometry
    from piramida.env.render.common import cushion_polygon, pocket_polygons

    t = START.table
    geo = json.loads(json.dumps(table_geometry(t)))  # plain JSON values
    assert geo["length"] == t.length and geo["width"] == t.width and geo["ball_radius"] == t.ball_radius
    for name in t.cushions:
        assert geo["cushions"][name] == [[round(x, 6), round(y, 6)] for x, y in cushion_polygon(t, name)]
    for name, p in t.pockets.items():
        opening, hole = pocket_polygons(p)
        assert len(geo["pockets"][name]["opening"]) == len(opening)
        assert len(geo["pockets"][name]["hole"]) == len(hole)
        for got, jaw in zip(geo["pockets"][name]["jaws"], p.jaws, strict=True):
            assert got["centre"] == pytest.approx(list(jaw.centre), abs=1e-6) and got["radius"] == jaw.radius
    assert geo["spots"]["rear"] == pytest.approx(list(t.rear_spot))
    assert len(geo["sights"]) == 18
