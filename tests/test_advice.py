"""fcsim.advise: every legal action with its estimated outcome, of a game's view or of a
position written by hand (:mod:`fcsim.position`, tests/test_position.py)."""

from __future__ import annotations

import inspect
import tracemalloc
from dataclasses import replace

import numpy as np
import pytest

import fcsim
import fcsim.advice
from fcsim.advice import advise
from fcsim.position import Position, position_view


def test_advises_every_legal_action_of_a_game_view_best_first() -> None:
    game = fcsim.Game(players=3, seed=2)
    game.step("stock")
    view = game.view()
    advice = advise(view, worlds=40)
    assert advice.phase == "discard" and advice.worlds == 40
    assert sorted(a.action for a in advice.actions) == sorted(view.legal_actions)
    table = [a.against_table.mean for a in advice.actions]
    assert table == sorted(table)
    for a in advice.actions:
        for e in (a.penalty, a.out_first, a.against_table):
            assert e.low <= e.mean <= e.high
        assert a.out_first.low >= 0 and a.out_first.high <= 1 and a.penalty.low >= 0
    assert advice.recommendation.startswith(f"discard {advice.best.action}: ")
    assert advise(view, worlds=40).to_json()["actions"] == advice.to_json()["actions"]


def test_the_margin_is_what_the_best_action_gains_over_the_runner_up() -> None:
    """The recommendation's margin is the runner-up's points against the table less the
    best's, in the same worlds: never negative, as the best has the fewest."""
    game = fcsim.Game(players=3, seed=2)
    game.step("stock")
    advice = advise(game.view(), worlds=40, player=None)
    best, runner_up = advice.actions[:2]
    gain = runner_up.against_table.mean - best.against_table.mean
    assert gain >= 0 and advice.margin.mean == pytest.approx(gain)
    assert (f"{gain:.2f} points against the table better than {runner_up.action}"
            in advice.recommendation)


def test_time_limits_the_worlds_and_memory_holds_only_those_played() -> None:
    """A million worlds allowed, a twentieth of a second given: the estimates hold the
    worlds played, not room for a million (which would be hundreds of MB)."""
    view = fcsim.Game(players=4, seed=3).view()
    advise(view, worlds=40)  # compiled and loaded before memory is traced
    tracemalloc.start()
    try:
        advice = advise(view, worlds=10**6, seconds=0.05)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert 2 <= advice.worlds < 10**6
    assert peak < 20 * 2**20, f"{peak / 2**20:.0f} MiB traced for {advice.worlds} worlds"


def test_a_hand_that_goes_out_has_one_action() -> None:
    view = position_view(Position(round=1, hand=["3H", "4H", "5H", "9C"], pile=["KD"]))
    advice = advise(view, worlds=20)
    assert [a.action for a in advice.actions] == ["9C"]
    assert advice.recommendation == "discard 9C (it goes out)"
    assert advice.pick == "9C"  # the game makes that move: the player is not asked
    out = advice.actions[0]  # it goes out in every world: the others play one last turn
    assert (out.out_first.mean, out.penalty.mean) == (1.0, 0.0)


def test_a_penalty_below_zero_stays_inside_its_interval() -> None:
    """With a go-out bonus a penalty can be below 0: the interval is clipped at the bonus,
    not at 0 (which put its low end above its high end)."""
    rules = fcsim.RuleSet(go_out_bonus=-10)
    view = position_view(Position(round=1, hand=["3H", "4H", "5H", "9C"], pile=["KD"],
                                  rules=rules))
    penalty = advise(view, worlds=20).actions[0].penalty
    assert penalty.low <= penalty.mean == -10.0 <= penalty.high


def test_a_rollout_policy_s_illegal_move_is_an_illegal_move_error(monkeypatch) -> None:
    """What the CLI prints in one line (exit code 2), not a bare ValueError."""
    class Refusing:
        WORLDS_SAMPLED = 0

        @staticmethod
        def evaluate(*args: object) -> bool:
            return False  # a play-out stopped at an illegal move

    monkeypatch.setattr(fcsim.advice, "bound_module", lambda *args: Refusing)
    view = position_view(Position(round=1, hand=["3H", "4H", "9C", "KD"], pile=["KD"]))
    with pytest.raises(fcsim.IllegalMoveError, match="the rollout policy 'aware' made an "
                                                     "illegal move"):
        advise(view, worlds=4, rollout="aware")


def test_the_player_shown_makes_the_move_the_game_makes_when_it_goes_out() -> None:
    """4H 5H 6H 7H in round 1 goes out with 7H (the game's tie rule) or 4H; the game makes
    the move itself, so the fair player shown makes that one too."""
    view = position_view(Position(round=1, hand=["4H", "5H", "6H", "7H"], pile=["9C"]))
    advice = advise(view, worlds=20, player="learned")
    assert [a.action for a in advice.actions] == [advice.pick]


def test_a_last_turn_that_melds_every_card_does_not_go_out() -> None:
    """On a last turn a hand that melds whole scores 0 but does not go out (RULES.md)."""
    view = position_view(Position(round=1, hand=["3H", "4H", "5H", "9C"], pile=["KD"],
                                  last_turn=True))
    advice = advise(view, worlds=20)
    assert advice.recommendation == "discard 9C (it melds every card)"
    assert advice.actions[0].out_first.mean == 0.0


