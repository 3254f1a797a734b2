"""RuleSet: defaults, validation of every variant, and its kernel form."""

from __future__ import annotations

from pathlib import Path

import click
import numpy as np
import pytest

from fcsim.core.rules import (
    COMPARE_PLAYERS,
    DEFAULT_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    R_ALL_WILD_MELDS,
    R_GO_OUT_BONUS,
    R_PLAYERS,
    R_ROUNDS,
    R_SIZE,
    R_TURN_CAP,
    R_WILD_PENALTY,
    RulesError,
    RuleSet,
    default_seats,
)
from tests.sources import modules_saying


def test_defaults_are_the_rules() -> None:
    """11 rounds, wilds 20, no go-out bonus, all-wild melds allowed."""
    rules = RuleSet()
    assert (rules.rounds, rules.wild_penalty, rules.go_out_bonus) == (11, 20, 0)
    assert rules.all_wild_melds is True
    assert rules.wild_points(5) == 20


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_players_two_to_seven(players: int) -> None:
    """Every table size of the rules is accepted."""
    assert RuleSet(players=players).players == players


@pytest.mark.parametrize("players", [1, 8, 0, -2, 100, 4.0, "4", None])
def test_bad_players_rejected(players: object) -> None:
    """A table outside 2–7 players is refused with a message saying so."""
    with pytest.raises(RulesError, match="2 to 7"):
        RuleSet(players=players)


@pytest.mark.parametrize("rounds", [0, 1, 5, 7, 10, 12, "11", None, 11.0, 6.0])
def test_bad_rounds_rejected(rounds: object) -> None:
    """Only the full game (11 rounds) and the short game (6) exist."""
    with pytest.raises(RulesError, match="rounds must be 11"):
        RuleSet(rounds=rounds)


@pytest.mark.parametrize("wild_penalty", [0, -20, 1001, "Face", "20", 20.0, None, "wild"])
def test_bad_wild_penalty_rejected(wild_penalty: object) -> None:
    """The wild penalty is 'face' or a whole number from 1 to 1000."""
    with pytest.raises(RulesError, match="wild_penalty"):
        RuleSet(wild_penalty=wild_penalty)


@pytest.mark.parametrize("go_out_bonus", [1, 10, -1001, -2.5, "0", None])
def test_bad_go_out_bonus_rejected(go_out_bonus: object) -> None:
    """The go-out bonus is 0 or negative, down to -1000."""
    with pytest.raises(RulesError, match="go_out_bonus"):
        RuleSet(go_out_bonus=go_out_bonus)


@pytest.mark.parametrize("all_wild_melds", [2, 0, 1, "no", "False", None])
def test_bad_all_wild_melds_rejected(all_wild_melds: object) -> None:
    """All-wild melds are allowed or not: a value the kernels would read as off (2) while
    the solver reads it as on, or could not read at all, is refused."""
    with pytest.raises(RulesError, match="all_wild_melds must be True or False"):
        RuleSet(all_wild_melds=all_wild_melds)


def test_numpy_values_are_read_as_python_ones() -> None:
    """A numpy whole number or truth value is the Python one."""
    rules = RuleSet(players=np.int64(3), all_wild_melds=np.bool_(False))
    assert rules == RuleSet(players=3, all_wild_melds=False)
    assert rules.all_wild_melds is False


@pytest.mark.parametrize("turn_cap", [0, 9, 1_000_001, 100.0, None])
def test_bad_turn_cap_rejected(turn_cap: object) -> None:
    """The turn cap is 10 to 1,000,000 turns."""
    with pytest.raises(RulesError, match="turn_cap"):
        RuleSet(turn_cap=turn_cap)


@pytest.mark.parametrize("rule", ["players", "rounds", "wild_penalty", "go_out_bonus",
                                  "turn_cap"])
@pytest.mark.parametrize("value", [True, False])
def test_truth_values_are_not_numbers(rule: str, value: bool) -> None:
    """True and False are ints to Python but no count of seats, points or turns: refused for
    every whole-number rule (else True would pass as a wild penalty of 1, False as a go-out
    bonus of 0)."""
    with pytest.raises(RulesError, match=rule):
        RuleSet(**{rule: value})


def test_rules_error_is_a_value_error() -> None:
    """Callers catching ValueError also catch bad rules."""
    assert issubclass(RulesError, ValueError)


def test_boundary_values_accepted() -> None:
    """The ends of every range are valid."""
    RuleSet(rounds=6, wild_penalty=1, go_out_bonus=-1000, turn_cap=10)
    RuleSet(wild_penalty=1000, go_out_bonus=0, turn_cap=1_000_000, all_wild_melds=False)


