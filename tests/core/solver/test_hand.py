"""A hand as the solver reads it, against the obvious reading of its count vector."""

from __future__ import annotations

import numpy as np

from fcsim.core.cards import JOKER, JOKER_PENALTY, N_RANKS, N_SUITS, kind_at, rank_at
from fcsim.core.solver import as_counts, new_scratch
from fcsim.core.solver.hand import isolated, read_hand, unpack, wild_cost
from fcsim.core.solver.layout import SUIT_RANKS, at
from tests.core.solver.hands import DECK


def test_read_hand_matches_the_count_vector() -> None:
    rng = np.random.default_rng(12)
    scratch = new_scratch()
    for i in range(300):
        wild_pos = i % N_RANKS
        counts = as_counts(rng.permutation(np.array(DECK))[: rng.integers(0, 21)].tolist())
        nat, rank_wilds, seen, twice, low, high = read_hand(counts, wild_pos, scratch)
        natural = [(s, r) for s in range(N_SUITS) for r in range(N_RANKS) if r != wild_pos]
        assert nat == sum(int(counts[kind_at(r, s)]) * rank_at(r) for s, r in natural)
        assert rank_wilds == sum(int(counts[kind_at(wild_pos, s)]) for s in range(N_SUITS))
        per_rank = [sum(int(counts[kind_at(r, s)]) for s in range(N_SUITS)) if r != wild_pos
                    else 0 for r in range(N_RANKS)]
        assert seen == sum(1 << r for r in range(N_RANKS) if per_rank[r] >= 1)
        assert twice == sum(1 << r for r in range(N_RANKS) if per_rank[r] >= 2)
        for s in range(N_SUITS):
            held = [r for r in range(N_RANKS) if r != wild_pos and counts[kind_at(r, s)]]
            assert scratch[at(SUIT_RANKS, s)] == sum(1 << r for r in held)
            assert unpack(low, high, s) == sum(int(counts[kind_at(r, s)]) * 3**r
                                               for r in range(N_RANKS) if r != wild_pos)
            for r in range(N_RANKS):
                assert isolated(scratch, s, r) == all(abs(j - r) > 2 for j in held if j != r)
        assert counts[JOKER] <= 6


def test_wild_cost_counts_the_cheapest_wilds_first() -> None:
    for wild_points in (1, 20, JOKER_PENALTY, 60):
        for rank_wilds in range(4):
            for jokers in range(4):
                wilds = sorted([wild_points] * rank_wilds + [JOKER_PENALTY] * jokers)
                for u in range(rank_wilds + jokers + 1):
                    assert wild_cost(u, rank_wilds, jokers, wild_points) == sum(wilds[:u])
