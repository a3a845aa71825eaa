"""Table geometry and constants, read from ``configs/tables/*.toml`` (docs/game_rules.md §1).

The frame is docs/game_rules.md §1: metres, origin at the left corner of the house end,
x across the table (0..width), y along it (0..length), y = 0 the front
cushion. Geometry is derived once here so that the physics, the rules and the
drawing all agree on where a cushion ends and a pocket begins.

Pocket model: each cushion segment ends in a jaw, a circle of ``jaw_radius``
tangent to the cushion nose line at the segment's end, lying behind the nose.
The two jaws of a pocket are placed so that their closest distance (the
mouth) is the configured mouth width. Behind the jaws two straight facings run
parallel to the pocket's axis, one mouth apart. A ball drops when its centre
passes ``capture_depth`` behind the mouth line between the facings.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from piramida.configs import CONFIG_DIR
from piramida.env.errors import InvalidTableError

POCKETS: tuple[str, ...] = ("fl", "fr", "ml", "mr", "rl", "rr")
CUSHIONS: tuple[str, ...] = (
    "front",
    "rear",
    "left_front",
    "left_rear",
    "right_front",
    "right_rear",
)

Point = tuple[float, float]


@dataclass(frozen=True)
class Cushion:
    """A straight cushion segment between two pockets.

    ``start``/``end`` are the points on the nose line where the jaws begin;
    ``normal`` points into the playing area. A ball touches the cushion when
    its centre is one radius from the nose line, between start and end.
    """

    name: str
    start: Point
    end: Point
    normal: Point


@dataclass(frozen=True)
class Jaw:
    """A rounded jaw tip: a circle behind the nose line, owned by a cushion."""

    pocket: str
    cushion: str
    centre: Point
    radius: float


@dataclass(frozen=True)
class Pocket:
    """A pocket: mouth centre, axis (unit vector pointing out of the table),
    two jaws, two straight facings and the capture line."""

    name: str
    kind: str  # "corner" or "middle"
    mouth_centre: Point
    axis: Point
    mouth: float
    jaws: tuple[Jaw, Jaw]
    facings: tuple[tuple[Point, Point], tuple[Point, Point]]
    capture_depth: float
    depth: float

    def local(self, x: float, y: float) -> tuple[float, float]:
        """(u, v): u along the axis from the mouth line (positive = into the
        pocket), v across it."""
        dx, dy = x - self.mouth_centre[0], y - self.mouth_centre[1]
        ax, ay = self.axis
        return dx * ax + dy * ay, -dx * ay + dy * ax

    @property
    def capture_line(self) -> tuple[Point, Point]:
        """The segment a ball centre must cross to drop (for drawing)."""
        ax, ay = self.axis
        cx = self.mouth_centre[0] + ax * self.capture_depth
        cy = self.mouth_centre[1] + ay * self.capture_depth
        h = self.mouth / 2
        return (cx - ay * h, cy + ax * h), (cx + ay * h, cy - ax * h)


@dataclass(frozen=True)
class Physics:
    """Physical constants (see the table TOML for sources)."""

    g: float
    mu_s: float
    mu_r: float
    mu_sp: float
    e_ball: float
    mu_ball: float
    e_cushion: float
    mu_cushion: float
    cue_mass: float
    e_cue: float
    cushion_model: str
    launch_speed: float
    # Optional keys (defaults below when a table file omits them).
    # Ball-ball friction: "constant" (mu_ball) or "alciatore", the fit
    # mu(v) = a + b exp(-c v) of TP A-14, v the contact's slip speed in m/s.
    ball_friction_model: str = "alciatore"
    mu_ball_a: float = 9.951e-3
    mu_ball_b: float = 0.108
    mu_ball_c: float = 1.088
    # Squirt: the cue's effective end mass (kg, Alciatore TP A-31); 0 = none.
    cue_end_mass: float = 0.007


@dataclass(frozen=True)
class Table:
    """The table: dimensions, ball, pockets, cushions, markings, physics."""

    name: str
    length: float
    width: float
    cushion_height_ratio: float
    ball_radius: float
    ball_mass: float
    corner_mouth: float
    corner_jaw_radius: float
    corner_capture_depth: float
    corner_depth: float
    middle_mouth: float
    middle_jaw_radius: float
    middle_capture_depth: float
    middle_depth: float
    physics: Physics
    source: str = "<inline>"

    # ------------------------------------------------------------------ loading
    @classmethod
    def load(cls, name_or_path: str | Path = "russian_12ft") -> Table:
        """Load a table by config name (``configs/tables/NAME.toml``) or path."""
        return _load_table(str(name_or_path))

    @classmethod
    def default(cls) -> Table:
        return _load_table("russian_12ft")

    # ---------------------------------------------------------------- markings
    @property
    def cushion_height(self) -> float:
        return self.cushion_height_ratio * 2 * self.ball_radius

    @property
    def centre_spot(self) -> Point:
        return (self.width / 2, self.length / 2)

    @property
    def front_spot(self) -> Point:
        return (self.width / 2, self.length / 4)

    @property
    def rear_spot(self) -> Point:
        return (self.width / 2, 3 * self.length / 4)

    @property
    def centre_line(self) -> float:
        """y of the centre line."""
        return self.length / 2

    @property
    def house_line(self) -> float:
        """y of the house line; the house is y < house_line (items 10.1-10.2)."""
        return self.length / 4

    @property
    def rear_line(self) -> float:
        """y of the line through the rear spot; beyond it is the temporary
        rear house of item 21 (docs/game_rules.md §5.2)."""
        return 3 * self.length / 4

    @property
    def spot_line(self) -> tuple[Point, Point]:
        """From the rear spot to the rear cushion along x = width/2."""
        return (self.rear_spot, (self.width / 2, self.length))

    def in_house(self, x: float, y: float) -> bool:
        """Strictly inside the house: a ball on the house line is outside it
        (docs/game_rules.md §1, item 1.4: a ball on a line is on the far side)."""
        return y < self.house_line

    def in_rear_house(self, x: float, y: float) -> bool:
        """Strictly beyond the rear line (docs/game_rules.md §5.2 temporary house)."""
        return y > self.rear_line

    # ---------------------------------------------------------------- geometry
    # Cached on the instance: hashing a Table for a shared cache on every
    # access costs more than the physics of a short shot.
    @cached_property
    def pockets(self) -> dict[str, Pocket]:
        return _pockets(self)

    @cached_property
    def cushions(self) -> dict[str, Cushion]:
        return _cushions(self)

    def cushion_of_pocket_side(self, pocket: str) -> tuple[str, str]:
        """The two cushions whose jaws form a pocket."""
        p = self.pockets[pocket]
        return p.jaws[0].cushion, p.jaws[1].cushion

    def on_surface(self, x: float, y: float) -> bool:
        """Can a ball's centre be here without cutting a cushion or jaw?

        True inside the rectangle one radius in from every nose line, or inside
        a pocket mouth up to the capture line (a ball hanging in the jaws).
        """
        r = self.ball_radius
        if not (math.isfinite(x) and math.isfinite(y)):
            return False
        eps = 1e-9
        if r - eps <= x <= self.width - r + eps and r - eps <= y <= self.length - r + eps:
            return True
        for p in self.pockets.values():
            u, v = p.local(x, y)
            # Past the mouth line the facings bound the ball; in front of it,
            # within the span of the jaws, only the jaws and the noses do.
            if u >= 0:
                inside = abs(v) <= p.mouth / 2 - r + eps
            else:
                inside = abs(v) <= p.mouth / 2 + p.jaws[0].radius and self._clear_of_noses(x, y)
            if -3 * r <= u <= p.capture_depth and inside:
                if all(
                    math.hypot(x - j.centre[0], y - j.centre[1]) >= r + j.radius - eps
                    for j in p.jaws
                ):
                    return True
        return False

    def _clear_of_noses(self, x: float, y: float) -> bool:
        """No cushion nose segment is within a ball radius of (x, y)."""
        r, eps = self.ball_radius, 1e-9
        for c in self.cushions.values():
            (sx, sy), (ex, ey) = c.start, c.end
            nx, ny = c.normal
            if (x - sx) * nx + (y - sy) * ny >= r - eps:
                continue
            tx, ty = ex - sx, ey - sy
            seg = math.hypot(tx, ty)
            s = ((x - sx) * tx + (y - sy) * ty) / seg
            if 0.0 <= s <= seg:
                return False
        return True

    def frozen_cushion(self, x: float, y: float, tol: float = 1e-4) -> str | None:
        """The cushion a ball at (x, y) is frozen to (touching within ``tol``),
        or None."""
        r = self.ball_radius
        margin = r + tol
        if margin < x < self.width - margin and margin < y < self.length - margin:
            return None  # nowhere near a cushion nose
        for c in self.cushions.values():
            (sx, sy), (ex, ey) = c.start, c.end
            nx, ny = c.normal
            d = (x - sx) * nx + (y - sy) * ny
            if abs(d - r) > tol:
                continue
            tx, ty = ex - sx, ey - sy
            seg = math.hypot(tx, ty)
            s = ((x - sx) * tx + (y - sy) * ty) / seg
            if -1e-9 <= s <= seg + 1e-9:
                return c.name
        return None


# ---------------------------------------------------------------------- loading
_REQUIRED: dict[str, tuple[str, ...]] = {
    "table": ("name", "length", "width", "cushion_height_ratio"),
    "ball": ("radius", "mass"),
    "pockets.corner": ("mouth", "jaw_radius", "capture_depth", "depth"),
    "pockets.middle": ("mouth", "jaw_radius", "capture_depth", "depth"),
    "physics": (
        "g",
        "mu_s",
        "mu_r",
        "mu_sp",
        "e_ball",
        "mu_ball",
        "e_cushion",
        "mu_cushion",
        "cue_mass",
        "e_cue",
        "cushion_model",
        "launch_speed",
    ),
}
CUSHION_MODELS = ("han2005", "mathavan2010")
BALL_FRICTION_MODELS = ("constant", "alciatore")
#: Optional [physics] keys: a missing one takes the Physics default; a
#: number here may be zero (a + b exp(-c v) with b = 0 is a constant; no end
#: mass switches squirt off).
_OPTIONAL_PHYSICS: tuple[str, ...] = ("ball_friction_model", "mu_ball_a", "mu_ball_b", "mu_ball_c", "cue_end_mass")


def _resolve(name_or_path: str) -> Path:
    p = Path(name_or_path)
    if p.suffix == ".toml" or p.exists():
        return p
    return CONFIG_DIR / "tables" / f"{name_or_path}.toml"


@lru_cache(maxsize=16)
def _load_table(name_or_path: str) -> Table:
    path = _resolve(name_or_path)
    if not path.is_file():
        known = sorted(q.stem for q in (CONFIG_DIR / "tables").glob("*.toml"))
        raise InvalidTableError(f"table config {path} not found (known tables: {', '.join(known)})")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InvalidTableError(f"{path}: not valid TOML: {exc}") from None
    return table_from_dict(data, source=str(path))


def table_from_dict(data: dict[str, Any], source: str = "<inline>") -> Table:
    """Build a Table from parsed TOML; every missing or bad key is an error
    naming the file and the key."""
    vals: dict[str, Any] = {}
    for section, keys in _REQUIRED.items():
        node: Any = data
        for part in section.split("."):
            if not isinstance(node, dict) or part not in node:
                raise InvalidTableError(f"{source}: missing section [{section}]")
            node = node[part]
        for key in keys:
            if key not in node:
                raise InvalidTableError(f"{source}: missing key '{key}' in [{section}]")
            value = node[key]
            if key in ("name", "cushion_model"):
                if not isinstance(value, str) or not value:
                    raise InvalidTableError(f"{source}: [{section}] {key} must be a non-empty string")
            else:
                if isinstance(value, bool) or not isinstance(value, int | float):
                    raise InvalidTableError(
                        f"{source}: [{section}] {key} must be a number, got {value!r}"
                    )
                value = float(value)
                if not math.isfinite(value) or value <= 0:
                    raise InvalidTableError(
                        f"{source}: [{section}] {key} must be positive and finite, got {value!r}"
                    )
            vals[f"{section}.{key}"] = value
    if vals["physics.cushion_model"] not in CUSHION_MODELS:
        raise InvalidTableError(
            f"{source}: [physics] cushion_model must be one of {CUSHION_MODELS}, "
            f"got {vals['physics.cushion_model']!r}"
        )
    r = vals["ball.radius"]
    for kind in ("corner", "middle"):
        if vals[f"pockets.{kind}.mouth"] <= 2 * r:
            raise InvalidTableError(
                f"{source}: [pockets.{kind}] mouth {vals[f'pockets.{kind}.mouth']} must exceed "
                f"the ball diameter {2 * r}"
            )
    if vals["table.width"] < 8 * r or vals["table.length"] < 2 * vals["table.width"] * 0.9:
        raise InvalidTableError(f"{source}: [table] length/width are not a pyramid table's")
    opt: dict[str, Any] = {}
    for key in _OPTIONAL_PHYSICS:
        if key not in data["physics"]:
            continue
        value = data["physics"][key]
        if key == "ball_friction_model":
            if value not in BALL_FRICTION_MODELS:
                raise InvalidTableError(
                    f"{source}: [physics] ball_friction_model must be one of {BALL_FRICTION_MODELS}, got {value!r}"
                )
        else:
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
                raise InvalidTableError(
                    f"{source}: [physics] {key} must be a finite number >= 0, got {value!r}"
                )
            value = float(value)
        opt[key] = value
    phys = Physics(**{k: vals[f"physics.{k}"] for k in _REQUIRED["physics"]}, **opt)
    return Table(
        name=vals["table.name"],
        length=vals["table.length"],
        width=vals["table.width"],
        cushion_height_ratio=vals["table.cushion_height_ratio"],
        ball_radius=r,
        ball_mass=vals["ball.mass"],
        corner_mouth=vals["pockets.corner.mouth"],
        corner_jaw_radius=vals["pockets.corner.jaw_radius"],
        corner_capture_depth=vals["pockets.corner.capture_depth"],
        corner_depth=vals["pockets.corner.depth"],
        middle_mouth=vals["pockets.middle.mouth"],
        middle_jaw_radius=vals["pockets.middle.jaw_radius"],
        middle_capture_depth=vals["pockets.middle.capture_depth"],
        middle_depth=vals["pockets.middle.depth"],
        physics=phys,
        source=source,
    )


# --------------------------------------------------------------------- geometry
def corner_setback(t: Table) -> float:
    """Distance from the table corner, along each nose line, to where the
    cushion ends and the jaw begins, so that the jaws' gap is the mouth:
    sqrt(2) * (a + rj) - 2 rj = mouth."""
    rj = t.corner_jaw_radius
    return (t.corner_mouth + 2 * rj) / math.sqrt(2) - rj


def middle_half_gap(t: Table) -> float:
    """Half the distance between the two cushion ends at a middle pocket:
    2 (h - rj) = mouth."""
    return t.middle_mouth / 2 + t.middle_jaw_radius


@lru_cache(maxsize=16)
def _cushions(t: Table) -> dict[str, Cushion]:
    a = corner_setback(t)
    h = middle_half_gap(t)
    W, L = t.width, t.length
    m = L / 2
    out = [
        Cushion("front", (a, 0.0), (W - a, 0.0), (0.0, 1.0)),
        Cushion("rear", (a, L), (W - a, L), (0.0, -1.0)),
        Cushion("left_front", (0.0, a), (0.0, m - h), (1.0, 0.0)),
        Cushion("left_rear", (0.0, m + h), (0.0, L - a), (1.0, 0.0)),
        Cushion("right_front", (W, a), (W, m - h), (-1.0, 0.0)),
        Cushion("right_rear", (W, m + h), (W, L - a), (-1.0, 0.0)),
    ]
    return {c.name: c for c in out}


def _pocket(
    name: str,
    kind: str,
    jaws: tuple[tuple[str, Point], tuple[str, Point]],
    rj: float,
    mouth: float,
    capture_depth: float,
    depth: float,
) -> Pocket:
    (c1, p1), (c2, p2) = jaws
    mx, my = (p1[0] + p2[0]) / 2, (p1[1] + p2[1]) / 2
    # The axis points out of the table: perpendicular to the jaw-centre line.
    dx, dy = p2[0] - p1[0], p2[1] - p1[1]
    n = math.hypot(dx, dy)
    ax, ay = dy / n, -dx / n
    jaw1 = Jaw(name, c1, p1, rj)
    jaw2 = Jaw(name, c2, p2, rj)
    # Facings: tangent to each jaw at its closest point to the other, running
    # along the axis for ``depth``.
    ux, uy = dx / n, dy / n
    f1s = (p1[0] + ux * rj, p1[1] + uy * rj)
    f2s = (p2[0] - ux * rj, p2[1] - uy * rj)
    f1 = (f1s, (f1s[0] + ax * depth, f1s[1] + ay * depth))
    f2 = (f2s, (f2s[0] + ax * depth, f2s[1] + ay * depth))
    return Pocket(name, kind, (mx, my), (ax, ay), mouth, (jaw1, jaw2), (f1, f2), capture_depth, depth)


@lru_cache(maxsize=16)
def _pockets(t: Table) -> dict[str, Pocket]:
    a = corner_setback(t)
    h = middle_half_gap(t)
    rc, rm = t.corner_jaw_radius, t.middle_jaw_radius
    W, L = t.width, t.length
    m = L / 2
    cc, cd = t.corner_capture_depth, t.corner_depth
    mc, md = t.middle_capture_depth, t.middle_depth
    # Jaw order is chosen so that the axis (perpendicular, to the right of
    # jaw1 -> jaw2) points out of the table.
    pockets = [
        _pocket("fl", "corner", (("left_front", (-rc, a)), ("front", (a, -rc))), rc, t.corner_mouth, cc, cd),
        _pocket("fr", "corner", (("front", (W - a, -rc)), ("right_front", (W + rc, a))), rc, t.corner_mouth, cc, cd),
        _pocket("ml", "middle", (("left_rear", (-rm, m + h)), ("left_front", (-rm, m - h))), rm, t.middle_mouth, mc, md),
        _pocket("mr", "middle", (("right_front", (W + rm, m - h)), ("right_rear", (W + rm, m + h))), rm, t.middle_mouth, mc, md),
        _pocket("rl", "corner", (("rear", (a, L + rc)), ("left_rear", (-rc, L - a))), rc, t.corner_mouth, cc, cd),
        _pocket("rr", "corner", (("right_rear", (W + rc, L - a)), ("rear", (W - a, L + rc))), rc, t.corner_mouth, cc, cd),
    ]
    for p in pockets:
        # Sanity: the axis must point away from the centre of the table.
        cx, cy = W / 2 - p.mouth_centre[0], m - p.mouth_centre[1]
        if cx * p.axis[0] + cy * p.axis[1] >= 0:  # pragma: no cover - geometry bug
            raise AssertionError(f"pocket {p.name} axis points into the table")
    return {p.name: p for p in pockets}
