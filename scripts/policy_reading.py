"""How much an opponent's last turns tell of its hand when its strategy is known exactly:
policy-based inference at its strongest, a bound for the search's ``evidence``.

After each turn of a seat, the next seat sees it discard a card ``x`` (and take the
pile's card, or pass it up for the stock). Dealt uniformly from the unseen cards, the
seat's hand is one of many; this probe weighs each by how likely its owner's *own
strategy* was to make that turn with it: to discard ``x`` from the hand and ``x``, and,
before that, to take or pass up the pile's card with the hand less the card it drew (any
card of the hand then but the pile takes it held, ``x`` included, when it drew from the
stock); with ``--depth`` above 1, the turns before it this round too, walking back (one
possible stock card drawn at each). With every seat playing ``--table``, the model of the
opponent is exact. Prints one stable line::

    table=4xaware depth=1 views=… cards=… uniform=… weighted=… equivalent_reveal=… alive=…

``uniform`` and ``weighted`` are the shares of the seat's unshown cards that a hand dealt
uniformly, or weighed by its likelihood, holds where they are; ``equivalent_reveal``
puts the gain on the scale of ``search_hands_oracle:reveal`` (as ``world_reading.py``
does); ``alive`` is the mean share of dealt hands that could have made the turn.

    python scripts/policy_reading.py --games 6 --seed 320
"""

from __future__ import annotations

import argparse
from typing import NamedTuple

import numpy as np
from arguments import at_least, strategy, summary, table_size

import fcsim
from fcsim.core.cards import N_KINDS, parse_card
from fcsim.core.rng import STATE_WORDS
from fcsim.core.solver.api import best_discard_of_counts
from fcsim.core.solver.layout import new_scratch
from fcsim.core.state import DRAW_PILE, DRAW_STOCK
from fcsim.core.tables import solver_table
from fcsim.core.view import (
    DRAW_ACTIONS,
    I_ALL_WILD,
    I_BEST_DISCARD,
    I_BEST_PENALTY,
    I_HAND_SIZES,
    I_LAST_TURN,
    I_ROUND,
    I_WILD_POINTS,
    NO_HIDDEN,
    without_history,
)
from fcsim.strategies import parse_strategy
from fcsim.strategies.lookahead import unseen_counts


class Turn(NamedTuple):
    """One turn of a seat as it saw it: its draw's view arrays and source, its discard's
    view arrays and the card it threw, the pile takes it held as the turn began (no stock
    draw of this turn can be one of them), and the card it drew: hidden from the other
    seats, so only the probe's check of its replay reads it."""

    draw: tuple[np.ndarray, ...]
    source: int
    discard: tuple[np.ndarray, ...]
    thrown: int
    held: np.ndarray
    drawn: int


class Policy:
    """The table's compiled decisions, asked on a turn's views with another hand."""

    def __init__(self, spec: str) -> None:
        chosen = parse_strategy(spec)
        self.draw_fn, self.discard_fn = chosen.draw, chosen.discard
        self.history = chosen.history  # as the engine and the agent give it, or not
        self.params, self.table, self.scratch = chosen.param_vector, solver_table(), new_scratch()
        self.rng = np.zeros(STATE_WORDS, np.uint64)  # neither strategy draws from it

    def draws(self, hand: np.ndarray, arrays: tuple[np.ndarray, ...]) -> int:
        """The source the strategy draws from holding ``hand`` in a draw's view."""
        _, pile, known, info = arrays
        info = info if self.history else without_history(info)
        return int(self.draw_fn(hand, pile, known, info, NO_HIDDEN, self.params, self.table,
                                self.scratch, self.rng.copy()))

    def discards(self, hand: np.ndarray, arrays: tuple[np.ndarray, ...]) -> int:
        """The card the strategy throws holding ``hand`` (n + 1 cards) in a discard's view."""
        _, pile, known, info = arrays
        info = info.copy() if self.history else without_history(info)
        # the solver's best discard is the hand's: the view's, recomputed
        info[I_BEST_DISCARD], info[I_BEST_PENALTY] = best_discard_of_counts(
            hand.copy(), int(info[I_ROUND]), int(info[I_WILD_POINTS]), bool(info[I_ALL_WILD]),
            self.table, self.scratch)
        return int(self.discard_fn(hand, pile, known, info, NO_HIDDEN, self.params,
                                   self.table, self.scratch, self.rng.copy()))


def likelihood(policy: Policy, hand: np.ndarray, turns: list[Turn],
               rng: np.random.Generator | None) -> float:
    """The chance that the seat, holding ``hand`` (int8[56]) after ``turns`` (its last
    turns this round, oldest first), made them, walking back from the last: 0 or 1 for a
    discard and a pile take; for a stock draw, the share of the cards it may have drawn
    (those of its hand then that were not pile takes it held) with which its hand before
    passed up the pile, one of them drawn (by that share) to walk back further: an
    unbiased estimate. Without ``rng`` the walk takes the cards the seat really drew (the
    replay's check)."""
    weight = 1.0
    after = hand.astype(np.int64)
    for turn in reversed(turns):
        before = after.copy()
        before[turn.thrown] += 1
        if policy.discards(before.astype(np.int8), turn.discard) != turn.thrown:
            return 0.0
        if turn.source == DRAW_PILE:
            taken = int(turn.draw[1][-1])
            if before[taken] == 0:
                return 0.0
            before[taken] -= 1
            if policy.draws(before.astype(np.int8), turn.draw) != DRAW_PILE:
                return 0.0
            after = before
            continue
        drawable = np.maximum(before - turn.held, 0)
        passing = np.zeros(N_KINDS)
        for kind in np.flatnonzero(drawable):
            before[kind] -= 1
            if policy.draws(before.astype(np.int8), turn.draw) == DRAW_STOCK:
                passing[kind] = drawable[kind]
            before[kind] += 1
        if passing.sum() == 0:
            return 0.0
        weight *= passing.sum() / drawable.sum()
        drawn = turn.drawn if rng is None else rng.choice(N_KINDS, p=passing / passing.sum())
        if passing[drawn] == 0:
            return 0.0
        before[drawn] -= 1
        after = before
    return weight


