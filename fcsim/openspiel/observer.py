"""What a seat of ``python_five_crowns`` may see, as strings and tensors: OpenSpiel's
observer of information states (perfect recall) and of observations."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from fcsim.core.cards import CARD_CODES, DECK_SIZE, format_card, format_cards, hand_kinds
from fcsim.core.state import (
    PHASE_DISCARD,
    PHASE_DRAW,
    S_DEALER,
    S_PHASE,
    S_PILE,
    S_ROUND,
    S_SEAT,
    S_STOCK,
    StateData,
    copy_state,
    state_views,
)
from fcsim.core.view import (
    I_BEST_PENALTY,
    I_HAND_SIZES,
    I_OUT_SEAT,
    I_STOCK_SIZE,
    I_TOTALS,
    I_TURN,
    history_of,
)
from fcsim.openspiel import kernels, recall

if TYPE_CHECKING:
    from fcsim.openspiel.game import FiveCrownsGame, FiveCrownsState


def _masked(state: FiveCrownsState, player: int) -> StateData:
    """While a deal is chosen: a copy of fcsim's state showing only what ``player`` has
    been dealt so far (fcsim's own deal underneath is nobody's to see)."""
    data = copy_state(state.data)
    parts = state_views(data)
    parts.hands[:, :] = 0
    for t, kind in enumerate(state.dealt):
        if kernels.deal_seat(state.data, t) == player:
            parts.hands[player, kind] += 1
    data.ints[S_PILE] = 0
    data.ints[S_STOCK] = DECK_SIZE - len(state.dealt)
    data.ints[S_PHASE] = PHASE_DRAW
    return data


class FiveCrownsObserver:
    """What a seat may see, as strings and tensors (OpenSpiel's observer interface).

    Tensors are the environments' observations (:class:`fcsim.env.encoding.Encoder`):
    the observation is version 0 (own hand, the pile, its top, the wilds, the unseen
    cards, the known cards of each other seat, the public scalars), the information state
    the latest version, which adds the round's public history (per seat: discarded, taken
    from the pile, passed up), what is on the table now. The information state's string
    lists the pile in order, everything fcsim shows a seat (its :class:`View`), and then
    everything the seat saw since the game began (:func:`recall.recall`): perfect recall.
    """

    def __init__(self, game: FiveCrownsGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        fixed = game.fixed
        self.encoder = fixed.encoder if perfect_recall else fixed.now_encoder
        name = "info_state" if perfect_recall else "observation"
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {name: self.tensor}

    def _data(self, state: FiveCrownsState, player: int) -> StateData:
        return _masked(state, player) if state.dealing else state.data

    def set_from(self, state: FiveCrownsState, player: int) -> None:
        parts = state_views(self._data(state, player))
        self.tensor[:] = self.encoder.observation(parts, player)

    def string_from(self, state: FiveCrownsState, player: int) -> str:
        past = recall.recall(state.seen, player) if self.perfect_recall else ""
        past = f" | seen {past}" if past else ""
        if state.is_terminal():
            totals = " ".join(str(int(t)) for t in state_views(state.data).totals)
            return f"p{player} game over | totals {totals}{past}"
        data = self._data(state, player)
        parts = state_views(data)
        info = kernels.seat_info(data, player)
        players = self.game.rules.players
        r = int(data.ints[S_ROUND])
        hand = " ".join(format_cards(hand_kinds(parts.hands[player])))
        out = [f"p{player} round {r} dealer p{int(data.ints[S_DEALER])}"]
        if state.dealing:
            out.append(f"dealing card {len(state.dealt) + 1} of {state.deal_size}")
        else:
            phase = "discard" if int(data.ints[S_PHASE]) == PHASE_DISCARD else "draw"
            pending = " (stock card pending)" if state.drawing else ""
            out.append(f"p{int(data.ints[S_SEAT])} to {phase}{pending}")
            out.append(f"turn {int(info[I_TURN])} stock {int(info[I_STOCK_SIZE])}")
            if info[I_OUT_SEAT] >= 0:
                out.append(f"out p{int(info[I_OUT_SEAT])}")
            if info[I_BEST_PENALTY] >= 0:
                out.append(f"best penalty {int(info[I_BEST_PENALTY])}")
        out.append(f"hand {hand}")
        pile = parts.pile[: int(data.ints[S_PILE])]
        if not state.dealing:
            if self.perfect_recall:
                out.append(f"pile {' '.join(format_cards(pile))}")
            else:
                out.append(f"pile top {format_card(int(pile[-1])) if len(pile) else '-'} "
                           f"({len(pile)})")
            known = _seat_cards(parts.known[:players], skip=player)
            if known:
                out.append("known " + " ".join(known))
            if self.perfect_recall:
                history = history_of(info, players)
                for name, plane in zip(("discarded", "taken", "passed"), history, strict=True):
                    seen = _seat_cards(plane[:players])
                    if seen:
                        out.append(f"{name} " + " ".join(seen))
            sizes = " ".join(str(int(x)) for x in info[I_HAND_SIZES : I_HAND_SIZES + players])
            out.append(f"sizes {sizes}")
        totals = " ".join(str(int(x)) for x in info[I_TOTALS : I_TOTALS + players])
        out.append(f"totals {totals}")
        return " | ".join(out) + past


def _seat_cards(plane: np.ndarray, skip: int = -1) -> list[str]:
    """``p{seat}:{cards}`` for each seat of ``plane`` (counts, one row per seat) that holds
    a card, but ``skip``; cards in kind order. One ``nonzero`` for the whole plane: ISMCTS
    asks for the information state at every node it walks."""
    seats, kinds = np.nonzero(plane)
    cards: dict[int, list[str]] = {}
    for seat, kind, n in zip(seats.tolist(), kinds.tolist(), plane[seats, kinds].tolist(),
                             strict=True):
        if seat != skip:
            cards.setdefault(seat, []).append(CARD_CODES[kind] * n)
    return [f"p{seat}:{''.join(codes)}" for seat, codes in cards.items()]
