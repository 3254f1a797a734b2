"""The exact solver against the brute-force reference, the rules' examples and edge cases."""

from __future__ import annotations

import hashlib
from itertools import combinations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fcsim.core import solver as solver_internals
from fcsim.core.arrangement import Arrangement, solve
from fcsim.core.cards import JOKER, N_KINDS, CardError, full_deck, kind_of, parse_cards
from fcsim.core.rules import RuleSet
from fcsim.core.solver import (
    MAX_HAND,
    as_counts,
    best_discard,
    best_discard_batch,
    best_discard_kernel,
    card_hash,
    discard_kernel,
    discard_memo,
    discard_search,
    hand_hash,
    min_penalty,
    min_penalty_batch,
    new_scratch,
    penalty_kernel,
)
from fcsim.core.tables import solver_table
from tests.reference.solver import (
    arrangement_problems,
    card_points,
    is_legal_meld,
    is_wild,
    reference_best_discard,
    reference_penalty,
)

DECK = full_deck().tolist()  # 116 physical cards; position 2k and 2k+1 are kind k
JOKER_POSITIONS = list(range(110, 116))
VARIANTS = [
    RuleSet(wild_penalty=wp, all_wild_melds=aw) for wp in (20, "face") for aw in (True, False)
]
# Wild-rank cards worth 1, a joker's 50, or more than a joker (penalties only).
ODD_VARIANTS = [
    RuleSet(wild_penalty=wp, all_wild_melds=aw) for wp in (1, 50, 60) for aw in (True, False)
]
ANY_SIZE = st.integers(0, 14)
ANY_ROUND = st.integers(1, 11)


def examples(count: int) -> settings:
    """Hypothesis settings: ``count`` examples, no deadline (the reference is slow)."""
    return settings(max_examples=count, deadline=None, suppress_health_check=[HealthCheck.too_slow])


Deal = tuple[list[int], int, RuleSet]


# One work array for every call, as a game uses it: the discard search's memo of recent
# hands then sees every round and variant mixed (its answers must not leak across them).
SCRATCH = new_scratch()


def fc_penalty(kinds: list[int], round_number: int, rules: RuleSet) -> tuple[int, int]:
    """fcsim's (penalty, wilds left) from the kernel."""
    pen, left = penalty_kernel(
        as_counts(kinds),
        round_number,
        rules.wild_points(round_number),
        rules.all_wild_melds,
        solver_table(),
        SCRATCH,
    )
    return int(pen), int(left)


def fc_discard(kinds: list[int], round_number: int, rules: RuleSet) -> tuple[int, int]:
    """fcsim's (kind, penalty) best discard from the kernel."""
    kind, pen = best_discard_kernel(
        as_counts(kinds),
        round_number,
        rules.wild_points(round_number),
        rules.all_wild_melds,
        solver_table(),
        SCRATCH,
    )
    return int(kind), int(pen)


def ref_penalty(kinds: list[int], round_number: int, rules: RuleSet) -> tuple[int, int]:
    """The reference's (penalty, wilds left)."""
    return reference_penalty(kinds, round_number, rules.wild_penalty, rules.all_wild_melds)


def ref_discard(kinds: list[int], round_number: int, rules: RuleSet) -> tuple[int, int]:
    """The reference's (kind, penalty) best discard."""
    return reference_best_discard(kinds, round_number, rules.wild_penalty, rules.all_wild_melds)


def problems(kinds: list[int], arr: Arrangement, round_number: int, rules: RuleSet) -> list[str]:
    """What is wrong with an arrangement of ``kinds`` found by :func:`solve`."""
    return arrangement_problems(
        kinds,
        arr.melds,
        arr.deadwood,
        arr.penalty,
        round_number,
        rules.wild_penalty,
        rules.all_wild_melds,
    )


def wild_positions(round_number: int) -> list[int]:
    """Deck positions of the 16 wilds of a round: wild-rank cards and jokers."""
    rank = round_number + 2
    return [2 * kind_of(rank, s) + c for s in range(5) for c in (0, 1)] + JOKER_POSITIONS


# ---------------------------------------------------------------------------------------
# Hypothesis strategies: a hand is a set of distinct deck positions, so the deck's limits
# (two copies, six jokers) always hold. Styles bias towards the hard cases.


