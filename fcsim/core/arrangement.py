"""An optimal arrangement for display: the melds and left-over cards behind a penalty.

The kernels of :mod:`fcsim.core.solver` only count; this module rebuilds the melds they
chose (books from the kernel's plan, runs from the run table) so a person can check them.
Not on any hot path.
"""

from __future__ import annotations

from dataclasses import dataclass

from fcsim.core.cards import (
    JOKER,
    JOKER_PENALTY,
    MIN_MELD,
    N_KINDS,
    N_RANKS,
    N_SUITS,
    format_card,
    format_cards,
    kind_at,
    rank_at,
    rank_of,
    wild_index,
)
from fcsim.core.rules import RuleSet
from fcsim.core.solver import (
    PLAN_BOOKS,
    PLAN_RUN_WILDS,
    Hand,
    best_discard_of_counts,
    new_scratch,
    penalty_kernel,
    setup_hand,
)
from fcsim.core.tables import INFEASIBLE, MAX_GAP, run_table, solver_table


@dataclass(frozen=True)
class Arrangement:
    """An optimal arrangement: the melds and the cards left over (kinds), and the penalty."""

    penalty: int
    melds: tuple[tuple[int, ...], ...]
    deadwood: tuple[int, ...]
    discard: int | None = None

    def to_json(self) -> dict:
        """``{"penalty", "melds", "deadwood"}`` (+ ``"discard"``) in RULES.md notation."""
        out = {
            "penalty": self.penalty,
            "melds": [format_cards(m) for m in self.melds],
            "deadwood": format_cards(self.deadwood),
        }
        if self.discard is not None:
            out["discard"] = format_card(self.discard)
        return out


def solve(hand: Hand, round_number: int, rules: RuleSet | None = None,
          discard: bool = False) -> Arrangement:
    """The least penalty of ``hand`` with one optimal arrangement, for display.

    With ``discard=True`` the hand is n+1 cards after a draw: the best discard is made first
    and the arrangement is that of the n cards left.
    """
    counts, wild_points, all_wild = setup_hand(hand, round_number, rules)
    table = solver_table()
    scratch = new_scratch()
    discarded = None
    if discard:
        discarded, _ = best_discard_of_counts(counts, int(round_number), wild_points,
                                              all_wild, table, scratch)
        counts[discarded] -= 1
    pen, left = penalty_kernel(counts, int(round_number), wild_points, all_wild, table, scratch)
    plan_books = [int(x) for x in scratch[PLAN_BOOKS:PLAN_BOOKS + N_RANKS]]
    run_wilds = int(scratch[PLAN_RUN_WILDS])
    melds, deadwood = _arrangement(counts, int(round_number), wild_points, int(left),
                                   plan_books, run_wilds, run_table())
    return Arrangement(int(pen), melds, deadwood, discarded)


def _arrangement(counts, round_number, wild_points, left, plan_books, run_wilds, table):
    """Rebuild the melds the kernel chose: books from the plan, runs from the run table."""
    wild_pos = wild_index(round_number)
    rank_wilds = [kind_at(wild_pos, s) for s in range(N_SUITS)
                  for _ in range(int(counts[kind_at(wild_pos, s)]))]
    jokers = [JOKER] * int(counts[JOKER])
    # The cheapest wilds are left over; the others are melded.
    cheap_first = rank_wilds + jokers if wild_points <= JOKER_PENALTY else jokers + rank_wilds
    wilds_left = cheap_first[:left]
    wild_pool = cheap_first[left:][::-1]  # melded wilds, dearest first

    remaining = counts.copy()
    for s in range(N_SUITS):
        remaining[kind_at(wild_pos, s)] = 0
    remaining[JOKER] = 0
    books = []
    for i, packed in enumerate(plan_books):
        if packed:
            book = []
            for s in range(N_SUITS):
                take = packed // 3**s % 3
                book += [kind_at(i, s)] * take
                remaining[kind_at(i, s)] -= take
            books.append(book)
    patterns = [sum(int(remaining[kind_at(i, s)]) * 3**i for i in range(N_RANKS))
                for s in range(N_SUITS)]
    # With a book, wilds the runs leave join it: the kernel gives the most runs may take.
    alloc = _split_run_wilds(patterns, run_wilds, table, at_most=bool(books))
    melds: list[list[int]] = []
    for s in range(N_SUITS):
        for positions, n_wild in _suit_runs(patterns[s], alloc[s], table):
            run = [kind_at(i, s) for i in positions]
            for i in positions:
                remaining[kind_at(i, s)] -= 1
            run_wild = [wild_pool.pop() for _ in range(n_wild)]
            melds.append(_order_run(run, run_wild))
    for book in books:
        need = max(0, MIN_MELD - len(book))
        melds.append(book + [wild_pool.pop() for _ in range(need)])
    if wild_pool:  # wilds beyond what runs and books need: into a book, or their own meld
        if books:
            melds[len(melds) - len(books)] += wild_pool
        else:
            melds.append(wild_pool)
    deadwood = [k for k in range(N_KINDS) for _ in range(int(remaining[k]))] + wilds_left
    return tuple(tuple(m) for m in melds), tuple(deadwood)


