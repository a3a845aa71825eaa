"""The page in headless Chromium (Selenium with Debian's chromium and
chromium-driver, which .ci/run installs): load it, drag a ball, ask for a
suggestion and see three arrows, animate it, play a shot against greedy and
see the ruling, reload from the URL and get the same position; open a game
stored by a tournament and see its rulings.

Skipped, with the reason, only where the browser is not installed."""

from __future__ import annotations

import urllib.parse
from typing import Any

import pytest

from bench.web import (
    ask_suggestion,
    ball_pixel,
    browser_missing,
    drag,
    load,
    midgame_text,
    page_url,
    select,
    severe_logs,
    tab,
    wait_js,
)

MISSING = browser_missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"browser tests need a browser: {MISSING}")





def position_text(driver: Any) -> str:
    return driver.execute_script("return window.piramida.text")


def test_the_page_loads_and_draws_the_position(server: Any, browser: Any) -> None:
    load(browser, page_url(server.url, midgame_text()))
    assert position_text(browser) == midgame_text()
    assert browser.execute_script("return window.piramida.debug.frames") >= 1
    # The canvas was drawn: the cloth's green is there.
    green = browser.execute_script(
        "const c = document.getElementById('table'); const [x, y] = table2css(0.3, 0.3);"
        "return Array.from(c.getContext('2d').getImageData(x * devicePixelRatio, y * devicePixelRatio, 1, 1).data);"
    )
    assert green[1] > green[0] and green[1] > green[2], green
    assert severe_logs(browser) == []


def test_drag_a_ball_and_reload_from_the_url(server: Any, browser: Any) -> None:
    load(browser, page_url(server.url, midgame_text()))
    before = browser.execute_script("return window.piramida.pos.balls['14']")
    drag(browser, ball_pixel(browser, "14"), browser.execute_script("return table2css(0.9, 1.6);"))
    moved = "const p = window.piramida.pos.balls['14']; return p && Math.hypot(p[0] - 0.9, p[1] - 1.6) < 0.01"
    wait_js(browser, f"(() => {{ {moved}; }})() && window.piramida.text !== {midgame_text()!r}")
    after = browser.execute_script("return window.piramida.pos.balls['14']")
    assert after != before
    text = position_text(browser)
    assert f"14:{after[0]!r},{after[1]!r}" in text
    # The position lives in the URL: a fresh load of the link gives it back.
    url = browser.current_url
    assert urllib.parse.unquote(url.split("#pos=", 1)[1]) == text
    load(browser, url)
    assert position_text(browser) == text
    # A ball dropped on another slides to the nearest free spot: no overlap.
    drag(browser, ball_pixel(browser, "8"), ball_pixel(browser, "11"))
    wait_js(browser, "!window.piramida.text.includes('8:0.35,2.45')")
    balls = browser.execute_script("return window.piramida.pos.balls")
    d = ((balls["8"][0] - balls["11"][0]) ** 2 + (balls["8"][1] - balls["11"][1]) ** 2) ** 0.5
    assert d >= 2 * 0.0340 - 1e-6
    # Off the table into the tray: the ball leaves the position.
    tray = browser.execute_script(
        "const v = window.piramida.view; return [v.cssW * 0.6, v.tableH + 6 + 2.5 * v.rowH];"
    )
    drag(browser, ball_pixel(browser, "14"), tray)
    wait_js(browser, "!('14' in window.piramida.pos.balls) && !window.piramida.text.includes(';14:')")
    assert "14" not in browser.execute_script("return Object.keys(window.piramida.pos.balls)")
    assert severe_logs(browser) == []


def test_suggest_draws_three_arrows_then_animate(server: Any, browser: Any) -> None:
    load(browser, page_url(server.url, midgame_text()))
    ask_suggestion(browser, "sims:100")
    cards = browser.find_elements("css selector", ".suggestion")
    assert len(cards) == 3
    assert browser.execute_script("return window.piramida.debug.arrows") == 3
    assert "pot" in cards[0].text and "expected points" in cards[0].text
    wait_js(browser, "window.piramida.cloud && window.piramida.cloud.n === 200")
    # Watch the best shot, fast.
    browser.execute_script("document.getElementById('anim-speed').value = '8'")
    cards[0].find_element("css selector", ".watch").click()
    wait_js(browser, "window.piramida.debug.animEndMs", 30)
    events = [li.text for li in browser.find_elements("css selector", "#events li")]
    assert events[0].endswith("cue strikes ball 0") and len(events) >= 2
    assert browser.execute_script("return window.piramida.debug.animFrames") > 5
    # Step back to the start and one frame on: the clock moves by 1/60 s.
    # (Slowly: the pause must come before the replay ends, however busy the machine.)
    browser.execute_script("document.getElementById('anim-speed').value = '0.25'")
    browser.find_element("id", "anim-replay").click()
    browser.find_element("id", "anim-play").click()  # pause
    assert browser.execute_script("return window.piramida.anim.playing") is False
    t0 = browser.execute_script("return window.piramida.anim.t")
    browser.find_element("id", "anim-step").click()
    wait_js(browser, f"window.piramida.anim.t > {t0}")
    assert browser.execute_script("return window.piramida.anim.t") - t0 == pytest.approx(1 / 60, abs=1e-6)
    assert severe_logs(browser) == []


