"""Where the strategy being tuned sits in the field it plays (``--against``).

One field strategy: the candidate and the field alternate around the table (the candidate
first). Several: one per other seat, the candidate first. Either way the listed seating is
played in every distinct rotation of every deal (the duplicate format), so each seat is played by
each strategy equally often and the deal's luck cancels out of the comparison.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from fcsim.core.rules import DEFAULT_PLAYERS
from fcsim.errors import FcsimError
from fcsim.runner.format import alternating, distinct_rotations


class LineupError(FcsimError, ValueError):
    """A field that does not fit the table."""


@dataclass(frozen=True)
class Lineup:
    """The listed seating with the candidate's positions left open.

    ``field[j]`` is the spec at listed position j, or None where the candidate sits;
    ``positions`` are those candidate positions.
    """

    field: tuple[str | None, ...]

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.field)

    @property
    def positions(self) -> tuple[int, ...]:
        """The listed positions the candidate takes."""
        return tuple(j for j, spec in enumerate(self.field) if spec is None)

    @property
    def rotations(self) -> int:
        """The rotations each deal is played in: those that move the candidate's positions
        (A, B, A, B at 4 seats has 2; rotations 2 and 3 would be the games of 0 and 1)."""
        return distinct_rotations(self.field)

    def seating(self, candidate: str) -> list[str]:
        """The listed seating with ``candidate`` in its positions."""
        return [candidate if spec is None else spec for spec in self.field]

    def describe(self, name: Callable[[str], str] = str) -> str:
        """The table in words, e.g. ``candidate, greedy, candidate, greedy``, each field
        strategy as ``name`` gives it (pages: as listings name it)."""
        return ", ".join("candidate" if spec is None else name(spec) for spec in self.field)


def make_lineup(field: Sequence[str], players: int | None = None) -> Lineup:
    """The table for ``field`` (canonical specs): alternate with one, else one seat each.

    ``players`` defaults to 4 with one field strategy and to one seat per listed strategy
    plus the candidate's with several.
    """
    if not field:
        raise LineupError("--against needs at least one strategy")
    if len(field) == 1:
        seats = DEFAULT_PLAYERS if players is None else players
        return Lineup(tuple(alternating(None, field[0], seats)))
    if players is not None and players != len(field) + 1:
        raise LineupError(f"--against lists {len(field)} strategies for {players} players: "
                          f"give one (the seats alternate with it) or {players - 1} "
                          f"(one per other seat)")
    return Lineup((None, *field))
