"""The game viewer: a replayed game as one self-contained HTML page.

- :mod:`~fcsim.viewer.steps`: the table after each event (the one model the page draws).
- :mod:`~fcsim.viewer.page`: the page (template, stylesheet and script are package data).
- :mod:`~fcsim.viewer.showcase`: games of a run worth watching, for ``fcsim report``.
- :mod:`~fcsim.viewer.browser`: headless Chromium, for the browser test and the screenshot.
"""

from fcsim.viewer.page import render_page, write_page
from fcsim.viewer.steps import game_steps, seat_view

__all__ = ["game_steps", "render_page", "seat_view", "write_page"]
