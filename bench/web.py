"""The web page (``piramida serve``) measured in headless Chromium, and the
screenshots of docs/ui.md.

Run from the repository root (Debian's chromium and chromium-driver
installed, as ``.ci/run`` does)::

    .venv/bin/python -m bench.web [--runs 3] [--quick] [--json] [--out FILE]
    .venv/bin/python -m bench.web --screenshots docs      # docs/ui_*.png

A measuring run writes ``bench/results/web.json`` (``--out FILE`` writes
elsewhere).

It starts the application on a free loopback port in this process (the
library's ``piramida.web.server.BackgroundServer``, not the command line)
and measures, in the browser (``performance.now()`` in the page):

- page ready: from the start of navigation to the table drawn with its
  position (the page's ``debug.readyMs``), over ``--runs`` fresh loads;
- suggestion round trip at a 1 s budget: from the click's request to the
  three shots drawn (``debug.suggestMs``), on the mid-game position of
  docs/examples/combined_midgame.json;
- animation frames per second: a break animated at 1x, the frames the page
  drew divided by the animation's wall time.

The browser helpers (``browser_missing``, ``start_browser``, ``wait_js``)
are shared with tests/web/test_browser.py.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import time
import urllib.parse
from pathlib import Path
from typing import Any

from bench.record import write as write_record

REPO = Path(__file__).resolve().parents[1]
MIDGAME = REPO / "docs" / "examples" / "combined_midgame.json"
CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
CHROMEDRIVER = ("chromedriver",)


def _which(names: tuple[str, ...]) -> str | None:
    for n in names:
        found = shutil.which(n) or (f"/usr/bin/{n}" if Path(f"/usr/bin/{n}").is_file() else None)
        if found:
            return found
    return None


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    if _which(CHROMIUM) is None:
        return "chromium is not installed (apt-get install chromium chromium-driver)"
    if _which(CHROMEDRIVER) is None:
        return "chromedriver is not installed (apt-get install chromium-driver)"
    return None


def start_browser(width: int = 1400, height: int = 900) -> Any:
    """Headless Chromium under Selenium, with Debian's chromedriver (never
    Selenium's own download)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = str(_which(CHROMIUM))
    for arg in (
        "--headless=new",
        "--no-sandbox",  # root in CI
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-extensions",
        "--no-first-run",
        "--hide-scrollbars",
        f"--window-size={width},{height}",
        "--force-device-scale-factor=1",
    ):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(str(_which(CHROMEDRIVER))), options=opts)


def wait_js(driver: Any, script: str, timeout: float = 30.0, poll: float = 0.02) -> Any:
    """Poll ``return <script>`` until it is truthy; its value."""
    deadline = time.monotonic() + timeout
    while True:
        value = driver.execute_script(f"return {script}")
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"the page did not reach `{script}` in {timeout:g} s")
        time.sleep(poll)


def page_url(base: str, position_text: str | None = None) -> str:
    if position_text is None:
        return base
    return f"{base}#pos={urllib.parse.quote(position_text, safe='')}"


def midgame_text() -> str:
    from piramida.env.position import Position

    return Position.parse(MIDGAME.read_text(encoding="utf-8")).to_text()


def load(driver: Any, url: str) -> float:
    """Open the page; its ready time in ms from navigation start."""
    driver.get("about:blank")
    driver.get(url)
    return float(wait_js(driver, "window.piramida && window.piramida.debug.ready && window.piramida.debug.readyMs"))


def tab(driver: Any, name: str) -> None:
    driver.find_element("css selector", f'#tabs button[data-tab="{name}"]').click()


