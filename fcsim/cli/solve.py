"""``fcsim solve``: the least penalty of a hand, with its melds and left-over cards."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable

import click

from fcsim.cli.options import InputError, rule_options
from fcsim.core.arrangement import Arrangement, solve
from fcsim.core.cards import rank_name, wild_rank
from fcsim.core.rules import RuleSet
from fcsim.core.solver.api import MAX_HAND
from fcsim.errors import FcsimError

BAD_LINES = 2  # exit status of --file when some lines could not be solved


def _render(arr: Arrangement, round_number: int) -> str:
    data = arr.to_json()
    wild = rank_name(wild_rank(round_number))
    lines = [f"round {round_number} ({wild}s wild)   penalty {data['penalty']}"]
    if "discard" in data:
        lines.append(f"  discard   {data['discard']}")
    for meld in data["melds"]:
        lines.append(f"  meld      {' '.join(meld)}")
    lines.append(f"  left over {' '.join(data['deadwood']) if data['deadwood'] else '-'}")
    return "\n".join(lines)


def _solve_lines(lines: Iterable[str], round_number: int, rules: RuleSet,
                 best_discard: bool) -> int:
    """Solve one hand per line, writing a JSON line for each (with its ``line`` number) and
    an error line on stderr for each bad one; blank lines are skipped. The bad lines."""
    failed = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            arr = solve(line, round_number, rules, discard=best_discard)
        except FcsimError as err:
            click.echo(f"Error: line {number}: {err}", err=True)
            failed += 1
            continue
        sys.stdout.write(json.dumps({"line": number, **arr.to_json()}) + "\n")
    return failed


@click.command("solve", short_help="Solve a hand exactly: least penalty, melds, left over.")
@click.option("--round", "round_number", type=click.IntRange(1, 11), required=True,
              help=f"Round 1 to 11: rank round+2 is wild. Hands of up to {MAX_HAND} cards "
                   f"are solved (in play a hand holds round+2).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--best-discard", is_flag=True,
              help="The hand is n+1 cards after a draw: discard the best card first.")
@click.option("--file", "path", type=click.File("r"),
              help="Solve one hand per line (- for stdin), skipping blank lines; writes JSON "
                   "Lines in order, each with its line number.")
@rule_options(hand=True)
@click.argument("cards", nargs=-1)
def solve_command(round_number, as_json, best_discard, path, cards, rules) -> None:
    """Solve a hand exactly, for example: fcsim solve --round 5 9H JS 7D JK.

    With --file, a bad line is reported with its number, the other lines are still
    solved, and the exit status is 2 if any line failed.
    """
    if path is not None:
        if cards:
            raise InputError("give cards as arguments or --file, not both")
        try:
            failed = _solve_lines(path, round_number, rules, best_discard)
        except UnicodeDecodeError as err:
            raise InputError(f"{path.name} is not UTF-8 text ({err.reason})") from None
        if failed:
            sys.exit(BAD_LINES)
        return
    if not cards:
        raise InputError("give the cards of a hand (e.g. fcsim solve --round 5 9H JS "
                               "7D JK), or --file")
    arr = solve(list(cards), round_number, rules, discard=best_discard)
    click.echo(json.dumps(arr.to_json()) if as_json else _render(arr, round_number))
