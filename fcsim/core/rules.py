"""The rule set of a game: every variant of RULES.md, validated, and its numba-friendly form."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import Field, asdict, dataclass, field, fields
from enum import IntEnum

import numpy as np

from fcsim.core.cards import JOKER_PENALTY, MAX_RANK, wild_rank
from fcsim.errors import FcsimError

MIN_PLAYERS = 2
MAX_PLAYERS = 7
DEFAULT_PLAYERS = 4  # the table when nothing sets its size
COMPARE_PLAYERS = 2  # the table of two strategies compared, unless told otherwise
ROUND_COUNTS = (11, 6)
# The cards a hand holds when it discards, at most: the last round's deal and the card drawn
MAX_HAND_AT_DISCARD = wild_rank(max(ROUND_COUNTS)) + 1
DEFAULT_TURN_CAP = 2000
FACE = "face"

# The int64 vector returned by RuleSet.as_array (read by the kernels), by name (a record:
# see fcsim.core.records).
Rule = IntEnum("Rule", [
    "PLAYERS",
    "ROUNDS",
    "WILD_PENALTY",  # FACE_VALUE means "face value of the wild-rank card"
    "GO_OUT_BONUS",
    "ALL_WILD_MELDS",
    "TURN_CAP",
], start=0)
R_SIZE = len(Rule)
# The fields under the flat names callers outside the core import.
R_PLAYERS = Rule.PLAYERS
R_ROUNDS = Rule.ROUNDS
R_WILD_PENALTY = Rule.WILD_PENALTY
R_GO_OUT_BONUS = Rule.GO_OUT_BONUS
R_ALL_WILD_MELDS = Rule.ALL_WILD_MELDS
R_TURN_CAP = Rule.TURN_CAP

FACE_VALUE = -1  # Rule.WILD_PENALTY of face-value wilds


def default_seats(listed: int) -> int:
    """The seats of a table of ``listed`` strategies given without a table size: one each,
    or :data:`DEFAULT_PLAYERS` for a single one (it then plays every seat)."""
    return listed if listed > 1 else DEFAULT_PLAYERS


class RulesError(FcsimError, ValueError):
    """A rule set that RULES.md does not allow."""


def as_rules(rules: object) -> RuleSet:
    """``rules``, checked to be a :class:`RuleSet` (a one-line TypeError saying what to
    pass otherwise): what the Python API's functions and classes take as ``rules``."""
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet, such as fcsim.RuleSet(players=3, "
                        f"wild_penalty=30), not {rules!r}")
    return rules


