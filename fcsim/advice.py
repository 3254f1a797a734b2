"""The best move in a position, with its odds: every legal action played out in the same
sampled worlds.

:func:`advise` takes a :class:`~fcsim.core.view.View` — of a :class:`fcsim.Game`, or
of a position written by hand (:func:`fcsim.position.position_view`) — and plays every
legal action (stock and pile when drawing, each distinct card when discarding) to the end of
the round in the same worlds, with every seat then playing the rollout policy (the
``search`` strategy's kernels, :mod:`fcsim.strategies.search.kernels`). For each action
it reports the expected penalty this round, the chance of going out first and the
expected points against the table (own penalty less the others' mean), each with a 95%
interval (normal approximation over the worlds), best first by points against the table.

>>> import fcsim
>>> advice = fcsim.advise(fcsim.Game(players=3, seed=5).view(), worlds=20)
>>> advice.phase, sorted(a.action for a in advice.actions)
('draw', ['pile', 'stock'])
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from fcsim.agents import agent
from fcsim.core.cards import (
    N_KINDS,
    format_card,
)
from fcsim.core.state import (
    DRAW_PILE,
    DRAW_STOCK,
    shared_scratch,
)
from fcsim.core.tables import solver_table
from fcsim.core.view import (
    DRAW_ACTIONS,
    NO_HIDDEN,
    IllegalMoveError,
    Info,
    View,
    action_code,
    decide,
    illegal_action,
)
from fcsim.strategies.search.bind import bound_module
from fcsim.strategies.search.rollout import O_SIZE, Outcome
from fcsim.strategies.search.worlds import FULL_REVEAL

Z95 = 1.959963984540054
DEFAULT_WORLDS = 1000
STRONGEST = "learned"  # the strongest fair player (docs/STRENGTH.md): its own move is shown
WORLD_BATCH = 100  # worlds evaluated between looks at the clock
MIN_WORLDS = 2  # an interval needs two
BELIEF_CARDS = 8  # the likeliest cards shown per seat
ONLY_ACTION = "the only legal action"  # why a hand of one card kind has one discard


@dataclass(frozen=True)
class Estimate:
    """A mean over the worlds with its 95% interval."""

    mean: float
    low: float
    high: float

    @classmethod
    def of(cls, values: np.ndarray, lowest: float = -np.inf, highest: float = np.inf
           ) -> Estimate:
        """The mean of ``values`` (one per world) and its normal 95% interval, clipped to
        [``lowest``, ``highest``] (a share stays within 0 and 1)."""
        mean = float(values.mean())
        half = Z95 * float(values.std(ddof=1)) / np.sqrt(values.size)
        return cls(mean, max(lowest, mean - half), min(highest, mean + half))

    def to_json(self) -> dict:
        """As ``fcsim advise --json`` prints it."""
        return {"mean": round(self.mean, 3), "low": round(self.low, 3),
                "high": round(self.high, 3)}


@dataclass(frozen=True)
class ActionAdvice:
    """One legal action's estimated outcome."""

    action: str  # "stock", "pile" or a card code
    penalty: Estimate  # own penalty this round
    out_first: Estimate  # chance of going out first
    against_table: Estimate  # own penalty less the others' mean

    def to_json(self) -> dict:
        """As ``fcsim advise --json`` prints it."""
        return {"action": self.action, "penalty": self.penalty.to_json(),
                "out_first": self.out_first.to_json(),
                "against_table": self.against_table.to_json()}


@dataclass(frozen=True)
class CardBelief:
    """How likely a seat is to hold a card."""

    card: str
    share: float  # share of the worlds in which the seat holds at least one
    known: bool  # known to be in its hand (it took it from the pile)

    def to_json(self) -> dict:
        """As ``fcsim advise --json`` prints it."""
        return {"card": self.card, "share": round(self.share, 3), "known": self.known}


@dataclass(frozen=True, eq=False)
class SeatBeliefs:
    """Another seat's hand as the sampled worlds deal it."""

    seat: int
    held: np.ndarray  # float64[56]: share of the worlds holding at least one of each kind
    copies: np.ndarray  # float64[56]: mean copies held of each kind
    known: np.ndarray  # int8[56]: the cards known to be in its hand

    def likeliest(self, count: int = BELIEF_CARDS) -> list[CardBelief]:
        """The ``count`` cards it most likely holds (ties in kind order), known ones
        first: they are in every world."""
        order = np.lexsort((self.known == 0, -self.held))[:count]  # last key sorts first
        return [CardBelief(format_card(int(k)), float(self.held[k]), bool(self.known[k]))
                for k in order if self.held[k] > 0]

    def to_json(self) -> dict:
        """As ``fcsim advise --json`` prints it."""
        return {"seat": self.seat, "cards": [c.to_json() for c in self.likeliest()]}


