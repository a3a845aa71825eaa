"""What every picture of a position shares: the sizes and colours, the
balls' styles, the overlays, and the table's outline in drawing
coordinates.

The table is drawn horizontally, seen from above with the house end on the
left: table x (across, docs/game_rules.md §1) becomes the picture's vertical axis with
the left cushion (x = 0) at the top, table y (along) the horizontal axis with
the front cushion (y = 0) on the left. That is the table turned a quarter
turn clockwise from the player's view at the house end, so left and right
pockets keep their names (``fl``, ``ml``, ``rl`` along the top edge).
Everything is drawn in metres from the geometry of ``Table`` (cushion
segments, jaw circles, facings, capture lines), so the picture shows exactly
what the physics and the rules use.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from piramida.env.position import FIVE_BALL_IDS, RAIL_REACH
from piramida.env.table import Pocket, Table

Point = tuple[float, float]

# Widths around the playing surface, metres: cushion rubber, then the rail
# (together the reach of a position's balls on the rail, ``RAIL_REACH``).
CUSHION_WIDTH = 0.05
RAIL_WIDTH = 0.09
assert math.isclose(CUSHION_WIDTH + RAIL_WIDTH, RAIL_REACH)
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
def drawing_point(t: Table, x: float, y: float) -> Point:
    """Table coordinates to drawing coordinates (a quarter turn clockwise)."""
    return (y, t.width - x)


def drawing_points(t: Table, pts: Iterable[Point]) -> list[Point]:
    """``drawing_point`` of each table point."""
    return [drawing_point(t, x, y) for x, y in pts]


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


def cushion_polygon(t: Table, name: str) -> list[Point]:
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


def pocket_polygons(p: Pocket) -> tuple[list[Point], list[Point]]:
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


def extent(t: Table, panel: bool) -> tuple[float, float, float, float]:
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


# ------------------------------------------------------------------- names
_VARIANT_NAMES = {
    "free": "free pyramid",
    "combined": "combined pyramid",
    "moscow": "Moscow pyramid",
    "nevskaya": "Nevskaya pyramid",
    "dynamic": "dynamic pyramid",
    "classic71": "classic pyramid (71)",
    "five_ball": "five balls with caroms",
}


def variant_name(variant: str) -> str:
    """The variant's name in words, for the panel and the text picture."""
    return _VARIANT_NAMES.get(variant, variant)


#: Where a ball in hand may be placed, in words.
IN_HAND_NAMES = {
    "house": "in the house",
    "rear_house": "beyond the rear line",
    "anywhere": "anywhere",
}


__all__ = [
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
    "IN_HAND_NAMES",
    "RGB_PX_PER_M",
    "Overlay",
    "Point",
    "ball_style",
    "cushion_polygon",
    "drawing_point",
    "drawing_points",
    "extent",
    "pocket_polygons",
    "variant_name",
]
