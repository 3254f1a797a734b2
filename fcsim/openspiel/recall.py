"""What each seat of ``python_five_crowns`` has seen, move by move: its perfect recall.

A game keeps one log of *sightings* (:class:`Chain`, shared by every clone of a state):
the cards dealt (each seen by its seat), the upcard, each draw (a stock card seen by its
drawer, a pile card by all), each discard, each reshuffle, and at a round's end every hand,
laid down to be scored. :func:`recall` writes what one seat saw of it.

A resampled world needs a past that fits it: :func:`reconstruct` deals the other seats
the cards they were dealt and drew, round by round, backwards from the hands they end
with (the world's now, or the hands laid down), so that every pile card they took and
every card they discarded was in their hand when they did, and every stock card they
drew was in the stock: after a reshuffle, the old pile's cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from fcsim.core.cards import N_KINDS, format_card
from fcsim.errors import FcsimError

DEAL, UP, STOCK, PILE, DISCARD, RESHUFFLE, END, START = range(8)
UNKNOWN = -1  # a card a re-dealt past could not name (after reshuffles)
SEARCH_STEPS = 300  # walks through a round with reshuffles before its cards go unnamed
Sighting = tuple  # (DEAL, seat, card) … as written by the state; see :func:`recall`


class Chain:
    """One sighting (or one step's event rows) and the ones before: never changed once
    made, so a deep copy of it is itself and clones share their past."""

    __slots__ = ("earlier", "item", "past", "seen")

    def __init__(self, item: object, earlier: Chain | None) -> None:
        self.item, self.earlier = item, earlier
        self.seen: dict[int, str] = {}  # per seat: the recall up to here, once asked
        # per seat: its re-dealt past up to here, and the rounds in it (a round's end)
        self.past: dict[int, tuple[Chain, int]] = {}

    def __deepcopy__(self, memo: dict) -> Chain:
        return self

    def __reduce__(self) -> tuple:
        """Pickled as the list of items, oldest first: link by link would recurse once
        per step, past Python's limit within a game."""
        return chained, (list(self.items()),)

    def items(self) -> Iterator:
        """The items, oldest first (the empty link that starts every chain left out)."""
        links = []
        link: Chain | None = self
        while link is not None and link.earlier is not None:
            links.append(link.item)
            link = link.earlier
        return reversed(links)


def chained(items: Sequence) -> Chain:
    """The chain of ``items`` (oldest first), after the empty link every chain starts with."""
    link = Chain(None, None)
    for item in items:
        link = Chain(item, link)
    return link


def _card(kind: int) -> str:
    return "?" if kind == UNKNOWN else format_card(kind)


def _cards(counts: Sequence[int]) -> str:
    return ",".join(format_card(k) for k, n in enumerate(counts) for _ in range(n))


def sighting_text(item: Sighting, seat: int) -> str:
    """What ``seat`` saw of one sighting ('' if nothing: a card dealt to another seat)."""
    code = item[0]
    if code == DEAL:
        return f"d{_card(item[2])}" if item[1] == seat else ""
    if code == UP:
        return f"u{format_card(item[1])}"
    if code == STOCK:
        return f"p{item[1]}s{_card(item[2]) if item[1] == seat else ''}"
    if code == PILE:
        return f"p{item[1]}p{format_card(item[2])}"
    if code == DISCARD:
        return f"p{item[1]}d{format_card(item[2])}{'*' if item[3] else ''}"
    if code == RESHUFFLE:
        return "R"
    if code == END:
        return "E" + "/".join(_cards(hand) for hand in item[1])
    # START: a state built from one seat's view; each seat saw its own hand then
    return f"v{_cards(item[1][seat])}"


def recall(head: Chain, seat: int) -> str:
    """Everything ``seat`` saw, oldest first, one word a sighting (cached on the links)."""
    pending = []
    link: Chain | None = head
    while link is not None and link.earlier is not None and seat not in link.seen:
        pending.append(link)
        link = link.earlier
    text = link.seen.get(seat, "") if link is not None else ""
    for step in reversed(pending):
        word = sighting_text(step.item, seat)
        text = f"{text} {word}" if text and word else text or word
        step.seen[seat] = text
    return text


class NoPast(FcsimError):
    """The sightings do not add up to a past (a bug, or a search out of walks)."""


@dataclass
class Table:
    """What ``player`` sees of the round being played: its hand and each other seat's known
    cards (``hands``, int[P, 56]), the other seats' hand sizes, the stock's size."""

    player: int
    hands: np.ndarray
    sizes: np.ndarray
    stock_size: int


@dataclass
class World:
    """The round being played as a resample deals it: every hand (int[P, 56]) and the
    stock, bottom first (its last card is drawn next)."""

    hands: np.ndarray
    stock: list[int]


def reconstruct(head: Chain, table: Table, deck: Counter,
                rng: np.random.Generator) -> tuple[Chain, World]:
    """A world ``table.player`` cannot tell from the one whose sightings end at ``head``,
    past included: its own sightings and the public ones as they are; the other seats'
    hidden cards now, the stock, and what each was dealt and drew in every round, dealt
    afresh backwards from what the player sees (the round being played, by ``rng``) or
    from the hands laid down (a finished round). A finished round is re-dealt once per
    player, by a seed of its own, and kept on its last link (nothing in it bears on the
    rounds after it), so that worlds share their earlier rounds, and what the seats
    recall of them; the walk back stops at the last round's end it finds re-dealt. Raises
    :class:`NoPast` if the sightings do not add up."""
    player = table.player
    links = []
    link = head
    while link.earlier is not None and not (link.item[0] == END and player in link.past):
        links.append(link)
        link = link.earlier
    past, number = link.past.get(player, (Chain(None, None), 0))
    segment: list[Sighting] = []
    for link in reversed(links):
        segment.append(link.item)
        if link.item[0] != END:
            continue
        hands = np.array(link.item[1])
        stock = _off_table(deck, hands, segment)
        finished = Table(player, hands, hands.sum(axis=1), sum(stock.values()))
        for item in _round_past(segment, finished, stock, deck,
                                np.random.default_rng(number))[0]:
            past = Chain(item, past)
        number += 1
        link.past[player] = (past, number)
        segment = []
    sightings, world = _round_past(segment, table, None, deck, rng)
    for item in sightings:
        past = Chain(item, past)
    return past, world


def _counts(hands: np.ndarray) -> Counter:
    return _kinds(hands.sum(axis=0))


def _off_table(deck: Counter, hands: np.ndarray, segment: Sequence[Sighting]) -> Counter:
    """The cards in no hand and not on the pile after the round's ``segment``: the stock's,
    or those no one has seen."""
    return deck - _counts(hands) - Counter(_pile_after(segment))


def _kinds(counts: Sequence[int]) -> Counter:
    """The cards of a count per kind, as a Counter."""
    return Counter({k: int(n) for k, n in enumerate(counts) if n})


def _take(cards: Counter, card: int) -> bool:
    """Take one ``card`` out of ``cards`` if it holds one; whether it did."""
    if cards[card] <= 0:
        return False
    cards[card] -= 1
    return True


def _next_pile(pile: list[int], item: Sighting) -> list[int]:
    """The discard pile after ``item``: a reshuffle takes the cards it names."""
    code = item[0]
    if code == UP:
        return [item[1]]
    if code == START:
        return list(item[3])
    if code == PILE:
        return pile[:-1]
    if code == DISCARD:
        return [*pile, item[2]]
    if code == RESHUFFLE:
        taken = _kinds(item[1])
        return [card for card in pile if not _take(taken, card)]
    return pile


def _pile_after(segment: Sequence[Sighting]) -> list[int]:
    pile: list[int] = []
    for item in segment:
        pile = _next_pile(pile, item)
    return pile


class _Slot:
    """A card a seat holds that the player has not seen: its kind once chosen."""

    __slots__ = ("kind",)

    def __init__(self) -> None:
        self.kind = UNKNOWN


def _round_past(segment: Sequence[Sighting], table: Table, stock_left: Counter | None,
                deck: Counter, rng: np.random.Generator) -> tuple[list[Sighting], World]:
    """One round: the other seats' hidden cards, and what they were dealt and drew.

    Forwards: each seat's known cards (the pile cards it took and still holds, as fcsim's
    ``known`` counts them) at each of its stock draws, and each reshuffle's cards less the
    player's own draws from them. Backwards from the end (``table``; ``stock_left``: the
    stock of a finished round, None for the round being played), each other seat holds
    cards of known kind and hidden ones (slots): a discard returns its card, a pile card
    taken leaves, and a stock draw takes out a card the seat holds beyond its known ones
    (so that the pile cards it took earlier are still there), a known kind or a slot —
    after a reshuffle one of the reshuffled cards the others drew, which with the stock
    left make up exactly the reshuffled cards. At the start, the cards no one has placed
    fill the slots still held, the hidden cards drawn before any reshuffle, and the stock
    of a round with none, uniformly at random."""
    player, players = table.player, table.hands.shape[0]
    forwards = _forwards(segment, player, players, deck)
    reshuffled = forwards.reshuffled
    try:
        walked = _search(segment, table, stock_left, forwards, rng)
    except NoPast:
        if not reshuffled:
            raise
        return _unknown_past(segment, table, deck, rng)
    past, stock_now = walked.past, walked.stock_now
    unknown = [slot for row in walked.held for slot in row] + list(walked.drawn.values())
    placed = _start_cards(segment, player, walked.kinds, walked.first_draws)
    if stock_left is not None and not reshuffled:
        placed += stock_left
    if stock_left is None and not reshuffled:
        unknown += [_Slot() for _ in range(table.stock_size)]
    free = deck - placed
    if sum(free.values()) != len(unknown) or placed - deck:
        raise NoPast
    for slot, kind in zip(unknown, rng.permutation(_spread(free)).tolist(), strict=True):
        slot.kind = kind
    if stock_left is None and not reshuffled:
        stock_now = [slot.kind for slot in unknown[len(unknown) - table.stock_size:]]
    for i, slot in walked.drawn.items():
        past[i] = (STOCK, segment[i][1], slot.kind)
    start_hands = [walked.kinds[s] + Counter(slot.kind for slot in walked.held[s])
                   for s in range(players)]
    for seat, places in walked.dealt.items():
        cards = rng.permutation(_spread(start_hands[seat])).tolist()
        for i, card in zip(places, cards, strict=True):
            past[i] = (DEAL, seat, card)
    for i, item in enumerate(segment):
        if item[0] == START:
            past[i] = (START, tuple(item[1][s] if s == player else _row(start_hands[s])
                                    for s in range(players)), item[2], item[3])
    hands = table.hands.astype(np.int64).copy()
    for s in range(players):
        for slot in walked.slots[s]:
            hands[s, slot.kind] += 1
    return past, World(hands, rng.permutation(stock_now).tolist())


@dataclass(frozen=True)
class _Forwards:
    """What a round's sightings say read forwards (:func:`_forwards`), for the walks back:
    per reshuffle its cards less the player's own draws from them (``reshuffled``) and the
    cards then in the other seats' hands (``room``); per other seat's stock draw (by its
    sighting's index) its known cards then (``reserve``), after a reshuffle also its
    discards less its pile cards since (``returning``) and the other seats' stock draws
    since (``before``)."""

    reshuffled: list[Counter]
    room: list[Counter]
    reserve: dict[int, Counter]
    returning: dict[int, Counter]
    before: dict[int, int]


def _forwards(segment: Sequence[Sighting], player: int, players: int,
              deck: Counter) -> _Forwards:
    """The round's sightings read forwards; :class:`NoPast` if a reshuffle's cards do not
    hold the player's own draws from them."""
    known = [Counter() for _ in range(players)]
    reserve: dict[int, Counter] = {}
    pile: list[int] = []
    reshuffled: list[Counter] = []
    room: list[Counter] = []
    mine: Counter = Counter()  # the player's hand
    since: Counter = Counter()  # the other seats' discards less their pile cards since
    returning: dict[int, Counter] = {}
    for i, item in enumerate(segment):
        code = item[0]
        if code == START:
            known = [_kinds(row) for row in item[2]]
            mine = _kinds(item[1][player])
        elif code in (DEAL, STOCK, PILE) and item[1] == player:
            mine[item[2]] += 1
        elif code == DISCARD and item[1] == player:
            mine[item[2]] -= 1
        elif code in (PILE, DISCARD):
            since[item[2]] += 1 if code == DISCARD else -1
        if code == PILE:
            known[item[1]][item[2]] += 1
        elif code == DISCARD and known[item[1]][item[2]] > 0:
            known[item[1]][item[2]] -= 1
        elif code == RESHUFFLE:  # the stock is empty: every card is in a hand or the pile
            reshuffled.append(_kinds(item[1]))
            room.append(deck - Counter(pile) - mine)
            since = Counter()
        elif code == STOCK and item[1] == player and reshuffled:
            reshuffled[-1][item[2]] -= 1  # the player's own: not the others' to draw
        elif code == STOCK:
            reserve[i] = known[item[1]].copy()
            returning[i] = since.copy()
        pile = _next_pile(pile, item)
    if any(n < 0 for cards in reshuffled for n in cards.values()):
        raise NoPast
    before: dict[int, int] = {}
    count = 0
    for i, item in enumerate(segment):
        if item[0] == RESHUFFLE:
            count = 0
        elif item[0] == STOCK and item[1] != player:
            before[i] = count
            count += 1
    return _Forwards(reshuffled, room, reserve, returning, before)


def _search(segment: Sequence[Sighting], table: Table, stock_left: Counter | None,
            forwards: _Forwards, rng: np.random.Generator) -> _Walked:
    """:func:`_walk` until a walk finds a past: depth first over the other seats' stock
    draws after a reshuffle (the only choices that can lead nowhere), at most
    ``SEARCH_STEPS`` walks; else :class:`NoPast`. A round without one takes one walk."""
    path: list[list] = []  # per stock draw after a reshuffle: its options, the one tried
    for _ in range(SEARCH_STEPS if forwards.reshuffled else 1):
        try:
            return _walk(segment, table, stock_left, forwards, path, rng)
        except _DeadEnd as end:
            del path[end.depth + 1:]
            while path and len(path[-1][0]) <= path[-1][1] + 1:
                path.pop()
            if not path:
                break
            path[-1][1] += 1
    raise NoPast


class _DeadEnd(FcsimError):
    """The choices so far lead nowhere; ``depth``: the last choice that mattered."""

    def __init__(self, depth: int) -> None:
        super().__init__(depth)
        self.depth = depth


class _Walked(NamedTuple):
    """What a walk back through a round found (:func:`_walk`): per seat its cards of known
    kind at the round's start (``kinds``), its hidden cards now (``slots``) and those still
    held at the start (``held``); the sightings with the cards chosen (``past``), the
    hidden cards drawn before any reshuffle (``drawn``, by sighting), each seat's dealt
    sightings (``dealt``), the known cards drawn before any reshuffle (``first_draws``) and
    the stock now after a reshuffle (``stock_now``)."""

    kinds: list[Counter]
    slots: list[list[_Slot]]
    held: list[list[_Slot]]
    past: list[Sighting]
    drawn: dict[int, _Slot]
    dealt: dict[int, list[int]]
    first_draws: Counter
    stock_now: list[int]


def _walk(segment: Sequence[Sighting], table: Table, stock_left: Counter | None,
          forwards: _Forwards, path: list[list], rng: np.random.Generator) -> _Walked:
    """One walk backwards through a round (:func:`_round_past`), the other seats' stock
    draws taking the options ``path`` names (options first met are put in random order
    and the first taken). Raises :class:`_DeadEnd` where the choices leave no past."""
    player, players = table.player, table.hands.shape[0]
    reshuffled, room, reserve = forwards.reshuffled, forwards.room, forwards.reserve
    returning, before = forwards.returning, forwards.before
    kinds = [_kinds(row) for row in table.hands]
    slots = [[_Slot() for _ in range(int(table.sizes[s] - table.hands[s].sum()))]
             if s != player else [] for s in range(players)]
    held = [list(row) for row in slots]  # the hand as it is now
    budget = reshuffled[-1] - (stock_left or Counter()) if reshuffled else None
    stock_now: list[int] = []
    later = len(reshuffled) - 1
    past: list[Sighting] = list(segment)
    drawn: dict[int, _Slot] = {}  # stock sightings of hidden cards drawn before a reshuffle
    dealt: dict[int, list[int]] = {}
    first_draws: Counter = Counter()  # known cards drawn before any reshuffle
    depth = -1
    for i in range(len(segment) - 1, -1, -1):
        item = segment[i]
        code = item[0]
        seat = item[1] if code in (DEAL, STOCK, PILE, DISCARD) else -1
        if seat == player:
            if code == STOCK and budget is None:
                first_draws[item[2]] += 1
            continue
        if code == DISCARD:
            kinds[seat][item[2]] += 1
        elif code == PILE:
            kinds[seat][item[2]] -= 1
            if kinds[seat][item[2]] < 0:
                raise _DeadEnd(depth)
        elif code == STOCK and budget is None:  # before any reshuffle: always a card
            card = _first_draw(kinds[seat], held[seat], reserve[i], rng)
            if isinstance(card, _Slot):
                drawn[i] = card
            else:
                past[i] = (STOCK, seat, card)
                first_draws[card] += 1
        elif code == STOCK:
            depth += 1
            if depth == len(path):
                path.append([_options(kinds[seat], held[seat], reserve[i], budget,
                                      _over(kinds, room[later], player, returning[i]),
                                      rng), 0])
            options, tried = path[depth]
            if tried >= len(options):
                raise _DeadEnd(depth - 1)
            card = options[tried]
            if card < 0:  # a hidden card, of kind -1 - card
                card = -1 - card
                slot = held[seat].pop()
                slot.kind = card
            else:
                kinds[seat][card] -= 1
            budget[card] -= 1
            past[i] = (STOCK, seat, card)
            over = _over(kinds, room[later], player, returning[i])
            if sum(over.values()) > before[i] or any(over[k] > budget[k] for k in over):
                raise _DeadEnd(depth)
        elif code == RESHUFFLE:
            left = +budget
            if _over(kinds, room[later], player, Counter()):
                raise _DeadEnd(depth)  # the other seats would hold more than was left
            if stock_left is None and later == len(reshuffled) - 1:
                stock_now = _spread(left)
                if len(stock_now) != table.stock_size:
                    raise _DeadEnd(depth)
            elif left:
                raise _DeadEnd(depth)
            later -= 1
            budget = reshuffled[later].copy() if later >= 0 else None
        elif code == DEAL:
            dealt.setdefault(seat, []).append(i)
    return _Walked(kinds, slots, held, past, drawn, dealt, first_draws, stock_now)


def _unknown_past(segment: Sequence[Sighting], table: Table, deck: Counter,
                  rng: np.random.Generator) -> tuple[list[Sighting], World]:
    """A round with reshuffles whose past the search did not find: the other seats' dealt
    and stock cards unknown (``-1``: they see ``?``), and for the round being played the
    cards the player has not placed dealt uniformly to their hidden cards and the stock."""
    player = table.player
    past = [(item[0], item[1], UNKNOWN) if item[0] in (DEAL, STOCK) and item[1] != player
            else item for item in segment]
    hands = table.hands.astype(np.int64).copy()
    free = rng.permutation(_spread(_off_table(deck, hands, segment))).tolist()
    for seat in range(hands.shape[0]):
        hidden = int(table.sizes[seat] - hands[seat].sum())
        for card in free[:hidden]:
            hands[seat, card] += 1
        free = free[hidden:]
    return past, World(hands, free[: table.stock_size])


def _start_cards(segment: Sequence[Sighting], player: int, kinds: list[Counter],
                 first_draws: Counter) -> Counter:
    """The cards of the round's start whose kind is chosen: the player's hand, the pile,
    the other seats' known kinds, and the known cards drawn before any reshuffle."""
    placed = Counter(first_draws)
    for item in segment:
        if item[0] == DEAL and item[1] == player:
            placed[item[2]] += 1
        elif item[0] == UP:
            placed[item[1]] += 1
        elif item[0] == START:
            placed += _kinds(item[1][player])
            placed += Counter(item[3])
    for seat, cards in enumerate(kinds):
        if seat != player:
            placed += +cards
    return placed


def _over(kinds: list[Counter], room: Counter, player: int, returning: Counter) -> Counter:
    """The cards of known kind the other seats would hold at the last reshuffle beyond
    ``room`` (what it left in their hands), with ``returning``: their discards less their
    pile cards since then, which go back into their hands before it. Those cards must
    have been drawn from the reshuffled stock since."""
    held = sum((cards for seat, cards in enumerate(kinds) if seat != player), Counter())
    held.update(returning)  # counts may go below zero: subtraction keeps what is over
    return held - room


def _first_draw(kinds: Counter, held: list[_Slot], reserve: Counter,
                rng: np.random.Generator) -> int | _Slot:
    """A card a seat drew before any reshuffle, taken out of its hand: one it holds beyond
    ``reserve`` (its known cards then), of a known kind or hidden, each equally likely."""
    options = [(k, n - reserve[k]) for k, n in sorted(kinds.items()) if n > reserve[k]]
    weights = np.array([w for _, w in options] + [len(held)], float)
    if not weights.sum():
        raise NoPast  # the sightings do not add up
    pick = int(rng.choice(len(weights), p=weights / weights.sum()))
    if pick == len(options):
        return held.pop(int(rng.integers(len(held))))
    kinds[options[pick][0]] -= 1
    return options[pick][0]


def _options(kinds: Counter, held: list[_Slot], reserve: Counter, budget: Counter,
             over: Counter, rng: np.random.Generator) -> list[int]:
    """The cards a seat may have drawn after a reshuffle, in the order to try them: among
    the reshuffled cards not drawn later, one it holds beyond ``reserve`` — first those the
    seats hold too many of to have held at the reshuffle (``over``), in random order
    weighted by how many it holds — then a hidden card of each kind left (coded ``-1 -
    kind``), in random order weighted by how many are left."""
    held_kinds = [(k, min(n - reserve[k], budget[k])) for k, n in sorted(kinds.items())]
    held_kinds = [(k, w) for k, w in held_kinds if w > 0]
    forced = [(k, w) for k, w in held_kinds if over[k]]
    rest = [(k, w) for k, w in held_kinds if not over[k]]
    hidden = [(-1 - k, n) for k, n in sorted(budget.items()) if n > 0] if held else []
    return [*_shuffled(forced, rng), *_shuffled(rest, rng), *_shuffled(hidden, rng)]


def _shuffled(options: list[tuple[int, int]], rng: np.random.Generator) -> list[int]:
    """``options`` (value, weight) in a random order, each next one drawn by weight."""
    if not options:
        return []
    weights = np.array([w for _, w in options], float)
    keys = rng.random(len(options)) ** (1 / weights)  # weighted order (Efraimidis–Spirakis)
    return [options[j][0] for j in np.argsort(-keys)]


def _spread(counts: Counter) -> list[int]:
    return [k for k in sorted(counts) for _ in range(counts[k])]


def _row(counts: Counter) -> tuple[int, ...]:
    return tuple(counts[k] for k in range(N_KINDS))
