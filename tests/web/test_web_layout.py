"""The page's layout, words, keyboard and accessibility in headless
Chromium: no horizontal scrolling at 1400, 800 and 390 px, the table at
least 90% of a phone's width, the Play tab's shot controls in view at
1400x900; the table moved and aimed from the keyboard; numbers rounded,
players and pockets named in words, errors short and closable, a bad score
refused, stale lists cleared; the scoreboard and its winner banner; and
axe-core finding nothing serious or critical on any tab.

Skipped, with the reason, only where the browser is not installed."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bench.web import (
    browser_missing,
    load,
    midgame_text,
    page_url,
    select,
    set_viewport,
    severe_logs,
    start_frame,
    tab,
    wait_js,
)

MISSING = browser_missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"browser tests need a browser: {MISSING}")

SIZES = [(1400, 900), (800, 900), (390, 844)]
TABS = ("edit", "suggest", "shot", "play")
WON = "variant=free balls=0:0.8875,1.0;5:0.8875,2.0 shelves=1,2,3,4,6,7,8,9|- score=8,0 owed=0,0 to_move=1 in_hand=- break=0"




@pytest.fixture
def desktop(browser: Any) -> Any:
    assert set_viewport(browser, 1400, 900) == (1400, 900)
    return browser



def rect(driver: Any, element_id: str) -> dict[str, float]:
    return driver.execute_script(f"return document.getElementById({element_id!r}).getBoundingClientRect().toJSON()")


def in_view(driver: Any, element_id: str) -> bool:
    r = rect(driver, element_id)
    w, h = driver.execute_script("return [innerWidth, innerHeight]")
    return r["width"] > 0 and r["top"] >= 0 and r["left"] >= 0 and r["bottom"] <= h and r["right"] <= w


def active_id(driver: Any) -> str:
    return driver.execute_script("return document.activeElement ? document.activeElement.id : ''")


def press(driver: Any, *keys: str, shift: bool = False) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    chain = ActionChains(driver)
    if shift:
        chain.key_down(Keys.SHIFT)
    chain.send_keys(*keys)
    if shift:
        chain.key_up(Keys.SHIFT)
    chain.perform()


def tab_to(driver: Any, element_id: str, limit: int = 60) -> int:
    """Press Tab from the top of the page until ``element_id`` has the
    focus; the number of presses (fails if it never gets it)."""
    from selenium.webdriver.common.keys import Keys

    driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
    for k in range(1, limit + 1):
        press(driver, Keys.TAB)
        if active_id(driver) == element_id:
            return k
    raise AssertionError(f"#{element_id} never got the focus in {limit} presses of Tab")


def hover(driver: Any, px: float, py: float) -> None:
    """The pointer over the canvas at CSS pixel (px, py) from its corner."""
    from selenium.webdriver.common.action_chains import ActionChains

    canvas = driver.find_element("id", "table")
    w, h = canvas.size["width"], canvas.size["height"]
    ActionChains(driver).move_to_element_with_offset(canvas, int(px - w / 2), int(py - h / 2)).perform()


def set_text_position(driver: Any, text: str) -> None:
    box = driver.find_element("id", "text")
    box.clear()
    box.send_keys(text)
    driver.find_element("id", "text-apply").click()


def decimals(value: str) -> int:
    return len(value.split(".", 1)[1]) if "." in value else 0


# ------------------------------------------------------------------ layout
@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_no_horizontal_scroll_and_the_table_as_large_as_it_fits(server: Any, browser: Any, width: int, height: int) -> None:
    assert set_viewport(browser, width, height) == (width, height)
    load(browser, page_url(server.url, midgame_text()))
    for name in TABS:
        tab(browser, name)
        wait_js(browser, f"window.piramida.tab === {name!r}")
        inner, scroll = browser.execute_script("return [innerWidth, document.scrollingElement.scrollWidth]")
        assert scroll <= inner, (name, scroll, inner)
        table = rect(browser, "table")
        assert table["right"] <= inner, (name, table)
    table = rect(browser, "table")
    upright = browser.execute_script("return window.piramida.view.upright")
    if width <= 400:
        # A phone held upright: the table stands and takes the width, the panel under it.
        assert upright and table["width"] >= 0.9 * width, table
        assert rect(browser, "tab-play")["top"] >= table["bottom"]
    else:
        # The table lies, and all of it, shelves and tray included, is in view.
        assert not upright and table["bottom"] <= height, table
    # The canvas keeps the table's proportions: drawn as wide as it is shown.
    assert browser.execute_script("return window.piramida.view.cssW") == pytest.approx(table["width"], abs=1)
    assert severe_logs(browser) == []


def test_the_play_tabs_shot_controls_are_in_view_at_1400x900(server: Any, desktop: Any) -> None:
    load(desktop, page_url(server.url, midgame_text()))
    start_frame(desktop)
    assert desktop.execute_script("return window.piramida.play.to_act") == "you"
    # The play button and the shot's fields (pace, spin, placement) without scrolling.
    for element_id in ("play-shoot", "shot-phi", "shot-v", "shot-a", "shot-b", "shot-px", "shot-text"):
        assert in_view(desktop, element_id), element_id
    assert desktop.execute_script("return document.scrollingElement.scrollHeight <= innerHeight")
    assert desktop.find_element("id", "play-shoot").is_enabled()
    # The scoreboard over the table: both players, who acts, the target.
    board = desktop.find_element("id", "scoreboard")
    assert board.is_displayed() and in_view(desktop, "scoreboard")
    assert "player 1 (you)" in board.text and "player 2 (greedy)" in board.text
    assert "first to 8 balls" in board.text
    assert rect(desktop, "table")["bottom"] <= 900
    assert severe_logs(desktop) == []


# ------------------------------------------------------------------ keyboard
def test_the_table_takes_the_focus_and_the_arrow_keys_move_a_ball(server: Any, desktop: Any) -> None:
    from selenium.webdriver.common.keys import Keys

    load(desktop, page_url(server.url, midgame_text()))
    tab_to(desktop, "table")
    assert desktop.execute_script("return getComputedStyle(document.activeElement).outlineStyle") != "none"
    first = desktop.execute_script("return window.piramida.selected")
    assert first is not None  # a ball is selected at once
    before = desktop.execute_script("return window.piramida.pos.balls[window.piramida.selected]")
    text = desktop.execute_script("return window.piramida.text")
    press(desktop, Keys.ARROW_RIGHT)  # the table is drawn turned: right is +y
    wait_js(desktop, f"window.piramida.text !== {text!r}")
    after = desktop.execute_script(f"return window.piramida.pos.balls[{first!r}]")
    assert after[1] == pytest.approx(before[1] + 0.005, abs=2e-4) and after[0] == pytest.approx(before[0], abs=2e-4)
    # n selects the next ball; Shift makes the step ten times as big.
    press(desktop, "n")
    second = desktop.execute_script("return window.piramida.selected")
    assert second not in (None, first)
    start = desktop.execute_script(f"return window.piramida.pos.balls[{second!r}]")
    text = desktop.execute_script("return window.piramida.text")
    press(desktop, Keys.ARROW_UP, shift=True)
    wait_js(desktop, f"window.piramida.text !== {text!r}")
    moved = desktop.execute_script(f"return window.piramida.pos.balls[{second!r}]")
    assert (start[0] - moved[0]) > 0.02  # up the screen is -x; snapped off any neighbour, but moved
    # A ball picked by its number.
    press(desktop, "1", "4")
    assert desktop.execute_script("return window.piramida.selected") == "14"
    assert severe_logs(desktop) == []


def test_the_arrow_keys_follow_the_drawing_when_the_table_stands(server: Any, browser: Any) -> None:
    from selenium.webdriver.common.keys import Keys

    assert set_viewport(browser, 390, 844) == (390, 844)
    load(browser, page_url(server.url, midgame_text()))
    assert browser.execute_script("return window.piramida.view.upright")
    browser.execute_script("document.getElementById('table').focus()")
    ball = browser.execute_script("return window.piramida.selected")
    before = browser.execute_script(f"return window.piramida.pos.balls[{ball!r}]")
    text = browser.execute_script("return window.piramida.text")
    press(browser, Keys.ARROW_UP)  # standing, the rear cushion is at the top: up is +y
    wait_js(browser, f"window.piramida.text !== {text!r}")
    after = browser.execute_script(f"return window.piramida.pos.balls[{ball!r}]")
    assert after[1] == pytest.approx(before[1] + 0.005, abs=2e-4) and after[0] == pytest.approx(before[0], abs=2e-4)


def test_arrow_keys_aim_and_plus_minus_change_the_pace(server: Any, desktop: Any) -> None:
    from selenium.webdriver.common.keys import Keys

    load(desktop, page_url(server.url, midgame_text()))
    tab(desktop, "shot")
    value = lambda i: float(desktop.find_element("id", i).get_attribute("value"))  # noqa: E731
    phi, v = value("shot-phi"), value("shot-v")
    desktop.execute_script("document.getElementById('table').focus()")
    press(desktop, Keys.ARROW_LEFT)
    assert value("shot-phi") == pytest.approx((phi + 1) % 360)
    press(desktop, Keys.ARROW_RIGHT, shift=True)
    assert value("shot-phi") == pytest.approx((phi - 9) % 360)
    press(desktop, "+", "+")
    assert value("shot-v") == pytest.approx(v + 0.2)
    shot = desktop.find_element("id", "shot-text").get_attribute("value")
    assert f"phi={value('shot-phi'):g}" in shot and f"v={value('shot-v'):g}" in shot
    assert severe_logs(desktop) == []


def test_every_control_is_labelled_and_load_is_reachable_by_keyboard(server: Any, desktop: Any) -> None:
    load(desktop, server.url)
    unlabelled = desktop.execute_script(
        """return [...document.querySelectorAll('input, select, textarea, button')].filter((e) => {
             const name = (e.getAttribute('aria-label') || '') + (e.labels && e.labels.length ? 'l' : '')
               + (e.getAttribute('aria-labelledby') ? 'l' : '') + (e.tagName === 'BUTTON' ? e.textContent.trim() : '');
             return !name.trim();
           }).map((e) => e.id || e.outerHTML.slice(0, 60));"""
    )
    assert unlabelled == []
    for glyph in ("anim-play", "anim-step", "anim-replay"):
        button = desktop.find_element("id", glyph)
        assert button.get_attribute("aria-label") and button.get_attribute("title")
    tab(desktop, "play")
    tab_to(desktop, "play-load")
    assert desktop.find_element("id", "play-load").get_attribute("aria-label")
    assert severe_logs(desktop) == []


# ------------------------------------------------------------------ words and numbers
def test_a_click_aim_rounds_phi_and_the_place(server: Any, desktop: Any) -> None:
    load(desktop, page_url(server.url, midgame_text()))
    tab(desktop, "shot")
    # Aim at an odd point: the angle has many decimals before rounding.
    px, py = desktop.execute_script("return table2css(0.4321, 2.8765)")
    hover(desktop, px, py)
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(desktop).click().perform()
    shot = desktop.find_element("id", "shot-text").get_attribute("value")
    phi = re.search(r"\bphi=([-0-9.]+)", shot)
    assert phi is not None and decimals(phi.group(1)) <= 2, shot
    assert float(phi.group(1)) != 90  # the click did aim
    # A pasted shot with float noise: the fields and the text are rounded.
    desktop.execute_script(
        "const e = document.getElementById('shot-text');"
        " e.value = 'ball=0 phi=214.09646510453757 v=2.123456 a=0.1000000001 b=0 theta=0';"
        " e.dispatchEvent(new Event('change'));"
    )
    assert desktop.find_element("id", "shot-phi").get_attribute("value") == "214.1"
    assert desktop.find_element("id", "shot-v").get_attribute("value") == "2.12"
    # A ball in hand: the place to the millimetre.
    load(desktop, page_url(server.url, "variant=combined balls=1:0.5,2.0 in_hand=house"))
    tab(desktop, "shot")
    assert desktop.find_element("id", "shot-ball").get_attribute("value") == "0"
    shot = desktop.find_element("id", "shot-text").get_attribute("value")
    place = re.search(r"\bplace=([-0-9.]+),([-0-9.]+)", shot)
    assert place is not None and all(decimals(place.group(k)) <= 3 for k in (1, 2)), shot
    assert severe_logs(desktop) == []


def test_pockets_have_tooltips_in_words(server: Any, desktop: Any) -> None:
    load(desktop, server.url)
    pockets = desktop.execute_script("return Object.keys(window.piramida.geo.pockets)")
    assert sorted(pockets) == ["fl", "fr", "ml", "mr", "rl", "rr"]
    seen = {}
    for name in pockets:
        px, py = desktop.execute_script(
            "const p = window.piramida.geo.pockets[arguments[0]].mouth_centre; return table2css(p[0], p[1]);", name
        )
        hover(desktop, px, py)
        seen[name] = desktop.find_element("id", "table").get_attribute("title")
    assert seen["rr"] == "right rear pocket (rr)" and seen["fl"] == "left front pocket (fl)"
    assert len(set(seen.values())) == 6 and all(f"({n})" in t for n, t in seen.items())
    # Away from the pockets the tooltip is the table's own.
    px, py = desktop.execute_script("return table2css(0.9, 1.8)")
    hover(desktop, px, py)
    assert "pocket" not in desktop.find_element("id", "table").get_attribute("title")


def test_players_are_named_in_words_and_the_winner_is_shown(server: Any, desktop: Any) -> None:
    load(desktop, page_url(server.url, WON))
    options = [o.get_attribute("textContent") for o in desktop.find_elements("css selector", "#play-seat option")]
    assert options == ["player 1", "player 2"]
    start_frame(desktop)
    wait_js(desktop, "window.piramida.play.over")
    banner = desktop.find_element("css selector", "#scoreboard .banner")
    assert banner.text == "Frame over: player 1 (you) wins, 8-0"
    page = desktop.execute_script("return document.body.innerText")
    assert not re.search(r"\bp[01]\b", page), page
    assert severe_logs(desktop) == []


def test_an_error_is_one_short_line_that_fits_and_closes(server: Any, desktop: Any) -> None:
    load(desktop, server.url)
    # Two balls on one spot, with a long position: the server quotes it all.
    balls = ";".join(f"{b}:0.{b + 10}12345678,{1 + b / 10:.9f}" for b in range(1, 15))
    set_text_position(desktop, f"variant=free balls=0:0.5,1.0;15:0.5,1.0;{balls}")
    wait_js(desktop, "!document.getElementById('error').hidden")
    full = desktop.execute_script("return window.piramida.debug.lastError")
    shown = desktop.find_element("id", "error-text").text
    assert "\n" not in shown and len(shown) < len(full) and len(shown) <= 241, shown
    w, h = desktop.execute_script("return [innerWidth, innerHeight]")
    box = rect(desktop, "error")
    assert box["left"] >= 0 and box["right"] <= w and box["bottom"] <= h
    desktop.find_element("id", "error-close").click()
    assert not desktop.find_element("id", "error").is_displayed()


def test_a_score_that_is_not_whole_is_refused(server: Any, desktop: Any) -> None:
    load(desktop, page_url(server.url, midgame_text()))
    text = desktop.execute_script("return window.piramida.text")
    score = desktop.find_element("id", "score0")
    before = score.get_attribute("value")
    desktop.execute_script("const e = document.getElementById('score0'); e.value = '2.7'; e.dispatchEvent(new Event('change'))")
    wait_js(desktop, "!document.getElementById('error').hidden")
    assert "player 1's score must be a whole number, got 2.7" in desktop.find_element("id", "error-text").text
    assert desktop.execute_script("return window.piramida.text") == text
    assert score.get_attribute("value") == before


def test_the_event_list_and_status_are_cleared_on_a_new_tab_or_position(server: Any, desktop: Any) -> None:
    load(desktop, page_url(server.url, midgame_text()))
    tab(desktop, "shot")
    desktop.execute_script("document.getElementById('anim-speed').value = '8'")
    desktop.find_element("id", "shot-go").click()
    wait_js(desktop, "window.piramida.debug.animEndMs", 60)
    assert desktop.find_elements("css selector", "#events li")
    desktop.execute_script("document.getElementById('status').textContent = 'played: something'")
    tab(desktop, "edit")
    assert desktop.find_elements("css selector", "#events li") == []
    assert desktop.find_element("id", "status").text == ""
    desktop.execute_script("document.getElementById('status').textContent = 'left over'")
    select(desktop, "variant", "classic71")
    wait_js(desktop, "window.piramida.pos.variant === 'classic71'")
    assert desktop.find_element("id", "status").text == ""
    # The variant's rules in short, with its target.
    rules = desktop.find_element("id", "variant-rules").text
    assert "called" in rules and "First to 71 points" in rules


# ------------------------------------------------------------------ accessibility
def axe_violations(driver: Any) -> list[str]:
    from axe_selenium_python import Axe

    axe = Axe(driver)
    axe.inject()
    found = axe.run()["violations"]
    return [
        f"{v['impact']} {v['id']}: {[n['target'] for n in v['nodes']]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def test_axe_finds_nothing_serious_on_any_tab(server: Any, desktop: Any) -> None:
    load(desktop, page_url(server.url, midgame_text()))
    found = {}
    for name in TABS:
        tab(desktop, name)
        found[name] = axe_violations(desktop)
    # A frame in play (the scoreboard) and an error shown.
    start_frame(desktop)
    desktop.execute_script("document.getElementById('score0').value = '1.5'")
    found["play, a frame"] = axe_violations(desktop)
    tab(desktop, "edit")
    desktop.execute_script("document.getElementById('score0').dispatchEvent(new Event('change'))")
    wait_js(desktop, "!document.getElementById('error').hidden")
    found["an error"] = axe_violations(desktop)
    assert {k: v for k, v in found.items() if v} == {}