def hand_beliefs(tally: np.ndarray, worlds: int, view: View) -> list[SeatBeliefs]:
    """Every other seat's beliefs from ``tally`` (``int64[2, P, 56]``: per seat and kind,
    the worlds holding at least one copy, and the copies held, summed over ``worlds``
    worlds; :func:`tally_hands`)."""
    return [SeatBeliefs(s, tally[0, s] / worlds, tally[1, s] / worlds,
                        view.known_counts[s].copy())
            for s in range(view.players) if s != view.seat]


def tally_hands(hands: np.ndarray, tally: np.ndarray) -> None:
    """Add the hands of some worlds (``int8[W, P, 56]``) to ``tally`` (:func:`hand_beliefs`)."""
    tally[0] += (hands > 0).sum(axis=0)
    tally[1] += hands.sum(axis=0, dtype=np.int64)


@dataclass(frozen=True)
class Advice:
    """Every legal action, best first (least expected points against the table); with
    ``beliefs``, every other seat's likeliest cards in the same worlds."""

    phase: str  # "draw" or "discard"
    worlds: int
    seconds: float
    actions: list[ActionAdvice] = field(default_factory=list)
    margin: Estimate | None = None  # the runner-up's points against the table less the best's
    beliefs: list[SeatBeliefs] | None = None
    player: str | None = None  # a fair strategy's spec, and the move it makes here
    pick: str | None = None
    alone: str = ONLY_ACTION  # why, when there is one action, it is the only one

    @property
    def best(self) -> ActionAdvice:
        """The best action's advice (the first)."""
        return self.actions[0]

    @property
    def _verb(self) -> str:
        return "draw from the" if self.phase == "draw" else "discard"

    @property
    def player_line(self) -> str | None:
        """One line: the move the fair ``player`` makes in this position (None without)."""
        if self.player is None:
            return None
        return f"{self.player} would {self._verb} {self.pick}"

    @property
    def recommendation(self) -> str:
        """One line: the best action and how much it matters."""
        best = self.best
        line = f"{self._verb} {best.action}"
        if self.margin is None:
            return f"{line} ({self.alone})"
        runner_up = self.actions[1].action
        m = self.margin
        sure = "" if m.low > 0 else "; too close to call at this effort"
        return (f"{line}: {m.mean:.2f} points against the table better than {runner_up} "
                f"(95% CI {m.low:+.2f} to {m.high:+.2f}, {self.worlds} worlds{sure})")

    def to_json(self) -> dict:
        """As ``fcsim advise --json`` prints it."""
        out = {"phase": self.phase, "worlds": self.worlds, "seconds": round(self.seconds, 3),
               "recommendation": self.recommendation,
               "actions": [a.to_json() for a in self.actions],
               "margin": None if self.margin is None else self.margin.to_json()}
        if self.player is not None:
            out["player"] = {"strategy": self.player, "action": self.pick}
        if self.beliefs is not None:
            out["beliefs"] = [b.to_json() for b in self.beliefs]
        return out


def _melds_whole(view: View) -> bool:
    """Whether the seat's best discard leaves every card melded: the game then makes it
    itself (the seat goes out, or on a last turn melds every card)."""
    return view.phase == "discard" and view.info[Info.BEST_PENALTY] == 0


def _why_alone(view: View) -> str:
    """Why a position would have a single action: its discard goes out (on a last turn, it
    melds every card: RULES.md), or it is the one card kind held."""
    if _melds_whole(view):
        return "it melds every card" if view.last_turn else "it goes out"
    return ONLY_ACTION


def _player_move(view: View, player: str | None, names: list[str],
                 actions: np.ndarray) -> str | None:
    """The move ``player`` makes in ``view`` (one of ``names``, the legal actions, whose
    codes are ``actions``): the game's own when the hand melds whole (the player is never
    asked). A move not among them is an :class:`IllegalMoveError` naming the player, the
    move and the legal ones, as a game's."""
    if player is None:
        return None
    if _melds_whole(view):
        return names[0]
    move = decide(agent(player), view.detached(), player)
    code = action_code(move, view.phase == "draw")
    if code not in actions:
        raise illegal_action(move, view, player)
    return names[list(actions).index(code)]


