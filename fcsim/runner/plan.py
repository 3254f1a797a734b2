"""What a run computes: its configuration, its chunks, and each game's seed and seating.

A run is a pure function of (root seed, rules, strategies, game count, duplicate format,
seat rotation). Game ``g`` always gets the same seed and seating, so the rows do not
depend on the chunk size or on how many workers play the chunks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from fcsim import __version__
from fcsim.core.rng import game_seed
from fcsim.core.rules import RuleSet

DEFAULT_CHUNK_SIZE = 10_000
MAX_SEED = 2**64 - 1
# Fields that make two runs the same run (the chunk size only splits the work).
IDENTITY = ("fcsim_version", "rules", "strategies", "seed", "games", "duplicate",
            "seat_rotation")


class PlanError(ValueError):
    """A run configuration that cannot be played."""


@dataclass(frozen=True)
class RunPlan:
    """One run: ``games`` games of ``strategies`` (one canonical spec per listed position).

    Seating for rotation ``k``: seat ``j`` plays ``strategies[(j + k) % players]``.
    Non-duplicate: game ``g`` has seed ``game_seed(seed, g)`` and rotation ``g % players``
    (0 without seat rotation). Duplicate: deal ``g // players`` is played in every rotation
    ``g % players`` with seed ``game_seed(seed, deal)``.
    """

    strategies: tuple[str, ...]
    rules: RuleSet
    seed: int
    games: int
    duplicate: bool = False
    seat_rotation: bool = True
    chunk_size: int = DEFAULT_CHUNK_SIZE
    fcsim_version: str = field(default=__version__)
    # (name, where its code comes from) of strategies from outside fcsim: loose files with
    # the digest of their content, plug-in packages (fcsim.strategies.sources)
    sources: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        players = self.rules.players
        if len(self.strategies) != players:
            raise PlanError(f"{len(self.strategies)} strategies for {players} players: "
                            f"give one strategy, or one per player")
        if not 0 <= self.seed <= MAX_SEED:
            raise PlanError(f"seed must be 0 to 2**64 - 1, not {self.seed}")
        if self.games < 1:
            raise PlanError(f"games must be at least 1, not {self.games}")
        if self.duplicate and self.games % players:
            raise PlanError(f"a duplicate run needs a multiple of {players} games, "
                            f"not {self.games}")
        if self.chunk_size < 1:
            raise PlanError(f"chunk size must be at least 1, not {self.chunk_size}")

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.rules.players

    @property
    def chunk_count(self) -> int:
        """Number of chunks (the last one may be short)."""
        return -(-self.games // self.chunk_size)

    def chunk_games(self, index: int) -> range:
        """The game indices of chunk ``index``."""
        start = index * self.chunk_size
        return range(start, min(start + self.chunk_size, self.games))

    @property
    def lineup(self) -> tuple[str, ...]:
        """The distinct strategy specs, in order of first listing (the Parquet dictionary)."""
        return tuple(dict.fromkeys(self.strategies))

    def metadata(self) -> dict:
        """The run description stored in every Parquet file (key ``fcsim``)."""
        return {
            "fcsim_version": self.fcsim_version,
            "rules": self.rules.to_dict(),
            "strategies": list(self.strategies),
            "seed": self.seed,
            "games": self.games,
            "duplicate": self.duplicate,
            "seat_rotation": self.seat_rotation,
            "chunk_size": self.chunk_size,
            "strategy_sources": dict(self.sources),
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
                   fcsim_version=data["fcsim_version"],
                   sources=tuple(data.get("strategy_sources", {}).items()))

    def differences(self, other: RunPlan) -> list[str]:
        """How ``other`` is a different run from this one (empty if it is the same run)."""
        from fcsim.strategies.sources import changed_sources

        mine, theirs = self.metadata(), other.metadata()
        return [f"{key} {_show(theirs[key])} there, {_show(mine[key])} here"
                for key in IDENTITY if mine[key] != theirs[key]
                ] + changed_sources(dict(other.sources), dict(self.sources))


def _show(value: object) -> str:
    if isinstance(value, list | tuple):
        return ",".join(map(str, value))
    if isinstance(value, dict):
        return " ".join(f"{k}={v}" for k, v in value.items())
    return str(value)


def round_up_games(games: int, players: int, duplicate: bool) -> int:
    """``games``, rounded up to a multiple of ``players`` for the duplicate format."""
    return -(-games // players) * players if duplicate else games


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
        deal, rotation = game // players, game % players
    else:
        deal = game
        rotation = game % players if plan.seat_rotation else np.zeros_like(game)
    lineup_index = np.array([plan.lineup.index(s) for s in plan.strategies], dtype=np.int8)
    listed = (np.arange(players)[None, :] + rotation[:, None]) % players
    return Layout(game=game, deal=deal, rotation=rotation.astype(np.int8),
                  seeds=_game_seeds(np.uint64(plan.seed), deal.astype(np.uint64)),
                  seating=lineup_index[listed])
