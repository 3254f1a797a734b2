"""What both environments share: the games they deal, in order of a root seed, and an
action index made into a move of the :class:`fcsim.Game` (which alone judges it).

Seeding: ``reset(seed=s)`` deals game 0 of root seed ``s`` — the deal of ``fcsim replay
--seed s --game 0``, and of ``fcsim.Game(seed=s, game=0)`` — and each ``reset()`` after it
the next game of that root (1, 2, …); before any seed the root is 0. So a run of
episodes is a pure function of the seed and the actions.
"""

from __future__ import annotations

import operator

from fcsim.core.rules import RuleSet
from fcsim.core.state import PHASE_DRAW, Scalar
from fcsim.core.view import IllegalMoveError
from fcsim.env.encoding import (
    DISCARD_BASE,
    LATEST_VERSION,
    N_ACTIONS,
    Encoder,
    action_index,
    action_name,
)
from fcsim.game import Game


class Table:
    """The games of one rule set, dealt in seed order, and their observations (in
    observation ``version``, :mod:`fcsim.env.encoding`)."""

    def __init__(self, rules: RuleSet, version: int = LATEST_VERSION) -> None:
        self.rules = rules
        self.encoder = Encoder(rules, version)
        self.root = 0
        self.next_game = 0

    def deal(self, seed: int | None) -> Game:
        """The next game: game 0 of root ``seed`` when a seed is given (see the module)."""
        root, number = (self.root, self.next_game) if seed is None else (seed, 0)
        game = Game(seed=root, game=number, rules=self.rules)  # checks the seed first
        self.root, self.next_game = game.seed, number + 1
        return game


def play_index(game: Game, action: object, who: str) -> None:
    """Make action index ``action`` (see :mod:`fcsim.env.encoding`) the move of ``game``'s
    seat to move, ``who``; an illegal one raises :class:`IllegalMoveError` naming it, the
    legal ones and the mask."""
    try:
        index = operator.index(action)
    except TypeError:
        raise IllegalMoveError(f"{who} chose {action!r}: an action is a whole number from 0 "
                               f"to {N_ACTIONS - 1} (fcsim.env.encoding)") from None
    drawing = int(game.data.ints[Scalar.PHASE]) == PHASE_DRAW
    try:
        if not 0 <= index < N_ACTIONS:
            raise IllegalMoveError(action_name(index))
        game.step(index if drawing else index - DISCARD_BASE)
    except IllegalMoveError:
        legal = [action_index(a) for a in game.view().legal_actions]
        raise IllegalMoveError(
            f"{who} chose action {index} ({action_name(index)}), which is not a legal "
            f"{game.phase}; legal now: {', '.join(f'{i} ({action_name(i)})' for i in legal)}"
            f" — choose one that observation['action_mask'] allows") from None
