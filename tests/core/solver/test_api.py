"""The solver's Python API: every form of a hand, validation, batches."""

from __future__ import annotations

import numpy as np
import pytest

from fcsim.core.arrangement import solve
from fcsim.core.cards import JOKER, N_KINDS, CardError, parse_cards
from fcsim.core.rules import RuleSet
from fcsim.core.solver import (
    MAX_HAND,
    as_counts,
    best_discard,
    best_discard_batch,
    best_discard_kernel,
    min_penalty,
    min_penalty_batch,
    new_scratch,
    penalty_kernel,
)
from fcsim.core.tables import solver_table
from tests.core.solver.hands import (
    DECK,
    VARIANTS,
    fc_penalty,
    problems,
    ref_penalty,
)
from tests.sources import modules_saying


def test_docstring_examples() -> None:
    """The examples in the solver's docstring and the README."""
    assert min_penalty("9H JS 7D JK 7S 3H 4H", 5) == 9
    assert best_discard("9H JS 7D JK 7S 3H 4H KD", 5) == ("KD", 9)


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


def test_the_discard_of_an_empty_hand_is_refused_in_one_place() -> None:
    """``best_discard`` and ``solve(discard=True)`` make their discard through one
    function, which alone refuses an empty hand."""
    assert modules_saying("best discard needs at least one card") == [
        "fcsim/core/solver/api.py"]


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


@pytest.mark.parametrize(("counts", "says"), [
    ({55: 256}, "at most 20 cards, not 256 of one kind"),  # would wrap to 0 as int8
    ({0: 0.9}, "whole numbers of cards"),  # would be cut to 0
    ({0: -1}, "negative number of cards"),
])
def test_a_count_vector_it_cannot_read_exactly_is_refused(counts, says) -> None:
    from fcsim.core.solver import min_penalty

    vector = np.zeros(N_KINDS, np.float64 if isinstance(counts.get(0), float) else np.int64)
    for kind, count in counts.items():
        vector[kind] = count
    with pytest.raises(CardError, match=says):
        min_penalty(vector, 1)


def _rows(*hands: str) -> np.ndarray:
    return np.stack([as_counts(hand) for hand in hands])


@pytest.mark.parametrize("batch", [min_penalty_batch, best_discard_batch])
@pytest.mark.parametrize(("hands", "round_number", "error", "says"), [
    (_rows("3S 4S"), 0, ValueError, "round must be 1 to 11, not 0"),
    (_rows("3S 4S"), 12, ValueError, "round must be 1 to 11, not 12"),
    (_rows("3S 4S")[:, :55], 1, CardError, r"shape \[N, 56\]\), not shape \[1, 55\]"),
    (as_counts("3S 4S"), 1, CardError, r"not shape \[56\]"),
    (_rows("3S 4S") * 0.5, 1, CardError, "whole numbers of cards"),
    (-_rows("3S 4S").astype(np.int64), 1, CardError, "negative number of cards"),
    (np.vstack([_rows("3S"), np.full((1, N_KINDS), 1)]), 1, CardError,
     r"at most 20 cards, not 56 \(row 1\)"),
    (np.eye(1, N_KINDS, 55, dtype=np.int64) * 256, 1, CardError,
     "at most 20 cards, not 256"),  # would wrap to 0 as int8
])
def test_a_batch_the_kernels_cannot_read_is_refused(batch, hands, round_number, error,
                                                    says) -> None:
    """The batch kernels index by the counts unchecked: a wrong round, shape or count
    would read past their tables instead of raising."""
    with pytest.raises(error, match=says):
        batch(hands, round_number)


def test_a_batch_discard_of_an_empty_hand_names_its_row() -> None:
    with pytest.raises(CardError, match=r"at least one card \(row 1 is empty\)"):
        best_discard_batch(np.vstack([_rows("3S 4S"), np.zeros((1, N_KINDS), np.int8)]), 2)
    assert min_penalty_batch(np.zeros((1, N_KINDS), np.int8), 2).tolist() == [0]
    assert min_penalty_batch(np.zeros((0, N_KINDS), np.int8), 2).tolist() == []
