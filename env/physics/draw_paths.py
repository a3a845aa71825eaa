"""Pictures of a simulated shot: every ball's path (PNG) and an animation
(GIF), drawn with env/render/. matplotlib and Pillow load lazily."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from piramida.env.errors import InvalidPositionError
from piramida.env.physics.result import ShotResult
from piramida.env.position import Position

PATH_COLOURS = ("#ffd84a", "#7fd3ff", "#ff9e7a", "#c7a4ff", "#9ff29f", "#ffffff")


def path_overlays(result: ShotResult):
    """One path overlay per ball that moved, and a marker where it dropped."""
    from piramida.env.render import Overlay

    out = []
    for k, (_b, (_, xs, ys)) in enumerate(sorted(result.trajectories.items())):
        pts = list(zip(xs.tolist(), ys.tolist(), strict=True))
        if len(pts) < 2 or max(float(np.ptp(xs)), float(np.ptp(ys))) < 1e-6:
            continue
        out.append(Overlay.path(pts, colour=PATH_COLOURS[k % len(PATH_COLOURS)]))
    for b, pocket in result.pocketed:
        _, xs, ys = result.trajectories[b]
        out.append(Overlay.marker((float(xs[-1]), float(ys[-1])), label=f"{b}->{pocket}"))
    return out


def start_position(result: ShotResult) -> Position:
    """The position the shot started from, with the struck ball placed."""
    balls = {b: (float(xs[0]), float(ys[0])) for b, (_, xs, ys) in result.trajectories.items()}
    return result.final.replace(balls=tuple((b, x, y) for b, (x, y) in balls.items()))


def draw_shot(result: ShotResult, path: str | Path, title: str | None = None) -> None:
    """PNG: the start position with every ball's path drawn over it."""
    from piramida.env.render import draw_position

    draw_position(start_position(result), overlays=path_overlays(result), path=path, title=title)


def animate_shot(
    result: ShotResult, path: str | Path, fps: int = 20, max_seconds: float = 20.0
) -> int:
    """GIF of the shot in real time (capped at ``max_seconds``); returns the
    number of frames."""
    from PIL import Image

    from piramida.env.render import render_rgb

    end = min(result.duration, max_seconds)
    n = max(2, int(end * fps) + 2)
    frames = []
    last = None
    for k in range(n):
        t = min(k / fps, end)
        states = result.states_at(t)
        try:
            pos = result.final.replace(
                balls=tuple((b, float(s[0]), float(s[1])) for b, s in states.items())
            )
        except InvalidPositionError:
            # A ball hanging exactly on a jaw in mid-shot can miss the
            # validator's nanometre tolerance; keep the previous frame.
            pos = last
        if pos is None:
            continue
        last = pos
        frames.append(Image.fromarray(render_rgb(pos)))
    frames[0].save(
        path, save_all=True, append_images=frames[1:], duration=int(1000 / fps), loop=0, optimize=False
    )
    return len(frames)
