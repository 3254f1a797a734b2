"""Both directions of play: fcsim's strategies as OpenSpiel bots, OpenSpiel's bots as fcsim
agents.

* :func:`bot` — any fcsim strategy spec as a ``pyspiel.Bot`` for one player: it decides
  on that player's :class:`~fcsim.core.view.View` of the state, nothing more, so it plays
  in OpenSpiel's ``evaluate_bots`` beside OpenSpiel's own bots.
* :func:`ismcts_bot` — OpenSpiel's ``ISMCTSBot`` set up for this game: worlds from the
  state's ``resample_from_infostate`` (the search's world sampling) and
  :class:`RoundRollout`, which values a leaf by playing the round out in compiled code.
* :func:`ismcts_agent` / :func:`random_agent` — OpenSpiel's ISMCTS and uniform random
  bots as fcsim agents (``view -> action``), the ``openspiel:ismcts`` and
  ``openspiel:random`` strategies (:mod:`fcsim.openspiel.agents`). A view holds one
  seat's sight only, so the agent builds the state it searches from it: one world
  consistent with the view (:func:`root_from_view`), ending with the round being played
  — the horizon of fcsim's own search — and ISMCTS resamples the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from fcsim.core.rng import STATE_WORDS, next_u64, seed_state
from fcsim.core.state import copy_state, new_state, state_views
from fcsim.core.view import (
    I_ALL_WILD,
    I_GO_OUT_BONUS,
    I_TURN_CAP,
    View,
    decide,
    illegal_action,
)
from fcsim.env.encoding import agent_action, move_index
from fcsim.openspiel import kernels
from fcsim.openspiel.game import FiveCrownsGame, FiveCrownsState, returns_of
from fcsim.openspiel.params import (
    FINAL_POLICY,
    MAX_WORLD_SAMPLES,
    PREFIX,
    ROLLOUT_TAKE_MARGIN,
    SIMULATIONS,
    UCT_C,
)
from fcsim.strategies import parse_strategy

FINAL_POLICIES = {1: ismcts.ISMCTSFinalPolicyType.NORMALIZED_VISITED_COUNT,
                  2: ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                  3: ismcts.ISMCTSFinalPolicyType.MAX_VALUE}
NUMPY_SEEDS = 2**32  # numpy's RandomState takes a seed below 2**32
BOT_SEEDS = 2**31  # OpenSpiel's C++ bots take a seed that fits a C int


class FcsimBot(pyspiel.Bot):
    """An fcsim strategy playing ``player`` in OpenSpiel: it sees that player's view.

    Strategies that draw random numbers draw them from the bot's own stream (seeded by
    ``seed``), never from the game's.
    """

    def __init__(self, spec: str, player: int, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        strategy = parse_strategy(spec)
        if strategy.oracle:
            raise pyspiel.SpielError(f"{strategy.spec} sees hidden cards: it cannot play "
                                     f"as a bot on a player's view")
        self.strategy, self.player = strategy, int(player)
        self._seed = int(seed)
        self._rng = np.zeros(STATE_WORDS, np.uint64)
        self.restart_at(None)

    def step(self, state: FiveCrownsState) -> int:
        """The strategy's move on the player's view, as its action index: any move
        :meth:`fcsim.Game.step` takes; an illegal one raises
        :class:`~fcsim.core.view.IllegalMoveError` naming the strategy and the move."""
        view = state.view(self.player)
        view.rng = self._rng
        move = decide(self.strategy, view, self.strategy.spec)
        index = move_index(move, view.phase == "draw")
        if index not in state.legal_actions():
            raise illegal_action(move, view, self.strategy.spec)
        return index

    def restart_at(self, state: FiveCrownsState | None) -> None:
        seed_state(self._rng, np.uint64(self._seed))

    def inform_action(self, state: FiveCrownsState, player_id: int, action: int) -> None:
        pass

    def provides_policy(self) -> bool:
        return False


def bot(spec: str, player: int, seed: int = 0) -> FcsimBot:
    """The fcsim strategy ``spec`` (``aware``, ``search:worlds=32``…) as an OpenSpiel bot
    for ``player`` of ``python_five_crowns``."""
    return FcsimBot(spec, player, seed)


class RoundRollout:
    """ISMCTS's evaluator: a leaf's value is minus each seat's total once the round is
    played out by every seat with the greedy policy, in compiled code (one call, not a
    Python loop over the moves); uniform priors."""

    def __init__(self, take_margin: float = ROLLOUT_TAKE_MARGIN) -> None:
        self.params = np.array([float(take_margin)])

    def evaluate(self, state: FiveCrownsState) -> list[float]:
        data = copy_state(state.data)
        fixed = state.fixed
        if not kernels.rollout_round(data, self.params, fixed.table, fixed.scratch):
            raise pyspiel.SpielError("the rollout policy made an illegal move")
        return returns_of(state_views(data).totals)

    def prior(self, state: FiveCrownsState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


class ISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's ``ISMCTSBot``, able to play in ``evaluate_bots`` (which restarts and
    informs every bot; a search keeps nothing between its decisions)."""

    def restart_at(self, state: FiveCrownsState) -> None:
        self.reset()

    def inform_action(self, state: FiveCrownsState, player_id: int, action: int) -> None:
        pass


