"""The views of self-play decisions, each with the hidden cards an oracle sees then: what
``world_reading.py`` and ``hand_reader.py`` score readings of the hands against."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import NamedTuple

import numpy as np
from arguments import at_least, strategy, table_size

import fcsim
from fcsim.core.cards import DECK_SIZE, N_KINDS
from fcsim.core.state import state_views
from fcsim.core.view import Info, reveal, view_arrays


class OracleView(NamedTuple):
    """One decision (``decision``: its index in the run): the seat's view arrays, its
    phase, the oracle's hidden cards, and the opponents' cards the seat has not seen
    (``unshown`` int64[P, 56], its own row 0)."""

    decision: int
    arrays: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # hand, pile, known, info
    drawing: bool
    hidden: np.ndarray
    unshown: np.ndarray


def add_view_options(parser: argparse.ArgumentParser, worlds_help: str) -> None:
    """The options both probes read their views by: the table, its size, the worlds dealt
    per view and which decisions are read."""
    parser.add_argument("--table", type=strategy, default="learned",
                        help="the strategy every seat plays")
    parser.add_argument("--players", type=table_size, default=4)
    parser.add_argument("--worlds", type=at_least(1), default=4, help=worlds_help)
    parser.add_argument("--every", type=at_least(1), default=3, help="read every n-th decision")


def oracle_views(table: str, players: int, seed: int, games: int, every: int
                 ) -> Iterator[OracleView]:
    """Every ``every``-th decision of ``games`` games of ``table`` in every seat (``seed``)
    where an opponent holds a card the seat has not seen."""
    agent = fcsim.agent(table)
    decision = 0
    for g in range(games):
        game = fcsim.Game(players=players, seed=seed, game=g)
        hidden = np.full((players + 1, DECK_SIZE), -1, dtype=np.int8)
        while not game.over:
            if game.phase == "draw":  # an oracle's hidden cards are revealed as a turn starts
                reveal(state_views(game.data), hidden)
            if decision % every == 0:
                arrays = view_arrays(game.data)
                unshown = hidden[:players, :N_KINDS].astype(np.int64) - arrays[2]
                unshown[arrays[3][Info.SEAT]] = 0
                if unshown.sum() > 0:
                    yield OracleView(decision, arrays, game.phase == "draw", hidden.copy(), unshown)
            decision += 1
            game.step(agent(game.view()))
