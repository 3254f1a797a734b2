"""The viewer's step model: the table after each event of a replayed game.

:func:`game_steps` folds the events of :func:`fcsim.replay.game_events` (the dicts
``fcsim replay --json`` prints) into one *step* per event: every hand, the discard pile,
the stock count, the cards each seat is known to hold and the running totals. The HTML
viewer embeds these steps as JSON and only draws them, so the game is followed here, once.

A step is a JSON-ready dict. Its fields are public (what every player at the table saw)
except those in :data:`PRIVATE_FIELDS`: ``hands`` (each seat sees only its own) and
``drawn`` (the card drawn, seen by the drawing seat; a card taken from the pile is also
public, as ``action["drawn"]``). :func:`seat_view` is the step as one seat saw it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from fcsim.core.cards import DECK_SIZE, SUITS, format_card, kind_of, parse_card

PRIVATE_FIELDS = ("hands", "drawn")
SCORE_FIELDS = ("melds", "deadwood", "penalty", "wild_pts", "joker_pts", "went_out")
JOKER_TOKEN = "JK"

Step = dict[str, Any]


def sorted_cards(cards: Counter[str] | Sequence[str]) -> list[str]:
    """Cards in display order: by suit then rank (the kind order), jokers last."""
    items = cards.elements() if isinstance(cards, Counter) else cards
    return sorted(items, key=parse_card)


def wild_cards(wild_rank: int) -> list[str]:
    """Every card that is wild in a round whose wild rank is ``wild_rank``."""
    return [format_card(kind_of(wild_rank, suit)) for suit in range(len(SUITS))] + [JOKER_TOKEN]


def step_id(event: dict, turn: int) -> str:
    """The anchor of the step after ``event``, ``turn`` turns into its round.

    ``round-R-deal``, ``round-R-turn-T`` (T counts from 1), ``round-R-turn-T-reshuffle``
    (before turn T's draw), ``round-R-capped``, ``round-R-score-S`` (seat S), ``end``.
    """
    kind = event["event"]
    prefix = f"round-{event.get('round')}"
    return {
        "deal": f"{prefix}-deal",
        "turn": f"{prefix}-turn-{turn}",
        "reshuffle": f"{prefix}-turn-{turn + 1}-reshuffle",
        "capped": f"{prefix}-capped",
        "score": f"{prefix}-score-{event.get('seat')}",
        "end": "end",
    }[kind]


def _starting_totals(events: Sequence[dict], players: int) -> list[int]:
    """Totals before the first event given: 0, or, for the events of a later round alone,
    each seat's first score total minus that round's points."""
    totals: list[int | None] = [None] * players
    for event in events:
        if event["event"] == "score" and totals[event["seat"]] is None:
            totals[event["seat"]] = event["total"] - event["penalty"]
    return [t or 0 for t in totals]


class _Table:
    """The cards of the round being played, changed event by event."""

    def __init__(self, events: Sequence[dict]) -> None:
        deal = next((e for e in events if e["event"] == "deal"), None)
        if deal is None:
            raise ValueError("the events hold no deal: nothing to show")
        self.players = len(deal["hands"])
        self.totals = _starting_totals(events, self.players)
        self._round_start(deal)

    def _round_start(self, deal: dict) -> None:
        self.round, self.wild_rank, self.dealer = deal["round"], deal["wild_rank"], deal["dealer"]
        self.hands = [Counter(hand) for hand in deal["hands"]]
        self.known: list[Counter[str]] = [Counter() for _ in range(self.players)]
        self.pile = [deal["upcard"]]
        self.stock = DECK_SIZE - sum(len(h) for h in deal["hands"]) - len(self.pile)
        self.turn = 0
        self.shown: list[dict | None] = [None] * self.players

    def apply(self, event: dict) -> tuple[int | None, dict, str | None]:
        """Play ``event`` on the table; the acting seat, the public action, the drawn card."""
        kind = event["event"]
        if kind == "deal":
            self._round_start(event)
            return None, {"upcard": event["upcard"]}, None
        if kind == "turn":
            return self._turn(event)
        if kind == "reshuffle":
            self.stock = event["stock_size"]
            self.pile = self.pile[-1:]
            return None, {"stock_size": event["stock_size"]}, None
        if kind == "score":
            seat = event["seat"]
            self.totals[seat] = event["total"]
            self.shown[seat] = {name: event[name] for name in SCORE_FIELDS}
            return seat, {name: event[name] for name in (*SCORE_FIELDS, "total")}, None
        if kind == "end":
            self.totals = list(event["totals"])
            return None, {name: event[name] for name in ("totals", "winners", "places")}, None
        return None, {}, None  # capped: the round stops here, scores follow

    def _turn(self, event: dict) -> tuple[int, dict, str]:
        seat, drawn, discard = event["seat"], event["drawn"], event["discard"]
        hand = self.hands[seat]
        if event["source"] == "discard":
            if not self.pile or self.pile[-1] != drawn:
                raise ValueError(f"round {self.round}: seat {seat} takes {drawn} from the pile, "
                                 f"whose top is {self.pile[-1] if self.pile else 'nothing'}")
            self.pile.pop()
            self.known[seat][drawn] += 1
        else:
            self.stock -= 1
        hand[drawn] += 1
        if hand[discard] <= 0:
            raise ValueError(f"round {self.round}: seat {seat} discards {discard}, "
                             f"which it does not hold")
        hand[discard] -= 1
        if self.known[seat][discard] > 0:
            self.known[seat][discard] -= 1
        self.pile.append(discard)
        self.turn += 1
        public = {name: event[name] for name in ("source", "discard", "out", "last_turn")}
        public["drawn"] = drawn if event["source"] == "discard" else None
        return seat, public, drawn

    def snapshot(self, event: dict, seat: int | None, action: dict,
                 drawn: str | None) -> Step:
        return {
            "id": step_id(event, self.turn),
            "event": event["event"],
            "round": self.round,
            "turn": self.turn,
            "seat": seat,
            "wild_rank": self.wild_rank,
            "dealer": self.dealer,
            "action": action,
            "pile": list(self.pile),
            "stock": self.stock,
            "sizes": [sum(hand.values()) for hand in self.hands],
            "known": [sorted_cards(+known) for known in self.known],
            "shown": list(self.shown),
            "totals": list(self.totals),
            "hands": [sorted_cards(+hand) for hand in self.hands],
            "drawn": drawn,
        }


def game_steps(events: Sequence[dict]) -> list[Step]:
    """One step per event: the table as it is after that event (see the module docstring).

    ``events`` are those of :func:`fcsim.replay.game_events`, of a whole game or of one
    round (with the game's end). Events that contradict the table (a card taken from the
    pile that is not its top, a discard not held) raise ``ValueError``.
    """
    table = _Table(events)
    steps = []
    for event in events:
        seat, action, drawn = table.apply(event)
        steps.append(table.snapshot(event, seat, action, drawn))
    return steps


def seat_view(step: Step, seat: int) -> Step:
    """The step as ``seat`` saw it: the public fields, its own hand as ``hand``, and the card
    it drew as ``drawn`` when it was the seat drawing."""
    view = {name: value for name, value in step.items() if name not in PRIVATE_FIELDS}
    view["hand"] = step["hands"][seat]
    view["drawn"] = step["drawn"] if step["seat"] == seat else None
    return view


def round_totals(steps: Sequence[Step]) -> dict[str, list]:
    """The running totals for the chart: ``rounds`` [r…] and ``totals`` [[per seat]…] after
    each round's scores, starting with the totals before the first round shown."""
    rounds: list[int] = []
    totals: list[list[int]] = [steps[0]["totals"]] if steps else []
    for step in steps:
        if step["event"] == "score":
            if not rounds or rounds[-1] != step["round"]:
                rounds.append(step["round"])
                totals.append(step["totals"])
            totals[-1] = step["totals"]
    return {"rounds": rounds, "totals": totals}