def _check_ismcts(**params: float) -> None:
    """Holds ``params`` to the ranges of the ``openspiel:ismcts`` spec, by its own parser
    (one :class:`~fcsim.strategies.registry.StrategyError` line naming the one out of
    range)."""
    parse_strategy(f"{PREFIX}:ismcts:" + ",".join(f"{k}={v}" for k, v in params.items()))


def ismcts_bot(game: FiveCrownsGame, simulations: int = SIMULATIONS, uct_c: float = UCT_C,
               max_world_samples: int = MAX_WORLD_SAMPLES, final_policy: int = FINAL_POLICY,
               seed: int = 0, take_margin: float = ROLLOUT_TAKE_MARGIN) -> ISMCTSBot:
    """OpenSpiel's ISMCTS on ``python_five_crowns``: ``simulations`` per decision, UCT
    exploration ``uct_c`` (in points: returns are minus the totals), worlds from the
    state's ``resample_from_infostate``, leaves valued by :class:`RoundRollout`; a
    function of ``seed``. A parameter out of the range ``openspiel:ismcts`` gives it is
    one :class:`~fcsim.strategies.registry.StrategyError` line."""
    _check_ismcts(simulations=simulations, uct_c=uct_c, max_world_samples=max_world_samples,
                  final_policy=final_policy, take_margin=take_margin)
    random_state = np.random.RandomState(int(seed) % NUMPY_SEEDS)
    search = ISMCTSBot(
        game, RoundRollout(take_margin), float(uct_c), int(simulations),
        max_world_samples=int(max_world_samples), random_state=random_state,
        final_policy_type=FINAL_POLICIES[int(final_policy)])
    # Worlds from the bot's own seeded stream (OpenSpiel's default sampler is unseeded).
    search.set_resampler(lambda state, player: state.resample_from_infostate(
        player, random_state.uniform))
    return search


@cache
def game_for(players: int, go_out_bonus: int, all_wild_melds: bool,
             turn_cap: int) -> FiveCrownsGame:
    """The game a view is searched in (the rules a view carries; the round's wild points
    come from the view itself)."""
    return FiveCrownsGame({"players": players, "go_out_bonus": go_out_bonus,
                           "all_wild_melds": all_wild_melds, "turn_cap": turn_cap})


def root_from_view(view: View, seed: int) -> FiveCrownsState:
    """A state of ``python_five_crowns`` that ``view``'s seat cannot tell from the real
    one (one world: the unseen cards dealt at random by ``seed``), ending with the round
    being played."""
    game = game_for(view.players, int(view.info[I_GO_OUT_BONUS]), bool(view.info[I_ALL_WILD]),
                    int(view.info[I_TURN_CAP]))
    world = new_state(game.rules)
    fixed = game.fixed
    if not kernels.world_from_view(world, view.hand_counts, view.pile_kinds, view.known_counts,
                                   view.info, np.uint64(seed), fixed.table, fixed.scratch):
        raise pyspiel.SpielError("the view does not add up: no world can hold it")
    return FiveCrownsState.from_world(game, world, horizon=view.round)


def ismcts_agent(simulations: int = SIMULATIONS, uct_c: float = UCT_C,
                 max_world_samples: int = MAX_WORLD_SAMPLES, final_policy: int = FINAL_POLICY,
                 take_margin: float = ROLLOUT_TAKE_MARGIN) -> Callable[[View], str]:
    """OpenSpiel's ISMCTS as an fcsim agent. One number of the seat's own stream per
    decision seeds the world it starts from and the search (a run stays a function of
    its seed)."""

    def decide(view: View) -> str:
        seed = int(next_u64(view.rng))
        root = root_from_view(view, seed)
        search = ismcts_bot(root.get_game(), simulations, uct_c, max_world_samples,
                            final_policy, seed, take_margin)
        return agent_action(int(search.step(root)))

    return decide


def random_agent() -> Callable[[View], str]:
    """OpenSpiel's uniform random bot as an fcsim agent (seeded from the seat's own
    stream, one number per decision)."""

    def decide(view: View) -> str:
        seed = int(next_u64(view.rng)) % BOT_SEEDS
        root = root_from_view(view, seed)
        chooser = pyspiel.make_uniform_random_bot(view.seat, seed)
        return agent_action(int(chooser.step(root)))

    return decide


__all__ = ["FINAL_POLICIES", "FcsimBot", "ISMCTSBot", "RoundRollout", "bot", "game_for",
           "ismcts_agent", "ismcts_bot", "random_agent", "root_from_view"]
