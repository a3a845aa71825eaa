"""The analysis board in headless Chromium (Selenium, as
tests/web/test_web_browser.py): a frame started on the page is in the
address and comes back on a reload, and after a restart of the server on
the same games file; a mid-game position's link is short and opens the
same position; the move list steps back and forth by click and by key,
the table following; an unknown frame id is one line, nothing to press.

Skipped, with the reason, only where the browser is not installed."""

from __future__ import annotations

import json
import urllib.parse
from pathlib import Path
from typing import Any

import pytest

from bench.web import browser_missing, load, severe_logs, tab, wait_js
from tests.web.conftest import Client

MISSING = browser_missing()
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"browser tests need a browser: {MISSING}")

ROOT = Path(__file__).resolve().parents[2]
MIDGAME = ROOT / "docs" / "examples" / "combined_midgame.json"
POT = "ball=0 phi=70.08 v=1 a=0 b=0 theta=0"





def frame_id(url: str) -> str | None:
    return urllib.parse.parse_qs(urllib.parse.urlsplit(url).query).get("game", [None])[0]


def start_frame_and_shoot(driver: Any, base: str) -> str:
    """A frame against greedy from the midgame position (set in the
    editor), the player's pot played; the frame's id."""
    text = Client(base).post("/api/position", {"position": json.loads(MIDGAME.read_text())})["text"]
    load(driver, f"{base}#pos={urllib.parse.quote(text, safe='')}")
    tab(driver, "play")
    driver.find_element("id", "play-from-position").click()
    driver.find_element("id", "play-animate").click()  # off: nothing to wait for
    driver.find_element("id", "play-new").click()
    wait_js(driver, "window.piramida.play && window.piramida.play.to_act === 'you' && window.piramida.board")
    box = driver.find_element("id", "shot-text")
    box.clear()
    box.send_keys(POT)
    driver.execute_script("document.getElementById('shot-text').dispatchEvent(new Event('change'))")
    driver.find_element("id", "play-shoot").click()
    wait_js(driver, "window.piramida.board.nodes.length >= 2 && !window.piramida.playBusy", 60)
    gid = driver.execute_script("return window.piramida.play.id")
    assert frame_id(driver.current_url) == gid
    return gid


def shown(driver: Any) -> dict[str, Any]:
    return driver.execute_script(
        "const p = window.piramida.play, b = window.piramida.board; return {id: p.id, node: p.node,"
        " score: p.score, position: p.position, moves: document.querySelectorAll('#board-moves li.move').length,"
        " cursor: b.cursor, tab: window.piramida.tab};")


def test_a_frame_comes_back_on_reload_and_after_a_restart(tmp_path: Path, start_board_server: Any,
                                                          browser: Any) -> None:
    games = tmp_path / "board.sqlite"
    server = start_board_server(games)
    try:
        gid = start_frame_and_shoot(browser, server.url)
        before = shown(browser)
        assert before["moves"] == len(browser.execute_script("return window.piramida.board.nodes")) >= 2
        url = browser.current_url
        load(browser, url)
        wait_js(browser, f"window.piramida.play && window.piramida.play.id === {gid!r}")
        assert shown(browser) == before and before["tab"] == "play"
    finally:
        server.stop()
    # The same address and games file, a new server: the frame resumes.
    again = start_board_server(games, server.port)
    try:
        load(browser, url)
        wait_js(browser, f"window.piramida.play && window.piramida.play.id === {gid!r}")
        assert shown(browser) == before
        assert "no frame" not in browser.find_element("id", "play-state").text.lower()
    finally:
        again.stop()
    assert severe_logs(browser, failed_loads=False) == []


def test_the_move_list_steps_back_and_forth_and_the_table_follows(board_server: Any, browser: Any) -> None:
    start_frame_and_shoot(browser, board_server.url)
    wait_js(browser, "window.piramida.play.to_act !== 'agent' && !window.piramida.playBusy", 60)
    board = browser.execute_script("return window.piramida.board")
    line = board["line"]
    assert len(line) >= 2 and board["cursor"] == line[-1]
    positions = {k: browser.execute_script("return window.piramida.play.position") for k in [line[-1]]}

    def table_pixels() -> str:
        return browser.execute_script("return document.getElementById('table').toDataURL()")

    def at(n: int) -> None:
        wait_js(browser, f"window.piramida.play.node === {n} && window.piramida.board.cursor === {n}")

    end_pixels = table_pixels()
    # A click on the first move: the position after it.
    browser.find_element("css selector", f'#board-moves li[data-node="{line[1]}"]').click()
    at(line[1])
    positions[line[1]] = browser.execute_script("return window.piramida.play.position")
    # The start, by click: the start position, another picture on the table.
    browser.find_element("css selector", '#board-moves li[data-node="0"]').click()
    at(0)
    start_position = browser.execute_script("return window.piramida.play.position")
    assert start_position != positions[line[1]]
    wait_js(browser, f"document.getElementById('table').toDataURL() !== {end_pixels!r}")
    # Right and left with the list focused: on along the line and back.
    moves = browser.find_element("id", "board-moves")
    browser.execute_script("arguments[0].focus()", moves)
    moves.send_keys("\ue014")  # right arrow
    at(line[1])
    assert browser.execute_script("return window.piramida.play.position") == positions[line[1]]
    moves.send_keys("\ue012")  # left arrow
    at(0)
    assert browser.execute_script("return window.piramida.play.position") == start_position
    # The picture is not compared pixel for pixel with the earlier one: the
    # aiming path is drawn over it a moment after each step.
    current = browser.find_elements("css selector", "#board-moves li.current")
    assert len(current) == 1 and current[0].get_attribute("data-node") == "0"
    # The win bar shows the value network's chance at the cursor.
    wp = browser.execute_script("return window.piramida.board.nodes[0].wp")
    assert 0 <= wp <= 1 and f"{round(100 * wp)}%" in browser.find_element("id", "win-text").text
    assert severe_logs(browser, failed_loads=False) == []


