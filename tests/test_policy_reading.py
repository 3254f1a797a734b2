"""``scripts/policy_reading.py``: the probe replays each turn as the table's strategy
played it (the real hand always could have made its last turns, or the probe stops), and
a hand with which the strategy would have thrown another card is ruled out."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import fcsim
from fcsim.core.cards import N_KINDS, parse_card
from fcsim.core.state import DRAW_STOCK

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

from policy_reading import Policy, Turn, likelihood, read_games


def test_a_few_turns_read_with_every_real_hand_consistent() -> None:
    read = read_games("aware", 4, 1, 320, 8, 4, 3)
    assert read.views > 5 and read.cards > 0
    assert 0 < read.uniform / read.cards < 1 and 0 < read.weighted / read.cards < 1
    assert 0 < read.alive / read.views <= 1


def test_a_hand_that_would_have_thrown_another_card_is_ruled_out() -> None:
    """Round 1 (3s wild): from 5H 5S 5C KD aware throws KD and goes out, so no hand of
    5S 5C KD is one it kept after throwing 5H, whatever it drew."""
    game = fcsim.Game(players=2, seed=1, game=0)
    drawing = game.view()
    game.step("stock")
    discarding = game.view()
    arrays = {view.phase: (view.hand_counts.copy(), view.pile_kinds.copy(),
                           view.known_counts.copy(), view.info.copy())
              for view in (drawing, discarding)}
    before = np.zeros(N_KINDS, np.int8)
    for card in ("5H", "5S", "5C", "KD"):
        before[parse_card(card)] += 1
    policy = Policy("aware")
    assert policy.discards(before.copy(), arrays["discard"]) == parse_card("KD")
    kept = before.copy()
    kept[parse_card("5H")] -= 1
    held = np.zeros(N_KINDS, np.int8)
    rng = np.random.default_rng(0)
    turn = Turn(arrays["draw"], DRAW_STOCK, arrays["discard"], parse_card("5H"), held,
                parse_card("KD"))
    assert likelihood(policy, kept, [turn], rng) == 0.0
    kept = before.copy()
    kept[parse_card("KD")] -= 1
    thrown_king = Turn(arrays["draw"], DRAW_STOCK, arrays["discard"], parse_card("KD"), held,
                       parse_card("KD"))
    assert likelihood(policy, kept, [thrown_king], rng) > 0.0
