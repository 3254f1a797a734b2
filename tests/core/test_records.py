"""Each flat record declared once: the flat names are its fields, sizes come from it, and
the engine's results and a run's round columns follow from the per-round records."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from fcsim.core import events, rules, state, view
from fcsim.core.engine import GameResults, play_games
from fcsim.core.records import RoundInfo, Score
from fcsim.env import encoding
from fcsim.runner import format as fmt
from fcsim.strategies import parse_strategy
from fcsim.strategies.search import rollout

# The decision contract's info positions, as strategies written against it read them.
INFO_POSITIONS = {
    "I_ROUND": 0, "I_WILD_RANK": 1, "I_SEAT": 2, "I_PLAYERS": 3, "I_DEALER": 4,
    "I_STOCK_SIZE": 5, "I_TURN": 6, "I_LAST_TURN": 7, "I_OUT_SEAT": 8, "I_WILD_POINTS": 9,
    "I_ALL_WILD": 10, "I_GO_OUT_BONUS": 11, "I_BEST_DISCARD": 12, "I_BEST_PENALTY": 13,
    "I_TOTALS": 14, "I_HAND_SIZES": 21, "I_HISTORY": 28, "I_DISCARDED": 28, "I_TAKEN": 420,
    "I_PASSED": 812, "I_TURN_CAP": 1204, "INFO_SIZE": 1205,
}


@pytest.mark.parametrize(("module", "record", "prefix", "size"), [
    (state, state.Scalar, "S_", "S_SIZE"),
    (state, Score, "SC_", "SC_SIZE"),
    (state, RoundInfo, "RI_", "RI_SIZE"),
    (state, state.Plane, "H_", "H_SIZE"),
    (rules, rules.Rule, "R_", "R_SIZE"),
    (view, view.Info, "I_", None),
    (rollout, rollout.Outcome, None, "O_SIZE"),  # read by field only: no flat names
    (encoding, encoding.Obs, "X_", "X_HAND_SIZES"),
])
def test_flat_names_are_the_fields_of_one_record(module, record, prefix, size) -> None:
    for field in record:
        if prefix is None:  # a record read by its fields only: no flat name for any
            assert all(value is not field for value in vars(module).values())
        else:
            assert getattr(module, prefix + field.name) is field
    assert [int(f) for f in record] == list(range(len(record)))
    if size is not None:
        assert getattr(module, size) == len(record)


def test_the_turn_rows_flat_names_are_its_decision_fields() -> None:
    decision_data = list(events.Turn)[events.Turn.NUMBER:]
    assert {name: value for name, value in vars(events).items()
            if name.startswith("TURN_")} == {f"TURN_{f.name}": f for f in decision_data}


@pytest.mark.parametrize("record", [events.DealRow, events.HandRow, events.ReshuffleRow,
                                    events.ScoreRow, events.Turn])
def test_every_trace_row_is_read_by_its_record(record) -> None:
    """Each event row is laid out by a record that starts with the code and the round (the
    decoder reads both alike); a hand's kinds follow its record."""
    assert [int(f) for f in record] == list(range(len(record)))
    assert (record.CODE, record.ROUND) == (0, 1)
    assert (len(events.HandRow), len(events.ScoreRow)) == (events.HAND_COL, events.SCORE_COL)


def test_the_info_layout_keeps_the_decision_contract() -> None:
    assert {name: getattr(view, name) for name in INFO_POSITIONS} == INFO_POSITIONS


def test_results_and_run_columns_follow_from_the_per_round_records() -> None:
    names = [f.name for f in fields(GameResults)]
    assert names[-len(Score) - len(RoundInfo):] == [f.column for f in (*Score, *RoundInfo)]
    assert [name for name, _ in fmt.ROUND_SEAT_COLUMNS] == [f.column for f in Score]
    assert [name for name, _ in fmt.ROUND_COLUMNS] == [f.column for f in RoundInfo]
    game_rules = rules.RuleSet(players=3, rounds=6)
    results = play_games(np.arange(2, dtype=np.uint64), np.zeros((2, 3), np.int8),
                         [parse_strategy("greedy")], game_rules)
    for field in (*Score, *RoundInfo):
        column = getattr(results, field.column)
        assert column.dtype == field.dtype
        assert column.dtype == dict(fmt.ROUND_SEAT_COLUMNS + fmt.ROUND_COLUMNS)[
            field.column].to_pandas_dtype()
    assert (results.penalty.sum(axis=1) == results.total).all()
    assert ((results.out_seat >= 0) | results.capped).all()
