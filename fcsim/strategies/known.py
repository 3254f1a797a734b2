"""The registered strategy families by name: built-ins, plug-ins, strategy files and
Python agents, each added once."""

from __future__ import annotations

from collections.abc import Callable

from fcsim.strategies.family import Family, StrategyError

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


def registered(name: str) -> Family | None:
    """The family registered under exactly ``name``, or None."""
    return _FAMILIES.get(name)


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
