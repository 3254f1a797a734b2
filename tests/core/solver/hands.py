"""Hands for the solver tests: hypothesis strategies biased to the hard cases, seeded deals,
and the kernels' and the reference's answers side by side."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from fcsim.core.arrangement import Arrangement
from fcsim.core.cards import full_deck, kind_of
from fcsim.core.rules import RuleSet
from fcsim.core.solver import (
    as_counts,
    best_discard_kernel,
    new_scratch,
    penalty_kernel,
)
from fcsim.core.tables import solver_table
from tests.reference.solver import (
    arrangement_problems,
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
