"""The parameters a sweep or a tune varies: ``--grid name=v1,v2,…`` and ``--param name=lo:hi``.

Every name and value is checked against the family's declared parameters (by
:func:`fcsim.strategies.parse_strategy`, so the rules and messages are the registry's): the
name must exist, values and range ends lie within the declared bounds, and integer
parameters take whole numbers only. A problem is a :class:`SpaceError` of one line.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import product

from fcsim.errors import FcsimError
from fcsim.strategies import Family, Param, Strategy, StrategyError, parse_strategy
from fcsim.strategies.family import format_value

# Grid values are rounded to this many decimals, so 0:1:0.1 gives 0.3, not 0.30000000000000004.
GRID_DECIMALS = 10
MAX_AXIS_VALUES = 10_000  # the most values a --grid low:high:step axis makes


class SpaceError(FcsimError, ValueError):
    """A grid or a range that cannot be searched (the message says what is allowed)."""


@dataclass(frozen=True)
class Axis:
    """One swept parameter and its values, in the order given."""

    param: Param
    values: tuple[float, ...]


@dataclass(frozen=True)
class Range:
    """One tuned parameter, from ``low`` to ``high`` inclusive (whole numbers if integer)."""

    param: Param
    low: float
    high: float

    def text(self) -> str:
        """``name=low:high`` as on the command line."""
        return f"{self.param.name}={format_value(self.low)}:{format_value(self.high)}"


def _param(family: Family, name: str, verb: str) -> Param:
    if not family.params:
        raise SpaceError(f"{family.name} has no parameters to {verb}")
    found = next((p for p in family.params if p.name == name), None)
    if found is None:
        known = ", ".join(p.name for p in family.params)
        raise SpaceError(f"{family.name} has no parameter {name!r}; its parameters: {known}")
    if not found.numeric:
        numbers = ", ".join(p.name for p in family.numeric_params)
        what = "a strategy" if found.strategy else "a file"
        raise SpaceError(f"{family.name}'s {name} is {what}, not a number: set it in the "
                         f"spec ({family.name}:{name}=…) and {verb} its numbers ({numbers})")
    return found


def _value(family: Family, param: Param, text: str) -> float:
    """``text`` as a value of ``param``, checked by the registry (number, whole, bounds)."""
    try:
        strategy = parse_strategy(f"{family.name}:{param.name}={text.strip()}")
    except StrategyError as err:
        raise SpaceError(str(err)) from None
    return strategy.values[family.params.index(param)]


def _split(text: str, flag: str, form: str) -> tuple[str, str]:
    name, eq, rest = text.partition("=")
    if not eq or not name.strip():
        raise SpaceError(f"{flag} {text!r}: write {form}")
    return name.strip(), rest.strip()


def _stepped(family: Family, param: Param, text: str) -> tuple[float, ...]:
    """The values of ``low:high[:step]`` (step 1 for integer parameters)."""
    parts = text.split(":")
    if len(parts) not in (2, 3) or (len(parts) == 2 and not param.integer):
        raise SpaceError(f"--grid {param.name}={text}: write low:high:step"
                         + (" (or low:high for every whole number)" if param.integer else
                            f" ({param.name} takes any number: the step says which)"))
    low, high = (_value(family, param, part) for part in parts[:2])
    step = float(parts[2]) if len(parts) == 3 and _is_number(parts[2]) else None
    if len(parts) == 3 and (step is None or not 0 < step < math.inf):
        raise SpaceError(f"--grid {param.name}={text}: the step must be a positive number")
    step = 1.0 if step is None else step
    if param.integer and not step.is_integer():
        raise SpaceError(f"--grid {param.name}={text}: {param.name} takes whole numbers, "
                         f"so the step must be one")
    if low > high:
        raise SpaceError(f"--grid {param.name}={text} is empty: low is above high")
    count = math.floor((high - low) / step + 1e-9) + 1
    if count > MAX_AXIS_VALUES:
        raise SpaceError(f"--grid {param.name}={text} makes {count:,} values: at most "
                         f"{MAX_AXIS_VALUES:,} an axis (a larger step)")
    return tuple(round(low + k * step, GRID_DECIMALS) for k in range(count))


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def parse_grid(family: Family, texts: Sequence[str]) -> list[Axis]:
    """Axes from ``--grid name=v1,v2,…`` (or ``name=low:high[:step]``) options."""
    axes: list[Axis] = []
    for text in texts:
        name, rest = _split(text, "--grid", "name=v1,v2,… or name=low:high:step")
        param = _param(family, name, "sweep")
        if any(axis.param == param for axis in axes):
            raise SpaceError(f"--grid {name} is given twice; list all its values in one --grid")
        if ":" in rest:
            values = _stepped(family, param, rest)
        else:
            items = [item for item in (x.strip() for x in rest.split(",")) if item]
            if not items:
                raise SpaceError(f"--grid {text!r} gives no values; write {name}=v1,v2,…")
            values = tuple(_value(family, param, item) for item in items)
        repeated = sorted({v for v in values if values.count(v) > 1})
        if repeated:
            raise SpaceError(f"--grid {name} lists {format_value(repeated[0])} twice")
        axes.append(Axis(param, values))
    if not axes:
        raise SpaceError("give at least one --grid name=v1,v2,…")
    return axes


def parse_ranges(family: Family, texts: Sequence[str]) -> list[Range]:
    """Ranges from ``--param name=low:high`` options."""
    ranges: list[Range] = []
    for text in texts:
        name, rest = _split(text, "--param", "name=low:high")
        param = _param(family, name, "tune")
        if any(r.param == param for r in ranges):
            raise SpaceError(f"--param {name} is given twice")
        ends = rest.split(":")
        if len(ends) != 2 or not all(e.strip() for e in ends):
            raise SpaceError(f"--param {text!r}: write {name}=low:high")
        low, high = (_value(family, param, end) for end in ends)
        if low >= high:
            raise SpaceError(f"--param {text!r} is an empty range: low must be below high "
                             f"(to fix {name}, set it in the strategy spec)")
        ranges.append(Range(param, low, high))
    if not ranges:
        raise SpaceError("give at least one --param name=low:high")
    return ranges


def grid_points(axes: Iterable[Axis]) -> list[dict[str, float]]:
    """Every combination of the axes' values (the first axis varies slowest)."""
    axes = list(axes)
    return [{axis.param.name: value for axis, value in zip(axes, values, strict=True)}
            for values in product(*(axis.values for axis in axes))]


def with_values(base: Strategy, values: Mapping[str, float]) -> Strategy:
    """``base`` with the numbers named in ``values`` set (the others, and the strategy
    parameters such as a search's rollout policy, as in ``base``)."""
    return Strategy(base.family, tuple(float(values.get(p.name, v)) if p.numeric else v
                                       for p, v in zip(base.family.params, base.values,
                                                       strict=True)))


def inside(strategy: Strategy, ranges: Iterable[Range]) -> bool:
    """Whether every ranged parameter of ``strategy`` lies inside its range."""
    index = {p.name: i for i, p in enumerate(strategy.family.params)}
    return all(r.low <= strategy.values[index[r.param.name]] <= r.high for r in ranges)
