"""``fcsim replay``: one game, turn by turn, as text, JSON Lines or a viewer page."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import click
import numpy as np

from fcsim.cli.options import (
    PLAYERS,
    Bounded,
    InputError,
    given_options,
    rule_options,
    table_seats,
    typed_as,
    warn_rotation_unused,
    warn_unused,
)
from fcsim.core.rng import game_seed
from fcsim.core.seeds import MAX_SEED
from fcsim.replay import game_events, render_text
from fcsim.runner.format import MAX_GAMES
from fcsim.runner.plan import RunPlan
from fcsim.runner.run import deal_games
from fcsim.runner.sources import read_as_recorded
from fcsim.runner.store import stored_plan, stored_totals
from fcsim.strategies import display_name, parse_strategies
from fcsim.viewer.page import describe_game, write_page


def _from_run(folder: Path, game: int):
    """The plan of the run in ``folder``, and its strategies, for game ``game``."""
    plan = stored_plan(folder)
    if plan is None:
        raise InputError(f"{folder} holds no fcsim run")
    if game >= plan.games:
        raise InputError(f"--game must be 0 to {plan.games - 1:,} for {folder}, not {game:,}")
    with read_as_recorded(dict(plan.sources)):  # its relative paths, from where it ran
        return plan, [parse_strategies(spec)[0] for spec in plan.strategies]


def _check_replayed(folder: Path, plan: RunPlan, game: int, events: list[dict]) -> None:
    """One warning line when the game replays to other totals than the run recorded (the
    run was played by other code: fcsim's, a strategy file's or a model's)."""
    recorded = stored_totals(folder, plan, game)
    replayed = list(events[-1]["totals"])
    if recorded is not None and recorded != replayed:
        changes = plan.changed_code()
        click.echo(f"warning: game {game} replays to totals {replayed}, not the run's "
                   f"{recorded}: {changes}; this is the game today's code plays", err=True)


# The options that say which game and how to show it: the others describe the run, which
# --run reads from its folder.
SHOWING_OPTIONS = ("run_folder", "game", "only_round", "as_json", "html_file")


@click.command("replay", short_help="Print one game of a run turn by turn.")
@click.option("--run", "run_folder", type=click.Path(exists=True, file_okay=False,
                                                      path_type=Path),
              help="Replay a game of this run folder: its seed, strategies, rules and "
                   "seating are read from it (the flags below are then not needed).")
@click.option("--seed", type=Bounded(0, MAX_SEED, "S"),
              help="Root seed of the run the game belongs to, 0 to 2^64 - 1.")
@click.option("--game", type=Bounded(0, MAX_GAMES - 1), default=0, show_default=True,
              help="Game index in that run (its seed is derived from the root seed).")
@click.option("--strategies", "specs",
              help="Comma-separated strategies in the order given to fcsim simulate.")
@click.option("--players", type=PLAYERS, help="Seats (2 to 7); default: one per strategy listed, "
                                          "or 4 for a single strategy (as fcsim simulate).")
@click.option("--seat-rotation/--no-seat-rotation", default=True,
              help="Seat the strategies as fcsim simulate does for this game index (the "
                   "default), or in the listed order.")
@click.option("--duplicate", is_flag=True, help="The run used the duplicate format.")
@click.option("--round", "only_round", type=int, help="Show only this round.")
@click.option("--json", "as_json", is_flag=True, help="JSON Lines, one event per line.")
@click.option("--html", "html_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the game as a self-contained page to play back in a browser.")
@rule_options
def replay_command(run_folder, seed, game, specs, players, seat_rotation, duplicate,
                   only_round, as_json, html_file, rules) -> None:
    """Print one game turn by turn so a person (or a program) can follow and check it.

    Example: fcsim replay --run results/quickstart --game 12
    """
    if as_json and html_file is not None:
        raise InputError("--json prints the events, --html writes a page: give one")
    plan = None
    if run_folder is not None:
        warn_unused(given_options(exclude=SHOWING_OPTIONS),
                    f"--run replays {run_folder} as it was played")
        run_folder = Path(run_folder).resolve()  # read while the run's own folder is current
        plan, listed = _from_run(run_folder, game)
        seed, rules, seat_rotation, duplicate = (plan.seed, plan.rules, plan.seat_rotation,
                                                 plan.duplicate)
    else:
        if seed is None or specs is None:
            raise InputError("give --run FOLDER, or --seed and --strategies")
        warn_rotation_unused(duplicate)
        listed = parse_strategies(specs)
        rules = replace(rules, players=table_seats(len(listed), players))
        listed = listed * (rules.players // len(listed))  # one strategy plays every seat
    players = rules.players
    if duplicate:  # each deal in its distinct rotations (a run before them: in every one)
        rotations = (plan.deal_rotations if plan is not None
                     else deal_games(listed, 1))
        deal, rotation = divmod(game, rotations)
    else:
        deal, rotation = game, game % players if seat_rotation else 0
    seated = [listed[(seat + rotation) % players] for seat in range(players)]
    with read_as_recorded(dict(plan.sources) if plan is not None else {}):
        with typed_as({"round": "--round"}):
            events = game_events(int(game_seed(np.uint64(seed), np.uint64(deal))), seated,
                                 rules, only_round)
        if plan is not None:  # a round alone is played within its whole game
            _check_replayed(run_folder, plan, game, events)
    names = [display_name(s.spec) for s in seated]  # an oracle marked analysis only
    if html_file is not None:
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
        click.echo(render_text(events, names))
