"""The game engine: complete Five Crowns games between pluggable strategies, in njit.

It implements docs/ENGINE.md step by step (the reference engine in ``tests/reference``
implements the same page and the tests hold the two to the same moves and scores).
Strategies arrive as numba first-class functions (:mod:`fcsim.strategies.base`), one pair
per distinct strategy at the table; ``seating[g, seat]`` says who sits where in game g.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import NumbaExperimentalFeatureWarning, njit

from fcsim.core.cards import DECK_SIZE, JOKER, JOKER_PENALTY, N_KINDS, N_RANKS, N_SUITS, full_deck
from fcsim.core.rng import seed_state, shuffle, stream_seed
from fcsim.core.rules import (
    R_ALL_WILD_MELDS,
    R_GO_OUT_BONUS,
    R_PLAYERS,
    R_ROUNDS,
    R_TURN_CAP,
    R_WILD_PENALTY,
    RuleSet,
)
from fcsim.core.solver import SCRATCH_SIZE, best_discard_kernel, penalty_memo
from fcsim.core.tables import solver_table
from fcsim.strategies.base import (
    I_ALL_WILD,
    I_BEST_DISCARD,
    I_BEST_PENALTY,
    I_DEALER,
    I_GO_OUT_BONUS,
    I_HAND_SIZES,
    I_LAST_TURN,
    I_OUT_SEAT,
    I_PLAYERS,
    I_ROUND,
    I_SEAT,
    I_STOCK_SIZE,
    I_TOTALS,
    I_TURN,
    I_WILD_POINTS,
    I_WILD_RANK,
    INFO_SIZE,
)
from fcsim.strategies.registry import Strategy, StrategyError

# Strategies are numba first-class functions, still flagged experimental; fcsim relies on
# them deliberately (and tests them), so the warning would only be noise for users.
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

# Trace rows (int16[rows, TRACE_WIDTH]); column 0 is the event code.
EV_DEAL = 1  # round, dealer, upcard
EV_HAND = 2  # round, seat, n, kinds…
EV_TURN = 3  # round, seat, source, drawn, discard, out, last_turn
EV_RESHUFFLE = 4  # round, stock size
EV_CAPPED = 5  # round
EV_SCORE = 6  # round, seat, penalty, wild_pts, joker_pts, went_out, n, kinds…
EV_END = 7  # totals…
TRACE_WIDTH = 24
_HAND_COL = 4  # EV_HAND kinds start
_SCORE_COL = 8  # EV_SCORE kinds start

# Error codes written to ``error[0]`` (with the strategy index, the game and the move).
ERR_NONE = 0
ERR_DRAW = 1
ERR_DISCARD = 2


@dataclass(frozen=True)
class GameResults:
    """Per-game results of :func:`play_games` (G games, R rounds, P seats)."""

    total: np.ndarray  # int16[G, P]
    place: np.ndarray  # int8[G, P]
    win: np.ndarray  # bool[G, P]
    penalty: np.ndarray  # int16[G, R, P]
    wild_pts: np.ndarray  # int16[G, R, P]
    joker_pts: np.ndarray  # int16[G, R, P]
    out_seat: np.ndarray  # int8[G, R]
    out_turn: np.ndarray  # int16[G, R]
    turns: np.ndarray  # int16[G, R]
    capped: np.ndarray  # bool[G, R]


@njit(cache=True)
def _wild_split(hand: np.ndarray, wild_pos: int, left: int, wild_points: int) -> tuple[int, int]:
    """Points of the ``left`` cheapest wilds of ``hand``: (wild-rank points, joker points)."""
    n_rank = 0
    for s in range(N_SUITS):
        n_rank += hand[s * N_RANKS + wild_pos]
    n_jokers = int(hand[JOKER])
    if wild_points <= JOKER_PENALTY:
        rank_left = min(left, n_rank)
        joker_left = left - rank_left
    else:
        joker_left = min(left, n_jokers)
        rank_left = left - joker_left
    return rank_left * wild_points, joker_left * JOKER_PENALTY


@njit(cache=True)
def _event(trace, row, code, a=0, b=0, c=0, d=0, e=0, f=0, h=0) -> int:
    """Write trace row ``row`` (code and up to seven values) when tracing; the next row."""
    if trace.shape[0] == 0:
        return row
    trace[row, 0], trace[row, 1], trace[row, 2], trace[row, 3] = code, a, b, c
    trace[row, 4], trace[row, 5], trace[row, 6], trace[row, 7] = d, e, f, h
    return row + 1


@njit(cache=True)
def _event_cards(trace, row, col, hand) -> None:
    """Append the cards of ``hand`` (kind order, with repeats) to the previous trace row."""
    if trace.shape[0] == 0:
        return
    for kind in range(N_KINDS):
        for _ in range(hand[kind]):
            trace[row - 1, col] = kind
            col += 1


@njit(cache=True)
def _deal(deck, deal_rng, stock, hands, n, dealer) -> int:
    """Shuffle the full deck into ``stock`` and deal ``n`` cards a seat from the dealer's
    left, one pass at a time (the stock's top is its last card); the stock size left."""
    players = hands.shape[0]
    stock[:] = deck
    shuffle(deal_rng, stock, DECK_SIZE)
    stock_len = DECK_SIZE
    hands[:, :] = 0
    for _ in range(n):
        for i in range(1, players + 1):
            stock_len -= 1
            hands[(dealer + i) % players, stock[stock_len]] += 1
    return stock_len


@njit(cache=True)
def _reshuffle(stock, pile, pile_len, play_rng) -> int:
    """Turn the discard pile but its top card into a shuffled stock; the new stock size."""
    top = pile[pile_len - 1]
    for j in range(pile_len - 1):
        stock[j] = pile[j]
    shuffle(play_rng, stock, pile_len - 1)
    pile[0] = top
    return pile_len - 1


@njit(cache=True)
def _reveal(hidden, hands, stock, stock_len) -> None:
    """Fill an oracle's ``hidden`` view: every hand, then the stock from the top."""
    players = hands.shape[0]
    for s in range(players):
        hidden[s, :N_KINDS] = hands[s]
    hidden[players, :] = -1
    for j in range(stock_len):
        hidden[players, j] = stock[stock_len - 1 - j]


@njit(cache=True)
def _score(hand, r, wild_points, all_wild, table, scratch) -> tuple[int, int, int]:
    """Least penalty of a kept hand, and its wild-rank and joker points."""
    pen, left = penalty_memo(hand, r, wild_points, all_wild, table, scratch)
    wp, jp = _wild_split(hand, r - 1, left, wild_points)
    return pen, wp, jp


@njit(cache=True)
def _play_games(
    seeds, seating, draws, discards, params, oracle, rules, table, deck,
    total, place, win, penalty, wild_pts, joker_pts, out_seat, out_turn, turns, capped,
    trace, error,
):
    """Play ``len(seeds)`` games; see :func:`play_games` for the arrays."""
    n_players = rules[R_PLAYERS]
    n_rounds = rules[R_ROUNDS]
    go_out_bonus = rules[R_GO_OUT_BONUS]
    all_wild = rules[R_ALL_WILD_MELDS] == 1
    turn_cap = rules[R_TURN_CAP]
    stock = np.empty(DECK_SIZE, dtype=np.int8)
    pile = np.empty(DECK_SIZE, dtype=np.int8)
    hands = np.zeros((n_players, N_KINDS), dtype=np.int8)
    known = np.zeros((n_players, N_KINDS), dtype=np.int8)
    info = np.zeros(INFO_SIZE, dtype=np.int64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)  # empty memo
    play_rng = np.zeros(4, dtype=np.uint64)
    deal_rng = np.zeros(4, dtype=np.uint64)
    hidden_full = np.full((n_players + 1, DECK_SIZE), -1, dtype=np.int8)
    hidden_none = np.zeros((0, 0), dtype=np.int8)
    totals = np.zeros(n_players, dtype=np.int64)
    scored = np.zeros(n_players, dtype=np.bool_)
    row = 0
    for g in range(seeds.shape[0]):
        seed_state(play_rng, stream_seed(seeds[g], 0))
        totals[:] = 0
        for r in range(1, n_rounds + 1):
            n = r + 2
            wild_points = n if rules[R_WILD_PENALTY] < 0 else rules[R_WILD_PENALTY]
            dealer = (r - 1) % n_players
            seed_state(deal_rng, stream_seed(seeds[g], r))
            stock_len = _deal(deck, deal_rng, stock, hands, n, dealer) - 1
            pile[0] = stock[stock_len]
            pile_len = 1
            known[:, :] = 0
            row = _event(trace, row, EV_DEAL, r, dealer, pile[0])
            for s in range(n_players):
                row = _event(trace, row, EV_HAND, r, s, n)
                _event_cards(trace, row, _HAND_COL, hands[s])
            info[I_ROUND], info[I_WILD_RANK], info[I_PLAYERS] = r, n, n_players
            info[I_DEALER], info[I_WILD_POINTS] = dealer, wild_points
            info[I_ALL_WILD], info[I_GO_OUT_BONUS] = 1 if all_wild else 0, go_out_bonus
            for s in range(n_players):
                info[I_TOTALS + s] = totals[s]
                info[I_HAND_SIZES + s] = n
            scored[:] = False
            cur = (dealer + 1) % n_players
            t = 0
            out = -1
            is_capped = False
            while True:
                # One turn of seat `cur` (docs/ENGINE.md, step 4).
                last = out >= 0
                who = seating[g, cur]
                info[I_SEAT], info[I_STOCK_SIZE], info[I_TURN] = cur, stock_len, t
                info[I_LAST_TURN], info[I_OUT_SEAT] = 1 if last else 0, out
                info[I_BEST_DISCARD], info[I_BEST_PENALTY] = -1, -1
                hidden = hidden_none
                if oracle[who]:
                    hidden = hidden_full
                    _reveal(hidden, hands, stock, stock_len)
                hand = hands[cur]
                source = draws[who](hand, pile[:pile_len], known, info, hidden, params[who],
                                    table, scratch, play_rng)
                if source != 0 and source != 1:
                    error[0], error[1], error[2], error[3] = ERR_DRAW, who, g, source
                    return
                if source == 0:
                    if stock_len == 0:
                        stock_len = _reshuffle(stock, pile, pile_len, play_rng)
                        pile_len = 1
                        row = _event(trace, row, EV_RESHUFFLE, r, stock_len)
                    stock_len -= 1
                    card = stock[stock_len]
                else:
                    pile_len -= 1
                    card = pile[pile_len]
                    known[cur, card] += 1
                hand[card] += 1
                info[I_HAND_SIZES + cur] = n + 1
                best, best_pen = best_discard_kernel(hand, r, wild_points, all_wild, table,
                                                     scratch)
                went_out = best_pen == 0  # going out is automatic
                if went_out:
                    drop = best
                else:
                    info[I_STOCK_SIZE] = stock_len
                    info[I_BEST_DISCARD], info[I_BEST_PENALTY] = best, best_pen
                    drop = discards[who](hand, pile[:pile_len], known, info, hidden,
                                         params[who], table, scratch, play_rng)
                    if drop < 0 or drop >= N_KINDS or hand[drop] == 0:
                        error[0], error[1], error[2], error[3] = ERR_DISCARD, who, g, drop
                        return
                hand[drop] -= 1
                info[I_HAND_SIZES + cur] = n
                pile[pile_len] = drop
                pile_len += 1
                if known[cur, drop] > 0:
                    known[cur, drop] -= 1
                t += 1
                row = _event(trace, row, EV_TURN, r, cur, source, card, drop,
                             1 if went_out else 0, 1 if last else 0)
                if last:
                    penalty[g, r - 1, cur], wild_pts[g, r - 1, cur], joker_pts[g, r - 1, cur] = (
                        _score(hand, r, wild_points, all_wild, table, scratch))
                    scored[cur] = True
                elif went_out:
                    out = cur
                    out_turn[g, r - 1] = t
                    penalty[g, r - 1, cur] = go_out_bonus
                    scored[cur] = True
                elif t >= turn_cap:
                    is_capped = True
                    break
                cur = (cur + 1) % n_players
                if out >= 0 and cur == out:
                    break
            if is_capped:
                row = _event(trace, row, EV_CAPPED, r)
            for s in range(n_players):
                if not scored[s]:
                    penalty[g, r - 1, s], wild_pts[g, r - 1, s], joker_pts[g, r - 1, s] = (
                        _score(hands[s], r, wild_points, all_wild, table, scratch))
                totals[s] += penalty[g, r - 1, s]
                row = _event(trace, row, EV_SCORE, r, s, penalty[g, r - 1, s],
                             wild_pts[g, r - 1, s], joker_pts[g, r - 1, s], 1 if s == out else 0,
                             n)
                _event_cards(trace, row, _SCORE_COL, hands[s])
            out_seat[g, r - 1] = out
            turns[g, r - 1] = t
            capped[g, r - 1] = is_capped
        best_total = totals.min()
        for s in range(n_players):
            total[g, s] = totals[s]
            lower = 0
            for o in range(n_players):
                if totals[o] < totals[s]:
                    lower += 1
            place[g, s] = lower + 1
            win[g, s] = totals[s] == best_total
        if trace.shape[0]:
            trace[row, 0] = EV_END
            trace[row, 1 : 1 + n_players] = totals
            row += 1
    error[4] = row


def _function_tuples(strategies: Sequence[Strategy]) -> tuple[tuple, tuple, np.ndarray, np.ndarray]:
    draws = tuple(s.family.draw for s in strategies)
    discards = tuple(s.family.discard for s in strategies)
    width = max([1] + [len(s.values) for s in strategies])
    params = np.zeros((len(strategies), width), dtype=np.float64)
    for i, s in enumerate(strategies):
        params[i, : len(s.values)] = s.values
    oracle = np.array([s.family.oracle for s in strategies], dtype=np.bool_)
    return draws, discards, params, oracle


def _run(seeds, seating, strategies, rules, trace_rows: int):
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    seating = np.ascontiguousarray(seating, dtype=np.int8)
    n_games, n_players = seating.shape
    if n_players != rules.players or seeds.shape[0] != n_games:
        raise ValueError("seating must be (games, rules.players) and match the seeds")
    if seating.size and (seating.min() < 0 or seating.max() >= len(strategies)):
        raise ValueError("seating refers to a strategy that was not given")
    n_rounds = rules.rounds
    res = GameResults(
        total=np.zeros((n_games, n_players), np.int16),
        place=np.zeros((n_games, n_players), np.int8),
        win=np.zeros((n_games, n_players), np.bool_),
        penalty=np.zeros((n_games, n_rounds, n_players), np.int16),
        wild_pts=np.zeros((n_games, n_rounds, n_players), np.int16),
        joker_pts=np.zeros((n_games, n_rounds, n_players), np.int16),
        out_seat=np.zeros((n_games, n_rounds), np.int8),
        out_turn=np.zeros((n_games, n_rounds), np.int16),
        turns=np.zeros((n_games, n_rounds), np.int16),
        capped=np.zeros((n_games, n_rounds), np.bool_),
    )
    trace = np.zeros((trace_rows, TRACE_WIDTH), np.int16)
    error = np.zeros(5, np.int64)
    draws, discards, params, oracle = _function_tuples(strategies)
    _play_games(seeds, seating, draws, discards, params, oracle, rules.as_array(), solver_table(),
                full_deck(),
                res.total, res.place, res.win, res.penalty, res.wild_pts, res.joker_pts,
                res.out_seat, res.out_turn, res.turns, res.capped, trace, error)
    if error[0] != ERR_NONE:
        from fcsim.core.cards import format_card

        who = strategies[int(error[1])].spec
        move = int(error[3])
        if error[0] == ERR_DRAW:
            raise StrategyError(f"strategy {who!r} chose draw source {move} (must be 0 or 1) "
                                f"in game {int(error[2])}")
        card = format_card(move) if 0 <= move < N_KINDS else str(move)
        raise StrategyError(f"strategy {who!r} discarded {card}, which is not in its hand, "
                            f"in game {int(error[2])}")
    return res, trace[: int(error[4])]


def play_games(seeds: np.ndarray, seating: np.ndarray, strategies: Sequence[Strategy],
               rules: RuleSet) -> GameResults:
    """Play one game per seed.

    Parameters
    ----------
    seeds : uint64[G]
        Game seeds (``fcsim.core.rng.game_seed(root, g)`` for game g of a run).
    seating : int8[G, P]
        For each game and seat, the index in ``strategies`` of the strategy sitting there.
    strategies : the distinct strategies at the tables.
    rules : the RuleSet (``rules.players == P``).
    """
    return _run(seeds, seating, strategies, rules, 0)[0]


def trace_game(seed: int, strategies: Sequence[Strategy], rules: RuleSet,
               ) -> tuple[GameResults, np.ndarray]:
    """Play one game with ``strategies[seat]`` in each seat and return its event trace
    (``int16[rows, TRACE_WIDTH]``, rows described by the ``EV_*`` codes)."""
    seating = np.arange(rules.players, dtype=np.int8)[None, :]
    rows = rules.rounds * (rules.turn_cap + 4 * rules.players + 4) + 1
    return _run(np.array([seed], np.uint64), seating, strategies, rules, rows)


def warm_up(strategies: Sequence[Strategy], rules: RuleSet) -> None:
    """Load (or compile) the engine and the run table for this kind of table."""
    seating = np.zeros((1, rules.players), dtype=np.int8)
    play_games(np.zeros(1, np.uint64), seating, strategies, rules)


__all__ = ["GameResults", "play_games", "trace_game", "warm_up"]
