"""The memo of recent answers and the hand hash: hits answer as the kernels do."""

from __future__ import annotations

from itertools import product

import numpy as np

from fcsim.core.cards import COPIES, JOKER, N_KINDS, parse_cards
from fcsim.core.solver import (
    as_counts,
    best_discard_kernel,
    card_hash,
    discard_kernel,
    discard_memo,
    hand_hash,
    new_scratch,
    penalty_kernel,
    penalty_memo,
)
from fcsim.core.solver.layout import HAND_WORDS, KINDS_PER_WORD
from fcsim.core.solver.memo import discard_tag, lookup, rules_tag
from fcsim.core.tables import solver_table
from tests.core.solver.hands import (
    DECK,
    ODD_VARIANTS,
    VARIANTS,
    ref_discard,
    wild_positions,
)

HIGHEST_WILD_PENALTY = 1000  # the most RuleSet lets a wild-rank card cost


def test_hand_hash_is_a_sum_over_cards() -> None:
    """Adding a card adds its hash (lookaheads hash each hand after a draw in O(1))."""
    rng = np.random.default_rng(4)
    for _ in range(200):
        counts = as_counts(rng.permutation(np.array(DECK))[: rng.integers(0, 20)].tolist())
        k = int(rng.integers(0, N_KINDS))
        before = int(hand_hash(counts))  # numpy's uint64 without the JIT
        counts[k] += 1
        assert int(hand_hash(counts)) == (before + int(card_hash(k))) % 2**64  # uint64 sums


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


def test_tags_tell_every_question_apart() -> None:
    """Distinct rounds, rules and questions (a starting discard included) get distinct,
    non-zero tags (0 marks an empty record)."""
    tags = set()
    for round_number in range(1, 12):
        for wild_points in (1, 13, 20, 50, 1000):
            for all_wild in (False, True):
                tags.add(rules_tag(round_number, wild_points, all_wild))
                for kind in range(-1, 56, 11):
                    for pen in (0, 7, 1 << 20, 1 << 30):
                        tags.add(discard_tag(round_number, wild_points, all_wild, kind, pen))
    assert 0 not in tags
    assert len(tags) == 11 * 5 * 2 * (1 + 6 * 3)  # penalties from 2**20 up ask the same


def test_known_penalty_tells_questions_apart_up_to_the_largest_penalty() -> None:
    """Two questions that differ only in the known discard's penalty have different answers
    (a known penalty below the best stays, one above is beaten), even at the largest
    penalty a hand can leave: every wild of a round, all-wild melds off, wild-rank cards at
    their highest points. The memo must not give one the other's answer."""
    round_number = 1
    counts = as_counts([DECK[p] for p in wild_positions(round_number)])
    args = (round_number, HIGHEST_WILD_PENALTY, False, solver_table())
    _, worst = best_discard_kernel(counts, *args, new_scratch())
    shared, hashed = new_scratch(), np.uint64(hand_hash(counts))
    answers = set()
    for known_pen in (worst - 1, worst + 1):
        want = discard_kernel(counts, *args, new_scratch(), JOKER, known_pen)
        assert discard_memo(counts, *args, shared, JOKER, known_pen, hashed) == want
        answers.add(want)
    assert len(answers) == 2


def test_hands_in_one_memo_record_get_their_own_answers() -> None:
    """Two hands that differ only in their last word of kinds (the high stars and the
    jokers) and fall in the same memo record, with different penalties: the second asked is
    solved, not given the first's answer (a hit compares every word of the hand)."""
    args = (1, 20, True, solver_table())  # any one question
    tag, empty = rules_tag(*args[:3]), new_scratch()
    last = KINDS_PER_WORD * (HAND_WORDS - 1)  # the first kind of the last word
    first_in_slot: dict[int, np.ndarray] = {}
    pair = None
    for held in product(range(COPIES + 1), repeat=N_KINDS - last):
        counts = np.zeros(N_KINDS, dtype=np.int8)
        counts[last:] = held
        slot, _ = lookup(counts, tag, np.uint64(hand_hash(counts)), empty)
        other = first_in_slot.setdefault(slot, counts)
        if other is not counts and (penalty_kernel(other, *args, new_scratch())
                                    != penalty_kernel(counts, *args, new_scratch())):
            pair = other, counts
            break
    assert pair is not None
    shared = new_scratch()
    penalty_memo(pair[0], *args, shared)
    assert penalty_memo(pair[1], *args, shared) == penalty_kernel(pair[1], *args, new_scratch())


def test_questions_in_one_memo_record_get_their_own_answers() -> None:
    """One hand asked two questions (other wild points, all-wild melds on or off) that fall
    in the same memo record: the second is solved, not given the first's answer (a hit
    compares the tag of the question too)."""
    round_number = 5
    hand = as_counts(parse_cards("7S JK"))  # both wild: the penalty is 50 + wild points
    table, empty, hashed = solver_table(), new_scratch(), np.uint64(hand_hash(hand))
    first_in_slot: dict[int, tuple[int, bool]] = {}
    for question in product(range(1, HIGHEST_WILD_PENALTY + 1), (True, False)):
        slot, _ = lookup(hand, rules_tag(round_number, *question), hashed, empty)
        earlier = first_in_slot.setdefault(slot, question)
        if earlier[0] != question[0]:
            break
    assert earlier[0] != question[0]
    shared = new_scratch()
    penalty_memo(hand, round_number, *earlier, table, shared)
    want = penalty_kernel(hand, round_number, *question, table, new_scratch())
    assert penalty_memo(hand, round_number, *question, table, shared) == want
