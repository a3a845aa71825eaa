"""A text picture of a position (gym's ``ansi`` render mode and
``piramida show``): the table on a grid of characters and the frame state
in words."""

from __future__ import annotations

from piramida.env.position import Position, cue_ball_of
from piramida.env.render.common import IN_HAND_NAMES, variant_name

ANSI_COLUMNS = 36  # cells along the table; each cell is three characters wide
ANSI_ROWS = 26  # cells across: about one ball diameter each; a character is ~2x taller than wide


def render_ansi(position: Position) -> str:
    """A text picture: the table horizontally as in the PNG (house end on the
    left, the left cushion on top), three characters per cell, ``O`` pockets,
    ``:`` the house and centre lines, ``+`` the spots; then the frame state.

    A ball that falls in an occupied cell moves to the nearest free one, so a
    rack stays readable at this resolution. A ball on the rail (seed 003,
    special cases) is written into the border beside its cushion (its id on
    a long cushion, ``@`` on a short one) and named under the table.
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
    top, bottom = list(border), list(border)
    sides = [["|", "|"] for _ in range(rows)]
    for b, x, y in position.rail:
        r, c = cell_of(x, y)
        if 0.0 <= y <= t.length:
            edge = top if x < 0 else bottom
            edge[1 + 3 * c : 4 + 3 * c] = list(b.rjust(3, "="))
        else:
            sides[r][0 if y < 0 else 1] = "@"
    lines = ["".join(top)]
    lines += [left + "".join(row) + right for (left, right), row in zip(sides, grid, strict=True)]
    lines.append("".join(bottom))
    lines.append(_status_text(position))
    return "\n".join(lines)


def _status_text(position: Position) -> str:
    """The frame state in words, for the text picture."""
    out = [f"{variant_name(position.variant)}" + ("  (break shot)" if position.is_break else "")]
    for p in (0, 1):
        arrow = ">" if position.to_move == p else " "
        shelf = " ".join(position.shelves[p]) or "-"
        owed = f"  owes {position.owed[p]}" if position.owed[p] else ""
        out.append(f"{arrow} player {p + 1}: score {position.score[p]}  shelf {shelf}{owed}")
    if position.in_hand is not None:
        cue = cue_ball_of(position.variant, position.to_move)
        out.append(f"ball in hand: {cue} ({IN_HAND_NAMES[position.in_hand]})")
    if position.rail:
        out.append(f"on the rail: {' '.join(b for b, _, _ in position.rail)} (to be placed against the cushion)")
    return "\n".join(out)


__all__ = ["ANSI_COLUMNS", "ANSI_ROWS", "render_ansi"]
