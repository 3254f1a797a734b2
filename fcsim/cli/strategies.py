"""``fcsim strategies``: the registered strategies, their parameters and policies."""

from __future__ import annotations

import click

from fcsim.strategies import families


@click.command("strategies", short_help="List the strategies, their parameters and policies.")
def strategies_command() -> None:
    """List every strategy with its parameters (defaults) and a one-line description."""
    for family in families():
        tag = "  [oracle: sees hidden cards, analysis only]" if family.oracle else ""
        click.echo(f"{family.name}{tag}")
        click.echo(f"    {family.description}")
        for p in family.params:
            default = int(p.default) if p.integer else p.default
            click.echo(f"    {p.name}={default}  {p.help}")