def _split_run_wilds(patterns, total, table, at_most: bool) -> list[int]:
    """Per-suit wild counts summing to ``total`` (or, ``at_most``, to the best count up to
    ``total``, the fewest among equals) that reach the best run total."""
    best: dict[int, tuple[int, list[int]]] = {0: (0, [])}
    for pat in patterns:
        nxt: dict[int, tuple[int, list[int]]] = {}
        for used, (value, alloc) in best.items():
            for w in range(total - used + 1):
                v = int(table[pat, w])
                if v == INFEASIBLE:
                    continue
                if used + w not in nxt or value + v > nxt[used + w][0]:
                    nxt[used + w] = (value + v, [*alloc, w])
        best = nxt
    if at_most:
        total = max(best, key=lambda used: (best[used][0], -used))
    return best[total][1]


def _suit_runs(pattern: int, wilds: int, table) -> list[tuple[list[int], int]]:
    """Runs (rank positions, wild count) of one suit reaching ``table[pattern, wilds]``."""
    target = int(table[pattern, wilds])
    if pattern == 0 or target == 0:
        return []
    digits = [pattern // 3**i % 3 for i in range(N_RANKS)]
    low = next(i for i in range(N_RANKS) if digits[i])
    if int(table[pattern - 3**low, wilds]) == target:
        return _suit_runs(pattern - 3**low, wilds, table)

    def extend(run: list[int], rest: int):
        span = run[-1] - low + 1
        need = max(span, MIN_MELD) - len(run)
        value = sum(rank_at(i) for i in run)
        for w_run in range(need, min(N_RANKS - len(run), wilds) + 1):
            v = int(table[rest, wilds - w_run])
            if v != INFEASIBLE and value + v == target:
                return [(run, w_run), *_suit_runs(rest, wilds - w_run, table)]
        for j in range(run[-1] + 1, min(run[-1] + MAX_GAP, N_RANKS - 1) + 1):
            if rest // 3**j % 3:
                found = extend([*run, j], rest - 3**j)
                if found:
                    return found
        return None

    found = extend([low], pattern - 3**low)
    assert found is not None, "run table and reconstruction disagree"
    return found


def _order_run(naturals: list[int], wilds: list[int]) -> list[int]:
    """A run's cards in rank order, wilds in the gaps first, then above, then below."""
    ranks = [rank_of(k) for k in naturals]
    slots: dict[int, int] = dict(zip(ranks, naturals, strict=True))
    pool = list(wilds)
    for r in range(min(ranks), max(ranks) + 1):
        if r not in slots:
            slots[r] = pool.pop()
    top, bottom = max(ranks), min(ranks)
    while pool:
        if top < rank_at(N_RANKS - 1):
            top += 1
            slots[top] = pool.pop()
        else:
            bottom -= 1
            slots[bottom] = pool.pop()
    return [slots[r] for r in sorted(slots)]
