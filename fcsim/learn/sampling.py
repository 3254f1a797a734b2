"""Which discards become training positions, and what each is labelled with.

Plain data: the command line reads its choices from here.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from fcsim.core.rules import MAX_HAND_AT_DISCARD

OUTCOME, ROLLOUTS = "outcome", "rollouts"
LABELS = (OUTCOME, ROLLOUTS)
MAX_CANDIDATES = MAX_HAND_AT_DISCARD  # a position's discards, at most


@dataclass(frozen=True)
class Sampling:
    """``share`` of the discards (not last turns) are recorded; ``labels`` is ``outcome``
    (one row, the discard made, labelled with the round's outcome) or ``rollouts`` (a row
    for each of the ``candidates`` best discards now, each played out to the round's end
    and labelled with its outcome less the candidates' mean)."""

    share: float = 0.25
    labels: str = ROLLOUTS
    candidates: int = 5

    @property
    def rows_per_position(self) -> int:
        """Rows a recorded position adds."""
        return self.candidates if self.labels == ROLLOUTS else 1

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)
