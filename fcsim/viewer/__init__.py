"""The game viewer: a replayed game as one self-contained HTML page.

- :mod:`~fcsim.viewer.steps`: the table after each event (the one model the page draws).
"""

from fcsim.viewer.steps import game_steps, seat_view

__all__ = ["game_steps", "seat_view"]
