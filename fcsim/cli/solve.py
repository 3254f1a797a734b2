"""``fcsim solve``: the least penalty of a hand, with its melds and left-over cards."""

from __future__ import annotations

import json
import sys

import click

from fcsim.cli.options import make_rules, rule_options
from fcsim.core.arrangement import Arrangement, solve
from fcsim.core.cards import CardError


def _render(arr: Arrangement, round_number: int) -> str:
    data = arr.to_json()
    lines = [f"round {round_number} ({round_number + 2}s wild)   penalty {data['penalty']}"]
    if "discard" in data:
        lines.append(f"  discard   {data['discard']}")
    for meld in data["melds"]:
        lines.append(f"  meld      {' '.join(meld)}")
    lines.append(f"  left over {' '.join(data['deadwood']) if data['deadwood'] else '-'}")
    return "\n".join(lines)


@click.command("solve")
@click.option("--round", "round_number", type=click.IntRange(1, 11), required=True,
              help="Round 1–11: the hand has round+2 cards and that rank is wild.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--best-discard", is_flag=True,
              help="The hand is n+1 cards after a draw: discard the best card first.")
@click.option("--file", "path", type=click.File("r"),
              help="Solve one hand per line (- for stdin); writes JSON Lines in order.")
@rule_options
@click.argument("cards", nargs=-1)
def solve_command(round_number, as_json, best_discard, path, cards, short, wild_penalty,
                  go_out_bonus, no_all_wild_melds, turn_cap) -> None:
    """Solve a hand exactly, e.g. ``fcsim solve --round 5 9H JS 7D JK``."""
    rules = make_rules(short=False, wild_penalty=wild_penalty, go_out_bonus=go_out_bonus,
                       no_all_wild_melds=no_all_wild_melds, turn_cap=turn_cap)
    if path is not None:
        if cards:
            raise click.UsageError("give cards as arguments or --file, not both")
        out = sys.stdout
        for number, line in enumerate(path, start=1):
            try:
                arr = solve(line, round_number, rules, discard=best_discard)
            except (CardError, ValueError) as err:
                click.echo(f"Error: line {number}: {err}", err=True)
                sys.exit(2)
            out.write(json.dumps(arr.to_json()) + "\n")
        return
    try:
        arr = solve(list(cards), round_number, rules, discard=best_discard)
    except (CardError, ValueError) as err:
        raise click.UsageError(str(err)) from None
    click.echo(json.dumps(arr.to_json()) if as_json else _render(arr, round_number))
