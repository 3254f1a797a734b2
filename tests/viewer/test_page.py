"""The viewer page: self-contained, its embedded JSON is exactly the step model, and the
package ships its assets."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from fcsim.viewer import page
from fcsim.viewer.page import page_data, render_page, write_page
from fcsim.viewer.steps import game_steps

from .conftest import replay

ROOT = Path(__file__).resolve().parents[2]
SEATS = ["greedy", "expected", "random", "random"]


def _embedded(text: str) -> dict:
    match = re.search(r'<script id="game-data" type="application/json">(.*?)</script>', text,
                      re.S)
    assert match is not None
    return json.loads(match.group(1))


@pytest.fixture(scope="module")
def events() -> list[dict]:
    return replay("readme")


def test_the_page_embeds_the_step_model(events: list[dict]) -> None:
    data = _embedded(render_page(events, SEATS, "a game"))
    assert data["steps"] == game_steps(events)
    assert data == json.loads(json.dumps(page_data(events, SEATS)))
    assert data["seats"] == SEATS
    assert data["wild_cards"]["3"] == ["3S", "3H", "3D", "3C", "3X", "JK"]
    assert len(data["chart"]["totals"]) == 12  # the start and the 11 rounds


def test_the_page_needs_no_network(events: list[dict]) -> None:
    text = render_page(events, SEATS, "a game")
    assert not re.search(r"\{\{\w+\}\}", text)  # every placeholder filled
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=|@import|url\(", text)
    # the only address is the SVG namespace, a name that is never fetched
    assert set(re.findall(r"https?://[^\s\"'<>]+", text)) == {"http://www.w3.org/2000/svg"}


def test_names_cannot_break_out_of_the_page(events: list[dict]) -> None:
    text = render_page(events, [*SEATS[:3], "</script><b>x"], "<i>title</i>", "a & b")
    assert "</script><b>" not in text and "<i>title" not in text
    assert "&lt;i&gt;title&lt;/i&gt;" in text and "a &amp; b" in text
    assert _embedded(text)["seats"][3] == "</script><b>x"


def test_write_page_and_seat_count(events: list[dict], tmp_path: Path) -> None:
    path = write_page(tmp_path / "g.html", events, SEATS, "t")
    assert path.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    with pytest.raises(ValueError, match="4 seats need 4 names, not 2"):
        render_page(events, SEATS[:2], "t")


def test_pyproject_ships_every_asset() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["fcsim.viewer"]
    folder = Path(page.__file__).parent
    assets = [p for p in folder.iterdir() if p.is_file() and p.suffix not in (".py", ".pyc")]
    assert {page.TEMPLATE, page.STYLESHEET, page.SCRIPT} <= {p.name for p in assets}
    for asset in assets:
        assert any(asset.match(pattern) for pattern in patterns), asset.name
