"""``learned``: draws and discards chosen by values learned from self-play (``fcsim train``).

Draw: when the pile's card lowers the penalty now, or is near the hand (a wild, or near a
natural held: it may join a meld later), the model's draw network predicts what taking it
gains over a stock draw (from the features of
:mod:`fcsim.strategies.learned.draw_features`); it takes the card iff the gain is more than
``take_margin`` points. On a last turn the round ends with this draw and discard, so the
exact rule decides: the draw is ``expected``'s (the discard pile iff it beats the exact
expected stock draw by more than ``take_margin``), as it is for a model without a draw
network.

Discard: among the ``candidates`` discards that leave the least penalty now (by default
as many as the network was fitted on: its relative inputs are relative to them), the one
the model values lowest — the model predicts the round's outcome for the seat (its penalty
less the other seats' mean; the shipped model: less the candidates' average, an
advantage learned from play-outs) from the features of
:mod:`fcsim.strategies.learned.features` (and, for a model of relative inputs, their
differences from the candidates' mean). On a last turn only the penalty now counts: the
exact best discard.

``learned`` plays the model shipped inside fcsim; ``learned:model=PATH`` any model file
``fcsim train`` wrote. At a table size the model holds networks of its own for (the
shipped one: 2 players), it plays those. The model's weights follow the parameter vector,
so the compiled decision reads them like any parameter (:meth:`Model.vector`); a run
records the model file's SHA-256, and ``--resume`` refuses a changed one.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from fcsim.core.rules import MAX_HAND_AT_DISCARD, RuleSet
from fcsim.errors import differences
from fcsim.strategies.base import (
    DRAW_PILE,
    DRAW_STOCK,
    I_BEST_DISCARD,
    I_LAST_TURN,
    I_PLAYERS,
    TIE,
    check_slots,
    decision,
    param_slots,
)
from fcsim.strategies.expected import TAKE_MARGIN, discard_candidates, take_discard
from fcsim.strategies.expected import Slot as ExpectedSlot
from fcsim.strategies.learned.draw_features import N_DRAW_FEATURES, draw_features
from fcsim.strategies.learned.features import N_FEATURES, discard_features, network_inputs
from fcsim.strategies.learned.model import (
    NET_CANDIDATES,
    NET_HIDDEN,
    NET_RELATIVE,
    RELATIVE,
    draw_net_at,
    load_model,
    model_path,
    predict,
    table_net,
)
from fcsim.strategies.registry import Family, Param, register

AS_FITTED = 0  # the candidates parameter that plays as many as the network was fitted on
PARAMS = (
    # expected's parameter at expected's position (a model without a draw network draws as
    # expected), signed here: the draw network's values are advantages, either way of 0
    replace(TAKE_MARGIN, help="points the pile must gain over a stock draw, as the draw "
            "network predicts (on a last turn, or with no draw network, by the exact "
            "expectation); below 0 it is taken more readily", low=-TAKE_MARGIN.high),
    Param("candidates", AS_FITTED, "discards (best now) the model compares (0: as many as "
          "its network was fitted on, 5 for the shipped model's)", low=0,
          high=MAX_HAND_AT_DISCARD),
    Param("model", "", "model file written by fcsim train (empty: the one shipped with "
          "fcsim)", path=True),
)
Slot = param_slots("LearnedSlot", PARAMS)
NET = len(Slot)  # the network follows the numeric parameters


def model_data(model: str) -> np.ndarray:
    """The parameter vector's tail: the network of model file ``model``."""
    return load_model(model).vector()


def model_notes(rules: RuleSet, model: str, candidates: int = AS_FITTED,
                **_: object) -> tuple[str, ...]:
    """A line for each way model file ``model`` may not suit the table: trained under
    other rules than ``rules``, or at no game of its table size (it still plays: its
    features carry the table size and the points); fitted on another number of
    candidates than it plays."""
    return tuple(filter(None, (_rules_note(rules, model), _candidates_note(model, candidates))))


def _candidates_note(model: str, candidates: int) -> str | None:
    """Why a model of relative inputs, fitted on positions of K candidates, may play worse
    with another number: its inputs are relative to the mean over the candidates."""
    loaded = load_model(model)
    fitted = loaded.metadata.get("candidates")
    if loaded.inputs != RELATIVE or fitted in (None, candidates) or candidates == AS_FITTED:
        return None
    return (f"model {model_path(model)} was fitted on {fitted} candidates a position and "
            f"plays {candidates} (without candidates= it plays as it was fitted)")


def _rules_note(rules: RuleSet, model: str) -> str | None:
    metadata = load_model(model).metadata
    trained = dict(metadata.get("rules") or {})
    if rules.players in metadata.get("players", ()):  # fitted on games at this table too
        trained["players"] = rules.players
    table = rules.to_dict()
    differ = differences(table, trained, [key for key in sorted(table)
                                          if key in trained and key != "turn_cap"], repr)
    if not differ:
        return None
    advice = ""
    if trained.get("players", rules.players) != rules.players:  # measured: docs/LEARNING.md
        advice = (" (its features carry the table size; a model trained at this size "
                  "played better at 2 players, no better at 3 or 6)")
    return (f"model {model_path(model)} was trained under other rules "
            f"({'; '.join(differ)}); it plays on{advice}")


@decision
def draw(hand, pile, known, info, hidden, params, table, scratch, rng):
    """The pile's card iff the draw network values it more than ``take_margin`` points
    above a stock draw; on a last turn, and for a model without a draw network, as
    ``expected`` (a last draw's worth is its exact expected penalty: nothing to learn)."""
    net = params[NET:]
    at = draw_net_at(net, table_net(net, info[I_PLAYERS]))
    if net[at + NET_HIDDEN] == 0 or info[I_LAST_TURN] == 1:
        return take_discard(hand, pile, known, info, table, scratch, params[Slot.take_margin])
    x = np.empty(N_DRAW_FEATURES)
    if not draw_features(hand, pile, known, info, table, scratch, x):
        return DRAW_STOCK
    return DRAW_PILE if predict(x, net, at) < -params[Slot.take_margin] else DRAW_STOCK


@decision
def discard(hand, pile, known, info, hidden, params, table, scratch, rng):
    """The candidate discard the model values lowest (the exact best on a last turn)."""
    if info[I_LAST_TURN] == 1:
        return info[I_BEST_DISCARD]
    net = params[NET:]
    at = table_net(net, info[I_PLAYERS])
    candidates = int(params[Slot.candidates])
    if candidates == AS_FITTED:
        candidates = int(net[at + NET_CANDIDATES])
    n, kinds, now, unseen, n_unseen = discard_candidates(hand, pile, known, info, table,
                                                         scratch, candidates)
    x = np.empty((n, N_FEATURES))
    for j in range(n):
        discard_features(hand, kinds[j], now[j], known, info, unseen, n_unseen, table,
                         scratch, x[j])
    inputs = network_inputs(x, n, net[at + NET_RELATIVE] == 1.0)
    best = 0
    best_value = np.inf
    for j in range(n):
        value = predict(inputs[j], net, at)
        if value < best_value - TIE:
            best = j
            best_value = value
    return kinds[best]


FAMILY = check_slots(register(Family(
    "learned",
    "Values learned from self-play (fcsim train) pick the discard and the draw.",
    draw,
    discard,
    PARAMS,
    data=model_data,
    table_notes=model_notes,
    history=True,
)), ExpectedSlot)  # a model without a draw network plays expected's draw
