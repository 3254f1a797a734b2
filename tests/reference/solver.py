"""A slow, obviously correct reference for the meld solver (tests only).

It shares no code with :mod:`fcsim.core.solver` or :mod:`fcsim.core.tables`: it tries
every way to split a hand into legal melds, one meld at a time, and memoises on what is
left. Only :mod:`fcsim.core.cards` is used, for card ids and notation.

The search: wilds (jokers and cards of the round's wild rank) are interchangeable in a
meld, so only their number matters until the end, where the ``u`` wilds left unmelded are
the ``u`` cheapest. Take the first remaining natural card X (in kind order, so every other
remaining card of X's suit ranks at or above X): X is left unmelded, or it joins a meld
made of X, some other remaining naturals (of X's rank for a book, of X's suit and higher
ranks for a run) and ``j`` wilds, for every ``j`` that makes the meld legal. When no
natural is left, the wilds are left unmelded or, if allowed, form an all-wild meld.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache

import numpy as np

from fcsim.core.cards import JOKER, N_KINDS, parse_cards, rank_of, suit_of

INF = 10**9
FACE = "face"
JOKER_POINTS = 50
LOWEST, HIGHEST = 3, 13  # ranks 3 … K
LONGEST_RUN = 11


def is_wild(kind: int, round_number: int) -> bool:
    """A joker, or a card of the round's wild rank (round r → rank r + 2)."""
    return kind == JOKER or rank_of(kind) == round_number + 2


def card_points(kind: int, round_number: int, wild_penalty: int | str = 20) -> int:
    """Penalty of one card left unmelded: rank, wild-rank card 20 (or face), joker 50."""
    if kind == JOKER:
        return JOKER_POINTS
    rank = rank_of(kind)
    if rank == round_number + 2 and wild_penalty != FACE:
        return int(wild_penalty)
    return rank


def _is_book(naturals: Sequence[int], size: int) -> bool:
    """One rank, any suits, duplicates allowed, plus any wilds; at least 3 cards."""
    return size >= 3 and len(naturals) > 0 and len({rank_of(k) for k in naturals}) == 1


def _is_run(naturals: Sequence[int], size: int) -> bool:
    """One suit, distinct ranks, 3–11 cards placed on consecutive ranks within 3 … K."""
    if size < 3 or size > LONGEST_RUN or not naturals:
        return False
    ranks = [rank_of(k) for k in naturals]
    if len({suit_of(k) for k in naturals}) != 1 or len(set(ranks)) != len(ranks):
        return False
    starts = range(LOWEST, HIGHEST - size + 2)
    return any(start <= min(ranks) and max(ranks) <= start + size - 1 for start in starts)


def meld_ok(naturals: Sequence[int], n_wilds: int, all_wild_melds: bool) -> bool:
    """Whether ``naturals`` (none of them wild) plus ``n_wilds`` wilds form a legal meld."""
    size = len(naturals) + n_wilds
    if not naturals:
        return all_wild_melds and size >= 3
    return _is_book(naturals, size) or _is_run(naturals, size)


def is_legal_meld(meld: Sequence[int], round_number: int, all_wild_melds: bool = True) -> bool:
    """Whether a meld of kinds (wilds included) is legal in ``round_number`` (RULES.md)."""
    naturals = [k for k in meld if not is_wild(k, round_number)]
    return meld_ok(naturals, len(meld) - len(naturals), all_wild_melds)


def _without(cards: tuple[int, ...], removed: Iterable[int]) -> tuple[int, ...]:
    """``cards`` (sorted) minus the multiset ``removed``."""
    left = Counter(cards)
    left.subtract(removed)
    return tuple(sorted(left.elements()))


