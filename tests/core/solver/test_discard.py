"""The best discard: one pass and card by card, against the reference; the tie rules."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fcsim.core.cards import N_KINDS, kind_of, parse_cards
from fcsim.core.rules import RuleSet
from fcsim.core.solver import (
    best_discard,
    discard_kernel,
    discard_search,
    new_scratch,
    penalty_kernel,
)
from fcsim.core.tables import solver_table
from tests.core.solver.hands import (
    DECK,
    ODD_VARIANTS,
    VARIANTS,
    Deal,
    deals,
    examples,
    fc_discard,
    random_deals,
    ref_discard,
    wild_positions,
)
from tests.reference.solver import (
    card_points,
)


@examples(600)
@given(deals(sizes=st.integers(1, 15)))
def test_best_discard_matches_reference(deal: Deal) -> None:
    """Discard and penalty agree; ties: natural first, then more points, then lowest kind."""
    kinds, round_number, rules = deal
    assert fc_discard(kinds, round_number, rules) == ref_discard(kinds, round_number, rules)


@examples(100)
@given(deals(sizes=st.integers(1, 15), variants=ODD_VARIANTS))
def test_best_discard_penalty_other_wild_penalties(deal: Deal) -> None:
    """The discard's penalty agrees whatever a wild-rank card is worth."""
    kinds, round_number, rules = deal
    assert fc_discard(kinds, round_number, rules)[1] == ref_discard(kinds, round_number, rules)[1]


def test_bulk_discards_match_reference() -> None:
    """Hundreds of dealt n+1-card hands: the best discard and its penalty agree."""
    for kinds, round_number, rules in random_deals(21, 800, extra=1):
        if kinds:
            assert fc_discard(kinds, round_number, rules) == ref_discard(
                kinds, round_number, rules
            ), (kinds, round_number, rules)


@pytest.mark.parametrize("seed", [31, 32])
def test_one_pass_discard_matches_card_by_card_search(seed: int) -> None:
    """The one-pass search equals solving the hand less each card, tie-breaks included,
    with and without a known starting discard (as the strategies call it)."""
    rng = np.random.default_rng(seed)
    deck = np.array(DECK)
    table, scratch = solver_table(), new_scratch()
    for i in range(2500):
        round_number = int(rng.integers(1, 12))
        size = round_number + 3 if i % 3 else int(rng.integers(1, 21))
        if i % 5 == 0:  # many wilds: the one pass runs with budgets up to seven
            wilds = [p for p in wild_positions(round_number) if rng.random() < 0.4]
            rest = [p for p in rng.permutation(len(DECK)) if p not in wilds]
            kinds = [DECK[p] for p in (wilds + rest)[:size]]
        else:
            kinds = rng.permutation(deck)[:size].tolist()
        counts = np.bincount(np.array(kinds, dtype=np.int64), minlength=N_KINDS).astype(np.int8)
        assert counts.shape == (N_KINDS,)
        rules = (VARIANTS + ODD_VARIANTS)[i % 10]
        args = (round_number, rules.wild_points(round_number), rules.all_wild_melds, table,
                scratch)
        assert discard_kernel(counts, *args, -1, 1 << 30) == discard_search(
            counts, *args, -1, 1 << 30), (kinds, round_number, rules)
        start = int(rng.choice(np.flatnonzero(counts)))
        counts[start] -= 1
        start_pen = int(penalty_kernel(counts, *args)[0])
        counts[start] += 1
        assert discard_kernel(counts, *args, start, start_pen) == discard_search(
            counts, *args, start, start_pen), (kinds, round_number, rules, start)


def test_one_pass_discard_when_the_whole_hand_melds() -> None:
    """A hand that melds whole hands over to the card-by-card search (forced book cards
    may be the best discard); both answers are exact."""
    assert best_discard("KH KS KD KC", 1) == ("KS", 0)  # four isolated kings
    assert best_discard("KH KS KD 9H", 1) == ("9H", 0)
    # Round 4, 6s wild: without 7H the wild 6H joins the kings and 5H is left.
    assert best_discard("5H 6H 7H KH KS KD", 4) == ("7H", 5)


def test_discard_tie_between_joker_and_wild_rank_card_at_fifty() -> None:
    """With wild-rank cards worth 50 the tie goes to the lowest kind (documented rule)."""
    rules = RuleSet(wild_penalty=50)
    hand = parse_cards("9S JK")  # round 7: 9S is wild; both cards are wilds worth 50
    assert ref_discard(hand, 7, rules) == (kind_of(9, 0), 50)
    assert fc_discard(hand, 7, rules) == ref_discard(hand, 7, rules)


def test_discard_ties() -> None:
    """Least penalty, then natural before wild, then more points, then lowest kind; the
    wild-rank cards count as one (the lowest kind held is reported)."""
    assert best_discard("4H 5H 6H KH KS", 1) == ("KS", 13)  # KS before KH: lowest kind
    assert best_discard("4H 5H 6H 7H 8H", 1) == ("8H", 0)  # 4H ties, 8H is worth more
    assert best_discard("4H 5H 6H 7H JK", 1) == ("7H", 0)  # natural before the joker
    assert best_discard("4H 5H 6H 7H 7S", 1) == ("7S", 0)
    assert best_discard("3H 3D JK JK JK", 1) == ("JK", 0)  # joker 50 before wild 20
    assert best_discard("3X 3D JK JK JK", 1, RuleSet(wild_penalty=60)) == ("3D", 0)
    assert best_discard("3H 3D JK", 1) == ("JK", 40)
    assert card_points(kind_of(3, 2), 1, 60) == 60
