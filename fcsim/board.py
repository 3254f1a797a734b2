"""The table as a seat sees it, as text for people: ``fcsim play`` shows it to the person
playing, the environments' ``render_mode="ansi"`` to whoever watches.

Honest like a view: a board shows only what the seat's :class:`~fcsim.core.view.View`
holds, and :func:`event_line` only what every player saw happen — another seat's draw
from the stock stays face down, a deal shows no hand. At the end of a round every hand
is laid down, so the ``score`` events show them all.

Hands are shown for people, not in kind order: the natural cards by rank, then suit (so
books sit side by side and a run is read along the ranks), then the wilds — the wild
rank and the jokers — after a ``wild:`` mark.
"""

from __future__ import annotations

from collections.abc import Sequence

from fcsim.core.cards import JOKER, format_card, parse_card, rank_name, rank_of, suit_of
from fcsim.core.view import View


def split_wilds(cards: Sequence[str], wild_rank: int) -> tuple[list[str], list[str]]:
    """The naturals by rank then suit, and the wilds (wild rank by suit, jokers last)."""
    kinds = [parse_card(c) for c in cards]
    wild = sorted(k for k in kinds if k == JOKER or rank_of(k) == wild_rank)
    natural = sorted((k for k in kinds if k != JOKER and rank_of(k) != wild_rank),
                     key=lambda k: (rank_of(k), suit_of(k)))
    return [format_card(k) for k in natural], [format_card(k) for k in wild]


def hand_text(cards: Sequence[str], wild_rank: int) -> str:
    """``3S 5H 5D 9C  wild: 7H JK`` (``-`` for no card)."""
    natural, wild = split_wilds(cards, wild_rank)
    text = " ".join(natural)
    if wild:
        text += ("  " if text else "") + "wild: " + " ".join(wild)
    return text or "-"


def board(view: View, names: Sequence[str], rounds: int | None = None,
          hand_label: str | None = None) -> str:
    """What ``view``'s seat sees: round and wilds, stock and pile, every seat's score,
    hand size and known cards, and the seat's own hand. ``names[seat]`` names each seat
    (``"you"``…); ``rounds`` adds "of 11" to the round; ``hand_label`` heads the hand
    (default "Hand of <name>")."""
    of = f" of {rounds}" if rounds else ""
    pile = f"top {view.pile_top}, {_cards(len(view.pile))}" if view.pile else "empty"
    lines = [f"Round {view.round}{of}: {view.wild_rank} cards, {rank_name(view.wild_rank)}s "
             f"wild; dealer {names[view.dealer]}; turn {view.turn + 1}",
             f"Stock {_cards(view.stock_size)}; pile {pile}"]
    width = max(len(n) for n in names)
    for seat, (name, total, size, known) in enumerate(zip(names, view.scores, view.hand_sizes,
                                                          view.known, strict=True)):
        seen = f"   known: {' '.join(known)}" if known else ""
        mark = "  (went out)" if seat == view.out_seat else ""
        lines.append(f"  {name:<{width}} {total:>5} points  {size:>2} cards{seen}{mark}")
    if view.last_turn:
        lines.append(f"Last turn: {names[view.out_seat]} went out.")
    label = hand_label or f"Hand of {names[view.seat]}"
    lines.append(f"{label}: {hand_text(view.hand, view.wild_rank)}")
    return "\n".join(lines)


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def event_line(event: dict, names: Sequence[str], seat: int) -> str | None:
    """An event as ``seat`` saw it happen (None for an event it did not see)."""
    kind = event["event"]
    if kind == "deal":
        r, wild = event["round"], event["wild_rank"]
        return (f"\n== Round {r}: {wild} cards, {rank_name(wild)}s wild; dealer "
                f"{names[event['dealer']]}; upcard {event['upcard']}")
    if kind == "turn":
        own = event["seat"] == seat  # the seat's own turns are told in the second person
        s = "" if own else "s"
        if event["source"] == "discard":
            draw = f"take{s} {event['drawn']} from the pile"
        elif own:
            draw = f"draw {event['drawn']} from the stock"
        else:
            draw = "draws from the stock"
        ending = (f" and meld{'' if own else 's'} every card (last turn)"
                  if event["out"] and event["last_turn"] else
                  f" and go{'' if own else 'es'} out!" if event["out"] else
                  " (last turn)" if event["last_turn"] else "")
        who = "you" if own else names[event["seat"]]
        return f"  {who} {draw}, discard{s} {event['discard']}{ending}"
    if kind == "reshuffle":
        return f"  (the stock is empty: the pile is shuffled into {event['stock_size']} cards)"
    if kind == "capped":
        return f"  (turn cap reached: round {event['round']} stops here)"
    if kind == "score":
        melds = "  ".join(" ".join(m) for m in event["melds"]) or "-"
        left = " ".join(event["deadwood"]) or "-"
        out = "went out; " if event["went_out"] else ""
        return (f"  {names[event['seat']]}: {event['penalty']} points ({out}melds {melds} | "
                f"left {left}); total {event['total']}")
    if kind == "end":
        winners = " and ".join(names[s] for s in event["winners"])
        totals = ", ".join(f"{names[s]} {t}" for s, t in enumerate(event["totals"]))
        return f"\n== Game over. Totals: {totals}. Winner: {winners}."
    return None
