"""``fcsim advise``: every legal action in a position with its estimated outcome."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import click

from fcsim.cli.options import (
    PLAYERS,
    Bounded,
    InputError,
    given_options,
    rule_options,
    typed_as,
    warn_unused,
)
from fcsim.core.cards import card_tokens
from fcsim.core.rules import DEFAULT_PLAYERS
from fcsim.core.seeds import MAX_SEED

MAX_WORLDS = 1_000_000  # the most --worlds; with --time alone the clock decides


def _seat_cards(values: tuple[str, ...], flag: str) -> dict[int, list[str]]:
    """The cards of repeated ``flag SEAT:CARDS`` options, by seat."""
    by_seat: dict[int, list[str]] = {}
    for value in values:
        seat, colon, cards = value.partition(":")
        if not colon or not seat.strip().isascii() or not seat.strip().isdigit():
            raise InputError(f"{flag} takes SEAT:CARDS (e.g. 2:7H,8H), not {value!r}")
        by_seat.setdefault(int(seat), []).extend(card_tokens(cards))
    return by_seat


def _numbers(text: str | None, flag: str) -> list[int] | None:
    if text is None:
        return None
    try:
        return [int(x) for x in text.replace(",", " ").split()]
    except ValueError:
        raise InputError(f"{flag} takes whole numbers, one per seat, not {text!r}") from None


def _render(advice) -> str:
    lines = [f"{'action':>6}  {'penalty (95% CI)':>22}  {'out first':>18}  "
             f"{'vs table (95% CI)':>24}"]
    for a in advice.actions:
        p, o, t = a.penalty, a.out_first, a.against_table
        lines.append(f"{a.action:>6}  {p.mean:6.2f} [{p.low:6.2f}, {p.high:6.2f}]  "
                     f"{o.mean:4.0%} [{o.low:4.0%}, {o.high:4.0%}]  "
                     f"{t.mean:+7.2f} [{t.low:+7.2f}, {t.high:+7.2f}]")
    lines.append(f"recommendation: {advice.recommendation}")
    if advice.player_line is not None:
        lines.append(advice.player_line)
    if advice.beliefs is not None:
        lines.append(f"likeliest cards (share of the {advice.worlds} worlds holding one; "
                     f"* known):")
        for seat in advice.beliefs:
            cards = "  ".join(f"{c.card}{'*' if c.known else ''} {c.share:.0%}"
                              for c in seat.likeliest())
            lines.append(f"  seat {seat.seat}: {cards}")
    return "\n".join(lines)


# The fields of a position whose checks name them first, and the flags that give them.
POSITION_FLAGS = {"round": "--round", "players": "--players", "turn": "--turn"}

# The options that describe the position, as a position file does.
POSITION_OPTIONS = ("round_number", "hand", "pile", "known", "players", "hand_sizes", "scores",
                    "turn", "last_turn", "discarded", "taken", "passed")


@click.command("advise", short_help="The expected outcome of every legal action in a position.")
@click.argument("position_file", required=False, type=click.Path(path_type=Path))
@click.option("--round", "round_number", type=int, help="Round 1-11 (n = round + 2 cards).")
@click.option("--hand", help="Own cards: n to draw, n + 1 to discard.")
@click.option("--pile", default="", help="The discard pile, bottom first (top last).")
@click.option("--known", multiple=True, help="SEAT:CARDS known to be in another seat's "
              "hand (taken from the pile); repeatable. The advised player is seat 0.")
@click.option("--players", type=PLAYERS, default=DEFAULT_PLAYERS, show_default=True,
              help="Seats at the table, 2 to 7.")
@click.option("--hand-sizes", help="Cards held per seat, own first [default: the round's].")
@click.option("--scores", help="Totals before this round per seat, own first [default: 0].")
@click.option("--turn", type=int, default=0, show_default=True,
              help="Turns already played this round.")
@click.option("--last-turn", is_flag=True, help="Someone has gone out: this is the last turn.")
@click.option("--discarded", multiple=True, help="SEAT:CARDS a seat discarded this round; "
              "repeatable (the public history: what --evidence reads).")
@click.option("--taken", multiple=True, help="SEAT:CARDS a seat took from the pile this round; "
              "repeatable.")
@click.option("--passed", multiple=True, help="SEAT:CARDS a seat passed up on the pile (drew "
              "from the stock instead) this round; repeatable.")
@click.option("--worlds", type=click.IntRange(2, MAX_WORLDS), default=None,
              help="Worlds to sample [default: 1000; with --time alone, as many as the "
                   "time allows, up to 1,000,000].")
@click.option("--time", "seconds", type=click.FloatRange(0, None, min_open=True),
              help="Sample worlds for this many seconds; with --worlds, stop at whichever "
                   "limit comes first.")
@click.option("--rollout", default="greedy", show_default=True,
              help="The policy every seat plays after the action.")
@click.option("--player", show_default="the strongest fair player",
              help="A fair strategy whose own move is shown beside the estimates.")
@click.option("--seed", type=Bounded(0, MAX_SEED, "S"), default=0, show_default=True,
              help="Seed of the sampled worlds and of the player's random choices (the same "
                   "seed, the same estimates).")
@click.option("--evidence", type=click.FloatRange(0, 1), default=0.0, show_default=True,
              help="Weigh the other hands by the cards their seats passed up and "
                   "discarded (the search parameter; 0: dealt uniformly).")
@click.option("--beliefs", is_flag=True, help="Also show each other seat's likeliest cards "
              "in the sampled worlds.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@rule_options
def advise_command(position_file, round_number, hand, pile, known, players, hand_sizes,
                   scores, turn, last_turn, discarded, taken, passed, worlds, seconds,
                   rollout, player, seed, evidence, beliefs, as_json, rules) -> None:
    """Every legal action in a position with its expected penalty this round, chance of
    going out first and expected points against the table (95% intervals), best first.

    Example: fcsim advise --round 3 --hand "9H JS 7D 5H 6H KD" --pile "4C QX" --players 3

    A position can also come from a JSON file (POSITION_FILE) with the keys round, hand,
    pile, known ({"2": ["7H"]}), players, hand_sizes, scores, turn, last_turn, discarded,
    taken, passed (the last three like known).
    """
    from fcsim.advice import DEFAULT_WORLDS, STRONGEST, advise
    from fcsim.position import Position, position_view
    from fcsim.runner.run import warn_table_notes
    from fcsim.strategies import parse_strategy

    if position_file is not None:
        try:
            data = json.loads(position_file.read_text())
        except (OSError, ValueError) as err:
            raise InputError(f"{position_file}: not a readable JSON position ({err})") from None
        if not isinstance(data, dict):
            raise InputError(f"{position_file}: a position is a JSON object")
        position = Position.from_json(data, rules)
        warn_unused(given_options(only=POSITION_OPTIONS),
                    f"{position_file} holds the position")
    else:
        if round_number is None or hand is None:
            raise InputError("give --round and --hand (or a JSON position file)")
        position = Position(round=round_number, hand=card_tokens(hand),
                            pile=card_tokens(pile), players=players,
                            known=_seat_cards(known, "--known"),
                            hand_sizes=_numbers(hand_sizes, "--hand-sizes"),
                            scores=_numbers(scores, "--scores"), turn=turn,
                            last_turn=last_turn, rules=rules,
                            discarded=_seat_cards(discarded, "--discarded"),
                            taken=_seat_cards(taken, "--taken"),
                            passed=_seat_cards(passed, "--passed"))
    with typed_as({} if position_file is not None else POSITION_FLAGS):  # a file's keys
        view = position_view(position, seed)
    table = replace(position.rules, players=view.players)
    warn_table_notes([parse_strategy(rollout), parse_strategy(player or STRONGEST)], table)
    if seconds is not None and worlds is None:
        worlds = MAX_WORLDS  # the clock stops it
    advice = advise(view, worlds=worlds or DEFAULT_WORLDS, seconds=seconds,
                    rollout=rollout, seed=seed, evidence=evidence, beliefs=beliefs,
                    player=player or STRONGEST)
    click.echo(json.dumps(advice.to_json()) if as_json else _render(advice))
