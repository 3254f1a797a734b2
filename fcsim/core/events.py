"""The game's event trace: compact rows written by the njit steps, decoded into the event
dicts of ``fcsim replay --json`` (cards in RULES.md notation).

A trace is an ``int16[rows, TRACE_WIDTH]`` array; column 0 is the event code, the next
columns its values (below). A zero-row trace turns tracing off: the writers then return
at once, so untraced batch games pay one branch per event.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import IntEnum

import numpy as np
from numba import njit

from fcsim.core.arrangement import solve
from fcsim.core.cards import DECK_SIZE, N_KINDS, format_card, format_cards, wild_rank
from fcsim.core.rules import ROUND_COUNTS, RuleSet

EV_DEAL = 1  # the fields of DealRow below
EV_HAND = 2  # the fields of HandRow, then the hand's kinds
EV_TURN = 3  # the fields of Turn below
EV_RESHUFFLE = 4  # the fields of ReshuffleRow
EV_CAPPED = 5  # round
EV_SCORE = 6  # the fields of ScoreRow, then the hand's kinds
EV_END = 7  # totals…
# The other rows, by name (records, as Turn below): the code and the values write_event
# writes, in its order.
DealRow = IntEnum("DealRow", ["CODE", "ROUND", "DEALER", "UPCARD"], start=0)
HandRow = IntEnum("HandRow", ["CODE", "ROUND", "SEAT", "CARDS"], start=0)  # CARDS: n
ReshuffleRow = IntEnum("ReshuffleRow", ["CODE", "ROUND", "STOCK"], start=0)
ScoreRow = IntEnum("ScoreRow", [
    "CODE",
    "ROUND",
    "SEAT",
    "PENALTY",
    "WILD_PTS",
    "JOKER_PTS",
    "WENT_OUT",  # 1 if the seat went out
    "CARDS",  # the hand's n
], start=0)
HAND_COL = len(HandRow)  # EV_HAND: first kind
SCORE_COL = len(ScoreRow)  # EV_SCORE: first kind
# An EV_TURN row, by name (a record: see fcsim.core.records): the code and the turn as
# write_event writes them, then the turn as the decision data records it
# (fcsim.core.decisions; write_turn_details writes it, the event dicts leave it out).
Turn = IntEnum("Turn", [
    "CODE",
    "ROUND",
    "SEAT",
    "SOURCE",  # DRAW_STOCK or DRAW_PILE
    "DRAWN",
    "DISCARD",
    "OUT",  # 1 if the seat went out
    "LAST_TURN",  # 1 on a last turn (someone went out before)
    "NUMBER",  # the round's turn count after this turn (the first turn is 1)
    "STOCK",  # stock size after the draw
    "PENALTY_BEFORE",  # least penalty of the hand before the draw
    "PENALTY_AFTER",  # least penalty of the cards kept after the discard
    "WILDS",  # wild-rank cards held after the discard
    "JOKERS",  # jokers held after the discard
], start=0)
# The fields the decision data adds, under their flat names.
TURN_NUMBER = Turn.NUMBER
TURN_STOCK = Turn.STOCK
TURN_PENALTY_BEFORE = Turn.PENALTY_BEFORE
TURN_PENALTY_AFTER = Turn.PENALTY_AFTER
TURN_WILDS = Turn.WILDS
TURN_JOKERS = Turn.JOKERS
MAX_KEPT = wild_rank(max(ROUND_COUNTS))  # the largest hand a round is scored with (13)
TRACE_WIDTH = SCORE_COL + MAX_KEPT  # the widest row: a score and the hand kept


@njit(cache=True)
def write_event(trace: np.ndarray, row: int, code: int, a: int = 0, b: int = 0, c: int = 0,
                d: int = 0, e: int = 0, f: int = 0, h: int = 0) -> int:
    """Write row ``row`` (an event code and up to seven values) when tracing; the next row."""
    if trace.shape[0] == 0:
        return row
    trace[row, 0], trace[row, 1], trace[row, 2], trace[row, 3] = code, a, b, c
    trace[row, 4], trace[row, 5], trace[row, 6], trace[row, 7] = d, e, f, h
    return row + 1


@njit(cache=True)
def write_cards(trace: np.ndarray, row: int, col: int, hand: np.ndarray) -> None:
    """Append the cards of ``hand`` (``int8[56]``, kind order with repeats) to the row
    before ``row``, from column ``col``."""
    if trace.shape[0] == 0:
        return
    for kind in range(N_KINDS):
        for _ in range(hand[kind]):
            trace[row - 1, col] = kind
            col += 1


@njit(cache=True)
def write_turn_details(trace: np.ndarray, row: int, turn: int, stock: int,
                       penalty_before: int, penalty_after: int, wilds: int,
                       jokers: int) -> None:
    """Append the decision data's fields of :data:`Turn` to the EV_TURN row before ``row``
    (when tracing)."""
    if trace.shape[0] == 0:
        return
    at = trace[row - 1]
    at[Turn.NUMBER], at[Turn.STOCK] = turn, stock
    at[Turn.PENALTY_BEFORE], at[Turn.PENALTY_AFTER] = penalty_before, penalty_after
    at[Turn.WILDS], at[Turn.JOKERS] = wilds, jokers


def rows_per_game(rules: RuleSet) -> int:
    """Trace rows enough for any game under ``rules``: per round a deal, the hands, every
    turn (up to :attr:`~fcsim.core.rules.RuleSet.most_turns`: a seat may go out on the
    capped turn, and the others then play their last turns), every reshuffle (each gives
    the stock at least the cards not in hands but the pile's top), a capped mark and the
    scores; then the end."""
    restocked = DECK_SIZE - rules.players * MAX_KEPT - 1
    turns = rules.most_turns
    reshuffles = turns // restocked + 1
    per_round = 1 + rules.players + turns + reshuffles + 1 + rules.players
    return rules.rounds * per_round + 1


def rows_per_step(players: int) -> int:
    """Trace rows one decision can write, settling included: a reshuffle and the turn, a
    capped mark, the scores and the end, the next deal and its hands."""
    return 2 + 1 + players + 1 + 1 + players


def _cards(row: np.ndarray, start: int, n: int) -> list[str]:
    return format_cards(int(k) for k in row[start : start + n])


class EventDecoder:
    """Turns trace rows into event dicts, row by row (it keeps the running totals and the
    deal being collected, so a trace can be decoded in pieces as a game goes)."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.totals = [0] * rules.players
        self._deal: dict | None = None

    def decode(self, trace: np.ndarray) -> Iterator[dict]:
        """The events of ``trace``'s rows, in order."""
        for row in trace:
            event = self._decode_row(row)
            if event is not None:
                yield event

    def _decode_row(self, row: np.ndarray) -> dict | None:
        code, r = int(row[Turn.CODE]), int(row[Turn.ROUND])  # the same in every record
        if code == EV_DEAL:
            self._deal = {"event": "deal", "round": r, "dealer": int(row[DealRow.DEALER]),
                          "wild_rank": wild_rank(r), "hands": [],
                          "upcard": format_card(int(row[DealRow.UPCARD]))}
            return None
        if code == EV_HAND:
            deal = self._deal
            deal["hands"].append(_cards(row, HAND_COL, int(row[HandRow.CARDS])))
            return deal if len(deal["hands"]) == self.rules.players else None
        if code == EV_TURN:
            return {"event": "turn", "round": r, "seat": int(row[Turn.SEAT]),
                    "source": "discard" if row[Turn.SOURCE] else "stock",
                    "drawn": format_card(int(row[Turn.DRAWN])),
                    "discard": format_card(int(row[Turn.DISCARD])),
                    "out": bool(row[Turn.OUT]), "last_turn": bool(row[Turn.LAST_TURN])}
        if code == EV_RESHUFFLE:
            return {"event": "reshuffle", "round": r,
                    "stock_size": int(row[ReshuffleRow.STOCK])}
        if code == EV_CAPPED:
            return {"event": "capped", "round": r}
        if code == EV_SCORE:
            seat, penalty = int(row[ScoreRow.SEAT]), int(row[ScoreRow.PENALTY])
            hand = _cards(row, SCORE_COL, int(row[ScoreRow.CARDS]))
            self.totals[seat] += penalty
            shown = solve(hand, r, self.rules).to_json()  # the going-out hand melds whole
            return {"event": "score", "round": r, "seat": seat, "hand": hand,
                    "melds": shown["melds"], "deadwood": shown["deadwood"],
                    "penalty": penalty, "wild_pts": int(row[ScoreRow.WILD_PTS]),
                    "joker_pts": int(row[ScoreRow.JOKER_PTS]),
                    "went_out": bool(row[ScoreRow.WENT_OUT]), "total": self.totals[seat]}
        if code == EV_END:
            totals = [int(x) for x in row[1 : 1 + self.rules.players]]
            low = min(totals)
            return {"event": "end", "totals": totals,
                    "winners": [s for s, t in enumerate(totals) if t == low],
                    "places": [1 + sum(o < t for o in totals) for t in totals]}
        raise ValueError(f"unknown trace event code {code}")


def decode_events(trace: np.ndarray, rules: RuleSet) -> list[dict]:
    """Every event of a whole game's trace."""
    return list(EventDecoder(rules).decode(trace))
