"""``fcsim strategies``: every strategy (built in, or from an installed plug-in), its
parameters and its policy."""

from __future__ import annotations

import warnings

import click

from fcsim.strategies import families
from fcsim.strategies.plugins import PluginWarning, load_plugins

_python_format = warnings.formatwarning


def _format_warning(message, category, filename, lineno, line=None) -> str:
    """A plug-in warning as one line (``warning: …``); any other as Python formats it."""
    if issubclass(category, PluginWarning):
        return f"warning: {message}\n"
    return _python_format(message, category, filename, lineno, line)


def plugin_warnings_in_one_line() -> None:
    """Print each :class:`PluginWarning` as one line on stderr (for the command line)."""
    warnings.formatwarning = _format_warning


@click.command("strategies")
def strategies_command() -> None:
    """List every strategy with its parameters (defaults) and a one-line description.

    Plug-ins (packages declaring entry points in group ``fcsim.strategies``) are listed
    with the package they come from; one that cannot be loaded is a warning.
    """
    load_plugins()
    for family in families():
        tags = []
        if family.source != "fcsim":
            tags.append(f"from {family.source}")
        if not family.is_numba:
            tags.append("Python agent")
        if family.oracle:
            tags.append("oracle: sees hidden cards, analysis only")
        click.echo(family.name + (f"  [{'; '.join(tags)}]" if tags else ""))
        click.echo(f"    {family.description}")
        for p in family.params:
            default = int(p.default) if p.integer else p.default
            click.echo(f"    {p.name}={default}  {p.help}".rstrip())
