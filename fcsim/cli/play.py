"""``fcsim play``: a person plays a full game in the terminal against strategies (any spec:
built-in, plug-in or loose file).

Everything goes through :class:`fcsim.Game`: the person's moves are ``Game.step``\\ s, the
others' are their strategies' moves as agents, and what is shown comes from the person's
view and from ``Game.events`` as the seat saw them (:mod:`fcsim.board`). End of input and
``q`` stop with exit code 0, Ctrl-C with 130; both print the score so far.
"""

from __future__ import annotations

import secrets
import sys
from dataclasses import replace

import click

from fcsim.agents import agent
from fcsim.board import board, event_line, hand_text
from fcsim.cli.options import PLAYERS, Bounded, InputError, rule_options
from fcsim.core.cards import CardError, format_card, parse_card, rank_name
from fcsim.core.rules import DEFAULT_PLAYERS, MAX_PLAYERS, MIN_PLAYERS
from fcsim.core.seeds import MAX_SEED
from fcsim.core.view import IllegalMoveError, decide
from fcsim.errors import FcsimError
from fcsim.game import Game
from fcsim.runner.format import MAX_GAMES
from fcsim.runner.run import warn_table_notes
from fcsim.runner.stops import how_stopped
from fcsim.strategies import parse_strategies

QUIT = ("q", "quit", "exit")
STOCK = ("s", "stock")
PILE = ("p", "pile")

DRAW_HELP = """Draw a card:
  s (or stock)  the top card of the stock, unseen by the others
  p (or pile)   {top}, the top of the discard pile; the others will know you hold it
  q             quit (the score so far is shown)
Going out is automatic: when your hand melds whole after the draw, it is laid down."""

DISCARD_HELP = """Discard one card of your hand, written as shown: rank 3-10 (or T), J, Q, K
and suit S, H, D, C, X (stars; also *), or JK for a joker; any case (7h, 10H, TH).
A meld is a book (3+ of a rank) or a run (3+ in a row of one suit); wilds ({wild}s and
jokers) stand for any card. q quits (the score so far is shown)."""


class Stop(FcsimError):
    """The person ended the game early (``q``, or end of input)."""


def ask(prompt: str) -> str:
    """One line typed by the person; end of input stops the game."""
    try:
        return input(prompt).strip()
    except EOFError:
        click.echo()
        raise Stop("End of input.") from None


class Session:
    """One game in the terminal: the person at ``seat``, ``agents`` in the other seats."""

    def __init__(self, game: Game, seat: int, agents: dict, names: list[str]) -> None:
        self.game, self.seat, self.agents, self.names = game, seat, agents, names
        self.shown = 0  # events already shown
        self.hand_before_draw = None

    def run(self) -> None:
        """Play to the end of the game."""
        game = self.game
        while True:
            self.show_events()
            if game.over:
                return
            if game.to_move != self.seat:
                player = self.agents[game.to_move]
                game.step(decide(player, game.view(), player.spec), player.spec)
            elif game.phase == "draw":
                self.draw()
            else:
                self.discard()

    def show_events(self) -> None:
        events = self.game.events
        for event in events[self.shown :]:
            line = event_line(event, self.names, self.seat)
            if line is not None:
                click.echo(line)
        self.shown = len(events)

    def draw(self) -> None:
        view = self.game.view()
        click.echo()
        click.echo(board(view, self.names, self.game.rules.rounds, "Your hand"))
        while True:
            answer = ask(f"Draw: s = stock, p = pile ({view.pile_top}); ? for help > ").lower()
            if answer in QUIT:
                raise Stop("You quit.")
            if answer == "?":
                click.echo(DRAW_HELP.format(top=view.pile_top))
            elif answer in STOCK or answer in PILE:
                break
            else:
                click.echo(f"{answer!r} is not a draw: type s (stock) or p (pile), ? for help")
        self.hand_before_draw = view.hand_counts
        self.game.step("stock" if answer in STOCK else "pile")

    def discard(self) -> None:
        view = self.game.view()
        drawn = format_card(int((view.hand_counts - self.hand_before_draw).argmax()))
        hand = hand_text(view.hand, view.wild_rank)
        click.echo(f"You drew {drawn}. Your hand: {hand}")
        while True:
            answer = ask("Discard (a card; ? for help) > ")
            if answer.lower() in QUIT:
                raise Stop("You quit.")
            if answer == "?":
                click.echo(DISCARD_HELP.format(wild=rank_name(view.wild_rank)))
                continue
            try:
                card = format_card(parse_card(answer))
                self.game.step(card)
                return
            except CardError as err:
                click.echo(f"{err}; ? for help")
            except IllegalMoveError:
                click.echo(f"{card} is not in your hand ({hand}); ? for help")

    def score_so_far(self) -> str:
        totals = ", ".join(f"{name} {total}" for name, total in zip(self.names, self.game.totals,
                                                                    strict=True))
        return f"Score so far (rounds finished: {self.finished_rounds()}): {totals}."

    def finished_rounds(self) -> int:
        return self.game.round if self.game.over else self.game.round - 1


