"""Pictures of a position: PNG/SVG files, RGB arrays, a text picture, and
the drawing geometry as JSON for the web page.

- ``common``: sizes, colours, ball styles, ``Overlay`` (paths of balls,
  aim lines, ghost balls, markers and text drawn over a position) and the
  table's outline in drawing coordinates (the orientation is described
  there);
- ``figure``: matplotlib figures and PNG/SVG files (``figure``,
  ``draw_position``);
- ``rgb``: RGB arrays (``render_rgb``);
- ``ansi``: the text picture (``render_ansi``);
- ``web``: the geometry and ball styles as JSON (``table_geometry``,
  ``ball_styles``).

matplotlib is imported only when a figure or an array is drawn.
"""

from __future__ import annotations

from piramida.env.render.ansi import ANSI_COLUMNS, ANSI_ROWS, render_ansi
from piramida.env.render.common import (
    CLOTH,
    COLOURED_BALL,
    CUSHION,
    CUSHION_EDGE,
    CUSHION_WIDTH,
    HOLE,
    MARKING,
    OVERLAY_KINDS,
    PANEL_HEIGHT,
    RAIL,
    RAIL_EDGE,
    RAIL_WIDTH,
    RGB_PX_PER_M,
    Overlay,
    Point,
    ball_style,
)
from piramida.env.render.figure import draw_position, figure
from piramida.env.render.rgb import render_rgb
from piramida.env.render.web import ball_styles, table_geometry

__all__ = [
    "ANSI_COLUMNS",
    "ANSI_ROWS",
    "CLOTH",
    "COLOURED_BALL",
    "CUSHION",
    "CUSHION_EDGE",
    "CUSHION_WIDTH",
    "HOLE",
    "MARKING",
    "OVERLAY_KINDS",
    "PANEL_HEIGHT",
    "RAIL",
    "RAIL_EDGE",
    "RAIL_WIDTH",
    "RGB_PX_PER_M",
    "Overlay",
    "Point",
    "ball_style",
    "ball_styles",
    "draw_position",
    "figure",
    "render_ansi",
    "render_rgb",
    "table_geometry",
]