@st.composite
def preferred(draw: st.DrawFn, style: str, round_number: int, size: int) -> list[int]:
    """Deck positions a style starts a hand with (at most ``size``)."""
    if style == "wild":
        return draw(
            st.lists(st.sampled_from(wild_positions(round_number)), unique=True, max_size=size)
        )
    if style == "pairs":
        kinds = draw(st.lists(st.integers(0, 54), unique=True, max_size=size // 2))
        return [2 * k + c for k in kinds for c in (0, 1)]
    if style in ("run", "long run"):
        suit = draw(st.integers(0, 4))
        low = 3 if style == "long run" else draw(st.integers(3, 13))
        high = 13 if style == "long run" else draw(st.integers(low, 13))
        chosen = [2 * kind_of(rank, suit) for rank in range(low, high + 1)]
        second = draw(st.lists(st.integers(low, high), unique=True, max_size=4))
        chosen += [2 * kind_of(rank, suit) + 1 for rank in second]
        return chosen[:size]
    return []


@st.composite
def deals(
    draw: st.DrawFn,
    sizes: st.SearchStrategy[int] = ANY_SIZE,
    rounds: st.SearchStrategy[int] = ANY_ROUND,
    styles: tuple[str, ...] = ("any", "wild", "pairs", "run"),
    variants: list[RuleSet] = VARIANTS,
) -> Deal:
    """A hand (kinds), a round and a rule variant."""
    round_number, size = draw(rounds), draw(sizes)
    chosen = draw(preferred(draw(st.sampled_from(styles)), round_number, size))
    if draw(st.booleans()):  # add some wilds on top of any style
        extra = [p for p in wild_positions(round_number) if p not in chosen]
        chosen += draw(st.lists(st.sampled_from(extra), unique=True, max_size=size - len(chosen)))
    rest = [p for p in range(len(DECK)) if p not in chosen]
    need = size - len(chosen)
    chosen += draw(st.lists(st.sampled_from(rest), unique=True, min_size=need, max_size=need))
    return [DECK[p] for p in chosen], round_number, draw(st.sampled_from(variants))


@st.composite
def wild_heavy_deals(draw: st.DrawFn) -> Deal:
    """Nine to sixteen wilds and zero to four naturals, under any variant."""
    round_number = draw(ANY_ROUND)
    wilds = draw(st.permutations(wild_positions(round_number)))[: draw(st.integers(9, 16))]
    rest = [p for p in range(110) if p not in wilds]
    naturals = draw(st.lists(st.sampled_from(rest), unique=True, max_size=4))
    rules = draw(st.sampled_from(VARIANTS + ODD_VARIANTS))
    return [DECK[p] for p in wilds + naturals], round_number, rules


# ---------------------------------------------------------------------------------------
# The reference itself: its meld rules, and a second, naive search on small hands.


@pytest.mark.parametrize(
    ("meld", "round_number", "legal"),
    [
        ("7H 7H 7S", 1, True),  # a book, duplicates allowed
        ("7H 7S", 1, False),  # two cards
        ("7H 7S JK JK JK 3S", 1, True),  # a book takes any number of wilds
        ("3H 4H 5H", 5, True),
        ("3H 4H 5S", 5, False),  # one suit
        ("3H 5H JK", 5, True),  # a wild fills a gap
        ("3H 5H 6H", 5, False),  # a gap needs a wild
        ("3H 3H 4H", 1, True),  # round 1: the 3s are wild, so 4H + two wilds
        ("4H 4H 5H", 1, False),  # a run holds one card of each rank
        ("QH KH JK", 1, True),
        ("KH 3H 4H", 2, False),  # no wrap-around (4H is wild; KH and 3H are 10 apart)
        ("QH KH 3H", 2, False),
        ("QH KH JK JK", 1, True),  # 10H … KH
        ("3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", 5, True),  # 11 cards, 7H as itself
        ("3H 4H 5H 6H 8H 9H 10H JH QH KH JK JK", 5, False),  # 12: longer than 3 … K
        ("3H 4H 5H 6H 7H 8H 9H 10H JH QH JK", 11, True),
        ("JK JK JK", 1, True),
        ("JK 3S 3H", 1, True),
        ("5H 5S 5D", 3, True),  # all of the wild rank: an all-wild meld
    ],
)
def test_reference_meld_rules(meld: str, round_number: int, legal: bool) -> None:
    """RULES.md's meld rules as the reference reads them (all-wild melds allowed)."""
    assert is_legal_meld(parse_cards(meld), round_number) is legal


def test_reference_all_wild_melds_off() -> None:
    """With the option off, a meld needs a card that is neither a joker nor of the wild rank."""
    assert not is_legal_meld(parse_cards("JK JK JK"), 1, all_wild_melds=False)
    assert not is_legal_meld(parse_cards("5H 5S 5D"), 3, all_wild_melds=False)
    assert is_legal_meld(parse_cards("5H 5S 6D"), 3, all_wild_melds=False)


def naive_penalty(kinds: list[int], round_number: int, rules: RuleSet) -> tuple[int, int]:
    """Least (penalty, wilds left) over every split of the actual cards into legal melds."""

    def search(rest: tuple[int, ...], out: tuple[int, ...]) -> tuple[int, int]:
        if not rest:
            points = sum(card_points(k, round_number, rules.wild_penalty) for k in out)
            return points, sum(is_wild(k, round_number) for k in out)
        first, others = rest[0], rest[1:]
        best = search(others, (*out, first))
        for mask in range(1, 1 << len(others)):
            meld = [first] + [k for i, k in enumerate(others) if mask >> i & 1]
            if is_legal_meld(meld, round_number, rules.all_wild_melds):
                left = tuple(k for i, k in enumerate(others) if not mask >> i & 1)
                best = min(best, search(left, out))
        return best

    return search(tuple(kinds), ())


@examples(200)
@given(deals(sizes=st.integers(0, 8), variants=VARIANTS + ODD_VARIANTS))
def test_reference_matches_naive_search(deal: Deal) -> None:
    """On small hands the reference equals trying every split of the physical cards."""
    kinds, round_number, rules = deal
    assert ref_penalty(kinds, round_number, rules) == naive_penalty(kinds, round_number, rules)


# ---------------------------------------------------------------------------------------
# The solver against the reference.


@examples(1500)
@given(deals())
def test_penalty_matches_reference(deal: Deal) -> None:
    """Penalty and wilds left agree with the exhaustive reference, every size and round."""
    kinds, round_number, rules = deal
    assert fc_penalty(kinds, round_number, rules) == ref_penalty(kinds, round_number, rules)


@examples(250)
@given(deals(variants=ODD_VARIANTS))
def test_penalty_matches_reference_other_wild_penalties(deal: Deal) -> None:
    """Also with wild-rank cards worth 1, 50 (a joker's worth) or 60 (more than a joker)."""
    kinds, round_number, rules = deal
    assert fc_penalty(kinds, round_number, rules) == ref_penalty(kinds, round_number, rules)


@examples(600)
@given(
    deals(
        sizes=st.integers(12, 14),
        rounds=st.integers(2, 10),
        styles=("long run", "long run", "wild"),
    )
)
def test_long_runs_match_reference(deal: Deal) -> None:
    """12–14 cards, mostly holding a whole suit 3…K (runs cap at 11 cards) and wilds."""
    kinds, round_number, rules = deal
    assert fc_penalty(kinds, round_number, rules) == ref_penalty(kinds, round_number, rules)


@examples(600)
@given(deals(sizes=st.integers(1, 15)))
def test_best_discard_matches_reference(deal: Deal) -> None:
    """Discard and penalty agree; ties: natural first, then more points, then lowest kind."""
    kinds, round_number, rules = deal
    assert fc_discard(kinds, round_number, rules) == ref_discard(kinds, round_number, rules)


@examples(150)
@given(wild_heavy_deals())
def test_wild_heavy_hands_match_reference(deal: Deal) -> None:
    """Up to 20 cards, mostly wilds: books of one natural, all-wild melds on and off."""
    kinds, round_number, rules = deal
    assert fc_penalty(kinds, round_number, rules) == ref_penalty(kinds, round_number, rules)


@examples(100)
@given(deals(sizes=st.integers(1, 15), variants=ODD_VARIANTS))
def test_best_discard_penalty_other_wild_penalties(deal: Deal) -> None:
    """The discard's penalty agrees whatever a wild-rank card is worth."""
    kinds, round_number, rules = deal
    assert fc_discard(kinds, round_number, rules)[1] == ref_discard(kinds, round_number, rules)[1]


@examples(300)
@given(deals(sizes=st.integers(0, 15), variants=VARIANTS + ODD_VARIANTS))
def test_solve_arrangement_is_legal(deal: Deal) -> None:
    """solve's melds are legal, melds + deadwood are the hand, deadwood points = penalty."""
    kinds, round_number, rules = deal
    arr = solve(kinds, round_number, rules)
    assert arr.penalty == min_penalty(kinds, round_number, rules)
    assert problems(kinds, arr, round_number, rules) == []
    left = sum(1 for k in arr.deadwood if is_wild(k, round_number))
    assert left == fc_penalty(kinds, round_number, rules)[1]


@examples(100)
@given(deals(sizes=st.integers(1, 15)))
def test_solve_with_discard(deal: Deal) -> None:
    """With discard=True the best discard is made and the rest arranged legally."""
    kinds, round_number, rules = deal
    arr = solve(kinds, round_number, rules, discard=True)
    assert (arr.discard, arr.penalty) == fc_discard(kinds, round_number, rules)
    rest = list(kinds)
    rest.remove(arr.discard)
    assert problems(rest, arr, round_number, rules) == []


@examples(200)
@given(deals(sizes=st.integers(1, 14)))
def test_wilds_left_all_or_none(deal: Deal) -> None:
    """RULES.md: beside a natural card two or more wilds always meld (natural + 2 wilds is a
    book, and it takes any more), so the wilds are left out all together or not at all."""
    kinds, round_number, rules = deal
    wilds = sum(is_wild(k, round_number) for k in kinds)
    left = fc_penalty(kinds, round_number, rules)[1]
    assert left in (0, wilds)
    if 2 <= wilds < len(kinds):
        assert left == 0


def random_deals(seed: int, count: int, extra: int = 0) -> list[Deal]:
    """``count`` hands dealt from seeded shuffles: a round's hand size (+ ``extra``) or any
    size 0–14, each under one of the four main variants."""
    rng = np.random.default_rng(seed)
    deck = np.array(DECK)
    out = []
    for i in range(count):
        round_number = int(rng.integers(1, 12))
        size = round_number + 2 + extra if i % 2 else int(rng.integers(0, 15))
        kinds = rng.permutation(deck)[:size].tolist()
        out.append((kinds, round_number, VARIANTS[i % len(VARIANTS)]))
    return out


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_bulk_penalties_match_reference(seed: int) -> None:
    """Thousands of dealt hands: penalty and wilds left agree with the reference."""
    for kinds, round_number, rules in random_deals(seed, 1500):
        assert fc_penalty(kinds, round_number, rules) == ref_penalty(kinds, round_number, rules), (
            kinds,
            round_number,
            rules,
        )


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


def test_book_heavy_hands_taken_a_slice_at_a_time() -> None:
    """Hands whose book combinations overflow one list (several ranks with three or more
    cards and wilds to spare) are solved a slice at a time, still exactly."""
    rng = np.random.default_rng(41)
    scratch = new_scratch()
    sliced = 0
    for i in range(60):
        round_number = int(rng.integers(1, 12))
        low = int(rng.integers(0, 5))
        ranks = [r for r in range(low, low + 7) if r != round_number - 1][:6]
        kinds = [JOKER, kind_of(round_number + 2, 1)]  # six ranks, each in three suits
        for r in ranks:
            kinds += [kind_of(r + 3, int(s)) for s in rng.permutation(5)[:3]]
        rules = VARIANTS[i % len(VARIANTS)]
        assert fc_penalty(kinds, round_number, rules) == ref_penalty(kinds, round_number, rules)
        assert fc_discard(kinds, round_number, rules) == ref_discard(kinds, round_number, rules)
        assert problems(kinds, solve(kinds, round_number, rules), round_number, rules) == []
        counts = np.bincount(np.array(kinds), minlength=N_KINDS).astype(np.int8)
        _, _, _, twice, _, _ = solver_internals._read_hand(counts, round_number - 1, scratch)
        _, n_cand = solver_internals._book_options(counts, round_number - 1, 2, 2, twice, 2,
                                                   scratch)
        n_outer, _ = solver_internals._slicing(scratch, n_cand, n_cand - 2)
        sliced += n_outer > 0
    assert sliced >= 5, sliced  # the slices are exercised, not only the one list


def test_rank_books_list_every_book_biggest_first() -> None:
    """The table of books one rank can make: every non-empty sub-multiset of its cards
    exactly once, biggest first, with its size, fully-taken suits and takes."""
    books, start = solver_internals._BOOKS, solver_internals._BOOKS_START
    for held in range(3**5):
        have = [held // 3**s % 3 for s in range(5)]
        listed = [int(b) for b in books[start[held]:start[held + 1]]]
        takes = [tuple((b >> (2 * s)) & 3 for s in range(5)) for b in listed]
        expected = {t for t in np.ndindex(*[c + 1 for c in have]) if sum(t)}
        assert sorted(takes) == sorted(expected) and len(takes) == len(expected)
        sizes = [(b >> 10) & 15 for b in listed]
        assert sizes == [sum(t) for t in takes] and sizes == sorted(sizes, reverse=True)
        for b, t in zip(listed, takes, strict=True):
            assert (b >> 14) & 31 == sum(1 << s for s in range(5) if t[s] == have[s])
            assert b >> 19 == sum(t[s] * 3**s for s in range(5))


def test_lowest_bit() -> None:
    for k in range(32):
        assert solver_internals._lowest((1 << k) | (1 << 31)) == k


def test_hand_hash_is_a_sum_over_cards() -> None:
    """Adding a card adds its hash (lookaheads hash each hand after a draw in O(1))."""
    rng = np.random.default_rng(4)
    for _ in range(200):
        counts = as_counts(rng.permutation(np.array(DECK))[: rng.integers(0, 20)].tolist())
        k = int(rng.integers(0, N_KINDS))
        before = hand_hash(counts)
        counts[k] += 1
        assert hand_hash(counts) == (before + card_hash(k)) % 2**64  # uint64 arithmetic


def test_discard_memo_answers_as_the_kernel() -> None:
    """Asked again (a memo hit) or with another starting discard, the memo answers as the
    kernel does; one work array serves every question."""
    rng = np.random.default_rng(6)
    table, shared = solver_table(), new_scratch()
    for i in range(600):
        round_number = 1 + i % 11
        counts = as_counts(rng.permutation(np.array(DECK))[: round_number + 3].tolist())
        start = int(rng.choice(np.flatnonzero(counts)))
        for start_kind, start_pen in ((-1, 1 << 30), (start, int(rng.integers(0, 40)))):
            args = (round_number, 20, True, table)
            want = discard_kernel(counts, *args, new_scratch(), start_kind, start_pen)
            for _ in range(2):
                assert discard_memo(counts, *args, shared, start_kind, start_pen,
                                    np.uint64(hand_hash(counts))) == want


def test_one_pass_discard_when_the_whole_hand_melds() -> None:
    """A hand that melds whole hands over to the card-by-card search (forced book cards
    may be the best discard); both answers are exact."""
    assert best_discard("KH KS KD KC", 1) == ("KS", 0)  # four isolated kings
    assert best_discard("KH KS KD 9H", 1) == ("9H", 0)
    # Round 4, 6s wild: without 7H the wild 6H joins the kings and 5H is left.
    assert best_discard("5H 6H 7H KH KS KD", 4) == ("7H", 5)


# ---------------------------------------------------------------------------------------
# RULES.md worked examples and edge cases (hand-checked numbers).


def test_rules_counting_example() -> None:
    """Round with 7 cards, 7s wild: 9 + J left = 20; a wild 7 and a joker = 70; all melded = 0."""
    assert min_penalty("9H JS 3D 4D 5D 6D 7D", 5) == 20  # 7D stands for itself in the run
    assert min_penalty("9H JS", 5) == 20
    assert min_penalty("7S JK", 5) == 70
    assert fc_penalty(parse_cards("7S JK"), 5, RuleSet()) == (70, 2)
    assert min_penalty("3H 4H 5H 9S 9D 9C JK", 5) == 0
    assert min_penalty("3H 4H 7C QS QD JK 10X", 5) == 10  # 3H 4H 7C, QS QD JK; 10X left


def test_docstring_examples() -> None:
    """The examples in the solver's docstring and the README."""
    assert min_penalty("9H JS 7D JK 7S 3H 4H", 5) == 9
    assert best_discard("9H JS 7D JK 7S 3H 4H KD", 5) == ("KD", 9)


def test_both_copies_in_two_runs() -> None:
    """The two copies of a card go to two runs, never to one."""
    arr = solve("5H 6H 7H 5H 6H 7H", 1)
    assert arr.penalty == 0
    assert sorted(sorted(m) for m in arr.melds) == [parse_cards("5H 6H 7H")] * 2
    assert min_penalty("5H 5H 6H", 1) == 16  # not a run; a pair is no book
    assert min_penalty("5H 5H 6H 7H", 1) == 5  # 5H 6H 7H; 5H left
    assert min_penalty("5H 5H 6H JK", 1) == 5  # 5H 6H JK; 5H left
    assert min_penalty("5H 5H 6H 6H JK", 1) == 10  # 6H 6H JK book; 5H 5H left
    assert min_penalty("5H 5H 6H 6H JK JK", 1) == 0  # 5H 6H JK twice


@pytest.mark.parametrize("round_number", range(2, 11))
def test_whole_suit_with_extra_cards(round_number: int) -> None:
    """3 … K of hearts plus one to three more cards (wilds, second copies, other suits):
    every such 12–14-card hand agrees with the reference."""
    suit = [kind_of(rank, 1) for rank in range(3, 14)]
    extras = [*parse_cards("JK JK 3H 8H KH 5S QC"), kind_of(round_number + 2, 0)]
    rules = VARIANTS[round_number % len(VARIANTS)]
    for count in (1, 2, 3):
        for chosen in combinations(range(len(extras)), count):
            kinds = suit + [extras[i] for i in chosen]
            want = ref_penalty(kinds, round_number, rules)
            assert fc_penalty(kinds, round_number, rules) == want, kinds


def test_eleven_card_run() -> None:
    """3 … K of one suit is one 11-card run in every round (the wild card plays itself)."""
    hand = [kind_of(rank, 1) for rank in range(3, 14)]
    for round_number in range(1, 12):
        assert min_penalty(hand, round_number) == 0
        arr = solve(hand, round_number)
        assert arr.deadwood == ()
        assert problems(hand, arr, round_number, RuleSet()) == []


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_runs_stay_within_three_to_king(rules: RuleSet) -> None:
    """Runs never wrap or pass 3 … K (so never exceed 11 cards): long suits split in two."""
    cases = [
        ("4H 5H 6H 7H 8H 9H 10H JH QH KH JK JK", 1, 0),  # 4H-8H, then 7..K with 2 wilds
        ("3H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", 11, 0),  # 3H 3H KH book, 4H-QH run
        ("3S 4S 5S 6S JK JK JK JK JK JK KS KS", 11, 0),  # 12 cards: split, or a book
        ("QH KH JK", 1, 0),  # the joker is JH, not past K
        ("3H 4H JK", 2, 0),  # (4s wild) the joker is 5H, not below 3
        ("QH KH 3H", 2, 28),  # no wrap-around
        ("3H 7H JK JK JK", 2, 0),  # wilds fill a gap of three
        ("3H 8H JK JK JK", 2, 3),  # a gap of four needs four: JK JK JK 8H
    ]
    for text, round_number, want in cases:
        kinds = parse_cards(text)
        assert fc_penalty(kinds, round_number, rules) == ref_penalty(kinds, round_number, rules)
        assert min_penalty(kinds, round_number, rules) == want, text


def test_one_natural_book_takes_any_number_of_wilds() -> None:
    """One natural and twelve wilds: a book holds them all (a run could hold only 11)."""
    hand = parse_cards("4H JK JK JK JK JK JK 3S 3S 3H 3H 3D 3D")
    for rules in VARIANTS:
        assert fc_penalty(hand, 1, rules) == ref_penalty(hand, 1, rules) == (0, 0)


@pytest.mark.parametrize("all_wild", [True, False])
def test_all_wild_melds(all_wild: bool) -> None:
    """Three or more wilds alone meld only when the option is on."""
    rules = RuleSet(all_wild_melds=all_wild)
    assert fc_penalty(parse_cards("JK JK JK"), 1, rules) == ((0, 0) if all_wild else (150, 3))
    assert fc_penalty(parse_cards("3S 3H JK"), 1, rules) == ((0, 0) if all_wild else (90, 3))
    assert fc_penalty(parse_cards("JK JK"), 1, rules) == (100, 2)
    six = parse_cards("JK " * 6 + "3S 3S 3H 3H 3D 3D 3C 3C 3X 3X")
    assert fc_penalty(six, 1, rules) == ((0, 0) if all_wild else (500, 16))


def test_face_value_wilds() -> None:
    """wild_penalty='face': a wild-rank card counts its rank; jokers still 50."""
    face = RuleSet(wild_penalty="face")
    assert min_penalty("7S JK", 5, face) == 57
    assert min_penalty("7S 9H", 5, face) == 16
    assert min_penalty("3S 3H JK", 1, RuleSet(wild_penalty="face", all_wild_melds=False)) == 56
    assert min_penalty("KS KH", 11, face) == 26


def test_wilds_beside_naturals() -> None:
    """Two wilds and a natural make a book; a lone wild stays out only if nothing takes it."""
    assert fc_penalty(parse_cards("7S JK 9H 10D"), 5, RuleSet()) == (9, 0)  # 10D 7S JK
    assert fc_penalty(parse_cards("7S JK 4C 8D"), 5, RuleSet()) == (4, 0)  # 8D 7S JK
    assert fc_penalty(parse_cards("KH KD 7S JK 3C 9D"), 5, RuleSet()) == (12, 0)
    assert fc_penalty(parse_cards("QH QD 7S JK 5C 5C"), 5, RuleSet()) == (0, 0)
    assert fc_penalty(parse_cards("7S 9H"), 5, RuleSet()) == (29, 1)
    assert fc_penalty(parse_cards("7S 9H 9D"), 5, RuleSet()) == (0, 0)
    assert fc_penalty(parse_cards("7S JK"), 5, RuleSet(wild_penalty=60)) == (110, 2)


@pytest.mark.parametrize("round_number", range(1, 12))
def test_two_wilds_and_any_natural_is_a_book(round_number: int) -> None:
    """Every natural card plus a joker and a wild-rank card melds, options on or off."""
    wild = kind_of(round_number + 2, 2)
    for kind in range(55):
        if is_wild(kind, round_number):
            continue
        for rules in VARIANTS:
            assert fc_penalty([kind, JOKER, wild], round_number, rules) == (0, 0)


def test_empty_hand() -> None:
    """An empty hand leaves nothing; it has no card to discard."""
    assert min_penalty("", 1) == 0
    assert min_penalty([], 11) == 0
    assert fc_penalty([], 3, RuleSet()) == (0, 0)
    arr = solve("", 4)
    assert (arr.penalty, arr.melds, arr.deadwood) == (0, (), ())
    assert arr.to_json() == {"penalty": 0, "melds": [], "deadwood": []}
    with pytest.raises(CardError, match="at least one card"):
        best_discard("", 1)
    with pytest.raises(CardError, match="at least one card"):
        solve("", 1, discard=True)
    assert best_discard_kernel(
        np.zeros(N_KINDS, np.int8), 1, 20, True, solver_table(), new_scratch()
    ) == (-1, 0)


def test_twenty_card_hands() -> None:
    """The API takes up to 20 cards (exact), and refuses 21."""
    hand = parse_cards("3S 4S 5S 6S 7S 8S 9S KS KS KH KH KD KD KC") + [JOKER] * 6
    assert len(hand) == MAX_HAND == 20
    for rules in VARIANTS:
        assert fc_penalty(hand, 11, rules) == ref_penalty(hand, 11, rules) == (0, 0)
    rng = np.random.default_rng(5)
    for i in range(40):
        kinds = rng.permutation(np.array(DECK))[:20].tolist()
        round_number, rules = 1 + i % 11, VARIANTS[i % 4]
        assert fc_penalty(kinds, round_number, rules) == ref_penalty(kinds, round_number, rules)
        assert problems(kinds, solve(kinds, round_number, rules), round_number, rules) == []
    with pytest.raises(CardError, match="at most 20"):
        min_penalty([*hand, 0], 11)
    with pytest.raises(CardError, match="at most 20"):
        best_discard([*hand, 0], 11)


@pytest.mark.parametrize("bad", [0, 12, -1, 2.0, "3"])
def test_bad_round_rejected(bad: object) -> None:
    """Rounds are 1 to 11."""
    with pytest.raises(ValueError, match="round must be 1 to 11"):
        min_penalty("3S", bad)  # type: ignore[arg-type]


def test_as_counts_accepts_every_form() -> None:
    """Notation, tokens, kind ids and a count vector give the same count vector."""
    want = np.zeros(N_KINDS, np.int8)
    want[[0, 17, 55]] = [1, 2, 1]
    for hand in [
        "3S 9H 9h JK",
        ["3S", "9H", "9H", "JK"],
        [0, 17, 17, 55],
        np.array([0, 17, 17, 55]),
        want.copy(),
    ]:
        counts = as_counts(hand)
        assert counts.dtype == np.int8 and counts.tolist() == want.tolist()
    with pytest.raises(CardError, match="bad card id 56"):
        as_counts([1, 56])
    with pytest.raises(CardError, match="negative"):
        as_counts(-want)
    with pytest.raises(CardError, match="3 times"):
        as_counts([4, 4, 4])
    with pytest.raises(CardError, match="'XX'"):
        min_penalty("3S XX", 1)


def test_kernels_leave_the_hand_unchanged() -> None:
    """The kernels read the count vector; the discard search restores it."""
    counts = as_counts("9H JS 7D JK 7S 3H 4H KD")
    before = counts.copy()
    penalty_kernel(counts, 5, 20, True, solver_table(), new_scratch())
    best_discard_kernel(counts, 5, 20, True, solver_table(), new_scratch())
    assert counts.tolist() == before.tolist()


def test_shared_work_array_gives_fresh_answers() -> None:
    """The same hands solved in every round and variant through one work array (its memo
    of recent hands) and through a fresh one per call agree with the reference."""
    rng = np.random.default_rng(4)
    shared = new_scratch()
    for i in range(30):
        # Jokers are wild in every round; with 3+ of them all-wild melds change answers.
        kinds = rng.permutation(np.array(DECK[:110]))[: int(rng.integers(0, 10))].tolist()
        kinds += [JOKER] * (i % 6 + 1)
        counts = as_counts(kinds)
        for round_number in range(1, 12):
            for rules in VARIANTS + ODD_VARIANTS:
                args = (round_number, rules.wild_points(round_number), rules.all_wild_melds)
                got = best_discard_kernel(counts, *args, solver_table(), shared)
                assert got == best_discard_kernel(counts, *args, solver_table(), new_scratch())
                assert got[1] == ref_discard(kinds, round_number, rules)[1]


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_batches_match_single_calls(rules: RuleSet) -> None:
    """min_penalty_batch / best_discard_batch equal the one-hand API row by row."""
    rng = np.random.default_rng(3)
    for round_number in (1, 6, 11):
        hands = np.stack(
            [
                as_counts(rng.permutation(np.array(DECK))[: round_number + 3].tolist())
                for _ in range(50)
            ]
        )
        pens = min_penalty_batch(hands, round_number, rules)
        picks = best_discard_batch(hands, round_number, rules)
        assert pens.dtype == np.int32 and picks.shape == (50, 2)
        for h in range(50):
            assert pens[h] == min_penalty(hands[h], round_number, rules)
            kind, pen = best_discard(hands[h], round_number, rules)
            assert (int(picks[h, 0]), int(picks[h, 1])) == (parse_cards(kind)[0], pen)


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


# ---------------------------------------------------------------------------------------
# Golden digests: any change of an answer is caught (computed after the reference agreed).

GOLDEN_HANDS = "58eb3ea52ad808bccc33bc69c37bd11a3c0e9c7bf5ecddc6889a3e84ae2b2db0"
GOLDEN_PENALTIES = "28ab5af368f1edc231e13812df8f2f3d5db6e1f6a8a811cf8e39fed254b6df33"
GOLDEN_DISCARDS = "7b79079dcdf6d05b0dcbd2d1d6407ea941c606fafeb7f1bbfdeb8d499492f5dd"


def golden_deals() -> list[tuple[np.ndarray, int, int]]:
    """20,000 (counts, round, variant index) dealt from seeded numpy shuffles."""
    rng = np.random.default_rng(20240601)
    deck = np.array(DECK, dtype=np.int8)
    out = []
    for i in range(20_000):
        round_number = 1 + i % 11
        size = round_number + 2 if i % 3 else int(rng.integers(0, 21))
        kinds = rng.permutation(deck)[:size]
        out.append(
            (
                np.bincount(kinds, minlength=N_KINDS).astype(np.int8),
                round_number,
                (i // 11) % len(VARIANTS),
            )
        )
    return out


def test_golden_digest() -> None:
    """sha256 of (penalty, wilds left) over 20,000 hands, and of 5,000 best discards."""
    deals_ = golden_deals()
    hands = hashlib.sha256()
    for counts, round_number, v in deals_:
        hands.update(counts.tobytes() + bytes([round_number, v]))
    assert hands.hexdigest() == GOLDEN_HANDS, "the deals changed (numpy RNG?), not the solver"
    table, scratch = solver_table(), new_scratch()
    answers, discards = [], []
    for i, (counts, round_number, v) in enumerate(deals_):
        rules = VARIANTS[v]
        wp, aw = rules.wild_points(round_number), rules.all_wild_melds
        answers += penalty_kernel(counts, round_number, wp, aw, table, scratch)
        if i % 4 == 0 and counts.sum():
            discards += best_discard_kernel(counts, round_number, wp, aw, table, scratch)
    digest = hashlib.sha256(np.array(answers, dtype=np.int32).tobytes()).hexdigest()
    assert digest == GOLDEN_PENALTIES
    digest = hashlib.sha256(np.array(discards, dtype=np.int32).tobytes()).hexdigest()
    assert digest == GOLDEN_DISCARDS
