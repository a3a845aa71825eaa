"""Pictures as matplotlib figures, written as PNG or SVG files
(``draw_position``): the table, the balls, the overlays and a panel with
the shelves, scores and turn under the table.

matplotlib is imported inside the functions (docs/design.md §1: ``env``
needs only numpy at import) and only through its object API with the Agg
canvas, never pyplot, so drawing is safe in worker processes and leaves no
global figure state.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from piramida.env.position import Position, cue_ball_of
from piramida.env.render.common import (
    CLOTH,
    CUSHION,
    CUSHION_EDGE,
    CUSHION_WIDTH,
    HOLE,
    IN_HAND_NAMES,
    MARKING,
    RAIL,
    RAIL_EDGE,
    RAIL_WIDTH,
    RGB_PX_PER_M,
    Overlay,
    Point,
    ball_style,
    cushion_polygon,
    drawing_point,
    drawing_points,
    extent,
    pocket_polygons,
    variant_name,
)
from piramida.env.table import Table

if TYPE_CHECKING:  # pragma: no cover - typing only
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def draw_ball(
    ax: Axes, at: Point, r: float, ball: str, fontsize: float, zorder: float = 5
) -> None:
    from matplotlib.patches import Circle

    face, ink, label = ball_style(ball)
    ax.add_patch(Circle(at, r, facecolor=face, edgecolor="#222222", linewidth=0.6, zorder=zorder))
    if ball == "w2":
        # The second white carries a dot (docs/game_rules.md §5.7 players tell them apart).
        ax.add_patch(
            Circle(
                (at[0], at[1] + r * 0.55),
                r * 0.18,
                facecolor="#c8202a",
                linewidth=0,
                zorder=zorder + 0.1,
            )
        )
    if fontsize > 0:
        ax.text(
            at[0],
            at[1] - (r * 0.12 if ball == "w2" else 0.0),
            label,
            ha="center",
            va="center_baseline",
            fontsize=fontsize * (0.85 if len(label) > 1 else 1.0),
            fontweight="bold",
            color=ink,
            zorder=zorder + 0.2,
        )


# --------------------------------------------------------------------- table
def _draw_table(ax: Axes, t: Table) -> None:
    from matplotlib.patches import Circle, Polygon, Rectangle

    L, W = t.length, t.width
    m = CUSHION_WIDTH + RAIL_WIDTH
    ax.add_patch(
        Rectangle(
            (-m, -m),
            L + 2 * m,
            W + 2 * m,
            facecolor=RAIL,
            edgecolor=RAIL_EDGE,
            linewidth=1.2,
            zorder=0,
        )
    )
    ax.add_patch(Rectangle((0, 0), L, W, facecolor=CLOTH, edgecolor="none", zorder=1))
    for p in t.pockets.values():
        opening, hole = pocket_polygons(p)
        ax.add_patch(
            Polygon(
                drawing_points(t, opening), closed=True, facecolor=CLOTH, edgecolor="none", zorder=1.5
            )
        )
        ax.add_patch(
            Polygon(drawing_points(t, hole), closed=True, facecolor=HOLE, edgecolor="none", zorder=1.6)
        )
    for name in t.cushions:
        ax.add_patch(
            Polygon(
                drawing_points(t, cushion_polygon(t, name)),
                closed=True,
                facecolor=CUSHION,
                edgecolor=CUSHION_EDGE,
                linewidth=0.8,
                zorder=2,
            )
        )
    # Rail sights: three per short rail, three between pockets on the long rails.
    for k in (1, 2, 3, 5, 6, 7):
        ax.add_patch(
            Circle(
                (L * k / 8, W + CUSHION_WIDTH + RAIL_WIDTH / 2), 0.012, color="#e8dcc0", zorder=2.5
            )
        )
        ax.add_patch(
            Circle((L * k / 8, -CUSHION_WIDTH - RAIL_WIDTH / 2), 0.012, color="#e8dcc0", zorder=2.5)
        )
    for k in range(1, 4):
        for X in (-CUSHION_WIDTH - RAIL_WIDTH / 2, L + CUSHION_WIDTH + RAIL_WIDTH / 2):
            ax.add_patch(Circle((X, W * k / 4), 0.012, color="#e8dcc0", zorder=2.5))
    # Pocket names on the rail, as used in calls (``call=5:rl``).
    band = CUSHION_WIDTH + RAIL_WIDTH / 2
    for p in t.pockets.values():
        top = p.name[1] == "l"
        if p.kind == "middle":
            X, Y = L / 2 + 0.11, (W + band) if top else -band
        else:
            X, Y = (-band if p.name[0] == "f" else L + band), (W - 0.17 if top else 0.17)
        ax.text(X, Y, p.name, ha="center", va="center", fontsize=8, color="#e8dcc0", zorder=2.6)
    _draw_markings(ax, t)


def _draw_markings(ax: Axes, t: Table) -> None:
    from matplotlib.patches import Circle

    W = t.width
    kw: dict[str, Any] = {"color": MARKING, "linewidth": 0.9, "alpha": 0.8, "zorder": 1.8}
    # Centre and house lines run across the table (vertical in the picture).
    ax.plot([t.centre_line, t.centre_line], [0, W], **kw)
    ax.plot([t.house_line, t.house_line], [0, W], **kw)
    (sx, sy), (ex, ey) = t.spot_line
    p0, p1 = drawing_point(t, sx, sy), drawing_point(t, ex, ey)
    ax.plot([p0[0], p1[0]], [p0[1], p1[1]], linestyle=(0, (4, 3)), **kw)
    for spot in (t.front_spot, t.centre_spot, t.rear_spot):
        ax.add_patch(Circle(drawing_point(t, *spot), 0.009, color=MARKING, zorder=1.9))


def _draw_balls(ax: Axes, position: Position, fontsize: float) -> None:
    """The balls on the bed, and those resting on the rail (seed 003,
    special cases) where they rest, ringed with a dashed circle."""
    from matplotlib.patches import Circle

    t = position.table
    for b, x, y in position.balls:
        draw_ball(ax, drawing_point(t, x, y), t.ball_radius, b, fontsize)
    for b, x, y in position.rail:
        at = drawing_point(t, x, y)
        draw_ball(ax, at, t.ball_radius, b, fontsize, zorder=6)
        ring = Circle(at, t.ball_radius * 1.35, fill=False, edgecolor="#ffd84a", linestyle="--", linewidth=0.9, zorder=6.5)
        ax.add_patch(ring)


def _draw_in_hand_zone(ax: Axes, position: Position) -> None:
    """Shade where the ball in hand may be placed (house or rear house)."""
    from matplotlib.patches import Rectangle

    t = position.table
    if position.in_hand == "house":
        x0, x1 = 0.0, t.house_line
    elif position.in_hand == "rear_house":
        x0, x1 = t.rear_line, t.length
    else:
        return
    ax.add_patch(
        Rectangle(
            (x0, 0), x1 - x0, t.width, facecolor="#ffffff", alpha=0.07, edgecolor="none", zorder=1.2
        )
    )


def _draw_overlays(ax: Axes, t: Table, overlays: Sequence[Overlay], fontsize: float) -> None:
    from matplotlib.patches import Circle, FancyArrowPatch

    r = t.ball_radius

    def label(o: Overlay, at: Point) -> None:
        # A label sits just above the point it names.
        if o.label:
            ax.text(at[0], at[1] + 1.6 * r, o.label, color=o.colour, fontsize=fontsize, ha="center", zorder=8)

    for o in overlays:
        pts = drawing_points(t, o.points)
        if o.kind == "path":
            xs, ys = zip(*pts, strict=True)
            ax.plot(
                xs, ys, color=o.colour, linewidth=1.4, alpha=0.9, zorder=4, solid_capstyle="round"
            )
            label(o, pts[-1])
        elif o.kind == "aim":
            ax.add_patch(
                FancyArrowPatch(
                    pts[0],
                    pts[1],
                    arrowstyle="-|>",
                    mutation_scale=12,
                    color=o.colour,
                    linewidth=1.3,
                    linestyle="--",
                    zorder=6,
                )
            )
            label(o, pts[1])
        elif o.kind == "ghost":
            ax.add_patch(
                Circle(
                    pts[0],
                    r,
                    fill=False,
                    edgecolor=o.colour,
                    linewidth=1.1,
                    linestyle="--",
                    zorder=6,
                )
            )
            label(o, pts[0])
        elif o.kind == "marker":
            ax.plot(
                [pts[0][0]],
                [pts[0][1]],
                marker="x",
                markersize=7,
                color=o.colour,
                mew=1.6,
                zorder=7,
            )
            label(o, pts[0])
        else:  # text
            ax.text(
                pts[0][0],
                pts[0][1],
                o.label or "",
                color=o.colour,
                fontsize=fontsize,
                ha="center",
                va="center",
                zorder=8,
            )


def _draw_panel(ax: Axes, position: Position, fontsize: float) -> None:
    """Shelves, scores, owed balls, whose turn and the ball in hand, under
    the table: one line per player, shelf balls drawn as small balls."""
    t = position.table
    r = t.ball_radius
    m = CUSHION_WIDTH + RAIL_WIDTH
    top = -m - 0.06
    row_h = 0.15
    for player in (0, 1):
        yrow = top - 0.05 - player * row_h
        to_move = position.to_move == player
        marker = "\u25b6 " if to_move else "   "
        owed = position.owed[player]
        head = f"{marker}Player {player + 1}   score {position.score[player]}"
        if owed:
            head += f"   owes {owed}"
        ax.text(
            -m + 0.03,
            yrow,
            head,
            fontsize=fontsize * 1.35,
            fontweight="bold" if to_move else "normal",
            color="#111111",
            va="center",
            ha="left",
        )
        x = -m + 1.05
        ax.text(x, yrow, "shelf:", fontsize=fontsize * 1.2, color="#333333", va="center", ha="left")
        x += 0.2
        shelf = position.shelves[player]
        if not shelf:
            ax.text(
                x,
                yrow,
                "empty",
                fontsize=fontsize * 1.2,
                color="#777777",
                va="center",
                ha="left",
                style="italic",
            )
        for b in shelf:
            draw_ball(ax, (x + r, yrow), r, b, fontsize * 0.9, zorder=5)
            x += 2 * r + 0.012
    status = [variant_name(position.variant)]
    if position.is_break:
        status.append("break shot")
    ax.text(
        t.length + m - 0.03,
        top - 0.05,
        "   ".join(status),
        fontsize=fontsize * 1.25,
        color="#111111",
        va="center",
        ha="right",
    )
    if position.in_hand is not None:
        cue = cue_ball_of(position.variant, position.to_move)
        yrow = top - 0.05 - row_h
        note = f"ball in hand {IN_HAND_NAMES[position.in_hand]}:"
        ax.text(
            t.length + m - 0.03 - 3 * r,
            yrow,
            note,
            fontsize=fontsize * 1.2,
            color="#111111",
            va="center",
            ha="right",
        )
        draw_ball(ax, (t.length + m - 0.03 - r, yrow), r, cue, fontsize * 0.9)


# ------------------------------------------------------------------ figures
def _new_figure(
    bounds: tuple[float, float, float, float], px_per_m: float, dpi: float
) -> tuple[Figure, Axes]:
    from matplotlib.figure import Figure

    x0, x1, y0, y1 = bounds
    fig = Figure(figsize=((x1 - x0) * px_per_m / dpi, (y1 - y0) * px_per_m / dpi), dpi=dpi)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal")
    ax.set_axis_off()
    return fig, ax


def figure(
    position: Position,
    overlays: Sequence[Overlay] = (),
    title: str | None = None,
    panel: bool = True,
) -> Figure:
    """A matplotlib Figure of the position (see module docstring for the
    orientation). ``panel`` adds shelves, scores and the turn under the table."""
    t = position.table
    x0, x1, y0, y1 = extent(t, panel)
    if title:
        y1 += 0.14
    px_per_m = 400.0 if panel else RGB_PX_PER_M
    fig, ax = _new_figure((x0, x1, y0, y1), px_per_m, 100.0)
    fig.set_facecolor("#f4f1ea" if panel else RAIL)
    # Ball labels scale with the picture: a ball is 2 r * px_per_m pixels.
    fontsize = 2 * t.ball_radius * px_per_m * 72 / 100 * 0.42
    _draw_table(ax, t)
    _draw_in_hand_zone(ax, position)
    _draw_balls(ax, position, fontsize)
    _draw_overlays(ax, t, overlays, fontsize * 1.1)
    if panel:
        _draw_panel(ax, position, fontsize)
    if title:
        ax.text(
            (x0 + x1) / 2,
            y1 - 0.07,
            title,
            ha="center",
            va="center",
            fontsize=fontsize * 1.8,
            color="#111111",
        )
    return fig


def draw_position(
    position: Position,
    overlays: Sequence[Overlay] = (),
    path: str | Path | None = None,
    fmt: str | None = None,
    title: str | None = None,
) -> Figure | None:
    """Draw a position. With ``path``, write a PNG or SVG (by ``fmt`` or the
    file's extension) and return None; without, return the Figure."""
    fig = figure(position, overlays, title)
    if path is None:
        return fig
    path = Path(path)
    kind = (fmt or path.suffix.lstrip(".")).lower()
    if kind not in ("png", "svg"):
        raise ValueError(
            f"cannot write {path}: picture format must be png or svg, got {kind or 'none'!r}"
        )
    fig.savefig(path, format=kind, facecolor=fig.get_facecolor())
    return None


__all__ = ["draw_ball", "draw_position", "figure"]
