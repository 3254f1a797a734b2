"""The viewer in a real browser: headless Chromium opens the page of
``fcsim replay --seed 7 --game 0 --strategies greedy,expected,random,random --html`` from
``file://``, is driven like a person would (arrow keys, the slider, the seat buttons,
``#round-R-turn-T`` links, play / pause), and what it shows is checked against the
game's events through the step model.

Without Chromium the test fails in CI (``$CI`` set) and is skipped elsewhere.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from fcsim.cli import cli
from fcsim.viewer import browser
from fcsim.viewer.steps import game_steps, seat_view, wild_cards

GAME = ["replay", "--seed", "7", "--game", "0", "--strategies", "greedy,expected,random,random"]

# Reads what the page shows (the DOM, not the embedded data).
READER = """
const cards = (root, sel) => [...root.querySelectorAll(sel)].map(c => c.dataset.card);
const read = () => ({
  step: document.body.dataset.step, viewer: document.body.dataset.viewer,
  hash: decodeURIComponent(location.hash), slider: Number(document.getElementById('slider').value),
  caption: document.getElementById('caption').textContent,
  seats: [...document.querySelectorAll('#seats .seat')].map(box => ({
    state: box.querySelector('.hand').dataset.state, cards: cards(box, '.hand .card'),
    wild: cards(box, '.hand .card.wild'), total: box.querySelector('.total').textContent})),
  pile: cards(document, '#pile .card'),
  stock: Number(document.getElementById('stock').textContent),
  scores: [...document.querySelectorAll('#score-rows tr')].map(
    row => [Number(row.dataset.seat), Number(row.querySelector('.points').textContent)]),
  every_card: cards(document, '[data-card]'),
  pressed: [...document.querySelectorAll('#views button[aria-pressed=true]')].map(
    b => b.dataset.seat),
});
"""
READ_PAGE = READER + "return read();"
# Moves the slider to every step in turn, as dragging it does, and reads each one.
READ_EVERY_STEP = READER + """
const slider = document.getElementById('slider');
const shown = [];
for (let i = 0; i <= Number(slider.max); i++) {
  slider.value = i;
  slider.dispatchEvent(new Event('input', {bubbles: true}));
  shown.push(read());
}
return shown;
"""


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    reason = browser.missing()
    if reason is not None:
        if _in_ci():
            pytest.fail(f"the viewer's browser test needs headless Chromium in CI: {reason}")
        pytest.skip(f"no headless Chromium here: {reason}")
    with browser.headless_chromium(1280, 1000) as chromium:
        yield chromium


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[dict]]:
    """The page's file:// URL and the steps of the game's events (from ``--json``)."""
    page = tmp_path_factory.mktemp("viewer") / "g.html"
    runner = CliRunner()
    assert runner.invoke(cli, [*GAME, "--html", str(page)]).exit_code == 0
    events = [json.loads(line) for line in runner.invoke(cli, [*GAME, "--json"]).output
              .splitlines()]
    return page.as_uri(), game_steps(events)


def _laid_down(shown: dict) -> list[str]:
    """A scored hand's cards in the order the page lays them down: melds, then the rest."""
    return [card for meld in shown["melds"] for card in meld] + shown["deadwood"]


def _expected(step: dict, viewer: int | None) -> dict:
    """What the page must show of ``step``: every hand, or ``viewer``'s view of it."""
    view = step if viewer is None else seat_view(step, viewer)
    wilds = set(wild_cards(step["wild_rank"]))
    seats = []
    for seat, shown in enumerate(view["shown"]):
        if shown is not None:
            state, cards = "laid-down", _laid_down(shown)
        elif viewer is None or viewer == seat:
            state, cards = "hand", view["hands"][seat] if viewer is None else view["hand"]
        else:
            known = view["known"][seat]
            state, cards = "hidden", known + ["?"] * (view["sizes"][seat] - len(known))
        seats.append({"state": state, "cards": cards, "wild": [c for c in cards if c in wilds],
                      "total": f"total {view['totals'][seat]}"})
    return {"step": step["id"], "viewer": "all" if viewer is None else str(viewer),
            "seats": seats, "pile": view["pile"], "stock": view["stock"],
            "scores": [[s, shown["penalty"]] for s, shown in enumerate(view["shown"]) if shown]}


def _check(shown: dict, step: dict, viewer: int | None) -> None:
    want = _expected(step, viewer)
    assert {key: shown[key] for key in want} == want
    if step["event"] == "turn":
        action = step["action"]
        drawn = step["drawn"] if viewer in (None, step["seat"]) else action["drawn"]
        assert (f"draws {drawn} from" if drawn else "draws from the stock") in shown["caption"]
        assert f"discards {action['discard']}" in shown["caption"]
        ending = ("melds every card (last turn)." if action["out"] and action["last_turn"]
                  else "goes out!" if action["out"] else
                  "(last turn)." if action["last_turn"] else f"{action['discard']}.")
        assert shown["caption"].endswith(ending), shown["caption"]
    if viewer is not None:  # nothing on the page but what the seat could see
        view = seat_view(step, viewer)
        seen = {*view["hand"], *view["pile"], "?"}
        seen.update(card for known in view["known"] for card in known)
        seen.update(card for laid in view["shown"] if laid for card in _laid_down(laid))
        assert set(shown["every_card"]) <= seen, step["id"]


def _read(driver: Any) -> dict:
    return driver.execute_script(READ_PAGE)


