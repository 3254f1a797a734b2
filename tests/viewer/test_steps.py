"""The step model against the events it is built from: cards conserved, hands, pile and
stock as the turns say, totals as the scores say, and each seat's view honest."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from fcsim.core.cards import COPIES, DECK_SIZE, N_JOKERS
from fcsim.viewer.steps import (
    PRIVATE_FIELDS,
    game_steps,
    round_totals,
    seat_view,
    sorted_cards,
    wild_cards,
)

from .conftest import replay


def test_one_step_per_event_with_unique_anchors(events: list[dict]) -> None:
    steps = game_steps(events)
    assert [s["event"] for s in steps] == [e["event"] for e in events]
    ids = [s["id"] for s in steps]
    assert len(set(ids)) == len(ids)
    pattern = re.compile(r"round-\d+-(deal|turn-\d+(-reshuffle)?|capped|score-\d)|end")
    assert all(pattern.fullmatch(i) for i in ids)
    turns: Counter[int] = Counter()
    for event, step in zip(events, steps, strict=True):
        if event["event"] == "turn":
            turns[event["round"]] += 1
            assert step["id"] == f"round-{event['round']}-turn-{turns[event['round']]}"
            assert step["turn"] == turns[event["round"]] and step["seat"] == event["seat"]
        elif event["event"] == "reshuffle":  # the stock ran out at the next turn's draw
            next_turn = turns[event["round"]] + 1
            assert step["id"] == f"round-{event['round']}-turn-{next_turn}-reshuffle"


def test_cards_are_conserved(events: list[dict]) -> None:
    for step in game_steps(events):
        assert step["sizes"] == [len(hand) for hand in step["hands"]]
        assert sum(step["sizes"]) + len(step["pile"]) + step["stock"] == DECK_SIZE, step["id"]
        seen = Counter(step["pile"])
        for hand in step["hands"]:
            seen.update(hand)
        assert seen["JK"] <= N_JOKERS
        assert all(n <= COPIES for card, n in seen.items() if card != "JK"), step["id"]


def test_hands_are_the_deal_plus_draws_minus_discards(events: list[dict]) -> None:
    hands: list[Counter[str]] = []
    for event, step in zip(events, game_steps(events), strict=True):
        if event["event"] == "deal":
            hands = [Counter(hand) for hand in event["hands"]]
        elif event["event"] == "turn":
            hands[event["seat"]][event["drawn"]] += 1
            hands[event["seat"]][event["discard"]] -= 1
        elif event["event"] == "score":  # the engine's own record of the hand kept
            assert sorted_cards(event["hand"]) == step["hands"][event["seat"]]
        assert step["hands"] == [sorted_cards(+hand) for hand in hands], step["id"]
        assert all(hand == sorted_cards(hand) for hand in step["hands"])


def test_pile_and_stock_follow_the_turns(events: list[dict]) -> None:
    steps = game_steps(events)
    for before, event, step in zip(steps, events[1:], steps[1:], strict=False):
        if event["event"] == "deal":
            assert step["pile"] == [event["upcard"]]
            assert step["stock"] == DECK_SIZE - len(event["hands"]) * len(event["hands"][0]) - 1
        elif event["event"] == "turn":
            assert step["pile"][-1] == event["discard"]
            if event["source"] == "discard":
                assert before["pile"][-1] == event["drawn"]
                assert step["pile"] == [*before["pile"][:-1], event["discard"]]
                assert step["stock"] == before["stock"]
            else:
                assert step["pile"] == [*before["pile"], event["discard"]]
                assert step["stock"] == before["stock"] - 1
        elif event["event"] == "reshuffle":
            assert before["stock"] == 0
            assert step["pile"] == before["pile"][-1:]
            assert step["stock"] == event["stock_size"] == len(before["pile"]) - 1
        else:
            assert (step["pile"], step["stock"]) == (before["pile"], before["stock"])


def test_totals_match_the_score_events(events: list[dict]) -> None:
    steps = game_steps(events)
    running = list(steps[0]["totals"])
    per_round: dict[int, list[int]] = {}
    for event, step in zip(events, steps, strict=True):
        if event["event"] == "score":
            running[event["seat"]] += event["penalty"]
            assert running[event["seat"]] == event["total"]
            per_round[event["round"]] = list(running)
            shown = step["shown"][event["seat"]]
            assert shown["melds"] == event["melds"] and shown["penalty"] == event["penalty"]
        if event["event"] != "end":  # the end has the game's totals (also after one round)
            assert step["totals"] == running, step["id"]
    assert steps[-1]["event"] == "end" and steps[-1]["totals"] == events[-1]["totals"]
    chart = round_totals(steps)
    assert chart["rounds"] == sorted(per_round)
    assert chart["totals"] == [steps[0]["totals"], *[per_round[r] for r in chart["rounds"]]]


def _taken_from_pile(events: list[dict], upto: int, seat: int) -> Counter[str]:
    """Cards ``seat`` took from the discard pile in the round of event ``upto``, up to it."""
    start = max(i for i in range(upto + 1) if events[i]["event"] == "deal")
    return Counter(e["drawn"] for e in events[start:upto + 1]
                   if e["event"] == "turn" and e["seat"] == seat and e["source"] == "discard")


def test_a_seat_sees_only_its_hand_and_what_was_shown(events: list[dict]) -> None:
    steps = game_steps(events)
    players = len(steps[0]["hands"])
    for i, step in enumerate(steps):
        views = [seat_view(step, seat) for seat in range(players)]
        public = [{k: v for k, v in view.items() if k not in ("hand", "drawn")} for view in views]
        assert all(p == public[0] for p in public)  # the same, whoever looks
        assert not set(PRIVATE_FIELDS) & set(public[0])
        for seat, view in enumerate(views):
            assert view["hand"] == step["hands"][seat]
            assert view["drawn"] == (step["drawn"] if step["seat"] == seat else None)
        if step["event"] == "turn":
            taken = step["action"]["source"] == "discard"
            assert step["action"]["drawn"] == (step["drawn"] if taken else None)
        for seat in range(players):
            known = Counter(step["known"][seat])
            assert not known - Counter(step["hands"][seat]), step["id"]  # still held
            assert not known - _taken_from_pile(events, i, seat), step["id"]  # seen taken


def test_a_card_taken_then_thrown_is_no_longer_known() -> None:
    events = [
        {"event": "deal", "round": 1, "dealer": 0, "wild_rank": 3,
         "hands": [["4S", "5S", "6S"], ["7H", "8H", "9H"]], "upcard": "KD"},
        {"event": "turn", "round": 1, "seat": 1, "source": "discard", "drawn": "KD",
         "discard": "7H", "out": False, "last_turn": False},
        {"event": "turn", "round": 1, "seat": 0, "source": "stock", "drawn": "QC",
         "discard": "QC", "out": False, "last_turn": False},
        {"event": "turn", "round": 1, "seat": 1, "source": "stock", "drawn": "3X",
         "discard": "KD", "out": False, "last_turn": False},
    ]
    steps = game_steps(events)
    assert [s["known"][1] for s in steps] == [[], ["KD"], ["KD"], []]
    assert seat_view(steps[2], 1)["drawn"] is None and seat_view(steps[2], 0)["drawn"] == "QC"
    assert steps[2]["action"]["drawn"] is None and steps[1]["action"]["drawn"] == "KD"
    assert [s["stock"] for s in steps] == [109, 109, 108, 107]


def test_a_card_thrown_then_taken_back_is_known() -> None:
    """Seat 0 throws the 7H it was dealt (nothing known to forget), then takes it back from
    the pile: from then on every seat knows it holds the 7H."""
    events = [
        {"event": "deal", "round": 1, "dealer": 1, "wild_rank": 3,
         "hands": [["7H", "8H", "9H"], ["4S", "5S", "6S"]], "upcard": "KD"},
        {"event": "turn", "round": 1, "seat": 0, "source": "stock", "drawn": "QC",
         "discard": "7H", "out": False, "last_turn": False},
        {"event": "turn", "round": 1, "seat": 1, "source": "discard", "drawn": "7H",
         "discard": "7H", "out": False, "last_turn": False},
        {"event": "turn", "round": 1, "seat": 0, "source": "discard", "drawn": "7H",
         "discard": "QC", "out": False, "last_turn": False},
    ]
    steps = game_steps(events)
    assert [s["known"] for s in steps] == [[[], []], [[], []], [[], []], [["7H"], []]]


@pytest.mark.parametrize("bad, message", [
    ({"source": "discard", "drawn": "QC"}, "takes QC from the pile, whose top is KD"),
    ({"discard": "JK"}, "discards JK, which it does not hold"),
])
def test_events_that_contradict_the_table_are_refused(bad: dict, message: str) -> None:
    turn = {"event": "turn", "round": 1, "seat": 1, "source": "stock", "drawn": "3X",
            "discard": "7H", "out": False, "last_turn": False} | bad
    deal = {"event": "deal", "round": 1, "dealer": 0, "wild_rank": 3,
            "hands": [["4S", "5S", "6S"], ["7H", "8H", "9H"]], "upcard": "KD"}
    with pytest.raises(ValueError, match=message):
        game_steps([deal, turn])
    with pytest.raises(ValueError, match="no deal"):
        game_steps([turn])


def test_one_round_starts_from_the_totals_before_it() -> None:
    whole, alone = game_steps(replay("readme")), game_steps(replay("one-round"))
    by_id = {s["id"]: s for s in whole}
    assert alone[0]["id"] == "round-4-deal" and alone[-2]["id"] == "round-4-score-3"
    for step in alone[:-1]:
        assert step == by_id[step["id"]]
    assert alone[-1]["totals"] == whole[-1]["totals"]


def test_wild_cards_of_a_round() -> None:
    assert wild_cards(5) == ["5S", "5H", "5D", "5C", "5X", "JK"]
    assert wild_cards(10)[0] == "10S" and wild_cards(13)[-2] == "KX"


def test_the_tables_cover_reshuffles_and_the_turn_cap() -> None:
    assert Counter(e["event"] for e in replay("reshuffle"))["reshuffle"] >= 1
    assert Counter(e["event"] for e in replay("capped"))["capped"] >= 3
