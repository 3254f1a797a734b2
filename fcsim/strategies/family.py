"""What a strategy is: a :class:`Family` (numba decision functions or a Python agent
factory) with its parameters (:class:`Param`), and a :class:`Strategy` — a family with its
parameters set, which plays everywhere: the engine runs numba strategies in its compiled
loop, and calling a strategy on a :class:`~fcsim.core.view.View` makes the move it would
make there (the agent form).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from fcsim.core.cards import N_KINDS, format_card
from fcsim.core.engine import illegal_move
from fcsim.core.state import ERR_DISCARD, ERR_DRAW, shared_scratch
from fcsim.core.tables import solver_table
from fcsim.core.view import DRAW_ACTIONS, NO_HIDDEN, View, compiled, without_history
from fcsim.errors import FcsimError


class StrategyError(FcsimError, ValueError):
    """An unknown strategy, parameter or value; the message lists what exists."""


ANALYSIS_ONLY = "analysis only"  # the mark of a strategy that sees hidden cards, wherever listed


@dataclass(frozen=True)
class Param:
    """A named numeric parameter with its default, what it does, and its bounds.

    A ``strategy`` parameter holds a strategy spec instead (a numba, fair one, such as a
    search's rollout policy); in a spec its own parameters are separated by ``;``
    (``rollout=aware:feed_weight=2;urgency=1``). It is not in the parameter vector: the
    family's ``bind`` makes decision functions for it. A ``path`` parameter holds a file's
    path (a model): not in the parameter vector either; the family's ``data`` turns the
    file into numbers that follow the parameter vector.
    """

    name: str
    default: float | str
    help: str
    integer: bool = True
    low: float = -1e9
    high: float = 1e9
    strategy: bool = False
    path: bool = False

    @property
    def numeric(self) -> bool:
        """Whether the parameter is a number of the parameter vector."""
        return not (self.strategy or self.path)


@dataclass(frozen=True)
class Family:
    """A registered strategy family: numba decision functions, or a Python agent factory.

    ``draw`` / ``discard`` are ``@decision`` functions (:mod:`fcsim.core.view`), or
    ``bind`` makes them, called with the ``strategy`` parameters as keywords (a family
    whose compiled code calls another strategy's); ``agent`` is called with the
    parameters as keywords and returns an agent. A family has one or the other.
    ``data``, called with the ``path`` parameters as keywords, returns the numbers that
    follow the parameter vector (a model's weights), raising :class:`StrategyError` for a
    file it cannot use; ``table_notes``, called with a ``RuleSet`` and the strategy's
    parameters as keywords, says in a line each why its files may not suit that table or
    those parameters (a model trained for other rules), or returns no line. ``source`` says
    where it comes from (``fcsim`` for built-ins).
    """

    name: str
    description: str
    draw: Callable | None = None
    discard: Callable | None = None
    params: tuple[Param, ...] = ()
    oracle: bool = False
    agent: Callable[..., Callable[[View], object]] | None = None
    source: str = "fcsim"
    bind: Callable[..., tuple[Callable, Callable]] | None = None
    leaderboard: bool = True  # played by default in tournaments (fair ones only)
    data: Callable[..., np.ndarray] | None = None
    table_notes: Callable[..., tuple[str, ...]] | None = None
    history: bool = False  # its decisions read the round's public history in info

    def __post_init__(self) -> None:
        numba = self.bind is not None or (self.draw is not None and self.discard is not None)
        if numba == (self.agent is not None) or (self.draw is None) != (self.discard is None):
            raise ValueError(f"strategy {self.name!r} needs draw and discard functions, or "
                             f"an agent factory (not both)")
        if self.oracle and not numba:
            raise ValueError(f"strategy {self.name!r}: only numba strategies can be oracles")

    @property
    def is_numba(self) -> bool:
        return self.agent is None

    @property
    def numeric_params(self) -> tuple[Param, ...]:
        """The parameters of the parameter vector, in its order."""
        return tuple(p for p in self.params if p.numeric)

    def param(self, name: str) -> int:
        """The position of parameter ``name`` in the parameter vector."""
        for i, p in enumerate(self.numeric_params):
            if p.name == name:
                return i
        raise KeyError(f"{self.name} has no parameter {name!r}")


@dataclass(frozen=True)
class Strategy:
    """A family with every parameter set; ``spec`` is its canonical text form.

    Calling it on a :class:`~fcsim.core.view.View` returns its action there (an agent).
    """

    family: Family
    values: tuple[float | str, ...] = field(default=())
    _agent: list = field(default_factory=list, init=False, repr=False, compare=False)

    @property
    def name(self) -> str:
        return self.family.name

    @property
    def spec(self) -> str:
        changed = [
            f"{p.name}={format_value(v) if p.numeric else v}"
            for p, v in zip(self.family.params, self.values, strict=True)
            if v != p.default
        ]
        return self.name + (":" + ",".join(changed) if changed else "")

    @property
    def history(self) -> bool:
        """Whether its decisions read the round's public history in ``info`` (the engine
        copies it there only for such strategies)."""
        return self.family.history

    @property
    def oracle(self) -> bool:
        return self.family.oracle

    def _decisions(self) -> tuple[Callable, Callable]:
        if self.family.bind is None:
            return self.family.draw, self.family.discard
        bound = {p.name: v for p, v in zip(self.family.params, self.values, strict=True)
                 if p.strategy}
        return self.family.bind(**bound)

    @property
    def draw(self) -> Callable | None:
        """The compiled draw decision (None for a Python agent)."""
        return compiled(self._decisions()[0]) if self.family.is_numba else None

    @property
    def discard(self) -> Callable | None:
        """The compiled discard decision (None for a Python agent)."""
        return compiled(self._decisions()[1]) if self.family.is_numba else None

    @property
    def param_vector(self) -> np.ndarray:
        """The numeric parameters in order, then the family's ``data`` (if any)."""
        numbers = np.array([v for p, v in zip(self.family.params, self.values, strict=True)
                            if p.numeric], dtype=np.float64)
        if self.family.data is None:
            return numbers
        return np.concatenate([numbers, self.family.data(**self.paths)])

    @property
    def paths(self) -> dict[str, str]:
        """The ``path`` parameters by name."""
        return {p.name: str(v) for p, v in zip(self.family.params, self.values, strict=True)
                if p.path}

    @property
    def kwargs(self) -> dict[str, float | int | str]:
        """The parameters by name (whole numbers as ``int``)."""
        return {p.name: v if not p.numeric else int(v) if p.integer else float(v)
                for p, v in zip(self.family.params, self.values, strict=True)}

    def __call__(self, view: View) -> object:
        """This strategy's action in ``view``. A numba strategy gets what the batch
        engine gives it (the public history only if its family declares it reads it), and
        a move out of range is refused as the engine refuses it, naming the strategy."""
        if not self.family.is_numba:
            if not self._agent:
                self._agent.append(self.family.agent(**self.kwargs))
            return self._agent[0](view)
        if self.oracle:
            raise StrategyError(f"{self.spec} sees hidden cards: it plays in batch runs "
                                "(analysis only), never on a player's view")
        info = view.info if self.history else without_history(view.info)
        args = (view.hand_counts, view.pile_kinds, view.known_counts, info, NO_HIDDEN,
                self.param_vector, solver_table(), shared_scratch(), view.rng)
        if view.phase == "draw":
            source = int(self.draw(*args))
            if not 0 <= source < len(DRAW_ACTIONS):
                raise illegal_move(self.spec, ERR_DRAW, source)
            return DRAW_ACTIONS[source]
        kind = int(self.discard(*args))
        if not (0 <= kind < N_KINDS and view.hand_counts[kind]):
            raise illegal_move(self.spec, ERR_DISCARD, kind)
        return format_card(kind)

    def __str__(self) -> str:
        return self.spec


def format_value(value: float) -> str:
    """A parameter's value as a spec writes it: ``3``, not ``3.0``."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))
