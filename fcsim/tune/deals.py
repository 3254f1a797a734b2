"""The candidate's result on each deal of a duplicate-format run.

A deal is played in its distinct seat rotations; per deal we keep the candidate's mean total minus
the field's (its *advantage*, points per game: negative is better), the candidate's mean
total and its wins. Two runs on the same deals pair deal by deal (common random numbers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from fcsim.tune.lineup import Lineup

# The columns of a run's rows that the per-deal results need.
COLUMNS = ["game", "deal", "rotation", "seat", "total", "win"]


@dataclass(frozen=True)
class DealResults:
    """Per-deal results of the candidate over D deals (arrays of length D, by deal).

    ``deal`` int64: deal index in the run; ``advantage`` float64: candidate's mean total
    minus the field's; ``total`` float64: candidate's mean total per seat-game; ``wins``
    float64: candidate's seat-games won (a tie for first shared by k seats counts 1/k);
    ``seat_games`` int64: candidate's seat-games.
    """

    deal: np.ndarray
    advantage: np.ndarray
    total: np.ndarray
    wins: np.ndarray
    seat_games: np.ndarray

    @property
    def deals(self) -> int:
        """Number of deals."""
        return int(self.deal.size)

    @classmethod
    def concat(cls, parts: Sequence[DealResults]) -> DealResults:
        """The parts one after another (empty if there are none)."""
        if not parts:
            empty = np.empty(0)
            return cls(empty.astype(np.int64), empty, empty, empty, empty.astype(np.int64))
        return cls(*(np.concatenate([getattr(p, name) for p in parts])
                     for name in ("deal", "advantage", "total", "wins", "seat_games")))

    def values(self) -> dict[int, float]:
        """``{deal: advantage}`` (what a tune reports to Optuna, one step per deal)."""
        return dict(zip(self.deal.tolist(), self.advantage.tolist(), strict=True))


def deal_results(table: pa.Table, lineup: Lineup) -> DealResults:
    """Aggregate the game x seat rows of whole deals (one chunk or more) per deal.

    A row's listed position is ``(seat + rotation) % P`` (``RunPlan``'s seating), so the
    candidate's rows are found even when its spec equals a field strategy's.
    """
    players = lineup.players
    distinct = table.column("rotation").to_numpy() < lineup.rotations
    table = table.filter(pa.array(distinct))  # the rotations that repeat another's games
    deal = table.column("deal").to_numpy()
    game = table.column("game").to_numpy()
    position = (table.column("seat").to_numpy().astype(np.int64)
                + table.column("rotation").to_numpy()) % players
    total = table.column("total").to_numpy().astype(np.float64)
    win = table.column("win").to_numpy(zero_copy_only=False).astype(np.float64)
    is_candidate = np.isin(position, lineup.positions)

    _, game_index = np.unique(game, return_inverse=True)
    shared_win = win / np.bincount(game_index, weights=win)[game_index]
    deals, deal_index = np.unique(deal, return_inverse=True)

    def per_deal(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.bincount(deal_index, weights=values * mask, minlength=deals.size)

    seats = per_deal(np.ones_like(total), is_candidate)
    others = per_deal(np.ones_like(total), ~is_candidate)
    mean_total = per_deal(total, is_candidate) / seats
    return DealResults(deal=deals.astype(np.int64),
                       advantage=mean_total - per_deal(total, ~is_candidate) / others,
                       total=mean_total, wins=per_deal(shared_win, is_candidate),
                       seat_games=seats.astype(np.int64))
