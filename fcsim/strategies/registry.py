"""Strategy families by name, and parsing of specs like ``greedy:take_margin=3``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np


class StrategyError(ValueError):
    """An unknown strategy, parameter or value; the message lists what exists."""


@dataclass(frozen=True)
class Param:
    """A named numeric parameter with its default and what it does."""

    name: str
    default: float
    help: str
    integer: bool = True
    low: float = -1e9
    high: float = 1e9


@dataclass(frozen=True)
class Family:
    """A registered strategy family: its decision functions and parameters."""

    name: str
    description: str
    draw: Callable
    discard: Callable
    params: tuple[Param, ...] = ()
    oracle: bool = False


@dataclass(frozen=True)
class Strategy:
    """A family with every parameter set; ``spec`` is its canonical text form."""

    family: Family
    values: tuple[float, ...] = field(default=())

    @property
    def name(self) -> str:
        return self.family.name

    @property
    def spec(self) -> str:
        changed = [
            f"{p.name}={_fmt(v)}"
            for p, v in zip(self.family.params, self.values, strict=True)
            if v != p.default
        ]
        return self.name + (":" + ",".join(changed) if changed else "")

    @property
    def param_vector(self) -> np.ndarray:
        return np.array(self.values, dtype=np.float64)

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


def parse_strategy(spec: str) -> Strategy:
    """The strategy named by ``name`` or ``name:key=value,key=value``."""
    text = spec.strip()
    name, _, rest = text.partition(":")
    family = _FAMILIES.get(name.strip().lower())
    if family is None:
        raise StrategyError(
            f"unknown strategy {name.strip()!r}; known strategies: {', '.join(_FAMILIES)}"
        )
    values = {p.name: p.default for p in family.params}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, raw = item.partition("=")
        key = key.strip()
        param = next((p for p in family.params if p.name == key), None)
        if param is None or not eq:
            known = ", ".join(p.name for p in family.params) or "none"
            raise StrategyError(
                f"bad parameter {item!r} for strategy {family.name!r}; its parameters: {known}"
            )
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
    return Strategy(family, tuple(values[p.name] for p in family.params))


def parse_strategies(text: str) -> list[Strategy]:
    """Strategies from a comma-separated list where parameters follow ``:``.

    ``"greedy:take_margin=3,random"`` is two strategies: a ``key=value`` item belongs to
    the strategy before it.
    """
    specs: list[str] = []
    for item in (x.strip() for x in text.split(",")):
        if not item:
            continue
        if "=" in item and ":" not in item and specs:
            specs[-1] += "," + item
        else:
            specs.append(item)
    if not specs:
        raise StrategyError("no strategy given")
    return [parse_strategy(s) for s in specs]