def test_a_variation_is_indented_under_its_move(board_server: Any, browser: Any) -> None:
    start_frame_and_shoot(browser, board_server.url)
    wait_js(browser, "window.piramida.play.to_act !== 'agent' && !window.piramida.playBusy", 60)
    browser.find_element("css selector", '#board-moves li[data-node="0"]').click()
    wait_js(browser, "window.piramida.play.node === 0")
    box = browser.find_element("id", "shot-text")
    box.clear()
    box.send_keys("ball=0 phi=250 v=0.3 a=0 b=0 theta=0")
    browser.execute_script("document.getElementById('shot-text').dispatchEvent(new Event('change'))")
    browser.find_element("id", "play-shoot").click()
    wait_js(browser, "window.piramida.board.nodes[0].children.length === 2", 60)
    k = browser.execute_script("return window.piramida.board.nodes[0].children[1]")
    # Read in the page in one step: the list is redrawn as the agent plays
    # on after the foul, which would leave an element found earlier stale.
    classes = wait_js(browser, f"document.querySelector('#board-moves li.variation li[data-node=\"{k}\"]')?.className")
    assert "foul" in classes.split()
    # The first line is still listed at the top level.
    assert browser.execute_script("return document.querySelector('#board-moves > li.move[data-node=\"1\"]') !== null")
    assert severe_logs(browser, failed_loads=False) == []


def test_a_mid_game_position_link_is_short_and_opens_the_same_position(board_server: Any, browser: Any) -> None:
    c = Client(board_server.url)
    settings = {"agent": "greedy", "variant": "free", "seed": 3, "noise": "pro"}
    st = c.post("/api/play/new", settings | {"seat": 0})["state"]
    if st["to_act"] == "you":  # the agent breaks: the player sits in the other seat
        st = c.post("/api/play/new", settings | {"seat": 1})["state"]
    after = c.post(f"/api/play/{st['id']}/agent")["state"]  # the break: balls where the physics left them
    text = after["text"]
    assert len(text) > 300  # the text form alone would make a long address
    load(browser, board_server.url)
    box = browser.find_element("id", "text")
    browser.execute_script("arguments[0].value = arguments[1]", box, text)
    browser.find_element("id", "text-apply").click()
    wait_js(browser, f"window.piramida.text === {text!r}")
    url = browser.current_url
    assert "#p=" in url and len(url) <= 200, (len(url), url)
    load(browser, url)
    wait_js(browser, "window.piramida.pos && window.piramida.text")
    got = browser.execute_script("return window.piramida.pos")
    want = after["position"]
    assert {k: v for k, v in got.items() if k != "balls"} == {k: v for k, v in want.items() if k != "balls"}
    assert set(got["balls"]) == set(want["balls"])
    assert all(abs(got["balls"][b][i] - want["balls"][b][i]) < 1e-4 for b in want["balls"] for i in (0, 1))
    # The old form is read as before.
    load(browser, f"{board_server.url}#pos={urllib.parse.quote(text, safe='')}")
    assert browser.execute_script("return window.piramida.text") == text
    assert severe_logs(browser, failed_loads=False) == []


def test_an_unknown_frame_id_is_one_line_and_nothing_to_press(board_server: Any, browser: Any) -> None:
    load(browser, f"{board_server.url}?game=0123456789abcdef")
    wait_js(browser, "window.piramida.tab === 'play'")
    line = browser.find_element("id", "play-state").text
    assert line == "no game '0123456789abcdef' on this server (start a new one)"
    assert browser.execute_script("return window.piramida.play") is None
    for button in ("play-shoot", "play-hint", "play-undo", "play-save"):
        assert not browser.find_element("id", button).is_enabled(), button
    assert not browser.find_element("id", "board-panel").is_displayed()
    # A new frame replaces the line and the id in the address.
    browser.find_element("id", "play-new").click()
    wait_js(browser, "window.piramida.play && window.piramida.board")
    assert frame_id(browser.current_url) == browser.execute_script("return window.piramida.play.id")


def test_a_hint_fills_in_the_shot_for_the_frame_at_its_cursor(board_server: Any, browser: Any) -> None:
    text = Client(board_server.url).post("/api/position", {"position": json.loads(MIDGAME.read_text())})["text"]
    load(browser, f"{board_server.url}#pos={urllib.parse.quote(text, safe='')}")
    tab(browser, "play")
    browser.find_element("id", "play-from-position").click()
    browser.find_element("id", "play-new").click()
    wait_js(browser, "window.piramida.play && window.piramida.play.to_act === 'you' && window.piramida.board")
    box = browser.find_element("id", "shot-text")
    box.clear()
    browser.find_element("id", "play-hint").click()
    wait_js(browser, "document.getElementById('status').textContent.startsWith('hint:')", 60)
    assert browser.find_element("id", "shot-text").get_attribute("value").startswith("ball=")
    assert severe_logs(browser, failed_loads=False) == []
