"""Pictures of a position: PNG/SVG files, RGB arrays and a text picture.

The table is drawn horizontally, seen from above with the house end on the
left: table x (across, docs/game_rules.md §1) becomes the picture's vertical axis with
the left cushion (x = 0) at the top, table y (along) the horizontal axis with
the front cushion (y = 0) on the left. That is the table turned a quarter
turn clockwise from the player's view at the house end, so left and right
pockets keep their names (``fl``, ``ml``, ``rl`` along the top edge).

Everything is drawn in metres from the geometry of ``Table`` (cushion
segments, jaw circles, facings, capture lines), so the picture shows exactly
what the physics and the rules use. matplotlib is imported inside the
functions (docs/design.md §1: ``env`` needs only numpy at import) and only through
its object API with the Agg canvas, never pyplot, so rendering is safe in
worker processes and leaves no global figure state.

Later issues draw on top of a position through ``Overlay`` values: paths of
balls, aim lines, ghost balls, markers and text.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from piramida.env.position import FIVE_BALL_IDS, Position, cue_ball_of
from piramida.env.table import Pocket, Table

if TYPE_CHECKING:  # pragma: no cover - typing only
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

Point = tuple[float, float]

# Widths around the playing surface, metres: cushion rubber, then the rail.
CUSHION_WIDTH = 0.05
RAIL_WIDTH = 0.09
# Height of the panel under the table (shelves, scores, turn), metres.
PANEL_HEIGHT = 0.42

CLOTH = "#1f7a4a"
CUSHION = "#14573a"
CUSHION_EDGE = "#0c3a26"
RAIL = "#6b3f1f"
RAIL_EDGE = "#3e2411"
HOLE = "#0b0b0b"
MARKING = "#d9efe2"
COLOURED_BALL = "#e8571e"

# Five-ball colours (docs/game_rules.md §5.7): w2 is the white with a dot.
_BALL_FACE: dict[str, str] = {
    "w1": "#fbfbf4",
    "w2": "#fbfbf4",
    "r1": "#c8202a",
    "r2": "#c8202a",
    "y": "#f2c81f",
    "0": COLOURED_BALL,
}
_WHITE = "#f7f3e6"

# Pixels of render_rgb: the table only, 4 px per centimetre.
RGB_PX_PER_M = 240.0

OVERLAY_KINDS: tuple[str, ...] = ("path", "aim", "ghost", "text", "marker")
_OVERLAY_POINTS = {
    "path": (2, None),
    "aim": (2, 2),
    "ghost": (1, 1),
    "text": (1, 1),
    "marker": (1, 1),
}


@dataclass(frozen=True)
class Overlay:
    """Something drawn over a position, in table coordinates (metres).

    ``path``: a polyline (a ball's track); ``aim``: an arrow from the cue
    ball along the cue direction; ``ghost``: a dashed ball outline where the
    cue ball must be at contact; ``text``: ``label`` written at the point;
    ``marker``: a cross at the point, with an optional label. Build them with
    the class methods.
    """

    kind: str
    points: tuple[Point, ...]
    colour: str = "#ffd84a"
    label: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in OVERLAY_KINDS:
            raise ValueError(f"overlay kind {self.kind!r} is not one of {', '.join(OVERLAY_KINDS)}")
        pts = tuple((float(p[0]), float(p[1])) for p in self.points)
        lo, hi = _OVERLAY_POINTS[self.kind]
        if len(pts) < lo or (hi is not None and len(pts) > hi):
            want = f"{lo}" if lo == hi else f"at least {lo}"
            raise ValueError(f"a {self.kind} overlay needs {want} point(s), got {len(pts)}")
        if not all(math.isfinite(v) for p in pts for v in p):
            raise ValueError(f"{self.kind} overlay has a non-finite point: {pts}")
        if self.kind == "text" and not self.label:
            raise ValueError("a text overlay needs a label")
        object.__setattr__(self, "points", pts)

    @classmethod
    def path(
        cls, points: Iterable[Point], colour: str = "#ffd84a", label: str | None = None
    ) -> Overlay:
        return cls("path", tuple(points), colour, label)

    @classmethod
    def aim(
        cls, start: Point, end: Point, colour: str = "#ffffff", label: str | None = None
    ) -> Overlay:
        return cls("aim", (start, end), colour, label)

    @classmethod
    def ghost(cls, at: Point, colour: str = "#ffffff", label: str | None = None) -> Overlay:
        return cls("ghost", (at,), colour, label)

    @classmethod
    def text(cls, at: Point, text: str, colour: str = "#ffffff") -> Overlay:
        return cls("text", (at,), colour, text)

    @classmethod
    def marker(cls, at: Point, colour: str = "#ffd84a", label: str | None = None) -> Overlay:
        return cls("marker", (at,), colour, label)


# ------------------------------------------------------------------ geometry
def _scr(t: Table, x: float, y: float) -> Point:
    """Table coordinates to drawing coordinates (a quarter turn clockwise)."""
    return (y, t.width - x)


def _scr_all(t: Table, pts: Iterable[Point]) -> list[Point]:
    return [_scr(t, x, y) for x, y in pts]


def _arc(centre: Point, radius: float, a0: float, a1: float, n: int = 12) -> list[Point]:
    """Points on a circle from angle a0 to a1 the short way round."""
    d = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi
    return [
        (
            centre[0] + radius * math.cos(a0 + d * k / n),
            centre[1] + radius * math.sin(a0 + d * k / n),
        )
        for k in range(n + 1)
    ]


def _jaw_outline(p: Pocket, which: int) -> tuple[Point, list[Point], Point]:
    """For jaw ``which`` of a pocket: the point where it meets its cushion's
    nose line, the exposed arc (nose point to facing start) and the facing
    start."""
    jaw = p.jaws[which]
    other = p.jaws[1 - which]
    cx, cy = jaw.centre
    ux, uy = other.centre[0] - cx, other.centre[1] - cy
    n = math.hypot(ux, uy)
    ux, uy = ux / n, uy / n
    # The jaw lies behind its cushion's nose line, tangent to it: the nose
    # point is one jaw radius from the centre toward the table.
    nx, ny = _into_table(p, jaw.cushion)
    nose = (cx + nx * jaw.radius, cy + ny * jaw.radius)
    facing = (cx + ux * jaw.radius, cy + uy * jaw.radius)
    arc = _arc(jaw.centre, jaw.radius, math.atan2(ny, nx), math.atan2(uy, ux))
    return nose, arc, facing


def _into_table(p: Pocket, cushion: str) -> Point:
    if cushion == "front":
        return (0.0, 1.0)
    if cushion == "rear":
        return (0.0, -1.0)
    return (1.0, 0.0) if cushion.startswith("left") else (-1.0, 0.0)


def _cushion_polygon(t: Table, name: str) -> list[Point]:
    """A cushion segment: its nose line, the rounded jaw at each end, and the
    facing behind each jaw out to the back of the cushion."""
    c = t.cushions[name]
    nx, ny = c.normal
    ox, oy = -nx, -ny
    ends: list[list[Point]] = []
    for end in (c.start, c.end):
        pocket = next(
            p
            for p in t.pockets.values()
            for j in p.jaws
            if j.cushion == name
            and math.hypot(
                j.centre[0] - end[0] - ox * j.radius, j.centre[1] - end[1] - oy * j.radius
            )
            < 1e-9
        )
        which = 0 if pocket.jaws[0].cushion == name else 1
        nose, arc, facing = _jaw_outline(pocket, which)
        # Follow the facing along the pocket axis until the back of the cushion.
        behind = (facing[0] - end[0]) * ox + (facing[1] - end[1]) * oy
        along = pocket.axis[0] * ox + pocket.axis[1] * oy
        s = max(0.0, (CUSHION_WIDTH - behind) / along) if along > 1e-9 else pocket.depth
        back = (facing[0] + pocket.axis[0] * s, facing[1] + pocket.axis[1] * s)
        ends.append([nose, *arc, back])
    start_side, end_side = ends
    return [*end_side, *reversed(start_side)]


def _pocket_polygons(p: Pocket) -> tuple[list[Point], list[Point]]:
    """The pocket opening (cloth between the jaws and the facings) and the
    hole beyond the capture line."""
    nose1, arc1, f1 = _jaw_outline(p, 0)
    nose2, arc2, f2 = _jaw_outline(p, 1)
    ax, ay = p.axis
    d = p.depth
    e1 = (f1[0] + ax * d, f1[1] + ay * d)
    e2 = (f2[0] + ax * d, f2[1] + ay * d)
    opening = [nose1, *arc1, e1, e2, *reversed(arc2), nose2]
    c1 = (f1[0] + ax * p.capture_depth, f1[1] + ay * p.capture_depth)
    c2 = (f2[0] + ax * p.capture_depth, f2[1] + ay * p.capture_depth)
    mid = ((e1[0] + e2[0]) / 2, (e1[1] + e2[1]) / 2)
    rim = _arc(mid, p.mouth / 2, math.atan2(e1[1] - mid[1], e1[0] - mid[0]), math.atan2(ay, ax), 8)
    rim2 = _arc(mid, p.mouth / 2, math.atan2(ay, ax), math.atan2(e2[1] - mid[1], e2[0] - mid[0]), 8)
    hole = [c1, *rim, *rim2[1:], c2]
    return opening, hole


def _extent(t: Table, panel: bool) -> tuple[float, float, float, float]:
    """Drawing-coordinate bounds (x0, x1, y0, y1) of the picture."""
    m = CUSHION_WIDTH + RAIL_WIDTH
    y0 = -m - (PANEL_HEIGHT if panel else 0.0)
    return (-m, t.length + m, y0, t.width + m)


# --------------------------------------------------------------------- balls
def ball_style(ball: str) -> tuple[str, str, str]:
    """(face colour, label colour, label) of a ball: white object balls with
    black numbers, the coloured ball red-orange, five-ball whites, reds and
    yellow labelled by id."""
    if ball == "0":
        return COLOURED_BALL, "#ffffff", "0"
    if ball in FIVE_BALL_IDS:
        text = "#ffffff" if ball.startswith("r") else "#111111"
        return _BALL_FACE[ball], text, ball
    return _WHITE, "#111111", ball


def _draw_ball(
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
        opening, hole = _pocket_polygons(p)
        ax.add_patch(
            Polygon(
                _scr_all(t, opening), closed=True, facecolor=CLOTH, edgecolor="none", zorder=1.5
            )
        )
        ax.add_patch(
            Polygon(_scr_all(t, hole), closed=True, facecolor=HOLE, edgecolor="none", zorder=1.6)
        )
    for name in t.cushions:
        ax.add_patch(
            Polygon(
                _scr_all(t, _cushion_polygon(t, name)),
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
    p0, p1 = _scr(t, sx, sy), _scr(t, ex, ey)
    ax.plot([p0[0], p1[0]], [p0[1], p1[1]], linestyle=(0, (4, 3)), **kw)
    for spot in (t.front_spot, t.centre_spot, t.rear_spot):
        ax.add_patch(Circle(_scr(t, *spot), 0.009, color=MARKING, zorder=1.9))


def _draw_balls(ax: Axes, position: Position, fontsize: float) -> None:
    t = position.table
    for b, x, y in position.balls:
        _draw_ball(ax, _scr(t, x, y), t.ball_radius, b, fontsize)


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
        pts = _scr_all(t, o.points)
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


# ------------------------------------------------------------------ geometry
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
        opening, hole = _pocket_polygons(p)
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
        "cushions": {name: pts(_cushion_polygon(t, name)) for name in t.cushions},
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


# --------------------------------------------------------------------- panel
_VARIANT_NAMES = {
    "free": "free pyramid",
    "combined": "combined pyramid",
    "moscow": "Moscow pyramid",
    "nevskaya": "Nevskaya pyramid",
    "dynamic": "dynamic pyramid",
    "classic71": "classic pyramid (71)",
    "five_ball": "five balls with caroms",
}


def _variant_name(variant: str) -> str:
    return _VARIANT_NAMES.get(variant, variant)


_IN_HAND_NAMES = {
    "house": "in the house",
    "rear_house": "beyond the rear line",
    "anywhere": "anywhere",
}


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
            _draw_ball(ax, (x + r, yrow), r, b, fontsize * 0.9, zorder=5)
            x += 2 * r + 0.012
    status = [_variant_name(position.variant)]
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
        note = f"ball in hand {_IN_HAND_NAMES[position.in_hand]}:"
        ax.text(
            t.length + m - 0.03 - 3 * r,
            yrow,
            note,
            fontsize=fontsize * 1.2,
            color="#111111",
            va="center",
            ha="right",
        )
        _draw_ball(ax, (t.length + m - 0.03 - r, yrow), r, cue, fontsize * 0.9)


# ------------------------------------------------------------------ figures
def _new_figure(
    extent: tuple[float, float, float, float], px_per_m: float, dpi: float
) -> tuple[Figure, Axes]:
    from matplotlib.figure import Figure

    x0, x1, y0, y1 = extent
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
    x0, x1, y0, y1 = _extent(t, panel)
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


# ---------------------------------------------------------------------- RGB
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
    _draw_ball(ax, (0.0, 0.0), diameter_px / 2, ball, diameter_px * 72 / 100 * 0.42)
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
    x0, x1, y0, y1 = _extent(t, panel=False)
    sx, sy = w / (x1 - x0), h / (y1 - y0)
    d = max(3, round(2 * t.ball_radius * sx))
    for b, x, y in position.balls:
        X, Y = _scr(t, x, y)
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


# --------------------------------------------------------------------- ANSI
ANSI_COLUMNS = 36  # cells along the table; each cell is three characters wide
ANSI_ROWS = 26  # cells across: about one ball diameter each; a character is ~2x taller than wide


def render_ansi(position: Position) -> str:
    """A text picture: the table horizontally as in the PNG (house end on the
    left, the left cushion on top), three characters per cell, ``O`` pockets,
    ``:`` the house and centre lines, ``+`` the spots; then the frame state.

    A ball that falls in an occupied cell moves to the nearest free one, so a
    rack stays readable at this resolution.
    """
    t = position.table
    cols, rows = ANSI_COLUMNS, ANSI_ROWS
    grid = [["   " for _ in range(cols)] for _ in range(rows)]

    def cell_of(x: float, y: float) -> tuple[int, int]:
        r = min(rows - 1, max(0, int(x / t.width * rows)))
        c = min(cols - 1, max(0, int(y / t.length * cols)))
        return r, c

    for line in (t.house_line, t.centre_line):
        c = min(cols - 1, int(line / t.length * cols))
        for r in range(rows):
            grid[r][c] = "  :"
    for spot in (t.front_spot, t.centre_spot, t.rear_spot):
        r, c = cell_of(*spot)
        grid[r][c] = "  +"
    taken: set[tuple[int, int]] = set()
    for b, x, y in position.balls:
        r, c = cell_of(x, y)
        if (r, c) in taken:
            free = [
                (abs(rr - r) + abs(cc - c), abs(cc - c), rr, cc)
                for rr in range(max(0, r - 3), min(rows, r + 4))
                for cc in range(max(0, c - 3), min(cols, c + 4))
                if (rr, cc) not in taken
            ]
            if free:
                _, _, r, c = min(free)
        taken.add((r, c))
        grid[r][c] = b.rjust(3)
    half = cols * 3 // 2
    border = "O" + "=" * (half - 1) + "O" + "=" * (cols * 3 - half) + "O"
    lines = [border]
    lines += ["|" + "".join(row) + "|" for row in grid]
    lines.append(border)
    lines.append(_status_text(position))
    return "\n".join(lines)


def _status_text(position: Position) -> str:
    """The frame state in words, for the text picture."""
    out = [f"{_variant_name(position.variant)}" + ("  (break shot)" if position.is_break else "")]
    for p in (0, 1):
        arrow = ">" if position.to_move == p else " "
        shelf = " ".join(position.shelves[p]) or "-"
        owed = f"  owes {position.owed[p]}" if position.owed[p] else ""
        out.append(f"{arrow} player {p + 1}: score {position.score[p]}  shelf {shelf}{owed}")
    if position.in_hand is not None:
        cue = cue_ball_of(position.variant, position.to_move)
        out.append(f"ball in hand: {cue} ({_IN_HAND_NAMES[position.in_hand]})")
    return "\n".join(out)
