"""``fcsim strategies``: every strategy (built in, or from an installed plug-in), its
parameters and its policy."""

from __future__ import annotations

import importlib
import warnings

import click

from fcsim.strategies import families
from fcsim.strategies.family import ANALYSIS_ONLY, Family
from fcsim.strategies.plugins import PluginWarning, load_plugins
from fcsim.strategies.spec import SPEC_PREFIXES


def load_plugins_noting_failures() -> None:
    """:func:`load_plugins`, each plug-in left out as one line on stderr (``warning: …``)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PluginWarning)
        load_plugins()
    for warning in caught:
        if issubclass(warning.category, PluginWarning):
            click.echo(f"warning: {warning.message}", err=True)
        else:
            warnings.warn_explicit(warning.message, warning.category, warning.filename,
                                   warning.lineno)


@click.command("strategies", short_help="List the strategies, their parameters and policies.")
def strategies_command() -> None:
    """List every strategy with its parameters (defaults) and a one-line description.

    Plug-ins (packages declaring entry points in group fcsim.strategies) are listed
    with the package they come from; one that cannot be loaded is a warning.
    """
    load_plugins_noting_failures()
    for family in families():
        _show(family)
    for prefix, module_name in SPEC_PREFIXES.items():  # prefixed specs: openspiel:ismcts
        try:
            prefixed = importlib.import_module(module_name).FAMILIES.values()
        except ImportError as err:
            click.echo(f"{prefix}:…  [not available: {err}]")
            continue
        for family in prefixed:
            _show(family)


def _show(family: Family) -> None:
    """The family's name with its tags, its description, and a line per parameter."""
    tags = []
    if family.source != "fcsim":
        tags.append(f"from {family.source}")
    if not family.is_numba:
        tags.append("Python agent")
    if family.oracle:
        tags.append(f"oracle: sees hidden cards, {ANALYSIS_ONLY}")
    click.echo(family.name + (f"  [{'; '.join(tags)}]" if tags else ""))
    click.echo(f"    {family.description}")
    for p in family.params:
        default = int(p.default) if p.numeric and p.integer else p.default
        click.echo(f"    {p.name}={default}  {p.help}".rstrip())
