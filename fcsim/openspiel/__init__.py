"""Five Crowns in OpenSpiel (the ``[openspiel]`` extra: ``pip install 'fcsim[openspiel]'``).

Importing this package registers ``python_five_crowns`` (:mod:`fcsim.openspiel.game`),
so ``pyspiel.load_game("python_five_crowns(players=4)")`` works after it; its states run
on fcsim's own steps. Both directions of play (:mod:`fcsim.openspiel.bots`): OpenSpiel's
bots as fcsim strategies (``openspiel:ismcts``, ``openspiel:random``), and any fcsim
strategy as an OpenSpiel bot (:func:`bot`). docs/OPENSPIEL.md shows them in use.
"""

from __future__ import annotations

try:
    import pyspiel  # noqa: F401
except ImportError as err:
    raise ImportError(f"fcsim.openspiel needs OpenSpiel ({err}): install it with "
                      f"pip install 'fcsim[openspiel]'") from None

from fcsim.openspiel.bots import FcsimBot, bot, ismcts_bot
from fcsim.openspiel.game import GAME_NAME, GAME_TYPE, FiveCrownsGame, FiveCrownsState, rules_of
from fcsim.openspiel.observer import FiveCrownsObserver

__all__ = ["GAME_NAME", "GAME_TYPE", "FcsimBot", "FiveCrownsGame",
           "FiveCrownsObserver", "FiveCrownsState", "bot", "ismcts_bot", "rules_of"]
