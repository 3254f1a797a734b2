"""The sample report's game pages (``results/sample/game-*.html``) are the viewer's pages as
it writes them now: its stylesheet and script, not an older one's."""

from __future__ import annotations

from pathlib import Path

import pytest

from fcsim.viewer.page import SCRIPT, STYLESHEET, _asset

SAMPLE = Path(__file__).resolve().parents[2] / "results" / "sample"


@pytest.mark.parametrize("page", sorted(SAMPLE.glob("game-*.html")), ids=lambda p: p.name)
def test_a_sample_game_page_holds_the_viewer_of_today(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert _asset(SCRIPT) in text, f"{page.name}: rerun python scripts/make_sample_report.py"
    assert _asset(STYLESHEET) in text


def test_the_sample_has_game_pages() -> None:
    assert list(SAMPLE.glob("game-*.html"))
