"""Conformance checks for strategies, shipped in the package for strategy authors.

>>> from fcsim.testing import check_strategy
>>> check_strategy("greedy:take_margin=2", games=2)   # raises StrategyCheckError on failure
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from fcsim.core.cards import parse_card
from fcsim.core.engine import play_games
from fcsim.core.rng import game_seed
from fcsim.core.rules import RuleSet
from fcsim.core.view import IllegalMoveError
from fcsim.replay import game_events
from fcsim.strategies import Strategy, parse_strategy


class StrategyCheckError(AssertionError):
    """A strategy broke the contract; the message says how."""


def _tables(strategy: Strategy) -> list[tuple[RuleSet, list[Strategy]]]:
    floor = parse_strategy("random")
    return [
        (RuleSet(players=4), [strategy] * 4),
        (RuleSet(players=3, wild_penalty="face", all_wild_melds=False),
         [strategy, floor, strategy]),
        (RuleSet(players=2, rounds=6, go_out_bonus=-10), [floor, strategy]),
    ]


def _check_cards_flow(events: list[dict], who: str) -> None:
    """Every hand at scoring is the deal plus what was drawn less what was discarded."""
    hands: list[Counter] = []
    for e in events:
        if e["event"] == "deal":
            hands = [Counter(parse_card(c) for c in h) for h in e["hands"]]
        elif e["event"] == "turn":
            hand = hands[e["seat"]]
            hand[parse_card(e["drawn"])] += 1
            discard = parse_card(e["discard"])
            if hand[discard] <= 0:
                raise StrategyCheckError(f"{who}: discarded {e['discard']} it did not hold")
            hand[discard] -= 1
        elif e["event"] == "score":
            held = Counter(parse_card(c) for c in e["hand"])
            if +hands[e["seat"]] != held:
                raise StrategyCheckError(
                    f"{who}: seat {e['seat']}'s hand changed outside draws and discards in "
                    f"round {e['round']} (a decision function must leave its inputs as it "
                    "found them)"
                )


def check_strategy(spec: str | Strategy, games: int = 4, seed: int = 2024) -> None:
    """Play ``spec`` at several tables and rule variants and check that it conforms.

    Checks: every move is legal (the engine stops an illegal one with an error naming the
    strategy and the move); the same seed gives the same game, twice; the cards flow only
    through draws and discards (the strategy restores the arrays it is given); and a
    strategy not registered as an oracle receives no hidden cards (structural: its
    ``hidden`` argument is empty).
    """
    strategy = parse_strategy(spec) if isinstance(spec, str) else spec
    who = strategy.spec
    for rules, seated in _tables(strategy):
        seeds = np.array([game_seed(np.uint64(seed), np.uint64(g)) for g in range(games)],
                         dtype=np.uint64)
        seating = np.tile(np.arange(rules.players, dtype=np.int8), (games, 1))
        try:
            first = play_games(seeds, seating, seated, rules)
            second = play_games(seeds, seating, seated, rules)
        except IllegalMoveError as err:
            raise StrategyCheckError(str(err)) from None
        for field in ("total", "penalty", "turns", "out_seat"):
            if not np.array_equal(getattr(first, field), getattr(second, field)):
                raise StrategyCheckError(f"{who}: the same seed gave different games ({field})")
        _check_cards_flow(game_events(int(seeds[0]), seated, rules), who)
