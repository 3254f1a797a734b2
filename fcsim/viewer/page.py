"""One replayed game as a self-contained HTML page (inline CSS, JS and SVG; no network).

The page template and its stylesheet and script are package data beside this module; the
game goes in as the JSON of :mod:`fcsim.viewer.steps`, which the script only draws.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from fcsim.viewer.steps import game_steps, round_totals, wild_cards

TEMPLATE, STYLESHEET, SCRIPT = "page.html", "viewer.css", "viewer.js"
_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")  # {{name}} in the template, filled in one pass


def _asset(name: str) -> str:
    return resources.files("fcsim.viewer").joinpath(name).read_text(encoding="utf-8")


def page_data(events: Sequence[dict], seats: Sequence[str]) -> dict[str, Any]:
    """What the page embeds: the steps, the seat names, the chart series, the wild cards."""
    steps = game_steps(events)
    if len(seats) != len(steps[0]["hands"]):
        raise ValueError(f"{len(steps[0]['hands'])} seats need {len(steps[0]['hands'])} "
                         f"names, not {len(seats)}")
    ranks = sorted({step["wild_rank"] for step in steps})
    return {"seats": list(seats), "steps": steps,
            "chart": round_totals(steps), "wild_cards": {r: wild_cards(r) for r in ranks}}


def describe_game(lead: str, seats: Sequence[str], rules: dict[str, Any]) -> str:
    """The page's subtitle: ``lead`` (where the game comes from), the seats and the rules."""
    seated = ", ".join(f"seat {seat} {spec}" for seat, spec in enumerate(seats))
    return f"{lead}; {seated}; rules: " + ", ".join(f"{k} {v}" for k, v in rules.items())


def _script_json(value: Any) -> str:
    """JSON that cannot end the <script> element holding it."""
    return json.dumps(value, separators=(",", ":")).replace("<", "\\u003c")


def render_page(events: Sequence[dict], seats: Sequence[str], title: str,
                subtitle: str = "") -> str:
    """The HTML page playing back ``events`` (of :func:`fcsim.replay.game_events`);
    ``seats[s]`` names the strategy in seat ``s``."""
    fills = {"title": html.escape(title), "subtitle": html.escape(subtitle),
             "css": _asset(STYLESHEET), "js": _asset(SCRIPT),
             "data": _script_json(page_data(events, seats))}
    return _PLACEHOLDER.sub(lambda match: fills[match.group(1)], _asset(TEMPLATE))


def write_page(path: str | Path, events: Sequence[dict], seats: Sequence[str], title: str,
               subtitle: str = "") -> Path:
    """Write :func:`render_page` to ``path`` (UTF-8) and return the path."""
    target = Path(path)
    target.write_text(render_page(events, seats, title, subtitle), encoding="utf-8")
    return target