def _whole(value: object) -> bool:
    """An int that is not a bool (``True`` is no player count)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _wild_penalty(text: str) -> int | str:
    """``face`` (any case) or a whole number."""
    return FACE if text.strip().lower() == FACE else int(text)


@dataclass(frozen=True)
class Flag:
    """How the command line sets a rule: ``name VALUE`` (``VALUE`` read by ``parse``;
    ``metavar`` and ``what`` say what it may be), or, when ``sets`` is given, ``name``
    alone, which sets the rule to ``sets``.

    Declared once, in the metadata of the rule's field of :class:`RuleSet` (under
    ``"flag"``): every command's rule options and the command line that plays a run
    again are built from it (:mod:`fcsim.cli.options`). ``hand`` marks a rule that
    changes what a hand scores (``fcsim solve`` takes those alone)."""

    name: str
    help: str
    sets: object = None
    parse: Callable[[str], object] = int
    metavar: str = "N"
    what: str = "a whole number"
    hand: bool = False


@dataclass(frozen=True)
class RuleSet:
    """One Five Crowns rule set (RULES.md); every field is a variant, defaults are the rules.

    Parameters
    ----------
    players : 2–7 seats.
    rounds : 11 (3…13 cards) or 6 (the short game, 3…8 cards).
    wild_penalty : points of an unmelded wild-rank card: a positive int, or ``"face"``.
    go_out_bonus : points scored by the player who goes out (0, or e.g. -10).
    all_wild_melds : whether three or more wilds alone form a meld.
    turn_cap : turns after which a round nobody goes out of is stopped and flagged.
    """

    players: int = DEFAULT_PLAYERS  # no rule flag: each command seats its own table
    rounds: int = field(default=11, metadata={"flag": Flag(
        "--short", "Short game: 6 rounds (3…8 cards).", sets=6)})
    wild_penalty: int | str = field(default=20, metadata={"flag": Flag(
        "--wild-penalty", "Points of an unmelded wild-rank card: N or 'face'.",
        parse=_wild_penalty, metavar="face|N", what="'face' or a whole number", hand=True)})
    go_out_bonus: int = field(default=0, metadata={"flag": Flag(
        "--go-out-bonus", "Points for the player who goes out (e.g. -10).")})
    all_wild_melds: bool = field(default=True, metadata={"flag": Flag(
        "--no-all-wild-melds", "Every meld needs a natural card (3+ wilds alone are no meld).",
        sets=False, hand=True)})
    turn_cap: int = field(default=DEFAULT_TURN_CAP, metadata={"flag": Flag(
        "--turn-cap", "Turns after which a round nobody goes out of is stopped and flagged.")})

    def __post_init__(self) -> None:
        for rule in fields(self):  # numpy's whole numbers and truth values are Python's too
            value = getattr(self, rule.name)
            if isinstance(value, np.integer):
                object.__setattr__(self, rule.name, int(value))
            elif isinstance(value, np.bool_):
                object.__setattr__(self, rule.name, bool(value))
        if not _whole(self.players) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise RulesError(
                f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {self.players!r}"
            )
        if not _whole(self.rounds) or self.rounds not in ROUND_COUNTS:
            raise RulesError(
                f"rounds must be 11 (full game) or 6 (short game), not {self.rounds!r}"
            )
        if self.wild_penalty != FACE and not (
            _whole(self.wild_penalty) and 1 <= self.wild_penalty <= 1000
        ):
            raise RulesError(
                f"wild_penalty must be 'face' or a whole number from 1 to 1000, "
                f"not {self.wild_penalty!r}"
            )
        if not _whole(self.go_out_bonus) or not -1000 <= self.go_out_bonus <= 0:
            raise RulesError(
                f"go_out_bonus must be a whole number from -1000 to 0, not {self.go_out_bonus!r}"
            )
        if not isinstance(self.all_wild_melds, bool):
            raise RulesError(f"all_wild_melds must be True or False, not {self.all_wild_melds!r}")
        if not _whole(self.turn_cap) or not 10 <= self.turn_cap <= 1_000_000:
            raise RulesError(f"turn_cap must be 10 to 1,000,000 turns, not {self.turn_cap!r}")

    @property
    def most_turns(self) -> int:
        """The most turns a round can last: a seat may go out on the capped turn, and every
        other seat then plays its last turn."""
        return self.turn_cap + self.players - 1

    @property
    def worst_round(self) -> int:
        """The most points one round can cost a seat: the last round's hand, every card at
        the highest penalty a card can carry (a joker's, a king's or a wild's); the bound of
        the observations' penalties and of OpenSpiel's utilities."""
        wild_points = MAX_RANK if self.wild_penalty == FACE else self.wild_penalty
        return wild_rank(self.rounds) * max(JOKER_PENALTY, MAX_RANK, wild_points)

    def wild_points(self, round_number: int) -> int:
        """Points of an unmelded card of the wild rank in ``round_number``."""
        return wild_rank(round_number) if self.wild_penalty == FACE else int(self.wild_penalty)

    def as_array(self) -> np.ndarray:
        """The rules as ``int64[R_SIZE]`` for the kernels (the fields of :data:`Rule`)."""
        out = np.zeros(R_SIZE, dtype=np.int64)
        out[Rule.PLAYERS] = self.players
        out[Rule.ROUNDS] = self.rounds
        out[Rule.WILD_PENALTY] = FACE_VALUE if self.wild_penalty == FACE else self.wild_penalty
        out[Rule.GO_OUT_BONUS] = self.go_out_bonus
        out[Rule.ALL_WILD_MELDS] = int(self.all_wild_melds)
        out[Rule.TURN_CAP] = self.turn_cap
        return out

    def to_dict(self) -> dict:
        """A JSON-ready description (stored in run metadata)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> RuleSet:
        """The inverse of :meth:`to_dict`."""
        return cls(**data)

    def check_round(self, round_number: int) -> None:
        """Raise :class:`RulesError` unless ``round_number`` is a round of this game."""
        if not isinstance(round_number, int) or not 1 <= round_number <= self.rounds:
            raise RulesError(f"round must be 1 to {self.rounds}, not {round_number!r}")


def rule_flags() -> list[tuple[Field, Flag]]:
    """The rules the command line sets, each with its :class:`Flag`, in field order."""
    return [(f, f.metadata["flag"]) for f in fields(RuleSet) if "flag" in f.metadata]
