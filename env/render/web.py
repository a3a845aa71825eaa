"""The drawing geometry and ball styles as plain JSON values, for the
pictures drawn elsewhere (the web page, piramida/web): the same outlines
and colours the figures use."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from piramida.env.render.common import (
    CLOTH,
    CUSHION,
    CUSHION_EDGE,
    CUSHION_WIDTH,
    HOLE,
    MARKING,
    RAIL,
    RAIL_EDGE,
    RAIL_WIDTH,
    Point,
    ball_style,
    cushion_polygon,
    pocket_polygons,
)
from piramida.env.table import Table


def table_geometry(t: Table) -> dict[str, Any]:
    """The drawing geometry of ``t`` as plain JSON values, in table
    coordinates (metres, docs/game_rules.md §1): what ``figure`` draws, for
    other renderers (the web page, piramida/web). ``cushions`` and the
    pockets' ``opening`` and ``hole`` are polygons; ``jaws`` are circles;
    ``sights`` the rail diamonds; ``labels`` where the pocket names go;
    ``view`` says how the pictures turn the table (drawing x = table y,
    drawing y = width - table x, house end on the left)."""
    L, W = t.length, t.width
    band = CUSHION_WIDTH + RAIL_WIDTH / 2

    def pts(points: Iterable[Point]) -> list[list[float]]:
        return [[round(float(x), 6), round(float(y), 6)] for x, y in points]

    pockets = {}
    for name, p in t.pockets.items():
        opening, hole = pocket_polygons(p)
        top = name[1] == "l"
        if p.kind == "middle":
            label = (-band if top else W + band, L / 2 + 0.11)
        else:
            label = (0.17 if top else W - 0.17, -band if name[0] == "f" else L + band)
        pockets[name] = {
            "kind": p.kind,
            "mouth_centre": pts([p.mouth_centre])[0],
            "axis": pts([p.axis])[0],
            "opening": pts(opening),
            "hole": pts(hole),
            "jaws": [
                {"cushion": j.cushion, "centre": pts([j.centre])[0], "radius": j.radius} for j in p.jaws
            ],
            "label": pts([label])[0],
        }
    sights = [(-band, L * k / 8) for k in (1, 2, 3, 5, 6, 7)]
    sights += [(W + band, L * k / 8) for k in (1, 2, 3, 5, 6, 7)]
    sights += [(W * k / 4, y) for k in range(1, 4) for y in (-band, L + band)]
    return {
        "name": t.name,
        "length": L,
        "width": W,
        "ball_radius": t.ball_radius,
        "cushion_width": CUSHION_WIDTH,
        "rail_width": RAIL_WIDTH,
        "cushions": {name: pts(cushion_polygon(t, name)) for name in t.cushions},
        "cushion_lines": {
            name: {"start": pts([c.start])[0], "end": pts([c.end])[0], "normal": pts([c.normal])[0]}
            for name, c in t.cushions.items()
        },
        "pockets": pockets,
        "spots": {
            "front": pts([t.front_spot])[0],
            "centre": pts([t.centre_spot])[0],
            "rear": pts([t.rear_spot])[0],
        },
        "lines": {
            "house": t.house_line,
            "centre": t.centre_line,
            "rear": t.rear_line,
            "spot_line": pts(t.spot_line),
        },
        "sights": pts(sights),
        "colours": {
            "cloth": CLOTH,
            "cushion": CUSHION,
            "cushion_edge": CUSHION_EDGE,
            "rail": RAIL,
            "rail_edge": RAIL_EDGE,
            "hole": HOLE,
            "marking": MARKING,
        },
        "view": "drawing x = table y, drawing y = width - table x (house end left, left cushion on top)",
    }


def ball_styles(ids: Iterable[str]) -> dict[str, dict[str, str]]:
    """``ball_style`` of each id as JSON: face, ink, label."""
    out = {}
    for b in ids:
        face, ink, label = ball_style(b)
        out[b] = {"face": face, "ink": ink, "label": label}
    return out


__all__ = ["ball_styles", "table_geometry"]