def test_one_card_kind_that_cannot_meld_is_not_said_to_go_out() -> None:
    """Four jokers with no all-wild melds: one discard, and it does not go out."""
    rules = fcsim.RuleSet(all_wild_melds=False)
    view = position_view(Position(round=1, hand=["JK"] * 4, pile=["KD"], rules=rules))
    advice = advise(view, worlds=20)
    assert advice.recommendation == "discard JK (the only legal action)"


# The README's worked position, with a public history for the evidence to read.
HISTORY = Position(round=5, hand=["3H", "4H", "5H", "7S", "9D", "9C", "KD", "QS"],
                   pile=["8C", "10S", "JD"], known={1: ["JD", "QD"]}, turn=9,
                   scores=[40, 35, 52, 28],
                   passed={2: ["KH", "QC"], 3: ["6S"]}, discarded={1: ["9H"], 3: ["KS"]},
                   taken={1: ["JD", "QD"]})


def test_beliefs_are_shares_of_the_worlds_the_advice_plays() -> None:
    view = position_view(HISTORY)
    advice = advise(view, worlds=60, evidence=0.7, beliefs=True)
    assert [b.seat for b in advice.beliefs] == [1, 2, 3]
    for seat in advice.beliefs:
        assert seat.held.min() >= 0 and seat.held.max() <= 1
        assert seat.copies.sum() == pytest.approx(view.hand_sizes[seat.seat])
        likeliest = seat.likeliest()
        assert len(likeliest) == 8
        assert [c.share for c in likeliest] == sorted((c.share for c in likeliest),
                                                      reverse=True)
    known = advice.beliefs[0].likeliest()[:2]
    assert [(c.card, c.share, c.known) for c in known] == [("JD", 1.0, True), ("QD", 1.0, True)]
    assert not any(c.known for b in advice.beliefs[1:] for c in b.likeliest())
    data = advice.to_json()["beliefs"]
    assert data[0]["cards"][0] == {"card": "JD", "share": 1.0, "known": True}
    # Recording the hands does not change the worlds; without beliefs there are none.
    plain = advise(view, worlds=60, evidence=0.7)
    assert plain.beliefs is None and "beliefs" not in plain.to_json()
    assert plain.to_json()["actions"] == advice.to_json()["actions"]


def test_evidence_changes_the_worlds_and_is_a_share() -> None:
    view = position_view(HISTORY)
    weighed = advise(view, worlds=40, evidence=0.9, beliefs=True)
    uniform = advise(view, worlds=40, beliefs=True)
    assert not np.array_equal(weighed.beliefs[2].held, uniform.beliefs[2].held)
    with pytest.raises(ValueError, match="evidence must be from 0 to 1"):
        advise(view, worlds=4, evidence=1.5)


def test_the_strongest_fair_player_s_move_is_shown() -> None:
    view = position_view(HISTORY)
    advice = advise(view, worlds=20)
    assert advice.player == "learned"
    assert advice.pick == fcsim.agent("learned")(view)
    assert advice.pick in [a.action for a in advice.actions]
    assert advice.to_json()["player"] == {"strategy": "learned", "action": advice.pick}
    plain = advise(view, worlds=20, player=None)
    assert plain.pick is None and plain.player_line is None and "player" not in plain.to_json()
    drawing = position_view(replace(HISTORY, hand=HISTORY.hand[:-1]))
    assert advise(drawing, worlds=20, player="aware").player_line in (
        "aware would draw from the stock", "aware would draw from the pile")


def test_advice_leaves_the_games_stream_as_it_is() -> None:
    """The player's move is asked on a detached view: advising on a game's view changes
    none of the game's later reshuffles."""
    view = fcsim.Game(players=2, seed=1).view()
    before = view.rng.copy()
    advise(view, worlds=2, player="random")
    assert np.array_equal(view.rng, before)


def test_a_negative_skill_is_refused_as_search_refuses_it() -> None:
    hand = ["3H", "4H", "5H", "7S", "9D", "9C", "KD", "QS"]
    view = position_view(Position(round=5, hand=hand, pile=["8C", "10S", "JD"], turn=9))
    with pytest.raises(ValueError, match=r"skill must be 0 or more, not -0\.5"):
        advise(view, worlds=4, skill=-0.5, player=None)


def _function_of(member: object) -> object:
    """The function behind a class member: a method, a class method or a property's getter."""
    return getattr(member, "fget", getattr(member, "__func__", member))


def test_every_method_the_reference_shows_says_what_it_does() -> None:
    """The public classes of fcsim.advice (docs/reference/advice.md) document each public
    method and property."""
    classes = [getattr(fcsim.advice, name) for name in fcsim.advice.__all__]
    bare = [f"{cls.__name__}.{attr}" for cls in classes if inspect.isclass(cls)
            for attr, member in vars(cls).items() if not attr.startswith("_")
            and inspect.isfunction(_function_of(member)) and not _function_of(member).__doc__]
    assert bare == []