def _wait_for_hash(driver: Any, step_id: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(driver, 2).until(lambda d: _read(d)["hash"] == "#" + step_id)


def _key(driver: Any, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    ActionChains(driver).send_keys(key).perform()


def _open(driver: Any, url: str) -> None:
    driver.get("about:blank")  # a real load, even when only the #step changes
    driver.get(url)


def test_the_page_loads_offline_without_errors(driver: Any, game: tuple) -> None:
    url, steps = game
    _open(driver, url)
    assert driver.execute_script("return performance.getEntriesByType('resource').length") == 0
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []
    shown = _read(driver)
    _check(shown, steps[0], None)
    assert shown["hash"] == "#" + steps[0]["id"] and shown["pressed"] == [""]


@pytest.mark.parametrize("viewer", [None, 0, 1, 2, 3])
def test_every_step_in_every_view(driver: Any, game: tuple, viewer: int | None) -> None:
    from selenium.webdriver.common.by import By
    url, steps = game
    _open(driver, url)
    button = "" if viewer is None else str(viewer)
    driver.find_element(By.CSS_SELECTOR, f"#views button[data-seat='{button}']").click()
    shown = driver.execute_script(READ_EVERY_STEP)
    assert len(shown) == len(steps)
    for index, (page, step) in enumerate(zip(shown, steps, strict=True)):
        assert page["slider"] == index and page["pressed"] == [button]
        _check(page, step, viewer)
    _wait_for_hash(driver, steps[-1]["id"])  # the address follows, at most 10 times a second


def test_arrow_keys_step_and_seat_buttons_switch_views(driver: Any, game: tuple) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    url, steps = game
    start = next(i for i, step in enumerate(steps) if step["id"] == "round-5-deal")
    _open(driver, url + "#round-5-deal")
    for seat in (None, 2, 1):
        if seat is not None:  # a second click on the same seat goes back to every hand
            driver.find_element(By.CSS_SELECTOR, f"#views button[data-seat='{seat}']").click()
        for index in range(start, start + 25):
            shown = _read(driver)
            assert shown["slider"] == index
            _check(shown, steps[index], seat)
            _key(driver, Keys.ARROW_RIGHT)
        _wait_for_hash(driver, steps[start + 25]["id"])
        for index in range(start + 25, start, -1):
            _check(_read(driver), steps[index], seat)
            _key(driver, Keys.ARROW_LEFT)
    driver.find_element(By.CSS_SELECTOR, "#views button[data-seat='1']").click()
    _check(_read(driver), steps[start], None)
    _key(driver, Keys.END)
    _check(_read(driver), steps[-1], None)
    _key(driver, Keys.ARROW_RIGHT)  # stays on the last step
    assert _read(driver)["step"] == steps[-1]["id"]
    _key(driver, Keys.HOME)
    assert _read(driver)["step"] == steps[0]["id"]


def test_the_slider_moves_the_game(driver: Any, game: tuple) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    url, steps = game
    _open(driver, url)
    slider = driver.find_element(By.ID, "slider")
    half = slider.size["width"] // 2
    for offset, index in ((half - 2, len(steps) - 1), (2 - half, 0)):
        ActionChains(driver).move_to_element_with_offset(slider, offset, 0).click().perform()
        shown = _read(driver)
        assert shown["slider"] == index
        _check(shown, steps[index], None)
    ActionChains(driver).move_to_element_with_offset(slider, 0, 0).click().perform()
    middle = _read(driver)["slider"]
    assert abs(middle - (len(steps) - 1) / 2) <= 0.05 * len(steps)
    _check(_read(driver), steps[middle], None)
    slider.send_keys(Keys.ARROW_RIGHT)  # keys on the focused slider step once, not twice
    assert _read(driver)["slider"] == middle + 1


def test_links_open_and_follow_the_step(driver: Any, game: tuple) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    url, steps = game
    index = {step["id"]: i for i, step in enumerate(steps)}
    _open(driver, url + "#round-3-turn-7")
    shown = _read(driver)
    assert shown["hash"] == "#round-3-turn-7"
    _check(shown, steps[index["round-3-turn-7"]], None)
    _key(driver, Keys.ARROW_RIGHT)
    _wait_for_hash(driver, steps[index["round-3-turn-7"] + 1]["id"])
    driver.find_element(By.ID, "step-link").click()
    assert _read(driver)["step"] == steps[index["round-3-turn-7"] + 1]["id"]
    driver.execute_script("location.hash = '#round-9-turn-2'")  # a link followed in the page
    _check(_read(driver), steps[index["round-9-turn-2"]], None)
    _open(driver, url + "#round-5")
    _check(_read(driver), steps[index["round-5-deal"]], None)
    _open(driver, url + "#end")
    _check(_read(driver), steps[-1], None)
    _open(driver, url + "#nonsense")
    assert _read(driver)["step"] == steps[0]["id"]


def test_play_and_pause(driver: Any, game: tuple) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
    url, steps = game
    _open(driver, url)
    Select(driver.find_element(By.ID, "speed")).select_by_visible_text("fast")
    play = driver.find_element(By.ID, "play")
    play.click()
    WebDriverWait(driver, 10).until(lambda d: _read(d)["slider"] >= 3)
    play.click()
    paused = _read(driver)
    assert "play" in play.text
    time.sleep(0.6)  # more than two steps at this speed
    assert _read(driver)["slider"] == paused["slider"]
    _check(paused, steps[paused["slider"]], None)


def test_screenshot(driver: Any, game: tuple, tmp_path: Path) -> None:
    url, _ = game
    _open(driver, url + "#round-5-turn-12")
    path = tmp_path / "viewer.png"
    assert driver.save_screenshot(str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 20_000