def read_turns(policy: Policy, view: fcsim.View, seat: int, real: np.ndarray,
               turns: list[Turn], proposals: int, rng: np.random.Generator
               ) -> tuple[int, float, float, float]:
    """(cards, uniform matches, weighted matches, live share) of ``proposals`` hands of
    ``seat`` dealt from ``view``'s unseen cards (its known cards kept), each weighed by
    :func:`likelihood` of its ``turns``."""
    hand, pile, known, info = view.hand_counts, view.pile_kinds, view.known_counts, view.info
    unseen = np.zeros(N_KINDS, np.int64)
    unseen_counts(hand, pile, known, view.seat, unseen)
    pool = np.repeat(np.arange(N_KINDS), unseen)
    need = int(info[I_HAND_SIZES + seat]) - int(known[seat].sum())
    truth = real.astype(np.int64) - known[seat]
    matches = np.empty(proposals)
    weights = np.empty(proposals)
    for k in range(proposals):
        dealt = np.bincount(rng.choice(pool, need, replace=False), minlength=N_KINDS)
        matches[k] = np.minimum(dealt, truth).sum()
        weights[k] = likelihood(policy, known[seat] + dealt, turns, rng)
    if likelihood(policy, real, turns, None) == 0:
        raise AssertionError(f"the real hand of seat {seat} could not have made its turns: "
                             "the probe does not replay the strategy as the game played it")
    weighted = matches @ weights / weights.sum() if weights.sum() > 0 else matches.mean()
    return need, matches.mean(), weighted, float((weights > 0).mean())


class Reading(NamedTuple):
    """What the turns read: their count, the unshown cards dealt in them, and the sums over
    turns of the uniform and weighted matches and of the live share."""

    views: int
    cards: int
    uniform: float
    weighted: float
    alive: float


def read_games(table: str, players: int, games: int, seed: int, proposals: int, every: int,
               depth: int) -> Reading:
    """Every ``every``-th turn (not a round's last) of ``games`` games of ``table`` in every
    seat, read by the next seat as it draws, with up to ``depth`` of the seat's turns this
    round (the last one and those before it)."""
    policy, agent = Policy(table), fcsim.agent(table)
    rng = np.random.default_rng(seed)
    views = cards = turns = 0
    uniform = weighted = alive = 0.0
    for g in range(games):
        game = fcsim.Game(players=players, seed=seed, game=g)
        drew: tuple = ()
        history: dict[int, list[Turn]] = {}  # each seat's turns this round, oldest first
        playing = 0  # the round the history is of
        while not game.over:
            view = game.view()
            arrays = (view.hand_counts.copy(), view.pile_kinds.copy(),
                      view.known_counts.copy(), view.info.copy())
            action = agent(view)
            seat, last = view.seat, view.info[I_LAST_TURN] == 1
            if view.round != playing:  # a round begins
                history.clear()
                playing = view.round
            if view.phase == "draw":
                drew = (arrays, DRAW_PILE if action == DRAW_ACTIONS[DRAW_PILE] else DRAW_STOCK)
            game.step(action)
            if view.phase != "discard" or last or game.over or game.round != view.round:
                continue
            draw_arrays, source = drew
            drawn = int(np.argmax(arrays[0].astype(np.int64) - draw_arrays[0]))
            history.setdefault(seat, []).append(Turn(draw_arrays, source, arrays,
                                                     parse_card(action), draw_arrays[2][seat],
                                                     drawn))
            turns += 1
            if turns % every:
                continue
            real = game.state.hands[seat].copy()
            need, uni, wei, live = read_turns(policy, game.view(), seat, real,
                                              history[seat][-depth:], proposals, rng)
            views += 1
            cards += need
            uniform, weighted, alive = uniform + uni, weighted + wei, alive + live
    return Reading(views, cards, uniform, weighted, alive)


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--table", type=strategy, default="aware",
                        help="the strategy every seat plays (and the model of it)")
    parser.add_argument("--players", type=table_size, default=4)
    parser.add_argument("--games", type=at_least(1), default=6)
    parser.add_argument("--proposals", type=at_least(1), default=200,
                        help="hands dealt per turn read")
    parser.add_argument("--every", type=at_least(1), default=1, help="read every n-th turn")
    parser.add_argument("--depth", type=at_least(1), default=1,
                        help="the seat's turns this round read, its last and those before")
    parser.add_argument("--seed", type=int, default=320)
    args = parser.parse_args()
    read = read_games(args.table, args.players, args.games, args.seed, args.proposals,
                      args.every, args.depth)
    base, found = read.uniform / read.cards, read.weighted / read.cards
    print(f"table={args.players}x{args.table} depth={args.depth} views={read.views} "
          f"cards={read.cards} "
          f"uniform={base:.4f} weighted={found:.4f} "
          f"equivalent_reveal={(found - base) / (1 - base):+.4f} "
          f"alive={read.alive / read.views:.3f}")


if __name__ == "__main__":
    main()