def test_a_suggestion_for_a_position_changed_meanwhile_is_not_drawn(server: Any, browser: Any) -> None:
    load(browser, page_url(server.url, midgame_text()))
    tab(browser, "suggest")
    select(browser, "budget", "budget:2s")
    browser.execute_script("window.piramida.debug.suggestMs = null")
    browser.find_element("id", "suggest-go").click()
    # While the server thinks, the position changes: the start of the rack.
    tab(browser, "edit")
    browser.find_element("id", "rack").click()
    wait_js(browser, f"window.piramida.text !== {midgame_text()!r}")
    changed = position_text(browser)
    wait_js(browser, "!document.getElementById('suggest-go').disabled", 60)
    assert "dropped" in browser.find_element("id", "status").text
    assert browser.execute_script("return window.piramida.debug.suggestMs") is None
    assert browser.execute_script("return window.piramida.debug.arrows") == 0
    assert browser.find_elements("css selector", ".suggestion") == []
    assert position_text(browser) == changed
    assert severe_logs(browser) == []


def test_play_a_shot_against_greedy_and_see_the_ruling(server: Any, browser: Any) -> None:
    load(browser, page_url(server.url, midgame_text()))
    tab(browser, "play")
    browser.find_element("id", "play-from-position").click()
    browser.find_element("id", "play-animate").click()  # off: the test need not wait for it
    browser.find_element("id", "play-new").click()
    wait_js(browser, "window.piramida.play && window.piramida.play.to_act === 'you'")
    # Aim by hand: the shot's text box, as a player would paste it.
    box = browser.find_element("id", "shot-text")
    box.clear()
    box.send_keys("ball=0 phi=70.08 v=1 a=0 b=0 theta=0\n")
    browser.execute_script("document.getElementById('shot-text').dispatchEvent(new Event('change'))")
    browser.find_element("id", "play-shoot").click()
    wait_js(browser, "document.querySelectorAll('#play-log li').length >= 1", 30)
    first = browser.find_elements("css selector", "#play-log li")[0].text
    assert first.startswith("player 1 (you) ball=0 phi=70.1") and "legal | player 1 scored 3 | score 4-2" in first
    wait_js(browser, "window.piramida.play.to_act !== 'agent' && !window.piramida.playBusy", 60)
    assert "last ruling:" in browser.find_element("id", "play-state").text
    assert severe_logs(browser) == []


def test_open_a_stored_game_and_see_its_first_ruling(stored_server: Any, results_db: Any, browser: Any) -> None:
    from piramida.eval.tournament import stored_game

    stored = stored_game(results_db, 2)
    game = stored.rebuild().game
    first = next(r for r in game.rulings if r is not None).summary()
    load(browser, stored_server.url)
    tab(browser, "play")
    wait_js(browser, "document.querySelectorAll('#stored-game option').length === 2")
    assert browser.find_element("id", "stored").is_displayed()
    assert not browser.find_element("id", "stored-db-label").is_displayed()  # one file: nothing to pick
    select(browser, "stored-game", "2")
    browser.find_element("id", "stored-open").click()
    wait_js(browser, f"window.piramida.play && window.piramida.play.actions === {len(game.history)}", 60)
    lines = [li.text for li in browser.find_elements("css selector", "#play-log li")]
    assert lines[0] == f"(loaded stored game 2, a free frame after {game.shots} shots)"
    assert len(lines) == 1 + len(game.history)
    shot = next(line for line in lines[1:] if "→" in line)
    score = next(part for part in first.split(" | ") if part.startswith("score "))  # the page words the rest
    assert f" | {score} | " in shot and (f"({stored.seats[0]})" in shot or f"({stored.seats[1]})" in shot)
    assert "frame over" in browser.find_element("id", "play-state").text
    # As a loaded game: undo takes back the player's last action (p0's).
    browser.find_element("id", "play-undo").click()
    wait_js(browser, f"window.piramida.play.actions < {len(game.history)}")
    assert browser.execute_script("return window.piramida.play.over") is False
    assert severe_logs(browser) == []
