"""Strategy families by name, and parsing of specs like ``greedy:take_margin=3``.

A family is either **numba** (two decision functions the engine calls in compiled code)
or **Python** (an agent factory: parameters -> a callable from a view to an action).
Either way a :class:`Strategy` — a family with its parameters set — plays everywhere:
the engine runs numba strategies in its compiled loop, and calling a strategy on a
:class:`~fcsim.core.view.View` makes the move it would make there (the agent form).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from fcsim.core.cards import format_card
from fcsim.core.state import shared_scratch
from fcsim.core.tables import solver_table
from fcsim.core.view import DRAW_ACTIONS, NO_HIDDEN, View, compiled


class StrategyError(ValueError):
    """An unknown strategy, parameter or value; the message lists what exists."""


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
    file it cannot use; ``table_note``, called with the ``path`` parameters and a
    ``RuleSet``, says in one line why those files may not suit that table (a model trained
    for other rules), or returns None. ``source`` says where it comes from (``fcsim`` for
    built-ins).
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
    table_note: Callable[..., str | None] | None = None

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
            f"{p.name}={_fmt(v) if p.numeric else v}"
            for p, v in zip(self.family.params, self.values, strict=True)
            if v != p.default
        ]
        return self.name + (":" + ",".join(changed) if changed else "")

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
        """This strategy's action in ``view``."""
        if not self.family.is_numba:
            if not self._agent:
                self._agent.append(self.family.agent(**self.kwargs))
            return self._agent[0](view)
        if self.oracle:
            raise StrategyError(f"{self.spec} sees hidden cards: it plays in batch runs "
                                "(analysis only), never on a player's view")
        args = (view.hand_counts, view.pile_kinds, view.known_counts, view.info, NO_HIDDEN,
                self.param_vector, solver_table(), shared_scratch(), view.rng)
        if view.phase == "draw":
            return DRAW_ACTIONS[self.draw(*args)]
        return format_card(int(self.discard(*args)))

    def __str__(self) -> str:
        return self.spec


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


_FAMILIES: dict[str, Family] = {}


def register(family: Family) -> Family:
    """Add a family to the registry (one line per strategy module)."""
    if family.name in _FAMILIES:
        raise ValueError(f"strategy {family.name!r} is registered twice")
    _FAMILIES[family.name] = family
    return family


def families() -> list[Family]:
    """Every registered family, in registration order."""
    return list(_FAMILIES.values())


def parse_strategy(spec: str | Strategy | Callable) -> Strategy:
    """The strategy named by a spec; a :class:`Strategy` as it is; a Python agent (a
    callable from a view to an action) as a strategy of its own.

    Spec forms, each with optional parameters ``…:key=value,key=value``:

    * ``name`` — a built-in strategy, or a plug-in an installed package declares (entry
      points ``fcsim.strategies``, looked up when the name is not registered);
    * ``path/to/file.py`` or ``path/to/file.py:attribute`` — a strategy in a loose file;
    * ``module.path:attribute`` — a family or an agent defined in an importable module.

    Registered names win over plug-ins, and both over modules.
    """
    if isinstance(spec, Strategy):
        return spec
    if not isinstance(spec, str):
        return Strategy(agent_family(spec))
    from fcsim.strategies.files import file_family, is_file_spec
    from fcsim.strategies.plugins import find_plugin, plugin_names

    text = spec.strip()
    if is_file_spec(text):
        return with_params(*file_family(text))
    name, _, rest = text.partition(":")
    family = lookup(name) or find_plugin(name)
    if family is None:
        attribute, _, params = rest.partition(":")
        if name.strip() and attribute.strip() and "=" not in attribute:
            return with_params(imported_family(name.strip(), attribute.strip()), params)
        known = ", ".join([*_FAMILIES, *plugin_names()])
        raise StrategyError(
            f"unknown strategy {name.strip()!r}; known strategies: {known} "
            f"(or path/to/file.py, or module:attribute for one defined in a module)"
        )
    return with_params(family, rest)


def lookup(name: str) -> Family | None:
    """The registered family ``name`` (any case, surrounding spaces ignored), or None."""
    return _FAMILIES.get(name.strip()) or _FAMILIES.get(name.strip().lower())