def _book_partners(x: int, rest: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Every sub-multiset of ``rest`` made of cards of X's rank (the empty one included)."""
    same = [k for k in rest if rank_of(k) == rank_of(x)]
    return {tuple(k for i, k in enumerate(same) if mask >> i & 1) for mask in range(1 << len(same))}


def _run_partners(x: int, rest: tuple[int, ...], wilds: int) -> list[tuple[int, ...]]:
    """Non-empty sets of distinct higher ranks of X's suit whose gaps ``wilds`` can fill."""
    above = sorted({k for k in rest if suit_of(k) == suit_of(x) and rank_of(k) > rank_of(x)})
    found: list[tuple[int, ...]] = []

    def grow(chosen: tuple[int, ...], last: int, gaps: int, start: int) -> None:
        for i in range(start, len(above)):
            more = gaps + rank_of(above[i]) - rank_of(last) - 1
            if more > wilds:  # gaps only grow with higher ranks
                break
            found.append((*chosen, above[i]))
            grow((*chosen, above[i]), above[i], more, i + 1)

    grow((), x, 0, 0)
    return found


@cache
def deadwood_by_leftover(
    naturals: tuple[int, ...], wilds: int, all_wild_melds: bool, runs_only: bool = False
) -> tuple[int, ...]:
    """Least points of unmelded naturals when exactly ``u`` of the wilds stay unmelded.

    ``naturals`` is sorted and holds no wild. Entry ``u`` (0 … ``wilds``) is ``INF`` when
    no arrangement leaves exactly ``u`` wilds out. With ``runs_only`` the melds are runs
    only (and never all-wild), which is what the solver's run table describes.
    """
    best = [INF] * (wilds + 1)
    if not naturals:
        for u in range(wilds + 1):
            if u == wilds or (not runs_only and meld_ok((), wilds - u, all_wild_melds)):
                best[u] = 0
        return tuple(best)
    x, rest = naturals[0], naturals[1:]
    alone = deadwood_by_leftover(rest, wilds, all_wild_melds, runs_only)
    for u in range(wilds + 1):
        best[u] = alone[u] + rank_of(x)
    partners = _run_partners(x, rest, wilds)
    if runs_only:
        partners.append(())
    else:
        partners.extend(_book_partners(x, rest))
    for others in partners:
        meld = (x, *others)
        left = _without(rest, others)
        for j in range(wilds + 1):
            legal = _is_run(meld, len(meld) + j) if runs_only else meld_ok(meld, j, all_wild_melds)
            if not legal:
                continue
            sub = deadwood_by_leftover(left, wilds - j, all_wild_melds, runs_only)
            for u in range(wilds - j + 1):
                best[u] = min(best[u], sub[u])
    return tuple(best)


def hand_list(hand: str | Iterable[int] | np.ndarray) -> list[int]:
    """A hand as a list of kinds, from notation, a list of kinds or an ``int8[56]`` vector."""
    if isinstance(hand, str):
        return parse_cards(hand)
    if isinstance(hand, np.ndarray) and hand.shape == (N_KINDS,):
        return [k for k in range(N_KINDS) for _ in range(int(hand[k]))]
    return [int(k) for k in hand]


def reference_penalty(
    hand: str | Iterable[int] | np.ndarray,
    round_number: int,
    wild_penalty: int | str = 20,
    all_wild_melds: bool = True,
) -> tuple[int, int]:
    """``(least penalty, wilds left)``: of the least-penalty arrangements, the one leaving
    the fewest wilds unmelded (the cheapest ones)."""
    kinds = hand_list(hand)
    naturals = tuple(sorted(k for k in kinds if not is_wild(k, round_number)))
    wild_points = sorted(
        card_points(k, round_number, wild_penalty) for k in kinds if is_wild(k, round_number)
    )
    by_left = deadwood_by_leftover(naturals, len(wild_points), all_wild_melds)
    return min((by_left[u] + sum(wild_points[:u]), u) for u in range(len(wild_points) + 1))


def reference_best_discard(
    hand: str | Iterable[int] | np.ndarray,
    round_number: int,
    wild_penalty: int | str = 20,
    all_wild_melds: bool = True,
) -> tuple[int, int]:
    """``(kind, penalty)`` of the best discard from a hand of n + 1 cards.

    Ties: least penalty, then a natural before a wild, then the card worth more points,
    then the lowest kind; every wild-rank card is reported as the lowest such kind held.
    """
    kinds = sorted(hand_list(hand))
    rank_wilds = [k for k in kinds if k != JOKER and is_wild(k, round_number)]
    options = []
    for kind in set(kinds):
        rest = list(kinds)
        rest.remove(kind)
        penalty, _ = reference_penalty(rest, round_number, wild_penalty, all_wild_melds)
        wild = is_wild(kind, round_number)
        shown = min(rank_wilds) if wild and kind != JOKER else kind
        points = card_points(kind, round_number, wild_penalty)
        options.append((penalty, wild, -points, shown))
    penalty, _, _, shown = min(options)
    return shown, penalty


def reference_run_totals(naturals: Iterable[int], most_wilds: int) -> list[int | None]:
    """For ``w`` = 0 … ``most_wilds``: the largest rank total of one suit's naturals that runs
    holding exactly ``w`` wilds can meld, or ``None`` if no set of runs holds exactly ``w``."""
    cards = tuple(sorted(naturals))
    total = sum(rank_of(k) for k in cards)
    by_left = deadwood_by_leftover(cards, most_wilds, False, runs_only=True)
    out: list[int | None] = []
    for w in range(most_wilds + 1):
        left = by_left[most_wilds - w]  # runs hold w wilds, most_wilds - w stay out
        out.append(None if left >= INF else total - left)
    return out


def arrangement_problems(
    hand: Sequence[int],
    melds: Sequence[Sequence[int]],
    deadwood: Sequence[int],
    penalty: int,
    round_number: int,
    wild_penalty: int | str = 20,
    all_wild_melds: bool = True,
) -> list[str]:
    """What is wrong with an arrangement (empty when none): an illegal meld, cards that are
    not exactly the hand, or deadwood points that differ from ``penalty``."""
    problems = [
        f"illegal meld {list(m)}"
        for m in melds
        if not is_legal_meld(m, round_number, all_wild_melds)
    ]
    used = Counter(k for m in melds for k in m) + Counter(deadwood)
    if used != Counter(hand):
        problems.append(f"melds + deadwood {sorted(used.elements())} != hand {sorted(hand)}")
    points = sum(card_points(k, round_number, wild_penalty) for k in deadwood)
    if points != penalty:
        problems.append(f"deadwood worth {points}, penalty says {penalty}")
    return problems
