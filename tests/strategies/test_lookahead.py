"""The one-draw lookahead is an exact expectation: checked kind by kind, without grouping."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from numba import types

from fcsim.core.cards import DECK_SIZE, JOKER, N_KINDS, N_RANKS, N_SUITS, full_deck, parse_card
from fcsim.core.rules import RuleSet
from fcsim.core.solver import (
    as_counts,
    discard_memo,
    discard_search,
    new_scratch,
    penalty_kernel,
)
from fcsim.core.solver.discard import NO_KIND
from fcsim.core.solver.hand import HUGE_PENALTY
from fcsim.core.tables import solver_table
from fcsim.strategies.lookahead import (
    TALLY_BETTER,
    TALLY_OUT,
    _melds_with,
    expected_draw_penalty,
    unseen_counts,
)
from tests.compiled import requires_jit
from tests.reference.solver import reference_best_discard

VARIANTS = [RuleSet(), RuleSet(wild_penalty="face", all_wild_melds=False)]


def dealt(rng: np.random.Generator, round_number: int, wild_share: float
          ) -> tuple[np.ndarray, np.ndarray]:
    """A hand of round + 2 cards (each wild of the deck moved to the top with odds
    ``wild_share``) and a discard pile of the next 15."""
    deck = rng.permutation(full_deck())
    wild = (deck == JOKER) | (deck % 11 == round_number - 1)
    ahead = wild & (rng.random(DECK_SIZE) < wild_share)
    deck = np.concatenate([deck[ahead], deck[~ahead]])
    size = round_number + 2
    return np.bincount(deck[:size], minlength=N_KINDS).astype(np.int8), deck[size : size + 15]


def kind_by_kind(hand: np.ndarray, unseen: np.ndarray, round_number: int, rules: RuleSet,
                 best_after, tally: np.ndarray | None = None) -> float:
    """The expectation the slow way: every unseen kind on its own (and, into ``tally``,
    the draws that go out and those that lower ``keep``, today's penalty)."""
    keep = penalty_kernel(hand, round_number, rules.wild_points(round_number),
                          rules.all_wild_melds, solver_table(), new_scratch())[0]
    total = 0
    for k in np.flatnonzero(unseen):
        hand[k] += 1
        after = best_after(hand)
        hand[k] -= 1
        total += unseen[k] * after
        if tally is not None:
            tally[TALLY_OUT] += unseen[k] * (after == 0)
            tally[TALLY_BETTER] += unseen[k] * (after < keep)
    return total / unseen.sum()


def searched_best_after(round_number: int, rules: RuleSet) -> Callable[[np.ndarray], int]:
    """The least penalty after the best discard of a hand, by solving it less each card in
    turn (:func:`discard_search`, no known discard to start from)."""
    wp, aw, table = rules.wild_points(round_number), rules.all_wild_melds, solver_table()

    def best_after(hand: np.ndarray) -> int:
        return discard_search(hand, round_number, wp, aw, table, new_scratch(), NO_KIND,
                              HUGE_PENALTY)[1]

    return best_after


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_expectation_equals_the_sum_over_every_unseen_kind(seed: int) -> None:
    """Grouping alike draws (by the hand's wild count), answering the draws that meld with
    nothing from one search, the memo and the one-pass discard change nothing: the
    card-by-card best discard of every draw gives the same mean and the same tallies."""
    rng = np.random.default_rng(seed)
    table, scratch = solver_table(), new_scratch()
    for i in range(60):
        round_number = 1 + i % 11
        rules = VARIANTS[i % 2]
        wp, aw = rules.wild_points(round_number), rules.all_wild_melds
        hand, pile = dealt(rng, round_number, (0.0, 0.3, 0.8)[i % 3])
        unseen = np.zeros(N_KINDS, dtype=np.int64)
        n_unseen = unseen_counts(hand, pile, np.zeros((1, N_KINDS), np.int8), 0, unseen)
        tally = np.zeros(2)
        got = expected_draw_penalty(hand, unseen, n_unseen, round_number, wp, aw, table,
                                    scratch, np.inf, tally)
        want_tally = np.zeros(2)
        want = kind_by_kind(hand, unseen, round_number, rules,
                            searched_best_after(round_number, rules), want_tally)
        assert got == pytest.approx(want, abs=1e-9), (hand.nonzero(), round_number, rules)
        assert tally.tolist() == want_tally.tolist(), (hand.nonzero(), round_number, rules)


@pytest.mark.parametrize(("round_number", "hand"), [
    (4, "3S 4S 3H 9D KC"),  # no wild: 3D, 3C, 3X alike (3S, 3H are near their suits)
    (3, "3S 3H 9D KC 5X"),  # one wild, reach two: 3D, 3C, 3X alike
    (6, "8S 10H QD QC 4X JK"),  # two wilds, reach three: the held queens' far suits
])
def test_a_held_rank_draws_alike_in_its_suits_with_nothing_near(round_number: int,
                                                                 hand: str) -> None:
    """Draws of a rank the hand holds, in suits with no natural near, are searched once
    for all of them: the card-by-card sum agrees, under both rule variants."""
    counts = as_counts(hand)
    unseen = np.zeros(N_KINDS, dtype=np.int64)
    n_unseen = unseen_counts(counts, np.zeros(0, np.int8), np.zeros((1, N_KINDS), np.int8),
                             0, unseen)
    table = solver_table()
    for rules in VARIANTS:
        wp, aw = rules.wild_points(round_number), rules.all_wild_melds
        tally = np.zeros(2)
        got = expected_draw_penalty(counts, unseen, n_unseen, round_number, wp, aw, table,
                                    new_scratch(), np.inf, tally)
        want_tally = np.zeros(2)
        want = kind_by_kind(counts, unseen, round_number, rules,
                            searched_best_after(round_number, rules), want_tally)
        assert got == pytest.approx(want, abs=1e-9), (hand, rules)
        assert tally.tolist() == want_tally.tolist(), (hand, rules)


def test_expectation_matches_the_reference_on_small_hands() -> None:
    """Rounds 1–3 against the exhaustive reference solver."""
    rng = np.random.default_rng(7)
    table, scratch = solver_table(), new_scratch()
    for i in range(9):
        round_number = 1 + i % 3
        hand, pile = dealt(rng, round_number, 0.3)
        unseen = np.zeros(N_KINDS, dtype=np.int64)
        n_unseen = unseen_counts(hand, pile, np.zeros((1, N_KINDS), np.int8), 0, unseen)
        got = expected_draw_penalty(hand, unseen, n_unseen, round_number, 20, True, table,
                                    scratch)

        def best_after(h: np.ndarray, r: int = round_number) -> int:
            return reference_best_discard(h, r)[1]

        assert got == pytest.approx(kind_by_kind(hand, unseen, round_number, RuleSet(),
                                                 best_after), abs=1e-9)


def test_stop_above_returns_a_partial_mean_only_above_the_bar() -> None:
    """With a bar, the answer is the exact mean, or a partial mean above the bar that the
    exact mean does not undercut."""
    rng = np.random.default_rng(5)
    table, scratch = solver_table(), new_scratch()
    stopped = 0
    for i in range(40):
        round_number = 1 + i % 11
        hand, pile = dealt(rng, round_number, 0.2)
        unseen = np.zeros(N_KINDS, dtype=np.int64)
        n_unseen = unseen_counts(hand, pile, np.zeros((1, N_KINDS), np.int8), 0, unseen)
        args = (hand, unseen, n_unseen, round_number, 20, True, table, scratch)
        exact = expected_draw_penalty(*args)
        bar = exact * rng.uniform(0.2, 1.2)
        got = expected_draw_penalty(*args, bar)
        assert got == exact or (bar < got <= exact)
        stopped += got != exact
        if penalty_kernel(hand, round_number, 20, True, table, scratch)[0] > 0:
            assert expected_draw_penalty(*args, -1.0) > -1.0
    assert stopped > 0


@requires_jit
@pytest.mark.parametrize("wild_share", [0.0, 0.3])
def test_the_lookahead_compiles_the_discard_memo_once(wild_share: float) -> None:
    """A constant kind (the joker) passed on as a literal compiled ``discard_memo`` again
    for it: three compilations, 1.7 s of a first run. Every kind and every starting
    penalty (the "none yet" of a draw that melds with nothing too) now arrives as int64."""
    hand, pile = dealt(np.random.default_rng(3), 5, wild_share)
    unseen = np.zeros(N_KINDS, dtype=np.int64)
    n_unseen = unseen_counts(hand, pile, np.zeros((1, N_KINDS), np.int8), 0, unseen)
    expected_draw_penalty(hand, unseen, n_unseen, 5, 20, True, solver_table(), new_scratch())
    assert {signature[6:8] for signature in discard_memo.signatures} == {
        (types.int64, types.int64)}


@pytest.mark.parametrize(("hand", "card", "round_number", "melds"), [
    ("8H KS", "7H", 1, False),  # one neighbour, no wild: no run of three
    ("8H 9H", "7H", 1, True),  # 7-8-9
    ("7S 7C", "7H", 1, True),  # a book of three
    ("7S", "7H", 1, False),  # a pair only
    ("7S 3C", "7H", 1, True),  # 3s are wild in round 1: 7-7-wild
    ("9H 3C", "7H", 1, True),  # 7-wild-9
    ("TH 3C", "7H", 1, False),  # 7 and 10 need two wilds between them
    ("JK 3C", "7H", 1, True),  # two wilds: a meld with anything
    ("8H 9D", "7H", 7, True),  # 9s are wild in round 7: 7-8 and a wild
    ("9H KS", "7H", 6, False),  # 8s are wild in round 6 and none is held: no 7-8-9
])
def test_a_draw_melds_only_if_a_book_or_a_run_can_hold_it(hand: str, card: str,
                                                         round_number: int,
                                                         melds: bool) -> None:
    """The test that lets a draw skip the search: cases worked by hand."""
    counts = as_counts(hand)
    wild_pos = round_number - 1
    wilds = int(counts[JOKER]) + sum(int(counts[s * N_RANKS + wild_pos]) for s in range(N_SUITS))
    assert _melds_with(counts, parse_card(card), wild_pos, wilds) == melds
