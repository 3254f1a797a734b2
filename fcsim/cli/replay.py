"""``fcsim replay``: one game, turn by turn, as text, JSON Lines or a viewer page."""

from __future__ import annotations

import json
from pathlib import Path

import click
import numpy as np

from fcsim.cli.options import make_rules, rule_options
from fcsim.core.rng import game_seed
from fcsim.core.rules import RulesError
from fcsim.replay import game_events, render_text
from fcsim.strategies import StrategyError, parse_strategies
from fcsim.viewer.page import describe_game, write_page


@click.command("replay")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), required=True,
              help="Root seed of the run the game belongs to.")
@click.option("--game", type=click.IntRange(0), default=0, show_default=True,
              help="Game index in that run (its seed is derived from the root seed).")
@click.option("--strategies", "specs", required=True,
              help="Comma-separated strategies in the order given to `fcsim simulate`.")
@click.option("--seat-rotation/--no-seat-rotation", default=True, show_default=True,
              help="Seat strategies as `fcsim simulate` does for this game index.")
@click.option("--duplicate", is_flag=True, help="The run used the duplicate format.")
@click.option("--round", "only_round", type=int, help="Show only this round.")
@click.option("--json", "as_json", is_flag=True, help="JSON Lines, one event per line.")
@click.option("--html", "html_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the game as a self-contained page to play back in a browser.")
@rule_options
def replay_command(seed, game, specs, seat_rotation, duplicate, only_round, as_json, html_file,
                   short, wild_penalty, go_out_bonus, no_all_wild_melds, turn_cap) -> None:
    """Print one game turn by turn so a person (or a program) can follow and check it."""
    if as_json and html_file is not None:
        raise click.UsageError("--json prints the events, --html writes a page: give one")
    try:
        listed = parse_strategies(specs)
    except StrategyError as err:
        raise click.UsageError(str(err)) from None
    rules = make_rules(len(listed), short, wild_penalty, go_out_bonus, no_all_wild_melds,
                       turn_cap)
    players = rules.players
    rotation = game % players if (seat_rotation or duplicate) else 0
    deal = game // players if duplicate else game
    seated = [listed[(seat + rotation) % players] for seat in range(players)]
    try:
        events = game_events(int(game_seed(np.uint64(seed), np.uint64(deal))), seated, rules,
                             only_round)
    except RulesError as err:
        raise click.UsageError(str(err)) from None
    if html_file is not None:
        names = [s.spec for s in seated]
        lead = f"seed {seed}, game {game}" + (f", round {only_round}" if only_round else "")
        try:
            write_page(html_file, events, names, f"fcsim replay: game {game} of seed {seed}",
                       describe_game(lead, names, rules.to_dict()))
        except OSError as err:
            raise click.ClickException(f"cannot write {html_file}: {err.strerror}") from None
        click.echo(f"wrote {html_file}")
    elif as_json:
        for event in events:
            click.echo(json.dumps(event))
    else:
        click.echo(render_text(events, seated))
