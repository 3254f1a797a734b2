"""Conformance checks and a quick paired comparison, shipped for strategy authors.

>>> from fcsim.testing import check_strategy
>>> check_strategy("greedy:take_margin=2", games=2)   # raises StrategyCheckError on failure
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit, types

from fcsim.core.cards import N_KINDS, CardError, format_card, parse_card
from fcsim.core.engine import GameResults, play_games
from fcsim.core.rng import game_seed
from fcsim.core.rules import COMPARE_PLAYERS, RuleSet
from fcsim.core.state import blank_shared_scratch, shared_scratch
from fcsim.core.tables import solver_table
from fcsim.core.view import (
    DECISION_SIGNATURE,
    DRAW_PILE,
    DRAW_STOCK,
    NO_HIDDEN,
    IllegalMoveError,
    View,
    without_history,
)
from fcsim.errors import FcsimError
from fcsim.replay import game_events
from fcsim.strategies import Strategy, parse_strategy

_RESULT_FIELDS = ("total", "penalty", "turns", "out_seat")  # what two runs must agree on


class StrategyCheckError(FcsimError, AssertionError):
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


class _Watched:
    """``strategy`` as an agent that decides on what the seat sees and reports any input
    it changed, and any move out of range, with the strategy's name and where it was.
    A numba strategy gets the public history as the engine gives it (only if its family
    declares it reads it), or always with ``history``; every decision gets a blank solver
    work space (``shared_scratch()`` too, while it decides)."""

    def __init__(self, strategy: Strategy, history: bool = False) -> None:
        self.strategy = strategy
        self.history = history or strategy.history
        self.spec = strategy.spec  # the engine names it so in its own errors

    def __call__(self, view: View) -> object:
        given = {"hand": view.hand_counts, "pile": view.pile_kinds,
                 "known cards": view.known_counts, "info vector": view.info}
        if self.strategy.family.is_numba:
            given["parameters"] = self.strategy.param_vector
            if not self.history:
                given["info vector"] = without_history(view.info)
        before = {name: array.copy() for name, array in given.items()}
        with blank_shared_scratch():  # nothing other seats' solver calls left in it
            move = self._decide(view, given)
        changed = [name for name, array in given.items()
                   if not np.array_equal(array, before[name])]
        if changed:
            raise StrategyCheckError(f"{self.spec}: its {view.phase} decision changed the "
                                     f"{', '.join(changed)} it was given ({_where(view)}); "
                                     "a decision must leave its inputs as it found them")
        return move

    def _decide(self, view: View, given: dict[str, np.ndarray]) -> object:
        if not self.strategy.family.is_numba:
            return self.strategy(view)
        decide = self.strategy.draw if view.phase == "draw" else self.strategy.discard
        move = int(decide(given["hand"], given["pile"], given["known cards"],
                          given["info vector"], NO_HIDDEN, given["parameters"],
                          solver_table(), shared_scratch(), view.rng))
        if view.phase == "draw" and move not in (DRAW_STOCK, DRAW_PILE):
            raise StrategyCheckError(f"{self.spec}: its draw decision returned {move}, not "
                                     f"{DRAW_STOCK} (stock) or {DRAW_PILE} (pile) "
                                     f"({_where(view)})")
        if view.phase == "discard" and not (0 <= move < N_KINDS and view.hand_counts[move]):
            shown = format_card(move) if 0 <= move < N_KINDS else str(move)
            raise StrategyCheckError(f"{self.spec}: its discard decision returned {shown}, "
                                     f"not a card of its hand {' '.join(view.hand)} "
                                     f"({_where(view)})")
        return move


def _where(view: View) -> str:
    return f"round {view.round}, turn {view.turn}, seat {view.seat}"


def check_strategy(spec: str | Strategy | Callable[[View], object], games: int = 4,
                   seed: int = 2024) -> None:
    """Play ``spec`` at several tables and rule variants and check that it conforms.

    Checks: each decision, called on copies of what it is given (and a blank solver work
    space), changes none of them (hand, pile, known cards, info vector, parameters, and
    the solver table over a game)
    and returns a move in range (0 or 1 for a draw, a card held for a discard); every
    move is legal (the engine stops an illegal one with an error naming the strategy and
    the move); the same seed gives the same game, twice, and the same as when each
    decision was called on its own; a numba strategy whose family does not declare
    ``history=True`` plays the same when given the public history (it does not read it);
    the cards flow only through draws and discards; and
    a strategy not registered as an oracle receives no hidden cards (its ``hidden``
    argument is empty; a numba strategy reading past the end of an array reads other
    memory, and one reading the hands other seats' solver calls left in the work space
    finds none in a blank one: either then plays differently on the copies). An oracle,
    which sees hidden cards no view holds, skips the decision-by-decision check. The
    checks catch mistakes, not a strategy written to cheat (docs/STRATEGIES.md, "Check
    it")."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a whole number, 1 or more, not {games!r}")
    strategy = parse_strategy(spec)
    who = strategy.spec
    _check_integer_moves(strategy)
    table = solver_table()
    pristine = table.copy()
    watched = _Watched(strategy)
    for rules, seated in _tables(strategy):
        seeds = np.array([game_seed(np.uint64(seed), np.uint64(g)) for g in range(games)],
                         dtype=np.uint64)
        seating = np.tile(np.arange(rules.players, dtype=np.int8), (games, 1))
        # decision by decision first: its errors say most about what went wrong
        runs = ([] if strategy.oracle else
                [[watched if s is strategy else s for s in seated]]) + [seated, seated]
        try:
            results = [play_games(seeds, seating, at_table, rules) for at_table in runs]
        except IllegalMoveError as err:
            raise StrategyCheckError(str(err)) from None
        if not np.array_equal(table, pristine):
            table[:] = pristine  # the other strategies of this process need it whole
            raise StrategyCheckError(f"{who}: changed the solver table it was given (it is "
                                     "shared by every game: read it, never write it)")
        for field in _RESULT_FIELDS:
            if not np.array_equal(getattr(results[-1], field), getattr(results[-2], field)):
                raise StrategyCheckError(f"{who}: the same seed gave different games ({field})")
            if len(results) > 2 and not np.array_equal(getattr(results[0], field),
                                                       getattr(results[-1], field)):
                raise StrategyCheckError(f"{who}: played differently when each decision was "
                                         f"called on copies of what it is given ({field}): "
                                         "does it keep state between calls, read past the "
                                         "end of an array, or read what other seats left in "
                                         "the solver's work space (scratch)?")
        if len(results) > 2 and not strategy.history:
            _check_history_unread(strategy, seeds, seating, seated, rules, results[-1])
        try:
            events = game_events(int(seeds[0]), seated, rules)
        except CardError as err:  # a hand the events cannot even be written for
            raise StrategyCheckError(f"{who}: its games hold a hand no deck can ({err}): a "
                                     "decision function must leave its inputs as it found "
                                     "them") from None
        _check_cards_flow(events, who)


def _check_integer_moves(strategy: Strategy) -> None:
    """A numba decision returns an integer: the engine reads it as ``int64``, so a float
    one would be cut without a word (0.7 plays 0, the stock). Typed here on its own,
    without the engine's signature, which would make the cut itself."""
    if not strategy.family.is_numba:
        return
    for name, decision in zip(("draw", "discard"), strategy._decisions(), strict=True):
        source = getattr(decision, "py_func", None)
        if source is None:  # NUMBA_DISABLE_JIT: nothing is typed
            continue
        probe = njit(source)
        probe.compile(DECISION_SIGNATURE.args)
        returned = probe.overloads[DECISION_SIGNATURE.args].signature.return_type
        if not isinstance(returned, types.Integer | types.Boolean):
            raise StrategyCheckError(f"{strategy.spec}: its {name} decision returns {returned}, "
                                     "not an integer: the engine would cut it (0.7 plays 0)")


def _check_history_unread(strategy: Strategy, seeds: np.ndarray, seating: np.ndarray,
                          seated: list[Strategy], rules: RuleSet, played: GameResults) -> None:
    """A numba strategy whose family does not declare ``history=True`` gets no public
    history from the engine: given it, it must play the same games (``played``)."""
    shown = _Watched(strategy, history=True)
    again = play_games(seeds, seating, [shown if s is strategy else s for s in seated], rules)
    for field in _RESULT_FIELDS:
        if not np.array_equal(getattr(again, field), getattr(played, field)):
            raise StrategyCheckError(
                f"{strategy.spec}: played differently when given the round's public history "
                f"({field}), which the engine fills in info only for a family that declares "
                "history=True: declare it in its Family, or leave its blocks of info unread")


@dataclass(frozen=True)
class Comparison:
    """``a`` against ``b`` over duplicate deals: ``a``'s mean total minus ``b``'s per game
    (lower is better for ``a``) with its 95% interval and p-value, and the verdict."""

    a: str
    b: str
    deals: int
    mean_diff: float
    mean_diff_lo: float
    mean_diff_hi: float
    p_value: float
    verdict: str

    def __str__(self) -> str:
        from fcsim.analysis.stats import bounds_cell, p_text

        return (f"{self.a} - {self.b}: {self.mean_diff:+.2f} points per game over "
                f"{self.deals} deals, 95% CI "
                f"{bounds_cell(self.mean_diff_lo, self.mean_diff_hi)}, "
                f"{p_text(self.p_value)}: {self.verdict}")


def compare(a: str | Strategy, b: str | Strategy, deals: int = 100,
            players: int = COMPARE_PLAYERS, seed: int = 0, workers: int = 1) -> Comparison:
    """``fcsim compare a b`` in this process: ``deals`` deals, each played in every seat
    rotation with ``a`` and ``b`` alternating around the table (so luck cancels)."""
    from fcsim.analysis.load import load_results
    from fcsim.analysis.stats import paired_comparison
    from fcsim.runner.format import alternating
    from fcsim.runner.run import deal_games, simulate

    a_spec, b_spec = parse_strategy(a).spec, parse_strategy(b).spec
    seats = alternating(a_spec, b_spec, players)
    with tempfile.TemporaryDirectory(prefix="fcsim-compare-") as folder:
        simulate(seats, deal_games(seats, deals), Path(folder) / "run", seed=seed,
                 duplicate=True, rules=RuleSet(players=players), workers=workers)
        row = paired_comparison(load_results(Path(folder) / "run"),
                                [(a_spec, b_spec)]).row(0, named=True)
    return Comparison(a_spec, b_spec, row["deals"], row["mean_diff"], row["mean_diff_lo"],
                      row["mean_diff_hi"], row["p_value"], row["verdict"])
