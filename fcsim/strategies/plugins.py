"""Strategies from installed packages: the ``fcsim.strategies`` entry-point group.

A package declares each strategy it ships under a name, in its ``pyproject.toml``::

    [project.entry-points."fcsim.strategies"]
    cautious = "fcsim_cautious.strategy:FAMILY"

The object named is a Family, an agent or an agent factory (:mod:`.external`). Discovery
is lazy: the declarations are read (nothing is imported) when a name fcsim does not know
is looked up, and only the plug-in of that name is imported — so a broken plug-in never
gets in the way of the others, and worker processes (local or Dask) find a plug-in by
its name the same way. :func:`load_plugins` imports them all (``fcsim strategies``); a
plug-in that fails to load, or a name two packages declare, is then one
:class:`PluginWarning` naming the package.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points

from fcsim.strategies.external import family_from, load_error
from fcsim.strategies.family import Family, StrategyError
from fcsim.strategies.known import lookup, register

GROUP = "fcsim.strategies"
_NAME = re.compile(r"[a-z0-9_][a-z0-9_-]*")  # what a spec can name (no ':', ',' nor '=')


class PluginWarning(UserWarning):
    """A plug-in that is left out (it fails to load, or its name is taken)."""


@dataclass(frozen=True)
class Declared:
    """A strategy declared by an installed package (not imported yet)."""

    name: str  # as the user writes it (lower case)
    entry_point: EntryPoint
    package: str  # "distribution version"


def declared() -> dict[str, list[Declared]]:
    """Every declared strategy name, with the packages that declare it (by package)."""
    found: dict[str, list[Declared]] = {}
    for point in entry_points(group=GROUP):
        dist = point.dist
        package = f"{dist.name} {dist.version}" if dist is not None else point.module
        name = point.name.strip().lower()
        found.setdefault(name, []).append(Declared(name, point, package))
    return {name: sorted(claims, key=lambda c: c.package) for name, claims in found.items()}


def plugin_names() -> list[str]:
    """The declared names no built-in strategy has, sorted (for messages)."""
    return sorted(name for name in declared() if lookup(name) is None)


def find_plugin(name: str) -> Family | None:
    """The plug-in strategy ``name``, imported and registered; None if no package declares
    it. Raises :class:`StrategyError` (one line naming the package) if it cannot load, or
    if two packages declare it."""
    claims = declared().get(name.strip().lower())
    if not claims:
        return None
    if len(claims) > 1:
        packages = " and ".join(c.package for c in claims)
        raise StrategyError(f"strategy {claims[0].name!r} is declared by two packages, "
                            f"{packages}; uninstall one, or name it as module:attribute "
                            f"({claims[0].entry_point.value})")
    return _load(claims[0])


def _load(claim: Declared) -> Family:
    try:
        target = claim.entry_point.load()
    except Exception as err:  # whatever the plug-in's import raises: one line, no traceback
        raise StrategyError(f"strategy {claim.name!r} from package {claim.package} cannot be "
                            f"loaded ({claim.entry_point.value}): {load_error(err)}") from None
    known = lookup(claim.name)
    if known is not None and known.source == claim.package:
        return known  # loaded already
    try:
        family = family_from(target, claim.name, claim.package)
    except StrategyError as err:
        raise StrategyError(f"package {claim.package}: {err}") from None
    return register(family)


def load_plugins() -> list[Family]:
    """Import every declared plug-in and return those that load; each one left out is a
    :class:`PluginWarning` (it fails to load, two packages declare its name, or fcsim has
    a strategy of that name)."""
    loaded = []
    for name, claims in declared().items():
        if not _NAME.fullmatch(name):
            for claim in claims:
                warnings.warn(f"package {claim.package} declares strategy {name!r}, which "
                              f"no spec can name (letters, digits, '_' and '-' only); it "
                              f"is left out", PluginWarning, stacklevel=2)
            continue
        known = lookup(name)
        if known is not None and all(c.package != known.source for c in claims):
            for claim in claims:
                warnings.warn(f"package {claim.package} declares strategy {name!r}, which "
                              f"fcsim has already ({known.source}); it is left out",
                              PluginWarning, stacklevel=2)
            continue
        try:
            loaded.append(find_plugin(name))
        except StrategyError as err:
            warnings.warn(f"{err}; it is left out", PluginWarning, stacklevel=2)
    return loaded
