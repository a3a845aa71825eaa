"""The page at a desktop and a phone width: docs/ui_desktop.png (1400x900,
a frame against greedy from the mid-game position of
docs/examples/combined_midgame.json, in the Play tab) and docs/ui_phone.png
(390x844, the Position tab with the same position), as docs/ui.md shows
them. Run from the repository root::

    .venv/bin/python -m bench.web_screens docs

``set_viewport`` (the window sized so that the page gets exactly the
width and height asked for) is shared with tests/web/test_web_layout.py.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from bench.web import browser_missing, load, midgame_text, page_url, start_browser, tab, wait_js

DESKTOP = (1400, 900)
PHONE = (390, 844)
MAX_BYTES = 250_000


def set_viewport(driver: Any, width: int, height: int) -> tuple[int, int]:
    """Size the window so that ``innerWidth`` x ``innerHeight`` is ``width``
    x ``height`` (the browser's own frame added); the inner size got."""
    size = (width, height)
    driver.set_window_size(width, height)
    for _ in range(50):  # the page sees a new size a moment after the window gets it
        inner_w, inner_h, outer_w, outer_h = driver.execute_script(
            "return [innerWidth, innerHeight, outerWidth, outerHeight]"
        )
        if (inner_w, inner_h) == size:
            break
        want = (outer_w + width - inner_w, outer_h + height - inner_h)
        if driver.get_window_size() != {"width": want[0], "height": want[1]}:
            driver.set_window_size(*want)
        time.sleep(0.05)
    return tuple(driver.execute_script("return [innerWidth, innerHeight]"))  # type: ignore[return-value]


def start_frame(driver: Any, timeout: float = 120) -> None:
    """Play tab: a frame against greedy from the edited position, without
    animation; back once it is the player's turn (or the frame is over)."""
    tab(driver, "play")
    driver.execute_script(
        "document.getElementById('play-from-position').checked = true;"
        "document.getElementById('play-animate').checked = false;"
    )
    driver.find_element("id", "play-new").click()
    wait_js(driver, "window.piramida.play && window.piramida.play.to_act !== 'agent' && !window.piramida.playBusy", timeout)


def _save(driver: Any, path: Path) -> Path:
    driver.save_screenshot(str(path))
    size = path.stat().st_size
    if size > MAX_BYTES:
        print(f"warning: {path} is {size} bytes (over {MAX_BYTES})", file=sys.stderr)
    return path


def screenshots(folder: Path) -> list[Path]:
    from piramida.web.server import BackgroundServer

    folder.mkdir(parents=True, exist_ok=True)
    out: list[Path] = []
    with BackgroundServer() as server:
        driver = start_browser(*DESKTOP)
        try:
            set_viewport(driver, *DESKTOP)
            load(driver, page_url(server.url, midgame_text()))
            start_frame(driver)
            time.sleep(0.3)
            out.append(_save(driver, folder / "ui_desktop.png"))
            set_viewport(driver, *PHONE)
            load(driver, page_url(server.url, midgame_text()))
            time.sleep(0.3)
            out.append(_save(driver, folder / "ui_phone.png"))
        finally:
            driver.quit()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.web_screens", description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("folder", type=Path, help="where ui_desktop.png and ui_phone.png are written (docs)")
    args = ap.parse_args(argv)
    reason = browser_missing()
    if reason:
        print(f"error: {reason}", file=sys.stderr)
        return 2
    for p in screenshots(args.folder):
        print(f"wrote {p}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
