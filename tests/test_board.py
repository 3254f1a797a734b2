"""Boards and event lines for people: hands sorted for reading, nothing hidden shown."""

from __future__ import annotations

import fcsim
from fcsim.board import board, event_line, hand_text, split_wilds


def test_hands_read_by_rank_then_suit_with_wilds_last() -> None:
    cards = ["JK", "9C", "5H", "KX", "5S", "7D", "10H", "7S"]
    assert split_wilds(cards, 7) == (["5S", "5H", "9C", "10H", "KX"], ["7S", "7D", "JK"])
    assert hand_text(cards, 7) == "5S 5H 9C 10H KX  wild: 7S 7D JK"
    assert hand_text(["JK"], 3) == "wild: JK" and hand_text([], 3) == "-"


def test_board_shows_the_seats_view() -> None:
    game = fcsim.Game(players=3, seed=2)
    view = game.view()
    text = board(view, ["p0", "p1", "p2"], rounds=11)
    assert text.splitlines()[0] == "Round 1 of 11: 3 cards, 3s wild; dealer p0; turn 1"
    assert f"pile top {view.pile_top}, 1 card\n" in text
    assert f"Hand of p1: {hand_text(view.hand, 3)}" in text
    assert "  p2     0 points   3 cards" in text


def test_another_seats_stock_draw_stays_face_down() -> None:
    turn = {"event": "turn", "round": 1, "seat": 2, "source": "stock", "drawn": "9H",
            "discard": "4C", "out": False, "last_turn": True}
    names = ["you", "p1", "p2"]
    assert event_line(turn, names, 0) == "  p2 draws from the stock, discards 4C (last turn)"
    assert event_line(turn, names, 2) == "  you draw 9H from the stock, discard 4C (last turn)"
    taken = dict(turn, source="discard", out=True, last_turn=False)
    assert event_line(taken, names, 0) == "  p2 takes 9H from the pile, discards 4C and goes out!"
    assert event_line(taken, names, 2) == "  you take 9H from the pile, discard 4C and go out!"
    laid_down = dict(taken, last_turn=True)  # every card melded, but another seat went out
    assert event_line(laid_down, names, 0) == (
        "  p2 takes 9H from the pile, discards 4C and melds every card (last turn)")
    assert event_line(laid_down, names, 2) == (
        "  you take 9H from the pile, discard 4C and meld every card (last turn)")
    deal = {"event": "deal", "round": 2, "dealer": 1, "wild_rank": 4,
            "hands": [["3S"] * 4] * 3, "upcard": "KX"}
    assert event_line(deal, names, 0) == ("\n== Round 2: 4 cards, 4s wild; dealer p1; "
                                          "upcard KX")