def select(driver: Any, element_id: str, value: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", element_id)).select_by_value(value)


def ask_suggestion(driver: Any, budget: str, skill: str = "pro", timeout: float = 60.0) -> float:
    """Click 'suggest' with the budget option ``budget`` (``sims:100``,
    ``budget:1s``); the round trip in ms once three shots are drawn."""
    tab(driver, "suggest")
    select(driver, "budget", budget)
    select(driver, "skill", skill)
    driver.execute_script("window.piramida.debug.suggestMs = null")
    driver.find_element("id", "suggest-go").click()
    return float(wait_js(driver, "window.piramida.debug.suggestMs", timeout))


def animate_break(driver: Any, base: str) -> dict[str, float]:
    """A hard break from the start of free pyramid, animated at 1x."""
    load(driver, base)
    tab(driver, "shot")
    driver.execute_script(
        "const f = (id, v) => { const e = document.getElementById(id); e.value = v;"
        " e.dispatchEvent(new Event('input')); };"
        "f('shot-phi', '90'); f('shot-v', '7');"
    )
    driver.find_element("id", "shot-go").click()
    wait_js(driver, "window.piramida.debug.animEndMs", 60)
    d = driver.execute_script("return window.piramida.debug")
    seconds = (d["animEndMs"] - d["animStart"]) / 1000.0
    duration = driver.execute_script("return window.piramida.anim ? window.piramida.anim.sim.duration : null")
    return {"frames": d["animFrames"], "wall_s": seconds, "fps": (d["animFrames"] - 1) / seconds,
            "shot_s": duration or 0.0}


def measure(runs: int) -> dict[str, Any]:
    from piramida.web.server import BackgroundServer

    out: dict[str, Any] = {}
    with BackgroundServer() as server:
        driver = start_browser()
        try:
            load(driver, server.url)  # the browser's own first start is not the page's
            ready = [load(driver, page_url(server.url, midgame_text())) for _ in range(runs)]
            out["page_ready_ms"] = {"runs": ready, "median": statistics.median(ready)}
            trips = []
            for _ in range(runs):
                load(driver, page_url(server.url, midgame_text()))
                trips.append(ask_suggestion(driver, "budget:1s"))
            out["suggest_1s_round_trip_ms"] = {"runs": trips, "median": statistics.median(trips)}
            anims = [animate_break(driver, server.url) for _ in range(runs)]
            fps = [a["fps"] for a in anims]
            out["animation"] = {"runs": anims, "median_fps": statistics.median(fps)}
        finally:
            driver.quit()
    out["targets"] = {"page_ready_ms": "< 1000", "suggest_1s_round_trip_ms": "< 2000", "fps": ">= 50"}
    return out


# ------------------------------------------------------------------ screenshots
def drag(driver: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    """Drag on the table canvas from one CSS pixel to another (offsets from
    the canvas's top-left corner)."""
    from selenium.webdriver.common.action_chains import ActionChains

    canvas = driver.find_element("id", "table")
    w, h = canvas.size["width"], canvas.size["height"]
    chain = ActionChains(driver, duration=50)
    chain.move_to_element_with_offset(canvas, int(start[0] - w / 2), int(start[1] - h / 2))
    chain.click_and_hold()
    steps = 6
    for k in range(1, steps + 1):
        x = start[0] + (end[0] - start[0]) * k / steps
        y = start[1] + (end[1] - start[1]) * k / steps
        chain.move_to_element_with_offset(canvas, int(x - w / 2), int(y - h / 2))
    chain.release()
    chain.perform()


def ball_pixel(driver: Any, ball: str) -> tuple[float, float]:
    """Where a ball on the table is drawn (CSS pixels from the canvas corner)."""
    x, y = driver.execute_script(
        "const p = window.piramida.pos.balls[arguments[0]]; return p ? p : null;", ball
    )
    return tuple(driver.execute_script("return table2css(arguments[0], arguments[1]);", x, y))  # type: ignore[return-value]


def stored_screenshot(folder: Path) -> Path:
    """docs/ui_stored.png: a tiny tournament's results file served (random
    against greedy, one pair), its second game opened in Play."""
    import tempfile

    from piramida.eval.tournament import TournamentConfig, run_tournament
    from piramida.web.server import BackgroundServer

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "ui_stored.png"
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "results.sqlite"
        run_tournament(TournamentConfig(("random", "greedy"), ("free",), 1, "pro", 3), db)
        with BackgroundServer(dbs=[db]) as server:
            driver = start_browser(1440, 960)
            try:
                load(driver, server.url)
                tab(driver, "play")
                wait_js(driver, "document.querySelectorAll('#stored-game option').length === 2")
                select(driver, "stored-game", "2")
                driver.find_element("id", "stored-open").click()
                wait_js(driver, "window.piramida.play && window.piramida.play.over", 60)
                time.sleep(0.3)
                driver.save_screenshot(str(path))
            finally:
                driver.quit()
    return path


def screenshots(folder: Path) -> list[Path]:
    """docs/ui_*.png: the editor, the suggestions with the cloud, an
    animation under way, a frame against greedy, a stored game opened."""
    from piramida.web.server import BackgroundServer

    folder.mkdir(parents=True, exist_ok=True)
    shots: list[Path] = []

    def snap(name: str) -> None:
        path = folder / f"ui_{name}.png"
        driver.save_screenshot(str(path))
        shots.append(path)

    with BackgroundServer() as server:
        driver = start_browser(1440, 960)
        try:
            # 1. the editor: the mid-game position, ball 14 dragged to the middle.
            load(driver, page_url(server.url, midgame_text()))
            src = ball_pixel(driver, "14")
            dst = driver.execute_script("return table2css(0.9, 1.6);")
            drag(driver, src, dst)
            wait_js(driver, "Math.abs(window.piramida.pos.balls['14'][1] - 1.6) < 0.05")
            time.sleep(0.3)
            snap("editor")
            # 2. suggestions: three shots and the cloud of the first.
            load(driver, page_url(server.url, midgame_text()))
            ask_suggestion(driver, "sims:1000")
            wait_js(driver, "window.piramida.cloud")
            time.sleep(0.3)
            snap("suggest")
            # 3. the animation of the best shot, half way.
            driver.find_element("css selector", ".suggestion .watch").click()
            wait_js(driver, "window.piramida.anim && window.piramida.anim.t > 1.1", 30)
            driver.find_element("id", "anim-play").click()
            time.sleep(0.3)
            snap("animate")
            # 4. a frame against greedy: a foul of ours, the agent's choice and
            # its shots, then a hint for our next shot.
            load(driver, server.url)
            tab(driver, "play")
            driver.find_element("id", "play-seed").clear()
            driver.find_element("id", "play-seed").send_keys("3")
            select(driver, "play-noise", "amateur")
            driver.find_element("id", "play-animate").click()  # off: quicker
            driver.find_element("id", "play-new").click()
            idle = "window.piramida.play && window.piramida.play.to_act !== 'agent' && !window.piramida.playBusy"
            wait_js(driver, idle, 120)
            fouled = False
            for _ in range(6):
                st = driver.execute_script("return window.piramida.play")
                if st["over"]:
                    break
                if st["next"]["kind"] == "choice":
                    driver.find_element("css selector", "#play-choices button").click()
                elif not fouled:
                    # A stroke too soft to reach anything: a foul.
                    box = driver.find_element("id", "shot-text")
                    driver.execute_script(
                        "const e = document.getElementById('shot-v'); e.value = '0.05';"
                        " e.dispatchEvent(new Event('input'));"
                    )
                    del box
                    driver.find_element("id", "play-shoot").click()
                    fouled = True
                else:
                    break
                time.sleep(0.3)
                wait_js(driver, idle, 120)
            if not driver.execute_script("return window.piramida.play.over"):
                driver.find_element("id", "play-hint").click()
                wait_js(driver, "window.piramida.hint", 60)
            time.sleep(0.3)
            snap("play")
        finally:
            driver.quit()
    return [*shots, stored_screenshot(folder)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.web", description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="repetitions of each measurement")
    ap.add_argument("--quick", action="store_true", help="one run of each (a smoke run)")
    ap.add_argument("--json", action="store_true", help="print the numbers as JSON (the default; kept for symmetry)")
    ap.add_argument("--out", type=Path, help="write the result file here instead of bench/results/web.json")
    ap.add_argument("--screenshots", type=Path, metavar="DIR", help="write docs/ui_*.png into DIR instead")
    args = ap.parse_args(argv)
    reason = browser_missing()
    if reason:
        print(f"error: {reason}", file=sys.stderr)
        return 2
    if args.screenshots:
        for p in screenshots(args.screenshots):
            print(f"wrote {p}")
        return 0
    result = measure(1 if args.quick else args.runs)
    write_record("web", result, argv, out=args.out)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