def _opponents(specs: str, players: int | None) -> tuple[list, int]:
    """The other seats' strategies and the table size, from ``--strategies`` and
    ``--players``."""
    listed = parse_strategies(specs)
    if len(listed) == 1:
        count = DEFAULT_PLAYERS if players is None else players
        listed = listed * max(count - 1, 0)
    else:
        count = len(listed) + 1
        if count > MAX_PLAYERS:
            raise InputError(f"--strategies lists {len(listed)} other seats: a table holds "
                             f"{MIN_PLAYERS} to {MAX_PLAYERS} players, you included")
        if players is not None and players != count:
            raise InputError(f"--players {players} but --strategies lists {len(listed)} "
                                   f"other seats: give one strategy, or {players - 1}")
    return listed, count


@click.command("play", short_help="Play a game in the terminal against strategies.")
@click.option("--strategies", "specs", default="aware", show_default=True,
              help="The other seats' strategies: one spec for all of them, or one per other "
                   "seat in seat order.")
@click.option("--players", type=PLAYERS, help="Seats at the table (default 4, or one more than "
                                          "the strategies listed).")
@click.option("--seat", type=int, default=0, show_default=True,
              help="Your seat; seat 0 deals the first round, seat 1 plays first.")
@click.option("--seed", type=Bounded(0, MAX_SEED, "S"),
              help="Root seed of the deal (default: a new one, shown, to play it again).")
@click.option("--game", type=Bounded(0, MAX_GAMES - 1), default=0, show_default=True,
              help="Game index under that seed (the deal of fcsim replay --seed S --game G).")
@rule_options
def play_command(specs, players, seat, seed, game, rules) -> None:
    """Play a game of Five Crowns in the terminal against strategies: built-in ones,
    installed plug-ins or loose files, named as in fcsim simulate."""
    listed, count = _opponents(specs, players)
    rules = replace(rules, players=count)
    if not 0 <= seat < count:
        raise InputError(f"--seat must be 0 to {count - 1} at a table of {count}")
    others = [s for s in range(count) if s != seat]
    agents = {s: agent(strategy) for s, strategy in zip(others, listed, strict=True)}
    warn_table_notes(list(agents.values()), rules)
    names = ["you" if s == seat else f"seat {s} ({agents[s].spec})" for s in range(count)]
    seed = secrets.randbits(32) if seed is None else seed
    click.echo(f"Five Crowns, {rules.rounds} rounds: you are seat {seat} of {count}. Deal: "
               f"--seed {seed} --game {game}. Fewest points wins; ? for help, q to quit.")
    session = Session(Game(seed=seed, game=game, rules=rules), seat, agents, names)
    try:
        session.run()
    except Stop as stop:
        click.echo(f"{stop} {session.score_so_far()}")
    except KeyboardInterrupt:
        word, code = how_stopped()
        click.echo(f"\n{word}. {session.score_so_far()}")
        sys.exit(code)
