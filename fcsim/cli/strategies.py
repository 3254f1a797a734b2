"""``fcsim strategies``: every strategy (built in, or from an installed plug-in), its
parameters and its policy."""

from __future__ import annotations

import warnings

import click

from fcsim.strategies import families
from fcsim.strategies.family import ANALYSIS_ONLY
from fcsim.strategies.plugins import PluginWarning, load_plugins


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