def _legal(view: View) -> tuple[list[str], np.ndarray]:
    """The actions to weigh: both draws, or every distinct card — only the best discard
    if it goes out (the game makes that move itself)."""
    if view.phase == "draw":
        return list(DRAW_ACTIONS), np.array([DRAW_STOCK, DRAW_PILE], dtype=np.int64)
    if _melds_whole(view):
        kinds = np.array([view.info[Info.BEST_DISCARD]], dtype=np.int64)
    else:
        kinds = np.flatnonzero(view.hand_counts).astype(np.int64)
    return [format_card(int(k)) for k in kinds], kinds


def advise(view: View, worlds: int = DEFAULT_WORLDS, seconds: float | None = None,
           rollout: str = "greedy", seed: int = 0, skill: float = 0.0,
           evidence: float = 0.0, beliefs: bool = False,
           player: str | None = STRONGEST) -> Advice:
    """Every legal action in ``view`` with its estimated outcome, best first.

    ``worlds`` worlds at most, fewer if ``seconds`` (wall clock) run out first (at least
    two); ``rollout`` is the policy every seat plays after the action (a numba strategy
    spec); ``seed`` seeds the worlds, so the same call gives the same answer; ``skill``
    models opponents who kept their best cards, ``evidence`` (0 to 1) weighs their hands
    by the cards they passed up and discarded (the ``search`` parameters). ``beliefs``:
    also every other seat's likeliest cards, in the same worlds (``Advice.beliefs``).
    ``player``: a fair strategy whose own move here is shown beside the estimates
    (``Advice.pick``; the strongest fair player by default, None for none).
    """
    if worlds < MIN_WORLDS:
        raise ValueError(f"worlds must be at least {MIN_WORLDS}, not {worlds}")
    if not 0.0 <= evidence <= 1.0:
        raise ValueError(f"evidence must be from 0 to 1, not {evidence}")
    if not skill >= 0.0:  # as search's parameter: the draws a hand is the best of
        raise ValueError(f"skill must be 0 or more, not {skill}")
    start = time.perf_counter()
    names, actions = _legal(view)
    pick = _player_move(view, player, names, actions)
    kernels = bound_module(rollout, "aware")
    batches = []  # (actions, worlds of the batch, O_SIZE) each: only the worlds played
    hands = np.empty((WORLD_BATCH if beliefs else 0, view.players, N_KINDS), dtype=np.int8)
    tally = np.zeros((2, view.players, N_KINDS), dtype=np.int64)
    done = 0
    while done < worlds:
        batch = np.empty((actions.size, min(WORLD_BATCH, worlds - done), O_SIZE))
        dealt = hands[: batch.shape[1]]
        clean = kernels.evaluate(view.hand_counts.copy(), view.pile_kinds, view.known_counts,
                                 view.info, NO_HIDDEN, kernels.WORLDS_SAMPLED, skill, evidence,
                                 FULL_REVEAL, actions, done, batch.shape[1], solver_table(),
                                 shared_scratch(), np.uint64(seed), batch, dealt)
        tally_hands(dealt, tally)
        batches.append(batch)
        done += batch.shape[1]
        if not clean:
            raise IllegalMoveError(f"the rollout policy {rollout!r} made an illegal move")
        if seconds is not None and time.perf_counter() - start > seconds and done >= MIN_WORLDS:
            break
    out = np.concatenate(batches, axis=1)
    least_penalty = min(0.0, float(view.info[Info.GO_OUT_BONUS]))  # going out scores the bonus
    rows = [ActionAdvice(name, Estimate.of(out[a, :, Outcome.PENALTY], lowest=least_penalty),
                         Estimate.of(out[a, :, Outcome.OUT_FIRST], lowest=0.0, highest=1.0),
                         Estimate.of(out[a, :, Outcome.TABLE]))
            for a, name in enumerate(names)]
    order = sorted(range(len(rows)), key=lambda a: rows[a].against_table.mean)
    margin = None
    if len(order) > 1:
        margin = Estimate.of(out[order[1], :, Outcome.TABLE] - out[order[0], :, Outcome.TABLE])
    return Advice(view.phase, done, time.perf_counter() - start, [rows[a] for a in order],
                  margin, hand_beliefs(tally, done, view) if beliefs else None, player,
                  pick, _why_alone(view))


__all__ = ["ActionAdvice", "Advice", "CardBelief", "Estimate", "SeatBeliefs", "advise",
           "hand_beliefs", "tally_hands"]
