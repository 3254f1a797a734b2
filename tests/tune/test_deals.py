"""Per-deal results: the candidate found by its listed position, ties shared, means per deal."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from fcsim.tune.deals import DealResults, deal_results
from fcsim.tune.lineup import make_lineup


def _rows(totals: list[list[int]]) -> pa.Table:
    """Two-player duplicate rows: game g is deal g // 2 in rotation g % 2, seats 0 and 1."""
    game, deal, rotation, seat, total, win = [], [], [], [], [], []
    for g, pair in enumerate(totals):
        low = min(pair)
        for s, t in enumerate(pair):
            game.append(g)
            deal.append(g // 2)
            rotation.append(g % 2)
            seat.append(s)
            total.append(t)
            win.append(t == low)
    return pa.table({"game": pa.array(game, pa.int64()), "deal": pa.array(deal, pa.int64()),
                     "rotation": pa.array(rotation, pa.int8()), "seat": pa.array(seat, pa.int8()),
                     "total": pa.array(total, pa.int16()), "win": pa.array(win)})


def test_by_hand() -> None:
    # listed position = (seat + rotation) % 2; the candidate is position 0
    table = _rows([[10, 30],   # deal 0, rotation 0: candidate seat 0 scores 10, field 30
                   [50, 20],   # deal 0, rotation 1: candidate is seat 1 (20), field 50
                   [40, 40],   # deal 1: a tie, both win half
                   [70, 10]])  # deal 1, rotation 1: candidate seat 1 scores 10
    got = deal_results(table, make_lineup(["field"], 2))
    assert got.deal.tolist() == [0, 1]
    assert got.total.tolist() == [15.0, 25.0]
    assert got.advantage.tolist() == [15 - 40, 25 - 55]
    assert got.wins.tolist() == [2.0, 1.5]
    assert got.seat_games.tolist() == [2, 2]
    assert got.values() == {0: -25.0, 1: -30.0}


def test_concat_and_empty() -> None:
    part = deal_results(_rows([[1, 2], [3, 4]]), make_lineup(["field"], 2))
    both = DealResults.concat([part, part])
    assert both.deals == 2 and both.advantage.tolist() == [*part.advantage, *part.advantage]
    empty = DealResults.concat([])
    assert empty.deals == 0 and empty.deal.dtype == np.int64


def test_rotations_that_repeat_a_game_count_once() -> None:
    """Candidate and field alternating at 4 seats: rotations 2 and 3 replay 0 and 1."""
    lineup = make_lineup(["field"], 4)
    rows = {"game": [], "deal": [], "rotation": [], "seat": [], "total": [], "win": []}
    for rotation in range(4):
        totals = [10, 30, 20, 40] if rotation % 2 == 0 else [30, 10, 40, 20]
        for seat, total in enumerate(totals):
            for name, value in zip(rows, (rotation, 0, rotation, seat, total, total == 10),
                                   strict=True):
                rows[name].append(value)
    table = pa.table({"game": pa.array(rows["game"], pa.int64()),
                      "deal": pa.array(rows["deal"], pa.int64()),
                      "rotation": pa.array(rows["rotation"], pa.int8()),
                      "seat": pa.array(rows["seat"], pa.int8()),
                      "total": pa.array(rows["total"], pa.int16()), "win": pa.array(rows["win"])})
    got = deal_results(table, lineup)
    assert got.seat_games.tolist() == [4]  # 2 distinct games x 2 candidate seats, not 8
    assert got.total.tolist() == [15.0] and got.wins.tolist() == [2.0]


def test_the_candidate_is_found_in_every_rotation_of_a_mixed_field() -> None:
    """``--against f1,f2`` at 3 seats: rotation r seats listed position (seat + r) % 3, so
    the candidate (position 0) sits at seat 0, then 2, then 1 (at 2 seats, or alternating
    at 4, seat − rotation would find the same seats: only this table tells them apart)."""
    totals = [[10, 50, 60],  # rotation 0: the candidate at seat 0 scores 10
              [50, 60, 20],  # rotation 1: at seat 2, 20
              [60, 30, 50]]  # rotation 2: at seat 1, 30
    table = pa.table({"game": pa.array([r for r in range(3) for _ in range(3)], pa.int64()),
                      "deal": pa.array([0] * 9, pa.int64()),
                      "rotation": pa.array([r for r in range(3) for _ in range(3)], pa.int8()),
                      "seat": pa.array([0, 1, 2] * 3, pa.int8()),
                      "total": pa.array([t for row in totals for t in row], pa.int16()),
                      "win": pa.array([t == min(row) for row in totals for t in row])})
    got = deal_results(table, make_lineup(["f1", "f2"], 3))
    assert got.total.tolist() == [(10 + 20 + 30) / 3]
    assert got.advantage.tolist() == [20 - (50 + 60 + 50 + 60 + 60 + 50) / 6]
    assert got.wins.tolist() == [3.0] and got.seat_games.tolist() == [3]
