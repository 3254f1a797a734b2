"""Agents: whatever decides a move from a :class:`~fcsim.core.view.View`.

An agent is any callable ``view -> action`` — ``"stock"`` / ``"pile"`` when drawing, a
card code when discarding. :func:`agent` gives any strategy spec in that form (a
:class:`~fcsim.strategies.Strategy` is callable on a view), so a built-in strategy, a
plug-in and a hand-written function all drive a :class:`fcsim.Game` the same way.

>>> import fcsim
>>> game = fcsim.Game(players=2, seed=1)
>>> fcsim.agent("greedy:take_margin=2")(game.view()) in ("stock", "pile")
True
"""

from __future__ import annotations

from fcsim.strategies import Strategy, StrategyError, parse_strategy


def agent(spec: str | Strategy) -> Strategy:
    """The strategy ``spec`` (``name`` or ``name:key=value,…``) as an agent.

    Driving a :class:`fcsim.Game` with ``agent(spec)`` in every seat plays the moves the
    batch engine plays for the same seed. Oracles see hidden cards, which a view never
    holds, so they are refused.
    """
    strategy = parse_strategy(spec)
    if strategy.oracle:
        raise StrategyError(f"{strategy.spec} sees hidden cards: it plays in batch runs "
                            "(analysis only), never as an agent on a player's view")
    return strategy
