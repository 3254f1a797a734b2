"""``fcsim replay --html``: the page holds the steps of the very events ``--json`` prints."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from fcsim.cli import cli
from fcsim.viewer.steps import game_steps

GAME = ["--seed", "7", "--game", "0", "--strategies", "greedy,expected,random,random"]


def _run(*args: str):
    return CliRunner().invoke(cli, ["replay", *args])


def _embedded(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    found = re.search(r'<script id="game-data" type="application/json">(.*?)</script>', text,
                      re.S)
    assert found is not None
    return json.loads(found.group(1))


def test_html_page_plays_the_replayed_game(tmp_path: Path) -> None:
    page = tmp_path / "g.html"
    result = _run(*GAME, "--html", str(page))
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"wrote {page}"
    events = [json.loads(line) for line in _run(*GAME, "--json").output.splitlines()]
    data = _embedded(page)
    assert data["steps"] == game_steps(events)
    assert data["seats"] == ["greedy", "expected", "random", "random"]
    assert "seed 7, game 0" in page.read_text(encoding="utf-8")


def test_html_of_one_round_and_a_rotated_game(tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    result = _run("--seed", "7", "--game", "1", "--strategies", "greedy,random", "--round", "3",
                  "--html", str(page))
    assert result.exit_code == 0, result.output
    data = _embedded(page)
    assert {s["round"] for s in data["steps"]} == {3}
    assert data["seats"] == ["random", "greedy"]  # game 1 rotates the seating by one


def test_html_bad_uses_are_one_line(tmp_path: Path) -> None:
    result = _run(*GAME, "--html", str(tmp_path / "g.html"), "--json")
    assert result.exit_code == 2 and "give one" in result.output
    result = _run(*GAME, "--html", str(tmp_path / "missing" / "g.html"))
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"Error: cannot write {tmp_path / 'missing' / 'g.html'}: No such file or directory"]
