"""The solver from Python: hands in any form, validated at the edge, then the kernels."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias

import numpy as np
from numba import njit

from fcsim.core.cards import (
    N_KINDS,
    CardError,
    counts_from_kinds,
    format_card,
    hand_kinds,
    parse_cards,
)
from fcsim.core.late_link import link_kernels
from fcsim.core.rules import ROUND_COUNTS, RulesError, RuleSet
from fcsim.core.solver.discard import best_discard_kernel, discard_kernel
from fcsim.core.solver.layout import SCRATCH_SIZE, new_scratch
from fcsim.core.solver.penalty import penalty_kernel, penalty_kernel_late
from fcsim.core.tables import solver_table

MAX_HAND = 20  # the most cards the kernels take (a combination's code fits in 30 bits)
_MAX_ROUND = max(ROUND_COUNTS)
NO_DISCARD = "best discard needs at least one card"
Hand: TypeAlias = str | Iterable[str] | Iterable[int] | np.ndarray
"""A hand as the Python API takes it: RULES.md notation (``"9H JS JK"``), its tokens, kind
ids (0 … 55) or an ``int8[56]`` count vector."""


def link_searches() -> None:
    """Compile (or load from the cache) the two searches that compiled code reaches
    through their late stubs (:mod:`fcsim.core.late_link`), here and now rather than at
    their first call."""
    link_kernels(penalty_kernel, discard_kernel)


def _check_whole_counts(counts: np.ndarray) -> None:
    """Refuse counts that are not whole numbers of cards, or negative (any shape, not empty)."""
    if counts.dtype.kind not in "iuf" or not np.array_equal(counts, np.floor(counts)):
        raise CardError("a count vector holds whole numbers of cards")
    if counts.min() < 0:
        raise CardError("a hand cannot hold a negative number of cards")


def as_counts(hand: Hand) -> np.ndarray:
    """A hand as an ``int8[56]`` count vector, from notation, tokens, kinds or counts."""
    if isinstance(hand, np.ndarray) and hand.shape == (N_KINDS,):
        _check_whole_counts(hand)
        if hand.max() > MAX_HAND:
            raise CardError(f"a hand holds at most {MAX_HAND} cards, not {int(hand.max())} "
                            f"of one kind")
        return counts_from_kinds(hand_kinds(hand.astype(np.int8)))
    if isinstance(hand, str):
        return counts_from_kinds(parse_cards(hand))
    items = list(hand)
    if all(isinstance(x, (int, np.integer)) for x in items):
        bad = [x for x in items if not 0 <= int(x) < N_KINDS]
        if bad:
            raise CardError(f"bad card id {bad[0]}: ids are 0 to {N_KINDS - 1}")
        return counts_from_kinds(int(x) for x in items)
    return counts_from_kinds(parse_cards(" ".join(str(x) for x in items)))


def _check_round(round_number: int) -> None:
    if not isinstance(round_number, (int, np.integer)) or not 1 <= round_number <= _MAX_ROUND:
        raise RulesError(f"round must be 1 to {_MAX_ROUND}, not {round_number!r}")


def setup_hand(hand: Hand, round_number: int,
               rules: RuleSet | None) -> tuple[np.ndarray, int, bool]:
    """Validated counts, wild points and all-wild flag for the Python API."""
    rules = rules or RuleSet()
    _check_round(round_number)
    counts = as_counts(hand)
    size = int(counts.sum())
    if size > MAX_HAND:
        raise CardError(f"a hand holds at most {MAX_HAND} cards, not {size}")
    return counts, rules.wild_points(int(round_number)), rules.all_wild_melds


def as_count_rows(hands: np.ndarray) -> np.ndarray:
    """Hands as rows of counts (``[N, 56]`` of whole numbers), checked as the kernels need
    them: the kernels trust what they are given, so a wrong shape or count would be read
    wrongly, not refused. Returns a contiguous ``int8[N, 56]``."""
    rows = np.asarray(hands)
    if rows.ndim != 2 or rows.shape[1] != N_KINDS:
        raise CardError(f"hands are rows of {N_KINDS} counts (shape [N, {N_KINDS}]), not "
                        f"shape {list(rows.shape)}")
    if rows.size:
        _check_whole_counts(rows)
        sizes = rows.sum(axis=1)
        if sizes.max() > MAX_HAND:
            row = int(np.argmax(sizes))
            raise CardError(f"a hand holds at most {MAX_HAND} cards, not {int(sizes[row])} "
                            f"(row {row})")
    return np.ascontiguousarray(rows, dtype=np.int8)


def min_penalty(hand: Hand, round_number: int, rules: RuleSet | None = None) -> int:
    """The least penalty ``hand`` can leave in round ``round_number`` (exact).

    >>> min_penalty("9H JS 7D JK 7S 3H 4H", 5)  # 7s wild: 3H 4H 7S, JS 7D JK; 9H left
    9
    """
    counts, wild_points, all_wild = setup_hand(hand, round_number, rules)
    return int(penalty_kernel(counts, int(round_number), wild_points, all_wild, solver_table(),
                              new_scratch())[0])


def best_discard(hand: Hand, round_number: int, rules: RuleSet | None = None) -> tuple[str, int]:
    """For a hand of n+1 cards, the discard leaving the least penalty and that penalty."""
    counts, wild_points, all_wild = setup_hand(hand, round_number, rules)
    kind, pen = best_discard_of_counts(counts, int(round_number), wild_points, all_wild,
                                       solver_table(), new_scratch())
    return format_card(kind), pen


def best_discard_of_counts(counts: np.ndarray, round_number: int, wild_points: int,
                           all_wild: bool, table: np.ndarray, scratch: np.ndarray
                           ) -> tuple[int, int]:
    """The best discard of a validated hand of n+1 cards (:func:`setup_hand`) and the
    penalty it leaves, as (kind, penalty); a :class:`CardError` for an empty hand."""
    if counts.sum() == 0:
        raise CardError(NO_DISCARD)
    kind, pen = best_discard_kernel(counts, round_number, wild_points, all_wild, table,
                                    scratch)
    return int(kind), int(pen)


@njit(cache=True)
def penalty_batch_kernel(
    hands: np.ndarray, round_number: int, wild_points: int, all_wild: bool, table: np.ndarray
) -> np.ndarray:
    """:func:`penalty_kernel` over ``hands`` (``int8[N, 56]``); returns ``int32[N]``."""
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    out = np.empty(hands.shape[0], dtype=np.int32)
    for h in range(hands.shape[0]):
        out[h] = penalty_kernel_late(hands[h], round_number, wild_points, all_wild, table,
                                     scratch)[0]
    return out


@njit(cache=True)
def best_discard_batch_kernel(
    hands: np.ndarray, round_number: int, wild_points: int, all_wild: bool, table: np.ndarray
) -> np.ndarray:
    """:func:`best_discard_kernel` over ``hands`` (``int8[N, 56]``); returns ``int32[N, 2]``
    of (kind, penalty)."""
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    out = np.empty((hands.shape[0], 2), dtype=np.int32)
    for h in range(hands.shape[0]):
        kind, pen = best_discard_kernel(hands[h], round_number, wild_points, all_wild, table,
                                        scratch)
        out[h, 0] = kind
        out[h, 1] = pen
    return out


def min_penalty_batch(hands: np.ndarray, round_number: int,
                      rules: RuleSet | None = None) -> np.ndarray:
    """:func:`min_penalty` of every row of ``hands`` (``int8[N, 56]``) -> ``int32[N]``."""
    rules = rules or RuleSet()
    _check_round(round_number)
    return penalty_batch_kernel(as_count_rows(hands), int(round_number),
                                rules.wild_points(round_number), rules.all_wild_melds,
                                solver_table())


def best_discard_batch(hands: np.ndarray, round_number: int,
                       rules: RuleSet | None = None) -> np.ndarray:
    """:func:`best_discard` of every row of ``hands`` -> ``int32[N, 2]`` of (kind, penalty)."""
    rules = rules or RuleSet()
    _check_round(round_number)
    rows = as_count_rows(hands)
    if rows.shape[0] and rows.sum(axis=1).min() == 0:
        raise CardError(f"{NO_DISCARD} (row {int(np.argmin(rows.sum(axis=1)))} is empty)")
    return best_discard_batch_kernel(rows, int(round_number), rules.wild_points(round_number),
                                     rules.all_wild_melds, solver_table())
