"""What a run computes: its configuration, its chunks, and each game's seed and seating.

A run is a pure function of (root seed, rules, strategies, game count, duplicate format,
seat rotation) and of the code that plays it. Game ``g`` always gets the same seed and
seating, so the rows do not depend on the chunk size or on how many workers play the
chunks. A plan is a few numbers: it never lists its chunks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from numbers import Integral
from pathlib import Path

import numpy as np
from numba import njit

from fcsim._version import __version__
from fcsim.core.cards import COPIES, JOKER_PENALTY, MAX_RANK, N_JOKERS, N_SUITS
from fcsim.core.rng import game_seed
from fcsim.core.rules import RuleSet
from fcsim.core.seeds import MAX_SEED
from fcsim.errors import FcsimError
from fcsim.runner import format as fmt

DEFAULT_CHUNK_SIZE = 10_000  # games per chunk of a large run
MIN_DEFAULT_CHUNK_SIZE = 10  # ... and of a small one: 20 deals of a search table (80
# games, about a second each) make 8 chunks for every core, not one chunk for one
CHUNKS_PER_RUN = 32  # a small run is split into this many chunks, so every core gets work
IDENTITY = fmt.IDENTITY


class PlanError(FcsimError, ValueError):
    """A run configuration that cannot be played."""


@cache
def code_digest() -> str:
    """A digest of the code that plays a run: the chunk module and every fcsim module it
    imports (engine, strategies, solver, rules, rows), by their sources."""
    from fcsim._numba_cache import module_digest

    return module_digest(Path(__file__).with_name("chunk.py").resolve())


def this_code() -> str:
    """The code of this fcsim, as run metadata names it (:func:`fcsim.runner.format.code_of`)."""
    return fmt.code_of({"fcsim_version": __version__, "code_digest": code_digest()})


def default_chunk_size(games: int) -> int:
    """The chunk size of a run of ``games`` games when none is given: a function of the game
    count only (it is part of a folder's identity for --resume), small enough that a small
    run still makes :data:`CHUNKS_PER_RUN` chunks, at most :data:`DEFAULT_CHUNK_SIZE`."""
    return min(DEFAULT_CHUNK_SIZE, max(MIN_DEFAULT_CHUNK_SIZE, -(-games // CHUNKS_PER_RUN)))


@dataclass(frozen=True)
class RunPlan:
    """One run: ``games`` games of ``strategies`` (one canonical spec per listed position).

    Seating for rotation ``k``: seat ``j`` plays ``strategies[(j + k) % players]``.
    Non-duplicate: game ``g`` has seed ``game_seed(seed, g)`` and rotation ``g % players``
    (0 without seat rotation). Duplicate: deal ``g // R`` is played in rotation ``g % R``
    with seed ``game_seed(seed, deal)``, R the :attr:`deal_rotations`: the distinct ones
    (:func:`~fcsim.runner.format.distinct_rotations`; A, B, A, B at 4 seats has 2, its
    rotations 2 and 3 being the very games of 0 and 1) for a plan :func:`make_plan` made,
    every seat's for ``rotations=None`` (runs recorded before).
    """

    strategies: tuple[str, ...]
    rules: RuleSet
    seed: int
    games: int
    duplicate: bool = False
    seat_rotation: bool = True
    chunk_size: int = DEFAULT_CHUNK_SIZE
    fcsim_version: str = field(default=__version__)
    code_digest: str = field(default_factory=code_digest)
    # (name, where its code comes from) of strategies from outside fcsim: loose files and
    # model files with the digest of their content, plug-in packages (fcsim.runner.sources)
    sources: tuple[tuple[str, str], ...] = ()
    decisions: bool = False  # also write the turn-level decision rows
    rotations: int | None = None  # duplicate: the rotations a deal is played in (None: all)

    def __post_init__(self) -> None:
        players = self.rules.players
        if len(self.strategies) != players:
            raise PlanError(f"{len(self.strategies)} strategies for {players} players: "
                            f"give one strategy, or one per player")
        if (isinstance(self.seed, bool) or not isinstance(self.seed, Integral)
                or not 0 <= self.seed <= MAX_SEED):
            raise PlanError(f"seed must be 0 to 2**64 - 1 (64 bits), not {self.seed!r}")
        sizes = fmt.size_problems(self.games, self.chunk_size)
        if sizes:
            raise PlanError(sizes[0])
        rotations = self.deal_rotations
        if not (1 <= rotations <= players and players % rotations == 0):
            raise PlanError(f"a deal is played in a number of rotations that divides the "
                            f"{players} seats, not {rotations}")
        if self.duplicate and self.games % rotations:
            raise PlanError(f"a duplicate run needs a multiple of {rotations} games, "
                            f"not {self.games}")
        overflow = column_overflow(self.rules)
        if overflow:
            raise PlanError(overflow)

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.rules.players

    @property
    def deal_rotations(self) -> int:
        """The rotations a duplicate deal is played in (every seat's unless recorded)."""
        return self.rotations or self.players

    @property
    def chunk_count(self) -> int:
        """Number of chunks (the last one may be short)."""
        return fmt.chunk_count(self.games, self.chunk_size)

    def chunk_games(self, index: int) -> range:
        """The game indices of chunk ``index``."""
        return fmt.chunk_games(self.games, self.chunk_size, index)

    @property
    def code(self) -> str:
        """The code that plays this plan, as the run metadata names it."""
        return fmt.code_of(self.metadata())

    @property
    def lineup(self) -> tuple[str, ...]:
        """The distinct strategy specs, in order of first listing (the Parquet dictionary)."""
        return tuple(dict.fromkeys(self.strategies))

    def metadata(self) -> dict:
        """The run description stored in every Parquet file (key ``fcsim``)."""
        return {
            "format": fmt.FORMAT_VERSION,
            "fcsim_version": self.fcsim_version,
            "code_digest": self.code_digest,
            "rules": self.rules.to_dict(),
            "strategies": list(self.strategies),
            "seed": self.seed,
            "games": self.games,
            "duplicate": self.duplicate,
            "seat_rotation": self.seat_rotation,
            "chunk_size": self.chunk_size,
            fmt.SOURCES: dict(self.sources),
            **({fmt.DECISIONS: True} if self.decisions else {}),
            **({fmt.ROTATIONS: self.rotations}
               if self.duplicate and self.deal_rotations != self.players else {}),
        }

    def metadata_json(self) -> bytes:
        """:meth:`metadata` as the JSON bytes written to the files."""
        return json.dumps(self.metadata()).encode()

    @classmethod
    def from_metadata(cls, data: dict) -> RunPlan:
        """The inverse of :meth:`metadata`."""
        return cls(strategies=tuple(data["strategies"]), rules=RuleSet.from_dict(data["rules"]),
                   seed=data["seed"], games=data["games"], duplicate=data["duplicate"],
                   seat_rotation=data["seat_rotation"], chunk_size=data["chunk_size"],
                   fcsim_version=data["fcsim_version"], code_digest=data["code_digest"],
                   sources=tuple(data.get(fmt.SOURCES, {}).items()),
                   decisions=bool(data.get(fmt.DECISIONS, False)),
                   rotations=data.get(fmt.ROTATIONS))

    def changed_code(self) -> str:
        """How the code that would play this run today differs from the code recorded, in
        words: fcsim's, and the strategy files, packages and models the specs load now
        (when none did, what differs lies outside the record, and this says so)."""
        from fcsim.runner.sources import changed_sources, strategy_sources

        fcsim_code = [] if self.code == this_code() else [
            f"fcsim's code was {self.code} there, {this_code()} here"]
        changes = fcsim_code + changed_sources(dict(self.sources),
                                               strategy_sources(self.strategies))
        return "; ".join(changes) or ("no code the run recorded changed (a library it "
                                      "does not record, or its files, may differ)")

    def differences(self, other: RunPlan) -> list[str]:
        """How ``other`` is a different run from this one (empty if it is the same run)."""
        from fcsim.runner.sources import changed_sources

        return (fmt.run_differences(self.metadata(), other.metadata())
                + changed_sources(dict(other.sources), dict(self.sources)))


def _largest_round_penalty(rules: RuleSet, round_number: int) -> int:
    """The most points a hand of ``round_number`` can score under ``rules``.

    Optimal melding leaves at most one wild over when the hand holds a natural card (two
    wilds and a natural make a book, which takes every further wild), so the worst hand is
    naturals and one wild; without all-wild melds a hand of wilds alone scores them all.
    """
    cards = round_number + 2
    wild = rules.wild_points(round_number)
    worst = max(MAX_RANK * cards, MAX_RANK * (cards - 1) + max(wild, JOKER_PENALTY))
    if not rules.all_wild_melds:
        wilds = sorted([wild] * (COPIES * N_SUITS) + [JOKER_PENALTY] * N_JOKERS, reverse=True)
        worst = max(worst, sum(wilds[:cards]))
    return worst


def column_overflow(rules: RuleSet) -> str | None:
    """Why a run's columns cannot hold the largest values ``rules`` allow, or None if they
    can (the smallest, a go-out bonus of -1,000 in every round, always fit)."""
    total = sum(_largest_round_penalty(rules, r) for r in range(1, rules.rounds + 1))
    largest = (("total", total, "wild_penalty"), ("turns", rules.most_turns, "turn_cap"),
               ("out_turn", rules.turn_cap, "turn_cap"))
    for column, value, setting in largest:
        high = fmt.column_limits(column)[1]
        if value > high:
            return (f"{setting} {getattr(rules, setting)}: these rules allow {column} = "
                    f"{value:,}, more than the run's {column} column holds ({high:,})")
    return None


def round_up_games(games: int, rotations: int, duplicate: bool) -> int:
    """``games``, rounded up to whole deals (``rotations`` games each) for the duplicate
    format."""
    return -(-games // rotations) * rotations if duplicate else games


@dataclass(frozen=True)
class Layout:
    """Per-game inputs of one chunk (arrays of its ``G`` games)."""

    game: np.ndarray  # int64[G]
    deal: np.ndarray  # int64[G]
    rotation: np.ndarray  # int8[G]
    seeds: np.ndarray  # uint64[G]
    seating: np.ndarray  # int8[G, P]: index into plan.lineup for each seat


@njit(cache=True)
def _game_seeds(root: np.uint64, deals: np.ndarray) -> np.ndarray:
    out = np.empty(deals.size, dtype=np.uint64)
    for i in range(deals.size):
        out[i] = game_seed(root, np.uint64(deals[i]))
    return out


def chunk_layout(plan: RunPlan, index: int) -> Layout:
    """Seeds, seating, deal and rotation of every game of chunk ``index``."""
    span = plan.chunk_games(index)
    players = plan.players
    game = np.arange(span.start, span.stop, dtype=np.int64)
    if plan.duplicate:
        deal, rotation = game // plan.deal_rotations, game % plan.deal_rotations
    else:
        deal = game
        rotation = game % players if plan.seat_rotation else np.zeros_like(game)
    lineup_index = np.array([plan.lineup.index(s) for s in plan.strategies], dtype=np.int8)
    listed = (np.arange(players)[None, :] + rotation[:, None]) % players
    return Layout(game=game, deal=deal, rotation=rotation.astype(np.int8),
                  seeds=_game_seeds(np.uint64(plan.seed), deal.astype(np.uint64)),
                  seating=lineup_index[listed])
