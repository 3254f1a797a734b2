"""Tests of the pure-Python reference engine itself, so the numba engine can be checked
against it: table invariants, the shape of a game, and a replay of every event from the
events alone (its RNG is held to fcsim.core.rng in tests/core/test_rng.py)."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import numpy as np
import pytest

from fcsim import RuleSet, best_discard, min_penalty
from fcsim.core.cards import (
    DECK_SIZE,
    format_card,
    format_cards,
    full_deck,
    parse_card,
    parse_cards,
)

from . import rng as ref
from .engine import (
    Table,
    compare_fields,
    first_difference,
    make_strategy,
    places_of,
    play_game,
    play_run,
    score_split,
    winners_of,
)


def _events(events: list[dict], kind: str, round_number: int | None = None) -> list[dict]:
    """Events of one type (and round)."""
    return [e for e in events if e["event"] == kind
            and (round_number is None or e.get("round") == round_number)]


# ---------------------------------------------------------------------------------------
# Invariants on the table, checked at every stage of every turn.


def _check_table(stage: str, table: Table) -> None:
    everything = [c for hand in table.hands for c in hand] + table.stock + table.pile
    assert Counter(everything) == Counter(int(k) for k in full_deck())
    assert table.pile or stage == "draw", "the pile is empty only after its one card is taken"
    sizes = sorted(len(h) for h in table.hands)
    if stage == "draw":  # the player on turn holds n + 1
        assert sizes == [table.n] * (table.players - 1) + [table.n + 1]
    else:
        assert sizes == [table.n] * table.players
    for hand, known in zip(table.hands, table.known, strict=True):
        assert not known - Counter(hand), "known cards are in the hand"


@pytest.mark.parametrize(("players", "strategies", "turn_cap"), [
    (4, ["random"] * 4, 2000),
    (2, ["greedy", "random"], 2000),
    (7, ["greedy", "greedy:take_margin=3"] * 3 + ["random"], 300),
])
def test_invariants_every_turn(players: int, strategies: list[str], turn_cap: int) -> None:
    for seed in (3, 5):
        rules = RuleSet(players=players, turn_cap=turn_cap)
        events = play_game(seed, rules, strategies, observer=_check_table)
        assert events == play_game(seed, rules, strategies), "deterministic"


# ---------------------------------------------------------------------------------------
# The shape of a game.


def _check_order(events: list[dict], rules: RuleSet) -> None:
    """Dealer rotation, first player, clockwise play, one last turn each, scores."""
    players = rules.players
    deals = _events(events, "deal")
    assert [d["round"] for d in deals] == list(range(1, rules.rounds + 1))
    for deal in deals:
        r = deal["round"]
        assert deal["dealer"] == (r - 1) % players
        assert deal["wild_rank"] == r + 2
        assert [len(h) for h in deal["hands"]] == [r + 2] * players
        turns = _events(events, "turn", r)
        assert turns[0]["seat"] == (deal["dealer"] + 1) % players
        for before, after in pairwise(turns):
            assert after["seat"] == (before["seat"] + 1) % players
        firsts = [i for i, t in enumerate(turns) if t["out"] and not t["last_turn"]]
        capped = _events(events, "capped", r)
        if capped:
            assert not firsts and len(turns) == rules.turn_cap
        else:
            assert len(firsts) == 1 and firsts[0] < rules.turn_cap
            tail = turns[firsts[0] + 1:]
            assert len(tail) == players - 1 and all(t["last_turn"] for t in tail)
            assert not any(t["last_turn"] for t in turns[:firsts[0] + 1])
        scores = _events(events, "score", r)
        assert [s["seat"] for s in scores] == list(range(players))
        went_out = [s["seat"] for s in scores if s["went_out"]]
        assert went_out == ([] if capped else [turns[firsts[0]]["seat"]])
    end = events[-1]
    totals = [sum(s["penalty"] for s in _events(events, "score") if s["seat"] == p)
              for p in range(players)]
    assert end == {"event": "end", "totals": totals, "winners": winners_of(totals),
                   "places": places_of(totals)}


def test_dealer_rotation_first_player_and_last_turns() -> None:
    for players, strategies in ((3, ["greedy"] * 3), (5, ["random"] * 5)):
        rules = RuleSet(players=players, turn_cap=200)
        _check_order(play_game(11, rules, strategies), rules)


def test_deal_depends_only_on_seed_and_round() -> None:
    rules = RuleSet(players=3)
    a = play_game(8, rules, ["random"] * 3)
    b = play_game(8, rules, ["greedy", "greedy:take_margin=4", "greedy"])
    assert _events(a, "deal") == _events(b, "deal")
    assert _events(a, "turn") != _events(b, "turn")
    assert _events(play_game(9, rules, ["random"] * 3), "deal") != _events(a, "deal")


def test_short_game_has_six_rounds() -> None:
    rules = RuleSet(players=4, rounds=6)
    events = play_game(4, rules, ["greedy"] * 4)
    assert [d["wild_rank"] for d in _events(events, "deal")] == [3, 4, 5, 6, 7, 8]
    assert len(_events(events, "score")) == 6 * 4
    _check_order(events, rules)


def test_turn_cap_flags_and_scores_the_round() -> None:
    rules = RuleSet(players=4, turn_cap=10)
    events = play_game(2, rules, ["random"] * 4)
    _check_order(events, rules)
    capped = [e["round"] for e in _events(events, "capped")]
    assert capped and max(capped) >= 9
    for r in capped:
        i = events.index({"event": "capped", "round": r})
        assert [e["event"] for e in events[i - 1:i + 5]] == ["turn", "capped"] + ["score"] * 4
        assert all(not s["went_out"] for s in _events(events, "score", r))


def test_ties_share_the_win() -> None:
    assert winners_of([5, 3, 3, 9]) == [1, 2]
    assert places_of([5, 3, 3, 9]) == [3, 1, 1, 4]
    rules = RuleSet(players=7, rounds=6, turn_cap=10)
    for seed in range(300):
        end = play_game(seed, rules, ["random"] * 7)[-1]
        if len(end["winners"]) > 1:
            break
    else:
        pytest.fail("no tied game in 300 seeds")
    low = min(end["totals"])
    assert end["winners"] == [p for p, t in enumerate(end["totals"]) if t == low]
    assert all(end["places"][p] == 1 for p in end["winners"])


def test_go_out_bonus_is_applied() -> None:
    plain = play_game(6, RuleSet(players=3, rounds=6), ["greedy"] * 3)
    bonus = play_game(6, RuleSet(players=3, rounds=6, go_out_bonus=-10), ["greedy"] * 3)
    assert _events(plain, "turn") == _events(bonus, "turn"), "the bonus changes no move"
    for a, b in zip(_events(plain, "score"), _events(bonus, "score"), strict=True):
        assert a["went_out"] == b["went_out"]
        if a["went_out"]:
            assert (a["penalty"], b["penalty"]) == (0, -10)
        else:
            assert a == b
    assert sum(s["went_out"] for s in _events(bonus, "score")) == 6


def test_reshuffle_keeps_the_top_card() -> None:
    rules = RuleSet(players=4)
    seen: list[tuple[list[int], list[int]]] = []  # (pile before, pile and stock after)
    piles: list[list[int]] = []

    def observe(stage: str, table: Table) -> None:
        _check_table(stage, table)
        if stage == "draw" and table.events[-1]["event"] == "reshuffle":
            drawn = table.hands[table.seat][-1]
            seen.append((piles[-1], [*table.pile, *table.stock, drawn]))
        piles.append(list(table.pile))

    for seed in range(30):
        events = play_game(seed, rules, ["random"] * 4, observer=observe)
        if seen:
            break
    assert seen, "no reshuffle in 30 random games"
    before, after = seen[0]
    assert after[0] == before[-1], "the top card stays as the whole pile"
    assert Counter(after[1:]) == Counter(before[:-1]), "the rest becomes the stock"
    reshuffle = _events(events, "reshuffle")[0]
    i = events.index(reshuffle)
    n = reshuffle["round"] + 2
    assert reshuffle["stock_size"] == DECK_SIZE - 4 * n - 1
    assert events[i + 1]["event"] == "turn" and events[i + 1]["source"] == "stock"


# ---------------------------------------------------------------------------------------
# Replay: every event follows from the deal, the RNG streams and the policies.


def _replay(seed: int, rules: RuleSet, strategies: list[str], events: list[dict]) -> None:
    """Re-derive each event from the previous ones, the RNG streams and the policies."""
    players = rules.players
    play = ref.Xoshiro256(ref.stream_seed(seed, 0))  # reshuffles
    choices = [ref.seat_stream(seed, p) for p in range(players)]  # each seat's own
    it = iter(events)
    for r in range(1, rules.rounds + 1):
        n = r + 2
        deck = [int(k) for k in full_deck()]
        ref.Xoshiro256(ref.stream_seed(seed, r)).shuffle(deck)
        dealer = (r - 1) % players
        top_first = deck[::-1]
        hands = [sorted(top_first[i] for i in range(n * players)
                        if i % players == (p - dealer - 1) % players) for p in range(players)]
        stock, pile = deck[:DECK_SIZE - n * players - 1], [top_first[n * players]]
        deal = next(it)
        assert deal["hands"] == [format_cards(h) for h in hands]
        assert parse_card(deal["upcard"]) == pile[0]

        event = next(it)
        while event["event"] in ("turn", "reshuffle"):
            reshuffled = event["event"] == "reshuffle"
            if reshuffled:
                assert event["stock_size"] == len(pile) - 1
                event = next(it)
            seat = event["seat"]
            spec, hand = strategies[seat], hands[seat]
            # Draw: the policy decides, then (stock empty) the pile under its top is shuffled.
            if spec == "random":
                assert ("stock", "discard")[choices[seat].randbelow(2)] == event["source"]
            else:
                margin = make_strategy(spec).params["take_margin"]
                take = best_discard([*hand, pile[-1]], r, rules)[1] < (
                    min_penalty(hand, r, rules) - margin)
                assert event["source"] == ("discard" if take else "stock")
            assert reshuffled == (event["source"] == "stock" and not stock)
            if reshuffled:
                stock, pile = pile[:-1], pile[-1:]
                play.shuffle(stock)
            drawn = (pile if event["source"] == "discard" else stock).pop()
            assert parse_card(event["drawn"]) == drawn
            hand = sorted([*hand, drawn])
            # Discard: automatic when it goes out, else the policy's.
            card, pen = best_discard(hand, r, rules)
            assert event["out"] == (pen == 0)
            if pen != 0 and spec == "random":
                card = format_card(hand[choices[seat].randbelow(n + 1)])
            assert event["discard"] == card
            hand.remove(parse_card(card))
            pile.append(parse_card(card))
            hands[seat] = hand
            event = next(it)

        if event["event"] == "capped":
            event = next(it)
        for p in range(players):
            assert event["event"] == "score" and event["seat"] == p
            if event["went_out"]:
                assert event["penalty"] == rules.go_out_bonus
            else:
                assert (event["penalty"], event["wild_pts"], event["joker_pts"]) == (
                    score_split(hands[p], r, rules))
                assert event["penalty"] >= event["wild_pts"] + event["joker_pts"]
            if p < players - 1:
                event = next(it)
    assert next(it)["event"] == "end"
    assert next(it, None) is None


@pytest.mark.parametrize(("rules", "strategies"), [
    (RuleSet(players=4, turn_cap=400), ["random"] * 4),
    (RuleSet(players=5, turn_cap=10), ["random"] * 5),
    (RuleSet(players=3, wild_penalty="face", go_out_bonus=-10), ["greedy", "random",
                                                                 "greedy:take_margin=2"]),
    (RuleSet(players=2, all_wild_melds=False, wild_penalty=60), ["greedy", "greedy"]),
])
def test_replay_every_event(rules: RuleSet, strategies: list[str]) -> None:
    for seed in (ref.game_seed(1, 0), ref.game_seed(1, 1), 5):
        _replay(seed, rules, strategies, play_game(seed, rules, strategies))


def test_score_split_names_the_unmelded_wilds() -> None:
    rules = RuleSet()
    # Round 2 (4s wild): a single wild beside three unrelated naturals cannot meld.
    assert score_split(parse_cards("5S 9H JD JK"), 2, rules) == (75, 0, 50)
    assert score_split(parse_cards("5S 9H JD 4C"), 2, rules) == (45, 20, 0)
    assert score_split(parse_cards("5S 9H JK 4C"), 2, rules) == (5, 0, 0)  # 9H 4C JK, 5S left
    fifty = RuleSet(wild_penalty=50)  # as dear as a joker: the wild-rank card counts as one
    assert score_split(parse_cards("5S 9H JD 4C"), 2, fifty) == (75, 50, 0)
    face = RuleSet(wild_penalty="face")
    assert score_split(parse_cards("5S 9H JD 4C"), 2, face) == (29, 4, 0)
    no_all_wild = RuleSet(all_wild_melds=False)
    assert score_split(parse_cards("3C 3D JK"), 1, no_all_wild) == (90, 40, 50)
    assert score_split(parse_cards("3C 3D JK"), 1, rules) == (0, 0, 0)


# ---------------------------------------------------------------------------------------
# Helpers for the cross-check.


def test_strategy_names() -> None:
    assert make_strategy("greedy:take_margin=7").params == {"take_margin": 7}
    assert make_strategy("aware:urgency=0.25").params["urgency"] == 0.25
    assert make_strategy("oracle").oracle and not make_strategy("expected").oracle
    for bad, fragment in (("gredy", "unknown strategy"), ("greedy:margin=1", "bad parameter"),
                          ("random:x", "bad parameter"), ("greedy:take_margin=x", "number")):
        with pytest.raises(ValueError, match=fragment):
            make_strategy(bad)
    with pytest.raises(ValueError, match="strategies"):
        play_game(1, RuleSet(players=3), ["random"] * 2)


def test_compare_fields_and_first_difference() -> None:
    events = play_run(3, 2, RuleSet(players=2, rounds=6), ["greedy", "random"])[1]
    numpyish = [dict(e) for e in events]
    numpyish[-1]["totals"] = np.array(events[-1]["totals"], dtype=np.int64)
    numpyish[0]["dealer"] = np.int8(events[0]["dealer"])
    assert compare_fields(numpyish[0]) == compare_fields(events[0])
    assert compare_fields(events[0])[0] == "deal"
    assert first_difference(events, numpyish) is None
    assert first_difference(events, events[:-1]) == (len(events) - 1, events[-1], None)
    i = next(i for i, e in enumerate(events) if e["event"] == "turn")
    changed = [*events[:i], {**events[i], "out": not events[i]["out"]}, *events[i + 1:]]
    assert first_difference(events, changed)[0] == i
