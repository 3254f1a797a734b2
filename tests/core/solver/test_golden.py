"""Golden digests: any change of an answer is caught (computed after the reference agreed)."""

from __future__ import annotations

import hashlib

import numpy as np

from fcsim.core.cards import N_KINDS
from fcsim.core.solver import (
    best_discard_kernel,
    new_scratch,
    penalty_kernel,
)
from fcsim.core.tables import solver_table
from tests.core.solver.hands import (
    DECK,
    VARIANTS,
)

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