def agent_family(agent: Callable, name: str | None = None) -> Family:
    """A Python agent (``view -> action``) as a family of its own, registered under
    ``name`` (default: ``module:qualname``, the spec a worker process imports it by)."""
    if not callable(agent):
        raise StrategyError(f"{agent!r} is not a strategy spec nor an agent (a callable "
                            f"from a view to an action)")
    qualname = getattr(agent, "__qualname__", type(agent).__qualname__)
    name = name or f"{getattr(agent, '__module__', '__main__')}:{qualname}"
    known = _FAMILIES.get(name)
    if known is not None and known.agent is not None and known.agent() is agent:
        return known
    doc = (getattr(agent, "__doc__", None) or "a Python agent").strip().splitlines()[0]
    family = Family(name, doc, agent=lambda: agent, source=name.partition(":")[0])
    _FAMILIES[name] = family  # an agent redefined (say in a notebook) replaces the old one
    return family


def imported_family(module_name: str, attribute: str) -> Family:
    """The family (or agent) ``attribute`` of module ``module_name``, registered as
    ``module:attribute``. A worker process resolves the same spec the same way."""
    import importlib
    import sys

    name = f"{module_name}:{attribute}"
    if name in _FAMILIES:
        return _FAMILIES[name]
    try:
        module = (sys.modules.get("__mp_main__") or sys.modules["__main__"]
                  if module_name == "__main__" else importlib.import_module(module_name))
    except ImportError as err:
        raise StrategyError(f"strategy {name!r}: cannot import {module_name!r} ({err})"
                            ) from None
    target: object = module
    for part in attribute.split("."):
        target = getattr(target, part, None)
        if target is None:
            raise StrategyError(f"strategy {name!r}: {module_name} has no {attribute!r}")
    from fcsim.strategies.external import family_from, is_agent

    if is_agent(target):
        return agent_family(target, name)  # re-registered if redefined (a notebook)
    return register(family_from(target, name, module_name))


def with_params(family: Family, text: str) -> Strategy:
    """``family`` with the parameters of ``key=value,key=value`` set (others at default)."""
    values = {p.name: p.default for p in family.params}
    for item in filter(None, (x.strip() for x in text.split(","))):
        key, eq, raw = item.partition("=")
        key = key.strip()
        param = next((p for p in family.params if p.name == key), None)
        if param is None or not eq:
            known = ", ".join(p.name for p in family.params) or "none"
            raise StrategyError(
                f"bad parameter {item!r} for strategy {family.name!r}; its parameters: {known}"
            )
        if param.strategy:
            values[key] = _nested_spec(family, key, raw)
            continue
        if param.path:
            values[key] = raw.strip()
            continue
        try:
            value = float(raw)
        except ValueError:
            raise StrategyError(f"{family.name}: {key} must be a number, not {raw!r}") from None
        if param.integer and not value.is_integer():
            raise StrategyError(f"{family.name}: {key} must be a whole number, not {raw!r}")
        if not param.low <= value <= param.high:
            raise StrategyError(
                f"{family.name}: {key} must be {_fmt(param.low)} to {_fmt(param.high)}, "
                f"not {raw!r}"
            )
        values[key] = value
    strategy = Strategy(family, tuple(values[p.name] for p in family.params))
    if family.data is not None:
        family.data(**strategy.paths)  # a file it cannot use is refused here, once
    return strategy


NESTED_SEPARATOR = ";"  # between the parameters of a strategy given as a parameter


def _nested_spec(family: Family, key: str, raw: str) -> str:
    """The canonical spec of the strategy given as parameter ``key`` (its own parameters
    separated by ``;``): a numba strategy that sees no hidden cards."""
    inner = parse_strategy(raw.strip().replace(NESTED_SEPARATOR, ","))
    if not inner.family.is_numba or inner.oracle:
        raise StrategyError(f"{family.name}: {key} must be a numba strategy that sees no "
                            f"hidden cards, not {inner.spec!r}")
    return inner.spec.replace(",", NESTED_SEPARATOR)


def parse_strategies(text: str) -> list[Strategy]:
    """Strategies from a comma-separated list where parameters follow ``:``.

    ``"greedy:take_margin=3,random"`` is two strategies: a ``key=value`` item (its key
    holds no ``:``) belongs to the strategy before it.
    """
    specs: list[str] = []
    for item in (x.strip() for x in text.split(",")):
        if not item:
            continue
        if "=" in item and ":" not in item.partition("=")[0] and specs:
            specs[-1] += "," + item
        else:
            specs.append(item)
    if not specs:
        raise StrategyError("no strategy given")
    return [parse_strategy(s) for s in specs]
