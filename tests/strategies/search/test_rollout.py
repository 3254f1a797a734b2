"""What a rollout measures: the deciding seat's outcomes of the round it played."""

from __future__ import annotations

import numpy as np

from fcsim import RuleSet
from fcsim.core.records import RoundInfo, Score
from fcsim.core.state import new_state, state_views
from fcsim.strategies.search.rollout import O_SIZE, Outcome, against_table, score_outcomes


def _scored(penalties: list[int], totals: list[int], out_seat: int):
    """A state whose last round is scored with ``penalties``, ``totals`` after it."""
    state = state_views(new_state(RuleSet(players=len(penalties), rounds=6)))
    state.scores[5, :, Score.PENALTY] = penalties
    state.round_info[5, RoundInfo.OUT_SEAT] = out_seat
    state.totals[:] = totals
    return state


def test_points_against_the_table_are_own_penalty_less_the_others_mean() -> None:
    state = _scored([10, 4, 0], [0, 0, 0], 2)
    assert against_table(state, 5, 0) == 10 - (4 + 0) / 2
    assert against_table(state, 5, 2) == 0 - (10 + 4) / 2


def test_outcomes_of_the_deciding_seat() -> None:
    state = _scored([10, 4, 0, 7], [40, 25, 31, 60], 2)
    row = np.zeros(O_SIZE)
    score_outcomes(state, 1, row)
    assert row[Outcome.PENALTY] == 4 and row[Outcome.OUT_FIRST] == 0.0
    assert row[Outcome.TABLE] == 4 - (10 + 0 + 7) / 3
    assert row[Outcome.STANDING] == 25 - 31  # its total less the best other
    score_outcomes(state, 2, row)
    assert row[Outcome.OUT_FIRST] == 1.0 and row[Outcome.STANDING] == 31 - 25
