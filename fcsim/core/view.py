"""What a seat may see, and the decision contract every strategy and agent plays by.

A seat decides only what is a real choice (docs/ENGINE.md): where to draw from, and which
card to discard when it cannot go out (going out is automatic). It sees its *view*: its
own hand, the discard pile, the cards known to be in each hand (taken from the pile and
not discarded since), the round's public history of every seat (the cards it discarded,
the pile cards it took, the pile tops it passed up), and public scalars. Nothing else:
not the stock order, not other hands. Only a strategy registered as an *oracle* (analysis
only) also gets ``hidden``.

Two ways to decide, on the same view:

* **numba** — two ``@decision`` functions (``draw`` and ``discard``) with
  :data:`DECISION_SIGNATURE`, called by the engine without leaving compiled code.
  Arguments:

  ``hand``     int8[56]     own cards, copies per kind (n cards; n+1 when discarding)
  ``pile``     int8[:]      the discard pile, bottom first (its last item is the top)
  ``known``    int8[P, 56]  cards known to be in each seat's hand (own row included)
  ``info``     int64[INFO_SIZE]  the public scalars (the :data:`Info` record below, each
                            field also named ``I_<FIELD>``), the totals and hand sizes
                            (``I_TOTALS``, ``I_HAND_SIZES``: one per seat), then the
                            round's public history: per seat, counts per kind of the
                            cards it discarded (``info[I_DISCARDED + seat * 56 + kind]``),
                            took from the pile (``I_TAKEN``) and passed up on the pile
                            (``I_PASSED``: it drew from the stock instead) — filled for a
                            strategy whose family declares ``history=True`` only — and
                            the turn cap (``I_TURN_CAP``)
  ``hidden``   int8[:, :]   0 × 0 unless an oracle; then rows 0…P-1 hold every hand
                            (counts) and row P the stock, top first, padded with -1
  ``params``   float64[:]   the strategy's parameters, in the order of its declaration
  ``table``    uint8[:, 16] the solver's table (``fcsim.core.tables.solver_table``)
  ``scratch``  int64[:]     solver work space (``fcsim.core.solver.SCRATCH_SIZE``)
  ``rng``      uint64[4]    the seat's own stream (``fcsim.core.rng``), for random choices

  ``draw`` returns :data:`DRAW_STOCK` (0) or :data:`DRAW_PILE` (1); ``discard`` the kind.
* **Python** — an *agent*: any callable from a :class:`View` to an action (``"stock"`` /
  ``"pile"``, or a card code such as ``"7H"``).
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Callable
from enum import IntEnum
from itertools import accumulate
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np
from numba import config, njit, types
from numba.core.errors import NumbaError

from fcsim.core.cards import (
    N_KINDS,
    format_card,
    format_cards,
    hand_kinds,
    parse_card,
    wild_rank,
)
from fcsim.core.rules import MAX_PLAYERS, Rule
from fcsim.core.state import (
    DRAW_PILE,
    DRAW_STOCK,
    H_SIZE,
    INLINE_STEP,
    PHASE_DISCARD,
    PHASE_DRAW,
    GameState,
    Plane,
    Scalar,
    StateData,
    all_wild_melds,
    lend,
    players_of,
    state_views,
)
from fcsim.errors import FcsimError

DECISION_SIGNATURE = types.int64(
    types.int8[:],
    types.int8[:],
    types.int8[:, :],
    types.int64[:],
    types.int8[:, :],
    types.float64[:],
    types.uint8[:, :],
    types.int64[:],
    types.uint64[:],
)

# The info vector, by name (a record: see fcsim.core.records): the public scalars, then
# blocks of one entry per seat of the largest table (0 past the table).
Info = IntEnum("Info", [
    "ROUND",  # 1…11
    "WILD_RANK",  # round + 2
    "SEAT",  # the deciding seat
    "PLAYERS",
    "DEALER",
    "STOCK_SIZE",
    "TURN",  # turns already played this round
    "LAST_TURN",  # 1 on a last turn (someone went out)
    "OUT_SEAT",  # the seat that went out, -1 if nobody yet
    "WILD_POINTS",  # points of an unmelded wild-rank card this round
    "ALL_WILD",  # 1 if three wilds alone are a meld
    "GO_OUT_BONUS",
    "BEST_DISCARD",  # discard decisions: the solver's best discard of the hand (kind)
    "BEST_PENALTY",  # … and the penalty it leaves (both -1 when drawing)
], start=0)
# The round's public history: per Plane, a block of MAX_PLAYERS rows of N_KINDS counts.
HISTORY_BLOCK = MAX_PLAYERS * N_KINDS
# Where the blocks start: the totals before this round, the hand sizes, the history,
# then the turn cap (a rule: turns after which a round nobody goes out of is stopped).
# A field added later goes at the end, so that every position a strategy reads stays.
I_TOTALS, I_HAND_SIZES, I_HISTORY, I_TURN_CAP, INFO_SIZE = accumulate(
    (MAX_PLAYERS, MAX_PLAYERS, H_SIZE * HISTORY_BLOCK, 1), initial=len(Info))
HISTORY_END = I_HISTORY + H_SIZE * HISTORY_BLOCK
I_DISCARDED = I_HISTORY + Plane.DISCARDED * HISTORY_BLOCK  # cards each seat discarded
I_TAKEN = I_HISTORY + Plane.TAKEN * HISTORY_BLOCK  # pile cards each seat took
I_PASSED = I_HISTORY + Plane.PASSED * HISTORY_BLOCK  # pile tops each seat passed up

# The fields under the flat names strategies and plug-ins import (fcsim.strategies.base).
I_ROUND = Info.ROUND
I_WILD_RANK = Info.WILD_RANK
I_SEAT = Info.SEAT
I_PLAYERS = Info.PLAYERS
I_DEALER = Info.DEALER
I_STOCK_SIZE = Info.STOCK_SIZE
I_TURN = Info.TURN
I_LAST_TURN = Info.LAST_TURN
I_OUT_SEAT = Info.OUT_SEAT
I_WILD_POINTS = Info.WILD_POINTS
I_ALL_WILD = Info.ALL_WILD
I_GO_OUT_BONUS = Info.GO_OUT_BONUS
I_BEST_DISCARD = Info.BEST_DISCARD
I_BEST_PENALTY = Info.BEST_PENALTY

NO_HIDDEN = np.zeros((0, 0), dtype=np.int8)  # what every fair strategy gets as ``hidden``


class IllegalMoveError(FcsimError, ValueError):
    """A strategy or agent chose a move the game does not allow (the message names both)."""


class StrategyFailed(FcsimError, RuntimeError):
    """A strategy's own code failed: it raised an exception mid-game (the message names
    the strategy, the game, the exception and the line of the strategy's code it came
    from), or a numba strategy does not compile (numba's reason and line). The exception
    itself is the ``__cause__``."""


_PACKAGE = Path(__file__).resolve().parent.parent  # fcsim's own files, not the strategy's
_COLOUR = re.compile(r"\x1b\[[0-9;]*m")  # a terminal colour code, in numba's messages


def decision(func: object) -> object:
    """Declare a numba decision function (``draw`` or ``discard``).

    It is compiled — or loaded from the cache — the first time a game needs it
    (:func:`compiled`), so importing a strategy costs nothing and a run compiles only the
    strategies it plays.
    """
    return njit(cache=True)(func)


def closed(dispatcher: object) -> object:
    """``dispatcher`` itself compiled for :data:`DECISION_SIGNATURE` and closed to other
    types: compiled code that calls it as a global converts its arguments to that
    signature instead of compiling it again for each call site's array layouts."""
    if config.DISABLE_JIT:
        return dispatcher
    if DECISION_SIGNATURE.args not in dispatcher.overloads:
        dispatcher.compile(DECISION_SIGNATURE)
    dispatcher.disable_compile()
    return dispatcher


_FIRST_CLASS: dict[object, object] = {}  # a decision function's code -> its engine handle


def compiled(dispatcher: object) -> object:
    """The engine's handle on a decision function: a dispatcher of the same code with one
    overload, :data:`DECISION_SIGNATURE`, closed to other types — a first-class function.

    Not ``dispatcher`` itself: one also called from Python holds overloads for other array
    layouts, and numba then types it as that very dispatcher rather than as a function, so
    the engine's kernel cache would store the dispatcher whole and every process loading
    the engine would compile it again, uncached, before playing a game. The handle shares
    ``dispatcher``'s cache files (same code), so it costs no second compile.
    """
    if config.DISABLE_JIT:
        return dispatcher
    handle = _FIRST_CLASS.get(dispatcher.py_func)
    if handle is None:
        handle = njit(DECISION_SIGNATURE, cache=True)(dispatcher.py_func)
        handle.disable_compile()
        _FIRST_CLASS[dispatcher.py_func] = handle
    return handle


@decision
def no_decision(hand, pile, known, info, hidden, params, table, scratch, rng):
    """The engine's stand-in for a seat decided outside compiled code (never called)."""
    return -1


@runtime_checkable
class JitStrategy(Protocol):
    """What the engine needs of a numba strategy."""

    spec: str  # its name in messages and results
    oracle: bool  # sees hidden cards (analysis only)
    history: bool  # reads the round's public history in info

    @property
    def draw(self) -> object: ...  # a compiled decision function
    @property
    def discard(self) -> object: ...
    @property
    def param_vector(self) -> np.ndarray: ...  # float64[:]


# What a strategy sees beyond the public scalars (bits of the engine's per-strategy flags).
SEES_HIDDEN = 1  # every hand and the stock: an oracle, analysis only
SEES_HISTORY = 2  # the round's public history in info (the family declares history=True)


@njit(cache=True, inline="always")
def is_drawing(hand: np.ndarray, round_number: int) -> bool:
    """Whether a seat holding ``hand`` (copies per kind) in round ``round_number`` is to
    draw: a view carries no phase, and its hand tells it — the round's n cards to draw,
    n + 1 to discard."""
    return hand.sum() == wild_rank(round_number)


@njit(cache=True, inline=INLINE_STEP)
def fill_info(state: GameState, info: np.ndarray) -> None:
    """Write the public scalars of the pending decision into ``info`` (:data:`Info` and
    the totals and hand sizes after it); :func:`fill_history` writes the rest."""
    sc = state.scalars
    players = players_of(state)
    r = sc[Scalar.ROUND]
    n = wild_rank(r)
    seat = sc[Scalar.SEAT]
    discarding = sc[Scalar.PHASE] == PHASE_DISCARD
    info[Info.ROUND], info[Info.WILD_RANK], info[Info.SEAT] = r, n, seat
    info[Info.PLAYERS], info[Info.DEALER] = players, sc[Scalar.DEALER]
    info[Info.STOCK_SIZE], info[Info.TURN] = sc[Scalar.STOCK], sc[Scalar.TURN]
    info[Info.LAST_TURN] = 1 if sc[Scalar.OUT_SEAT] >= 0 else 0
    info[Info.OUT_SEAT], info[Info.WILD_POINTS] = sc[Scalar.OUT_SEAT], sc[Scalar.WILD_POINTS]
    info[Info.ALL_WILD] = 1 if all_wild_melds(state) else 0
    info[Info.GO_OUT_BONUS] = state.rules[Rule.GO_OUT_BONUS]
    info[I_TURN_CAP] = state.rules[Rule.TURN_CAP]
    info[Info.BEST_DISCARD] = sc[Scalar.BEST_DISCARD] if discarding else -1
    info[Info.BEST_PENALTY] = sc[Scalar.BEST_PENALTY] if discarding else -1
    for s in range(MAX_PLAYERS):
        at_table = s < players
        info[I_TOTALS + s] = state.totals[s] if at_table else 0
        info[I_HAND_SIZES + s] = (n + 1 if discarding and s == seat else n) if at_table else 0


@njit(cache=True)
def fill_history(state: GameState, info: np.ndarray) -> None:
    """Write the round's public history into its blocks of ``info`` (rows past the table
    are left as they are: zero in a fresh ``info``).

    It is 3 x P x 56 numbers: copying them at every decision would cost a fast strategy
    a quarter of its speed, so the engine copies them only for the strategies that
    declare they read them, and in a call of its own (inlined, even the skipped copy
    slowed 4 x greedy by a tenth)."""
    for h in range(H_SIZE):
        for s in range(players_of(state)):
            at = I_HISTORY + h * HISTORY_BLOCK + s * N_KINDS
            info[at : at + N_KINDS] = state.history[h, s]


def without_history(info: np.ndarray) -> np.ndarray:
    """A copy of ``info`` with the public history's blocks zero: what the engine gives a
    strategy whose family does not declare that it reads the history (:func:`fill_history`)."""
    bare = info.copy()
    bare[I_HISTORY:HISTORY_END] = 0
    return bare


def history_of(info: np.ndarray, players: int) -> np.ndarray:
    """The public history held in ``info``: int64[H_SIZE, players, 56] (``Plane`` planes;
    a copy)."""
    block = info[I_HISTORY:HISTORY_END].reshape(H_SIZE, MAX_PLAYERS, N_KINDS)
    return block[:, :players].copy()


@njit(cache=True)
def reveal(state: GameState, hidden: np.ndarray) -> None:
    """Fill an oracle's ``hidden`` (int8[P + 1, 116]): every hand, then the stock from
    the top, padded with -1."""
    players = players_of(state)
    for s in range(players):
        hidden[s, :N_KINDS] = state.hands[s]
    hidden[players, :] = -1
    stock_len = state.scalars[Scalar.STOCK]
    for j in range(stock_len):
        hidden[players, j] = state.stock[stock_len - 1 - j]


@njit(cache=True)
def view_arrays(data: StateData) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Copies of what the seat to move sees: (hand int8[56], pile int8[k], known
    int8[P, 56], info int64[INFO_SIZE])."""
    state = lend(data)
    sc = state.scalars
    info = np.zeros(INFO_SIZE, dtype=np.int64)
    fill_info(state, info)
    fill_history(state, info)
    return (state.hands[sc[Scalar.SEAT]].copy(), state.pile[: sc[Scalar.PILE]].copy(),
            state.known.copy(), info)


ACTION_STOCK = "stock"
ACTION_PILE = "pile"
DRAW_ACTIONS = (ACTION_STOCK, ACTION_PILE)  # indexed by DRAW_STOCK, DRAW_PILE


def action_code(action: object, drawing: bool) -> int:
    """An agent's action as a step's move: ``"stock"`` / ``"pile"`` (any case) when
    drawing, a card code (``"7H"``, ``"jk"``) when discarding, or the move itself as an
    int. -1 when it names nothing (the step then refuses it)."""
    if isinstance(action, int | np.integer) and not isinstance(action, bool):
        return int(action) if 0 <= action < N_KINDS else -1
    text = str(action).strip().lower()
    if drawing:
        return DRAW_ACTIONS.index(text) if text in DRAW_ACTIONS else -1
    try:
        return parse_card(text)
    except ValueError:
        return -1


def illegal_action(action: object, view: View, who: str | None = None,
                   game: int | None = None) -> IllegalMoveError:
    """The error for ``action``, which is not legal in ``view``: it names the strategy
    (or the seat), the action and the legal ones."""
    actor = f"strategy {who!r}" if who else f"seat {view.seat}"
    where = "" if game is None else f" in game {game}"
    if callable(action):  # most likely an agent factory taken for the agent itself
        return IllegalMoveError(
            f"{actor} returned {action!r} instead of a move{where}: a function that takes "
            f"one argument is played as the agent; an agent factory's parameters all "
            f"need numeric defaults")
    return IllegalMoveError(f"{actor} chose {action!r}, which is not a legal {view.phase} "
                            f"(legal: {', '.join(view.legal_actions)}){where}")


def decide(agent: Callable[[View], object], view: View, who: str,
           game: int | None = None) -> object:
    """``agent``'s move in ``view``; an exception its code raises becomes
    :class:`StrategyFailed` naming ``who`` (and ``game``), the exception its cause. An
    :class:`~fcsim.errors.FcsimError` passes as it is: its one line says what is wrong
    (``fcsim.testing``'s checks raise theirs from inside an agent)."""
    try:
        return agent(view)
    except FcsimError:
        raise
    except Exception as err:  # the strategy's own code: one line naming it
        raise strategy_failed(err, who, game) from err


def strategy_failed(err: Exception, who: str, game: int | None = None,
                    line: str | None = None) -> StrategyFailed:
    """The error for strategy ``who``'s code failing with ``err``, in one line: numba's
    own reason and line when the code does not compile; else the exception and ``line``
    (``FILE:LINE, in FUNCTION``), by default the innermost line of the traceback that is
    not fcsim's own (the strategy's, usually)."""
    if isinstance(err, NumbaError):  # numba's message: many lines, coloured
        texts = [_COLOUR.sub("", text).strip() for text in str(err).splitlines()]
        reason = next((text for text in texts if text and not text.startswith("Failed in")),
                      type(err).__name__)
        loc = getattr(err, "loc", None)
        at = f" at {loc.filename}:{loc.line}" if loc is not None else ""
        return StrategyFailed(f"strategy {who!r} does not compile with numba{at}: {reason}")
    if line is None:
        frames = [frame for frame in traceback.extract_tb(err.__traceback__)
                  if not Path(frame.filename).resolve().is_relative_to(_PACKAGE)]
        if frames:
            line = f"{frames[-1].filename}:{frames[-1].lineno}, in {frames[-1].name}"
    at = "" if line is None else f" at {line}"
    message = str(err).strip().splitlines()
    what = type(err).__name__ + (f": {message[0]}" if message else "")
    where = "" if game is None else f" in game {game}"
    return StrategyFailed(f"strategy {who!r} raised {what}{where}{at}")


def seat_stream(data: StateData) -> np.ndarray:
    """The stream of the seat to move in ``data``: ``uint64[4]``, a view into
    the state (writing it changes the game's)."""
    return state_views(data).seat_rng[int(data.ints[Scalar.SEAT])]


class View:
    """What the seat to move may see, nothing more.

    Cards are in RULES.md notation; the ``*_counts`` / ``*_kinds`` / ``info`` arrays hold
    the same for speed (copies: changing them changes nothing in the game). ``rng`` is
    the seat's own stream, the one the built-in strategies draw their random choices
    from, as in the batch engine: a copy, which a :class:`~fcsim.game.Game` writes back
    when the move is played, so a strategy asked for a move advances it; ask on
    :meth:`detached` to consider a move without playing its random choices. It is
    seeded one-way from the game's seed (:func:`~fcsim.core.rng.seed_seat_stream`):
    nothing of the deals, the reshuffles or another seat's choices can be read from it.
    """

    __slots__ = ("hand_counts", "info", "known_counts", "phase", "pile_kinds", "rng")

    def __init__(self, phase: str, hand_counts: np.ndarray, pile_kinds: np.ndarray,
                 known_counts: np.ndarray, info: np.ndarray, rng: np.ndarray) -> None:
        self.phase = phase  # "draw" or "discard"
        self.hand_counts = hand_counts  # int8[56]
        self.pile_kinds = pile_kinds  # int8[k], bottom first
        self.known_counts = known_counts  # int8[P, 56]
        self.info = info  # int64[INFO_SIZE]
        self.rng = rng  # uint64[4]

    @classmethod
    def of(cls, data: StateData, rng: np.ndarray | None = None) -> View:
        """The view of the seat to move in ``data`` (a draw or discard is pending), with
        ``rng`` as its stream: by default a copy of the seat's own (:func:`seat_stream`)."""
        phase = data.ints[Scalar.PHASE]
        if phase != PHASE_DRAW and phase != PHASE_DISCARD:
            raise ValueError("no decision is pending: the game is over")
        hand, pile, known, info = view_arrays(data)
        if rng is None:
            rng = seat_stream(data).copy()
        return cls("discard" if phase == PHASE_DISCARD else "draw", hand, pile, known, info,
                   rng)

    def detached(self) -> View:
        """This view with a copy of its stream: a strategy asked for a move on it leaves
        the seat's stream as it is (to consider a move, not play it)."""
        return View(self.phase, self.hand_counts, self.pile_kinds, self.known_counts,
                    self.info, self.rng.copy())

    @property
    def seat(self) -> int:
        """The seat deciding."""
        return int(self.info[Info.SEAT])

    @property
    def players(self) -> int:
        """Seats at the table (2…7)."""
        return int(self.info[Info.PLAYERS])

    @property
    def round(self) -> int:
        """The round, 1…11 (1…6 in the short game)."""
        return int(self.info[Info.ROUND])

    @property
    def wild_rank(self) -> int:
        """The rank that is wild this round (3…13; 11 J, 12 Q, 13 K)."""
        return int(self.info[Info.WILD_RANK])

    @property
    def dealer(self) -> int:
        """The seat that dealt this round (the seat after it plays first)."""
        return int(self.info[Info.DEALER])

    @property
    def turn(self) -> int:
        """Turns already played this round."""
        return int(self.info[Info.TURN])

    @property
    def hand(self) -> list[str]:
        """Own cards, sorted by kind (suit, then rank; jokers last)."""
        return format_cards(hand_kinds(self.hand_counts))

    @property
    def pile(self) -> list[str]:
        """The discard pile, bottom first."""
        return format_cards(self.pile_kinds)

    @property
    def pile_top(self) -> str | None:
        """The visible discard (None while the pile is empty: its only card was just
        taken)."""
        return format_card(int(self.pile_kinds[-1])) if len(self.pile_kinds) else None

    @property
    def known(self) -> list[list[str]]:
        """Per seat, the cards known to be in its hand (taken from the pile, not discarded
        since)."""
        return [format_cards(hand_kinds(row)) for row in self.known_counts]

    @property
    def history_counts(self) -> np.ndarray:
        """The round's public history: int64[3, P, 56], planes ``Plane.DISCARDED``,
        ``Plane.TAKEN``, ``Plane.PASSED`` (:mod:`fcsim.core.state`), counts per kind."""
        return history_of(self.info, self.players)

    def _history(self, plane: int) -> list[list[str]]:
        return [format_cards(hand_kinds(row))
                for row in self.history_counts[plane]]

    @property
    def discarded(self) -> list[list[str]]:
        """Per seat, every card it discarded this round (sorted by kind)."""
        return self._history(Plane.DISCARDED)

    @property
    def taken(self) -> list[list[str]]:
        """Per seat, every pile card it took this round, held or discarded since."""
        return self._history(Plane.TAKEN)

    @property
    def passed(self) -> list[list[str]]:
        """Per seat, the pile tops it passed up this round (it drew from the stock)."""
        return self._history(Plane.PASSED)

    @property
    def hand_sizes(self) -> list[int]:
        """Cards held by every seat, in seat order."""
        return [int(x) for x in self.info[I_HAND_SIZES : I_HAND_SIZES + self.players]]

    @property
    def stock_size(self) -> int:
        """Cards left in the stock."""
        return int(self.info[Info.STOCK_SIZE])

    @property
    def scores(self) -> list[int]:
        """Every seat's total before this round."""
        return [int(x) for x in self.info[I_TOTALS : I_TOTALS + self.players]]

    @property
    def last_turn(self) -> bool:
        """Whether someone has gone out (this is the seat's last turn of the round)."""
        return bool(self.info[Info.LAST_TURN])

    @property
    def out_seat(self) -> int:
        """The seat that went out this round, -1 if nobody yet."""
        return int(self.info[Info.OUT_SEAT])

    @property
    def wild_points(self) -> int:
        """Points of an unmelded wild-rank card this round."""
        return int(self.info[Info.WILD_POINTS])

    @property
    def legal_actions(self) -> list[str]:
        """``["stock", "pile"]`` when drawing; the distinct cards held when discarding."""
        if self.phase == "draw":
            return list(DRAW_ACTIONS)
        return format_cards(np.flatnonzero(self.hand_counts))

    def __repr__(self) -> str:
        return (f"View(seat={self.seat}, round={self.round}, phase={self.phase!r}, "
                f"hand={' '.join(self.hand)}, pile_top={self.pile_top})")


__all__ = [
    "ACTION_PILE",
    "ACTION_STOCK",
    "DECISION_SIGNATURE",
    "DRAW_ACTIONS",
    "DRAW_PILE",
    "DRAW_STOCK",
    "HISTORY_BLOCK",
    "HISTORY_END",
    "INFO_SIZE",
    "I_ALL_WILD",
    "I_BEST_DISCARD",
    "I_BEST_PENALTY",
    "I_DEALER",
    "I_DISCARDED",
    "I_GO_OUT_BONUS",
    "I_HAND_SIZES",
    "I_HISTORY",
    "I_LAST_TURN",
    "I_OUT_SEAT",
    "I_PASSED",
    "I_PLAYERS",
    "I_ROUND",
    "I_SEAT",
    "I_STOCK_SIZE",
    "I_TAKEN",
    "I_TOTALS",
    "I_TURN",
    "I_TURN_CAP",
    "I_WILD_POINTS",
    "I_WILD_RANK",
    "NO_HIDDEN",
    "SEES_HIDDEN",
    "SEES_HISTORY",
    "IllegalMoveError",
    "Info",
    "JitStrategy",
    "View",
    "action_code",
    "compiled",
    "decision",
    "fill_history",
    "fill_info",
    "history_of",
    "illegal_action",
    "is_drawing",
    "no_decision",
    "reveal",
    "seat_stream",
    "view_arrays",
    "without_history",
]