@pytest.mark.parametrize("round_number", range(1, 12))
def test_wild_points(round_number: int) -> None:
    """A wild-rank card counts the wild penalty, or its face value (the hand size)."""
    assert RuleSet(wild_penalty=35).wild_points(round_number) == 35
    assert RuleSet(wild_penalty="face").wild_points(round_number) == round_number + 2


def test_check_round() -> None:
    """Rounds run 1…11 in the full game and 1…6 in the short one."""
    full, short = RuleSet(), RuleSet(rounds=6)
    for r in range(1, 12):
        full.check_round(r)
    for r in range(1, 7):
        short.check_round(r)
    for rules, bad in [(full, 0), (full, 12), (short, 7), (full, 3.0), (full, "3")]:
        with pytest.raises(RulesError, match="round must be 1 to"):
            rules.check_round(bad)


def test_as_array() -> None:
    """The kernel vector holds each field at its R_* position; 'face' is -1."""
    rules = RuleSet(
        players=3,
        rounds=6,
        wild_penalty="face",
        go_out_bonus=-10,
        all_wild_melds=False,
        turn_cap=500,
    )
    arr = rules.as_array()
    assert arr.shape == (R_SIZE,) and arr.dtype.kind == "i"
    assert arr[R_PLAYERS] == 3 and arr[R_ROUNDS] == 6 and arr[R_WILD_PENALTY] == -1
    assert arr[R_GO_OUT_BONUS] == -10 and arr[R_ALL_WILD_MELDS] == 0 and arr[R_TURN_CAP] == 500
    assert RuleSet(wild_penalty=25).as_array()[R_WILD_PENALTY] == 25


def test_dict_round_trip() -> None:
    """to_dict / from_dict give the same rule set back."""
    rules = RuleSet(players=5, wild_penalty="face", go_out_bonus=-10, all_wild_melds=False)
    assert RuleSet.from_dict(rules.to_dict()) == rules
    assert rules.to_dict()["wild_penalty"] == "face"


def test_frozen() -> None:
    """A rule set cannot be changed after validation."""
    rules = RuleSet()
    with pytest.raises(AttributeError):
        rules.players = 9  # type: ignore[misc]


def test_one_default_table_seats_every_caller() -> None:
    """A table nothing sizes has DEFAULT_PLAYERS seats, in the rules, a command, a Game, an
    advised position and a search's lineup alike; listed strategies sit one a seat."""
    from fcsim.cli.options import table_seats
    from fcsim.game import table_rules
    from fcsim.position import Position
    from fcsim.tune.lineup import make_lineup

    assert RuleSet().players == DEFAULT_PLAYERS == default_seats(1) == table_seats(1, None)
    assert table_rules().players == Position(1, [], []).players == DEFAULT_PLAYERS
    assert make_lineup(["greedy"], None).players == DEFAULT_PLAYERS
    assert default_seats(3) == table_seats(3, None) == 3



@pytest.mark.parametrize("command", ["advise", "compare", "tournament", "train"])
def test_a_commands_table_is_sized_by_the_rules_limits(command: str) -> None:
    """Each command's --players defaults to the rules' table and ranges over their
    limits, never numbers of its own."""
    import importlib

    module = importlib.import_module(f"fcsim.cli.{command}")
    players = next(p for p in getattr(module, f"{command}_command").params
                   if p.name == "players")
    assert players.default in (DEFAULT_PLAYERS, COMPARE_PLAYERS)
    if isinstance(players.type, click.IntRange):
        assert (players.type.min, players.type.max) == (MIN_PLAYERS, MAX_PLAYERS)
    assert "default=4" not in Path(module.__file__).read_text()
    assert "IntRange(2, 7)" not in Path(module.__file__).read_text()


def test_a_comparison_seats_two_by_one_default() -> None:
    """fcsim compare and fcsim.testing.compare seat two strategies at COMPARE_PLAYERS
    seats unless told otherwise; no other module names a default table of its own."""
    import inspect

    from fcsim.cli.compare import compare_command
    from fcsim.testing import compare

    players = next(p for p in compare_command.params if p.name == "players")
    assert players.default == COMPARE_PLAYERS
    assert inspect.signature(compare).parameters["players"].default == COMPARE_PLAYERS
    assert modules_saying("DEFAULT_PLAYERS = ") == ["fcsim/core/rules.py"]
