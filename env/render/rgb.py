"""Pictures as RGB arrays (gym's ``rgb_array``): the empty table drawn
once per table and ball sprites drawn once per ball and size, composited
with numpy; with overlays, the whole picture drawn by matplotlib
(render/figure.py) at the same size."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from piramida.env.position import Position
from piramida.env.render.common import Overlay, drawing_point, extent
from piramida.env.render.figure import draw_ball, figure
from piramida.env.table import Table

if TYPE_CHECKING:  # pragma: no cover - typing only
    from matplotlib.figure import Figure


def _canvas_rgb(fig: Figure) -> np.ndarray:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[:, :, :3].copy()


@lru_cache(maxsize=4)
def _background(t: Table) -> np.ndarray:
    """The empty table (no panel) as an RGB array; drawn once per table."""
    empty = Position("free", (), table=t)
    arr = _canvas_rgb(figure(empty, panel=False))
    arr.setflags(write=False)
    return arr


@lru_cache(maxsize=64)
def _sprite(ball: str, diameter_px: int) -> np.ndarray:
    """A ball as an RGBA image of ``diameter_px + 2`` pixels square."""
    from matplotlib.figure import Figure

    size = diameter_px + 2
    fig = Figure(figsize=(size / 100, size / 100), dpi=100)
    fig.patch.set_alpha(0.0)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(-size / 2, size / 2)
    ax.set_ylim(-size / 2, size / 2)
    ax.set_axis_off()
    ax.patch.set_alpha(0.0)
    draw_ball(ax, (0.0, 0.0), diameter_px / 2, ball, diameter_px * 72 / 100 * 0.42)
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    out = np.asarray(canvas.buffer_rgba()).astype(np.float32) / 255.0
    out.setflags(write=False)
    return out


def render_rgb(position: Position, overlays: Sequence[Overlay] = ()) -> np.ndarray:
    """The table and balls as an (H, W, 3) uint8 array (gym's ``rgb_array``).

    Without overlays the cached empty table is composited with cached ball
    sprites (about a millisecond for a full rack); with overlays the whole picture is drawn
    by matplotlib at the same size.
    """
    t = position.table
    if overlays:
        arr = _canvas_rgb(figure(position, overlays, panel=False))
        bg = _background(t)
        if arr.shape != bg.shape:  # pragma: no cover - matplotlib rounding
            arr = arr[: bg.shape[0], : bg.shape[1]]
        return arr
    bg = _background(t)
    img = bg.copy()
    h, w = img.shape[:2]
    x0, x1, y0, y1 = extent(t, panel=False)
    sx, sy = w / (x1 - x0), h / (y1 - y0)
    d = max(3, round(2 * t.ball_radius * sx))
    for b, x, y in position.balls + position.rail:
        X, Y = drawing_point(t, x, y)
        spr = _sprite(b, d)
        n = spr.shape[0]
        col = round((X - x0) * sx - n / 2)
        row = round((y1 - Y) * sy - n / 2)
        r0, c0 = max(row, 0), max(col, 0)
        r1, c1 = min(row + n, h), min(col + n, w)
        if r0 >= r1 or c0 >= c1:
            continue
        # Blend only the sprite's square: whole-image float passes cost ~10 ms.
        s = spr[r0 - row : r1 - row, c0 - col : c1 - col]
        alpha = s[:, :, 3:4]
        under = img[r0:r1, c0:c1].astype(np.float32)
        img[r0:r1, c0:c1] = (under * (1 - alpha) + s[:, :, :3] * 255.0 * alpha + 0.5).astype(
            np.uint8
        )
    return img


__all__ = ["render_rgb"]
