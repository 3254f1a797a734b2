"""Twin of ``learned``: a model's value of each candidate discard, the least one played,
and its draw network's value of taking the pile's card.

Draws: with a model of no draw network, as ``expected``; else, when the pile's card lowers
the penalty now or is near the hand (:func:`near`), the pile iff the draw network's value
of the draw features (each computed here from its definition in
``fcsim/strategies/learned/draw_features.py``'s ``DRAW_FEATURES``: the stock's exact
expectation; the pile option as the discard features of its best discard) is below
``-take_margin``. Discards: on a last turn the solver's best
discard; otherwise, among the ``candidates`` best discards now (as ``expected`` ranks
them; 0: as many as the metadata of the networks played says they were fitted on, 5 if it
does not say), the one whose features (each computed here from its definition in
``fcsim/strategies/learned/features.py``'s ``FEATURES``, with the exact solver and every
unseen card enumerated) the model file values lowest: one hidden layer of rectified units
over the standardised features (ties: the earlier candidate). A model with networks of
its own for the view's table size (metadata ``tables``, arrays prefixed ``p{seats}_``)
plays those, else its unprefixed ones.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

import numpy as np

from fcsim.core.cards import DECK_SIZE, JOKER, rank_of, suit_of
from fcsim.strategies.learned.model import DRAW, load_model

from ..rng import Xoshiro256
from ..solver import is_wild
from . import expected
from .aware import feeds
from .greedy import solver_best_discard
from .view import View, penalty, penalty_after_best_discard, unseen_cards, without

NEAR = 2  # suit neighbours within this many ranks


def card_points(kind: int, view: View) -> int:
    """Points of ``kind`` left unmelded: a joker 50, the wild rank its points, else rank."""
    if kind == JOKER:
        return 50
    return view.wild_points if is_wild(kind, view.round) else rank_of(kind)


def features(view: View, kind: int) -> list[float]:
    """The features of discarding ``kind``, in the order of ``FEATURES``."""
    kept = without(view.hand, kind)
    now = penalty(kept, view)
    draws = [penalty_after_best_discard([*kept, card], view) for card in unseen_cards(view)]
    count = max(len(draws), 1)
    nxt = (view.seat + 1) % view.players
    natural = kind != JOKER

    def same_rank(cards) -> int:
        return sum(n for c, n in cards.items() if natural and c != JOKER
                   and rank_of(c) == rank_of(kind))

    near = sum(n for c, n in view.taken[nxt].items() if natural and c != JOKER and (
        rank_of(c) == rank_of(kind)
        or (suit_of(c) == suit_of(kind) and 0 < abs(rank_of(c) - rank_of(kind)) <= NEAR)))
    others = [s for s in range(view.players) if s != view.seat]
    taken = [sum(view.taken[s].values()) for s in others]
    return [
        now,
        sum(draws) / count,
        sum(d == 0 for d in draws) / count,
        sum(d < now for d in draws) / count,
        card_points(kind, view),
        1.0 if feeds(kind, view.known[nxt], view.round) else 0.0,
        near,
        same_rank(view.passed[nxt]),
        sum(same_rank(view.discarded[s]) for s in range(view.players)),
        sum(is_wild(c, view.round) for c in kept),
        len(kept),
        view.turn / view.players,
        view.stock_size / DECK_SIZE,
        max(taken),
        sum(taken) / len(others),
        (view.totals[view.seat] - min(view.totals[s] for s in others)) / 100,
        view.players,
    ]


def networks(model_path: str, view: View) -> tuple[dict[str, np.ndarray], str]:
    """The arrays and inputs the model plays at the view's table: those whose names carry
    the table's prefix (``p2_`` at 2 seats), if its metadata lists that table, else the
    unprefixed ones."""
    model = load_model(model_path)
    table = model.metadata.get("tables", {}).get(str(view.players))
    if table is None:
        return ({name: v for name, v in model.arrays.items()
                 if not re.match(r"p[0-9]+_", name)},
                model.metadata.get("inputs", "features"))
    prefix = f"p{view.players}_"
    return ({name[len(prefix):]: v for name, v in model.arrays.items()
             if name.startswith(prefix)}, table.get("inputs", "features"))


def fitted(model_path: str, view: View) -> int:
    """The candidates a position the networks played at the view's table were fitted on
    (their metadata's ``candidates``; 5 if it does not say)."""
    metadata = load_model(model_path).metadata
    return metadata.get("tables", {}).get(str(view.players), metadata).get("candidates", 5)


def value(model_path: str, view: View, x: list[float], prefix: str = "") -> float:
    """The value of inputs ``x`` of the network ``prefix`` (``DRAW``: the draw's) the
    model plays at the view's table."""
    a = {name[len(prefix):]: v for name, v in networks(model_path, view)[0].items()
         if name.startswith(prefix)}
    hidden = np.maximum((np.array(x) - a["mean"]) / a["scale"] @ a["w1"] + a["b1"], 0.0)
    return float(hidden @ a["w2"] + a["b2"][0])


def near(view: View, card: int) -> bool:
    """Whether ``card`` is wild, or a natural card of a rank the hand holds a natural of,
    or within ``NEAR`` ranks of a natural the hand holds of its suit."""
    if is_wild(card, view.round):
        return True
    return any(not is_wild(c, view.round) and (
        rank_of(c) == rank_of(card)
        or (suit_of(c) == suit_of(card) and 0 < abs(rank_of(c) - rank_of(card)) <= NEAR))
        for c in view.hand)


def draw_features(view: View) -> list[float] | None:
    """The features of the draw, in the order of ``DRAW_FEATURES``; None when the pile's
    card neither lowers the penalty now nor is near the hand."""
    top = view.pile[-1]
    keep = penalty(view.hand, view)
    if penalty_after_best_discard([*view.hand, top], view) >= keep and not near(view, top):
        return None
    draws = [penalty_after_best_discard([*view.hand, card], view)
             for card in unseen_cards(view)]
    count = max(len(draws), 1)
    stock = sum(draws) / count
    taken = replace(view, hand=tuple(sorted([*view.hand, top])), pile=view.pile[:-1])
    pile = features(taken, expected.candidates(taken, 1)[0])
    return [keep, stock, sum(d == 0 for d in draws) / count,
            sum(d < keep for d in draws) / count, card_points(top, view),
            1.0 if is_wild(top, view.round) else 0.0, pile[0] - stock, pile[1] - stock,
            *pile]


def draw(view: View, params: Mapping[str, float], rng: Xoshiro256) -> int:
    """With a draw network: the pile (1) iff it values the pile's card below
    ``-take_margin``; the stock (0) when the card neither lowers the penalty now nor is
    near the hand.
    On a last turn, or without a draw network: as ``expected``."""
    model = str(params["model"])
    if view.last_turn or DRAW + "mean" not in networks(model, view)[0]:
        return expected.draw(view, params, rng)
    x = draw_features(view)
    if x is None:
        return 0
    return 1 if value(model, view, x, DRAW) < -float(params["take_margin"]) else 0


def inputs(model_path: str, view: View, candidates: list[list[float]]
           ) -> list[list[float]]:
    """What the model reads of each candidate: its features, and for networks of
    relative inputs also their differences from the candidates' mean."""
    if networks(model_path, view)[1] == "features":
        return candidates
    means = [sum(column) / len(candidates) for column in zip(*candidates, strict=True)]
    return [x + [v - m for v, m in zip(x, means, strict=True)] for x in candidates]


def discard(view: View, params: Mapping[str, float], rng: Xoshiro256) -> int:
    """The solver's best discard on a last turn, else the least valued candidate."""
    if view.last_turn:
        return solver_best_discard(view)
    model = str(params["model"])
    ranked = expected.candidates(view, int(params["candidates"]) or fitted(model, view))
    read = inputs(model, view, [features(view, kind) for kind in ranked])
    values = [value(model, view, x) for x in read]
    return ranked[min(range(len(ranked)), key=lambda j: (values[j], j))]
