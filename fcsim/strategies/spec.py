"""Strategy specs like ``greedy:take_margin=3``: parsed into a :class:`Strategy`, from a
registered name, a plug-in, a loose file or ``module:attribute``."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable

from fcsim.strategies.external import family_from, is_agent, load_error
from fcsim.strategies.family import (
    ANALYSIS_ONLY,
    Family,
    Strategy,
    StrategyError,
    format_value,
)
from fcsim.strategies.files import file_family, is_file_spec
from fcsim.strategies.known import agent_family, families, lookup, register, registered
from fcsim.strategies.plugins import find_plugin, plugin_names


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
    text = spec.strip()
    if is_file_spec(text):
        return with_params(*file_family(text))
    name, _, rest = text.partition(":")
    if name.strip().lower() in SPEC_PREFIXES:
        return _prefixed(name.strip().lower(), rest)
    family = lookup(name) or find_plugin(name)
    if family is None:
        attribute, _, params = rest.partition(":")
        if name.strip() and attribute.strip() and "=" not in attribute:
            return with_params(imported_family(name.strip(), attribute.strip()), params)
        known = ", ".join([*(f.name for f in families()), *plugin_names()])
        raise StrategyError(
            f"unknown strategy {name.strip()!r}; known strategies: {known} "
            f"(or path/to/file.py, or module:attribute for one defined in a module)"
        )
    return with_params(family, rest)


def display_name(spec: str) -> str:
    """``spec`` as listings show it: a strategy that sees hidden cards (an oracle) marked
    ``(analysis only)``, so that no table, chart or page shows a reference as a player.

    Only the name is looked up (a registered or installed family): naming a run's
    strategies never imports a loose file or module again, and a spec that names no such
    family (one of those, or a plug-in not installed here) is shown as it is.
    """
    name = spec.partition(":")[0]
    try:
        family = lookup(name) or find_plugin(name)
    except StrategyError:
        family = None
    return f"{spec} ({ANALYSIS_ONLY})" if family is not None and family.oracle else spec


# Spec prefixes resolved by a module of a higher layer, named here, not imported (it may
# need an extra): ``prefix:name:key=value,…`` is ``module.family(name)`` with parameters.
SPEC_PREFIXES = {"openspiel": "fcsim.openspiel.agents"}


def _prefixed(prefix: str, rest: str) -> Strategy:
    """The strategy of a prefixed spec (``openspiel:ismcts:simulations=50``)."""
    name, _, params = rest.partition(":")
    try:
        module = importlib.import_module(SPEC_PREFIXES[prefix])
    except ImportError as err:
        raise StrategyError(f"strategy {prefix}:{name.strip()}: {err}") from None
    return with_params(module.family(name), params)


def imported_family(module_name: str, attribute: str) -> Family:
    """The family (or agent) ``attribute`` of module ``module_name``, registered as
    ``module:attribute``. A worker process resolves the same spec the same way."""
    name = f"{module_name}:{attribute}"
    known = registered(name)
    if known is not None:
        return known
    try:
        module = (sys.modules.get("__mp_main__") or sys.modules["__main__"]
                  if module_name == "__main__" else importlib.import_module(module_name))
    except Exception as err:  # whatever the module's import raises: one line, no traceback
        raise StrategyError(f"strategy {name!r}: cannot import {module_name!r} "
                            f"({load_error(err)})") from None
    target: object = module
    for part in attribute.split("."):
        target = getattr(target, part, None)
        if target is None:
            raise StrategyError(f"strategy {name!r}: {module_name} has no {attribute!r}")
    if is_agent(target):
        return agent_family(target, name)  # re-registered if redefined (a notebook)
    return register(family_from(target, name, module_name))


def with_params(family: Family, text: str) -> Strategy:
    """``family`` with the parameters of ``key=value,key=value`` set (others at default)."""
    values = {p.name: p.default for p in family.params}
    given: set[str] = set()
    for item in filter(None, (x.strip() for x in text.split(","))):
        key, eq, raw = item.partition("=")
        key = key.strip()
        param = next((p for p in family.params if p.name == key), None)
        if param is not None and not eq:
            value = "SPEC" if param.strategy else "PATH" if param.path else "N"
            raise StrategyError(f"{family.name}: {key} needs a value ({key}={value})")
        if param is None:
            known = ", ".join(p.name for p in family.params) or "none"
            raise StrategyError(
                f"bad parameter {item!r} for strategy {family.name!r}; its parameters: {known}"
            )
        if key in given:
            raise StrategyError(f"{family.name}: {key} is given twice")
        given.add(key)
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
                f"{family.name}: {key} must be {format_value(param.low)} to "
                f"{format_value(param.high)}, not {raw!r}"
            )
        values[key] = value
    strategy = Strategy(family, tuple(values[p.name] for p in family.params))
    if family.data is not None:
        family.data(**strategy.paths)  # a file it cannot use is refused here, once
    return strategy


NESTED_SEPARATOR = ";"  # between the parameters of a strategy given as a parameter


def nested_strategy(raw: str, what: str) -> Strategy:
    """The strategy given as another's parameter (its own parameters separated by ``;``):
    a numba strategy that sees no hidden cards and whose compiled code calls no other's
    (it is compiled into the caller's); a :class:`StrategyError` naming it as ``what``
    otherwise."""
    inner = parse_strategy(raw.strip().replace(NESTED_SEPARATOR, ","))
    if not inner.family.is_numba or inner.oracle or inner.family.bind is not None:
        raise StrategyError(f"{what} must be a numba strategy that sees no hidden cards "
                            f"and binds no other, not {inner.spec!r}")
    return inner


def _nested_spec(family: Family, key: str, raw: str) -> str:
    """The canonical spec of the strategy given as parameter ``key``
    (:func:`nested_strategy`), its parameters separated by ``;``."""
    return nested_strategy(raw, f"{family.name}: {key}").spec.replace(",", NESTED_SEPARATOR)


def parse_strategies(text: str) -> list[Strategy]:
    """Strategies from a comma-separated list where parameters follow ``:``.

    ``"greedy:take_margin=3,random"`` is two strategies: a ``key=value`` item (its key
    holds no ``:``) belongs to the strategy before it.
    """
    specs: list[str] = []
    items = [x.strip() for x in text.split(",")]
    if not any(items):
        raise StrategyError("no strategy given")
    for item in items:
        if not item:
            raise StrategyError(f"an empty item in the strategy list {text!r}: a comma too "
                                f"many, or a strategy missing")
        if "=" in item and ":" not in item.partition("=")[0] and specs:
            specs[-1] += "," + item
        else:
            specs.append(item)
    return [parse_strategy(s) for s in specs]
