"""The web page (``piramida serve``) measured in headless Chromium and
under concurrent load, and the screenshots of docs/ui.md.

Run from the repository root (Debian's chromium and chromium-driver
installed, as ``.ci/run`` does)::

    .venv/bin/python -m bench.web [--runs 3] [--quick] [--out FILE]
    .venv/bin/python -m bench.web --screenshots docs      # every docs/ui_*.png

A measuring run writes ``bench/results/web.json`` (``--out FILE`` writes
elsewhere) through bench/record.py: the figures with the code version, the
command, the date and the machine.

It starts the application on a free loopback port in this process (the
library's ``piramida.web.server.BackgroundServer``, not the command line)
with its rate limit lifted (``app.state.guard.limit(None)``): the limit
of "Serving safely" (30 expensive requests a minute from one address, in
bursts of 10) would answer most of the burst below with 429. It measures:

- page ready: from the start of navigation to the table drawn with its
  position (the page's ``debug.readyMs``), over ``--runs`` fresh loads;
- suggestion round trip at a 1 s budget: from the click's request to the
  three shots drawn (``debug.suggestMs``, in the page's
  ``performance.now()``), on the mid-game position of
  docs/examples/combined_midgame.json; the search spends its budget, so
  about 1 s plus the request and the drawing;
- animation frames per second: a break animated at 1x, the frames the page
  drew divided by the animation's wall time;
- a burst: 20 threads each POST /api/suggest at once (that position, a 1 s
  budget each), every answer 200 or the run fails; meanwhile GET / and GET
  /api/health are asked every 100 ms, and their latencies say whether the
  page is still served while the thread pool is busy.

The browser helpers (``browser_missing``, ``start_browser``, ``wait_js``,
``set_viewport``, ``start_frame``, ...) are shared with tests/web/.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bench.record import write as write_record

REPO = Path(__file__).resolve().parents[1]
MIDGAME = REPO / "docs" / "examples" / "combined_midgame.json"
CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
CHROMEDRIVER = ("chromedriver",)
#: The window sizes of docs/ui.md's pictures (CSS pixels the page gets).
DESKTOP = (1400, 900)
PHONE = (390, 844)
#: A picture larger than this is reported (docs/ stays small).
MAX_PNG_BYTES = 250_000
#: Concurrent suggestions in the burst, each with this budget.
BURST = 20
BURST_BUDGET = "1s"
#: How often the page is asked for during the burst (seconds).
PROBE_EVERY = 0.1


def _which(names: tuple[str, ...]) -> str | None:
    for n in names:
        found = shutil.which(n) or (f"/usr/bin/{n}" if Path(f"/usr/bin/{n}").is_file() else None)
        if found:
            return found
    return None


def severe_logs(driver: Any, failed_loads: bool = True) -> list[str]:
    """The page's errors in the browser's log. ``failed_loads=False`` leaves
    out the requests the API refused (a 404 for an unknown frame, a 400 for
    an unfinished shot's path), which the browser logs and the page answers
    itself."""
    return [e["message"] for e in driver.get_log("browser")
            if e["level"] == "SEVERE" and (failed_loads or "Failed to load resource" not in e["message"])]


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


#: The Play tab can act: the player's turn (or the frame over), no request under way.
PLAY_IDLE = "window.piramida.play && window.piramida.play.to_act !== 'agent' && !window.piramida.playBusy"


def start_frame(driver: Any, timeout: float = 120) -> None:
    """Play tab: a frame against greedy from the edited position, without
    animation; back once it is the player's turn (or the frame is over)."""
    tab(driver, "play")
    driver.execute_script(
        "document.getElementById('play-from-position').checked = true;"
        "document.getElementById('play-animate').checked = false;"
    )
    driver.find_element("id", "play-new").click()
    wait_js(driver, PLAY_IDLE, timeout)


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


# ------------------------------------------------------------------ the burst
def post_json(url: str, body: Any, timeout: float = 300.0) -> tuple[int, Any]:
    """POST a JSON body as the page does: the status and the answer."""
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        text = e.read().decode("utf-8", "replace")
        try:
            return e.code, json.loads(text)
        except ValueError:
            return e.code, {"error": text[:200]}


def get_ms(url: str, timeout: float = 60.0) -> float:
    """GET ``url`` and read the whole answer; the time in ms (an answer
    other than 200 raises)."""
    t0 = time.perf_counter()
    with urllib.request.urlopen(url, timeout=timeout) as r:
        r.read()
        if r.status != 200:
            raise OSError(f"HTTP {r.status}")
    return (time.perf_counter() - t0) * 1000.0


def spread(values: list[float], digits: int = 1) -> dict[str, Any]:
    if not values:
        return {"n": 0}
    return {"n": len(values), "min": round(min(values), digits), "median": round(statistics.median(values), digits),
            "max": round(max(values), digits)}


def burst(base: str, n: int = BURST) -> dict[str, Any]:
    """``n`` suggestions at once from ``n`` threads, while GET / and GET
    /api/health are asked every ``PROBE_EVERY`` seconds."""
    body = {"position": midgame_text(), "budget": BURST_BUDGET}
    probes: dict[str, list[float]] = {"/": [], "/api/health": []}
    failures: list[str] = []
    done = threading.Event()

    def meanwhile() -> None:
        while not done.is_set():
            for path, times in probes.items():
                try:
                    times.append(get_ms(base.rstrip("/") + path))
                except (OSError, ValueError) as e:
                    failures.append(f"GET {path}: {e}")
            done.wait(PROBE_EVERY)

    def one(_: int) -> tuple[int, float, Any]:
        t0 = time.perf_counter()
        try:
            status, answer = post_json(base + "api/suggest", body)
        except (OSError, ValueError) as e:  # no answer at all: counted as refused, not raised
            status, answer = 0, {"error": f"no answer ({e})"}
        return status, (time.perf_counter() - t0) * 1000.0, answer

    watcher = threading.Thread(target=meanwhile, daemon=True)
    watcher.start()
    t0 = time.perf_counter()
    with ThreadPoolExecutor(n) as pool:
        answers = list(pool.map(one, range(n)))
    wall = time.perf_counter() - t0
    done.set()
    watcher.join(timeout=60)
    ok = [a for s, _, a in answers if s == 200]
    refused = [f"{s}: {a.get('error') if isinstance(a, dict) else a}" for s, _, a in answers if s != 200]
    return {
        "requests": n,
        "budget": BURST_BUDGET,
        "answered_200": len(ok),
        "refused": refused[:5],
        "wall_s": round(wall, 2),
        "suggest_ms": spread([ms for _, ms, _ in answers], 0),
        "search_time_s": spread([a["search"]["time_s"] for a in ok], 3),
        "get_page_ms": spread(probes["/"]),
        "get_health_ms": spread(probes["/api/health"]),
        "probe_failures": failures[:5],
    }


# ------------------------------------------------------------------ measuring
def unlimited_server(**kwargs: Any) -> Any:
    """A BackgroundServer (not started) without the rate limit: the burst
    and the screenshots ask for more than 10 expensive requests at once."""
    from piramida.web.server import BackgroundServer

    server = BackgroundServer(**kwargs)
    server.app.state.guard.limit(None)
    return server


def measure(runs: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with unlimited_server() as server:
        driver = start_browser(*DESKTOP)
        try:
            set_viewport(driver, *DESKTOP)
            load(driver, server.url)  # the browser's own first start is not the page's
            ready = [load(driver, page_url(server.url, midgame_text())) for _ in range(runs)]
            out["page_ready_ms"] = {"runs": ready, "median": statistics.median(ready)}
            trips, searched = [], []
            for _ in range(runs):
                load(driver, page_url(server.url, midgame_text()))
                trips.append(ask_suggestion(driver, "budget:1s"))
                searched.append(driver.execute_script("return window.piramida.plans.search.time_s"))
            out["suggest_1s_round_trip_ms"] = {"runs": trips, "median": statistics.median(trips),
                                               "search_time_s": searched}
            anims = [animate_break(driver, server.url) for _ in range(runs)]
            fps = [a["fps"] for a in anims]
            out["animation"] = {"runs": anims, "median_fps": statistics.median(fps)}
        finally:
            driver.quit()
        bursts = [burst(server.url) for _ in range(runs)]
    out["burst"] = {
        "runs": bursts,
        "all_200": all(b["answered_200"] == b["requests"] for b in bursts),
        "median_wall_s": statistics.median(b["wall_s"] for b in bursts),
        "max_get_page_ms": max(b["get_page_ms"].get("max", float("inf")) for b in bursts),
        "max_get_health_ms": max(b["get_health_ms"].get("max", float("inf")) for b in bursts),
    }
    out["targets"] = {"page_ready_ms": "< 1000", "suggest_1s_round_trip_ms": "< 2000", "fps": ">= 50",
                      "burst": "every suggestion 200; GET / and /api/health under 1000 ms meanwhile"}
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


def save_png(driver: Any, path: Path) -> Path:
    """The page as it is now, into ``path``; a picture over MAX_PNG_BYTES
    is reported."""
    time.sleep(0.3)  # the last frame drawn
    driver.save_screenshot(str(path))
    size = path.stat().st_size
    if size > MAX_PNG_BYTES:
        print(f"warning: {path} is {size} bytes (over {MAX_PNG_BYTES})", file=sys.stderr)
    return path


def play_one(driver: Any, timeout: float = 120, pace: float = 1.0) -> None:
    """The player's next action in the Play tab: the first choice offered,
    else the hint's shot with its pace times ``pace``; back once it is the
    player's turn again."""
    before = driver.execute_script("return window.piramida.play.node")
    st = driver.execute_script("return window.piramida.play")
    if st["next"]["kind"] == "choice":
        driver.find_element("css selector", "#play-choices button").click()
    else:
        if st["next"]["kind"] == "shot":
            driver.execute_script("window.piramida.debug.lastError = null")
            driver.find_element("id", "play-hint").click()
            wait_js(driver, "window.piramida.hint || window.piramida.debug.lastError", timeout)
            error = driver.execute_script("return window.piramida.debug.lastError")
            if error:
                raise RuntimeError(f"the hint failed: {error}")
            if pace != 1.0:
                driver.execute_script(
                    "const e = document.getElementById('shot-v');"
                    " e.value = (parseFloat(e.value) * arguments[0]).toFixed(2); e.dispatchEvent(new Event('input'));",
                    pace,
                )
        driver.find_element("id", "play-shoot").click()
    wait_js(driver, f"(window.piramida.play.node !== {before} || window.piramida.debug.lastError) && {PLAY_IDLE}",
            timeout)


#: Every shot of the board's line has its analysis.
LINE_ANALYSED = ("(() => { const b = window.piramida.board;"
                 " return b.line.filter((k) => b.nodes[k].kind === 'shot').every((k) => b.nodes[k].analysis); })()")


def board_shot(driver: Any, base: str, path: Path, moves: int = 6, seed: int = 3) -> Path:
    """docs/ui_desktop.png: a frame of free pyramid against greedy (its
    value network gives the win bar) under amateur noise, the player's
    shots the hint's. After ``moves`` moves the player's last shot is
    played again, harder, from the move before it (a variation), and the
    line is analysed: the scoreboard, the win bar and the move list with its
    variation and loss labels."""
    load(driver, base)
    tab(driver, "play")
    driver.find_element("id", "play-seed").clear()
    driver.find_element("id", "play-seed").send_keys(str(seed))
    select(driver, "play-noise", "amateur")
    driver.execute_script("document.getElementById('play-animate').checked = false;")
    driver.find_element("id", "play-new").click()
    wait_js(driver, PLAY_IDLE, 120)
    while True:
        st = driver.execute_script("return window.piramida.play")
        if st["over"] or len(driver.execute_script("return window.piramida.board.line")) > moves:
            break
        play_one(driver)
    mine = driver.execute_script(
        "const b = window.piramida.board;"
        " return b.line.filter((k) => b.nodes[k].who === 'you' && b.nodes[k].kind === 'shot').pop();"
    )
    if mine is not None:
        parent = driver.execute_script(f"return window.piramida.board.nodes[{mine}].parent")
        driver.find_element("css selector", f'#board-moves li[data-node="{parent}"]').click()
        wait_js(driver, f"window.piramida.play.node === {parent} && {PLAY_IDLE}", 60)
        play_one(driver, pace=1.4)  # the same aim, harder: another outcome
    driver.find_element("id", "board-analyse").click()
    wait_js(driver, f"{LINE_ANALYSED} || window.piramida.debug.lastError", 300)
    if not driver.execute_script("return window.piramida.board.win.model"):
        print("warning: the board has no win bar (no value network for free pyramid)", file=sys.stderr)
    return save_png(driver, path)


def editor_shot(driver: Any, base: str, path: Path) -> Path:
    """docs/ui_editor.png: the mid-game position, ball 14 dragged to the middle."""
    load(driver, page_url(base, midgame_text()))
    src = ball_pixel(driver, "14")
    dst = driver.execute_script("return table2css(0.9, 1.6);")
    drag(driver, src, dst)
    wait_js(driver, "Math.abs(window.piramida.pos.balls['14'][1] - 1.6) < 0.05")
    return save_png(driver, path)


def suggest_shot(driver: Any, base: str, path: Path) -> Path:
    """docs/ui_suggest.png: three shots and the cloud of the first."""
    load(driver, page_url(base, midgame_text()))
    ask_suggestion(driver, "sims:1000")
    wait_js(driver, "window.piramida.cloud")
    return save_png(driver, path)


def animate_shot(driver: Any, path: Path) -> Path:
    """docs/ui_animate.png: the suggested best shot animated, paused half way
    (after suggest_shot)."""
    driver.find_element("css selector", ".suggestion .watch").click()
    wait_js(driver, "window.piramida.anim && window.piramida.anim.t > 1.1", 30)
    driver.find_element("id", "anim-play").click()
    return save_png(driver, path)


def play_shot(driver: Any, base: str, path: Path) -> Path:
    """docs/ui_play.png: a frame against greedy: a foul of ours, the
    agent's choice and its shots, then a hint for our next shot."""
    load(driver, base)
    tab(driver, "play")
    driver.find_element("id", "play-seed").clear()
    driver.find_element("id", "play-seed").send_keys("3")
    select(driver, "play-noise", "amateur")
    driver.execute_script("document.getElementById('play-animate').checked = false;")  # quicker
    driver.find_element("id", "play-new").click()
    wait_js(driver, PLAY_IDLE, 120)
    fouled = False
    for _ in range(6):
        st = driver.execute_script("return window.piramida.play")
        if st["over"]:
            break
        before = st["node"]
        if st["next"]["kind"] == "choice":
            driver.find_element("css selector", "#play-choices button").click()
        elif not fouled:
            # A stroke too soft to reach anything: a foul.
            driver.execute_script(
                "const e = document.getElementById('shot-v'); e.value = '0.05';"
                " e.dispatchEvent(new Event('input'));"
            )
            driver.find_element("id", "play-shoot").click()
            fouled = True
        else:
            break
        wait_js(driver, f"window.piramida.play.node !== {before} && {PLAY_IDLE}", 120)
    if not driver.execute_script("return window.piramida.play.over"):
        driver.find_element("id", "play-hint").click()
        wait_js(driver, "window.piramida.hint", 60)
    return save_png(driver, path)


def phone_shot(driver: Any, base: str, path: Path) -> Path:
    """docs/ui_phone.png: the mid-game position on a 390x844 phone, the
    table standing."""
    set_viewport(driver, *PHONE)
    load(driver, page_url(base, midgame_text()))
    if not driver.execute_script("return window.piramida.view.upright"):
        print("warning: the table does not stand at 390x844", file=sys.stderr)
    return save_png(driver, path)


def stored_shot(path: Path) -> Path:
    """docs/ui_stored.png: a tiny tournament's results file served (random
    against greedy, one pair), its second game opened in Play."""
    import tempfile

    from piramida.eval.tournament import TournamentConfig, run_tournament

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "results.sqlite"
        run_tournament(TournamentConfig(("random", "greedy"), ("free",), 1, "pro", 3), db)
        with unlimited_server(dbs=[db]) as server:
            driver = start_browser(*DESKTOP)
            try:
                set_viewport(driver, *DESKTOP)
                load(driver, server.url)
                tab(driver, "play")
                driver.find_element("id", "play-seed").clear()  # the page picks one at random
                driver.find_element("id", "play-seed").send_keys("0")
                wait_js(driver, "document.querySelectorAll('#stored-game option').length === 2")
                select(driver, "stored-game", "2")
                driver.find_element("id", "stored-open").click()
                wait_js(driver, "window.piramida.play && window.piramida.play.over", 60)
                return save_png(driver, path)
            finally:
                driver.quit()


def screenshots(folder: Path) -> list[Path]:
    """Every picture docs/ui.md shows, into ``folder``: ui_desktop (the
    analysis board), ui_phone, ui_editor, ui_suggest, ui_animate, ui_play
    and ui_stored. Desktop pictures at 1400x900, the phone's at 390x844."""
    folder.mkdir(parents=True, exist_ok=True)
    shot = lambda name: folder / f"ui_{name}.png"  # noqa: E731
    with unlimited_server() as server:
        driver = start_browser(*DESKTOP)
        try:
            set_viewport(driver, *DESKTOP)
            out = [
                board_shot(driver, server.url, shot("desktop")),
                editor_shot(driver, server.url, shot("editor")),
                suggest_shot(driver, server.url, shot("suggest")),
                animate_shot(driver, shot("animate")),
                play_shot(driver, server.url, shot("play")),
                phone_shot(driver, server.url, shot("phone")),
            ]
        finally:
            driver.quit()
    return [*out, stored_shot(shot("stored"))]


def positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, got {text!r}")
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.web", description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--runs", type=positive, default=3, help="repetitions of each measurement (default 3)")
    ap.add_argument("--quick", action="store_true", help="one run of each (a smoke run)")
    ap.add_argument("--json", action="store_true", help="print the numbers as JSON (the default; kept for symmetry)")
    ap.add_argument("--out", type=Path, help="write the result file here instead of bench/results/web.json")
    ap.add_argument("--screenshots", type=Path, metavar="DIR",
                    help="write every docs/ui_*.png into DIR (docs) instead of measuring")
    args = ap.parse_args(argv)
    reason = browser_missing()
    if reason:
        print(f"error: {reason}", file=sys.stderr)
        return 2
    if args.screenshots:
        for p in screenshots(args.screenshots):
            print(f"wrote {p} ({p.stat().st_size} bytes)")
        return 0
    result = measure(1 if args.quick else args.runs)
    write_record("web", result, argv, out=args.out)
    print(json.dumps(result, indent=2))
    if not result["burst"]["all_200"]:
        refused = [r for b in result["burst"]["runs"] for r in b["refused"]]
        print(f"error: not every suggestion of the burst was answered 200 ({refused[0] if refused else '?'})",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
