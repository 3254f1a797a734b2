"""How much of an opponent's hand can its public history tell? A reader fitted on the real
hands, judged by how many of the unshown cards worlds dealt by it put where they are.

Prints stable key=value lines:

    table=4xlearned hands=… cards=… model=uniform match=…
    table=4xlearned hands=… cards=… model=reader match=… equivalent_reveal=…

The reader is a gradient-boosted Poisson regression (scikit-learn: the ``[learn]``
extra) of how many copies of each kind an opponent holds among the cards it has not
shown, from what the deciding seat sees of that kind: copies unseen, points, wild or
not; the opponent's discards, pile takes, passed-up pile tops and shown cards of that
kind, of its rank and of its suit within two ranks; the pile's and the seat's own cards
near it; the round, the turns the opponent played, its unshown cards, the stock and the
seats between. It is fitted with the real hands as labels on the views of
``--train-games`` games (``--seed``) and judged on ``--test-games`` others (``--seed`` +
1): each view's opponents are dealt ``--worlds`` hands, their cards drawn without
replacement from the unseen ones, each copy weighted by the reader's count over the
copies unseen (uniform: all alike; ``hands``: the opponents' hands judged, one per
opponent and view). ``match`` and ``equivalent_reveal`` are as in
``scripts/world_reading.py``: the reader is as good as ``search_hands_oracle:reveal`` at
that share. Per-card counts only: what a reader could tell of a whole hand (that a seat
is one card from going out) is not scored here.

    python scripts/hand_reader.py --train-games 40 --test-games 10 --seed 203
"""

from __future__ import annotations

import argparse

import numpy as np
from arguments import at_least, summary
from oracle_views import add_view_options, oracle_views
from sklearn.ensemble import HistGradientBoostingRegressor

from fcsim.core.cards import JOKER, N_KINDS, N_RANKS, card_points, is_wild
from fcsim.core.view import (
    I_DISCARDED,
    I_HAND_SIZES,
    I_PASSED,
    I_TAKEN,
    Info,
)
from fcsim.strategies.lookahead import unseen_counts
from fcsim.strategies.search.worlds import turns_played

KINDS = np.arange(N_KINDS)
NATURAL = KINDS != JOKER
SAME_RANK = ((KINDS[:, None] % N_RANKS == KINDS[None, :] % N_RANKS)
             & NATURAL[:, None] & NATURAL[None, :]).astype(float)
NEAR_RANKS = 2  # a suit neighbour within this many ranks may share a run
NEAR_IN_SUIT = ((KINDS[:, None] // N_RANKS == KINDS[None, :] // N_RANKS)
                & (np.abs(KINDS[:, None] % N_RANKS - KINDS[None, :] % N_RANKS) <= NEAR_RANKS)
                & (KINDS[:, None] != KINDS[None, :])
                & NATURAL[:, None] & NATURAL[None, :]).astype(float)


def kind_features(hand, pile, known, info, seat: int) -> tuple[np.ndarray, np.ndarray, int]:
    """(features float64[56, F] of each kind for opponent ``seat``, copies unseen int64[56],
    the opponent's unshown cards), all from the deciding seat's view."""
    players, me, rnd = info[Info.PLAYERS], info[Info.SEAT], info[Info.ROUND]
    unseen = np.empty(N_KINDS, np.int64)
    n_unseen = unseen_counts(hand, pile, known, me, unseen)
    need = int(info[I_HAND_SIZES + seat] - known[seat].sum())
    wild = np.array([is_wild(k, rnd) for k in KINDS])
    points = [card_points(k, rnd, info[Info.WILD_POINTS]) for k in KINDS]
    columns = [unseen, wild, points]
    columns += [np.full(N_KINDS, x) for x in (rnd, turns_played(info, seat), need, n_unseen,
                                              info[Info.STOCK_SIZE], (seat - me) % players)]
    for block in (I_DISCARDED, I_TAKEN, I_PASSED):
        row = info[block + seat * N_KINDS : block + (seat + 1) * N_KINDS].astype(float)
        columns += [row, SAME_RANK @ row, NEAR_IN_SUIT @ row]
    shown = known[seat].astype(float)
    columns += [shown, SAME_RANK @ shown, NEAR_IN_SUIT @ shown]
    for cards in (np.bincount(pile, minlength=N_KINDS).astype(float), hand.astype(float)):
        columns += [SAME_RANK @ cards, NEAR_IN_SUIT @ cards]
    return np.column_stack([np.asarray(c, float) for c in columns]), unseen, need


def read_views(table: str, players: int, seed: int, games: int, every: int) -> list[tuple]:
    """(features, unshown counts, copies unseen, unshown cards) per opponent and view of
    every ``every``-th decision of ``games`` games of ``table`` in every seat."""
    rows = []
    for view in oracle_views(table, players, seed, games, every):
        hand, pile, known, info = view.arrays
        for seat in range(players):
            if view.unshown[seat].sum() > 0:
                x, unseen, need = kind_features(hand, pile, known, info, seat)
                rows.append((x, view.unshown[seat], unseen, need))
    return rows


def match_share(rows: list[tuple], weights: list[np.ndarray], worlds: int,
                rng: np.random.Generator) -> tuple[float, int]:
    """The share of the unshown cards dealt where they are, each opponent's hand drawn
    without replacement from the unseen copies weighted by ``weights`` (per copy)."""
    hits = cards = 0
    for (_, unshown, unseen, need), weight in zip(rows, weights, strict=True):
        pool = np.repeat(KINDS, unseen)
        odds = np.maximum(np.repeat(weight, unseen), 1e-9)
        for _ in range(worlds):
            pick = rng.choice(pool.size, size=need, replace=False, p=odds / odds.sum())
            hits += np.minimum(np.bincount(pool[pick], minlength=N_KINDS), unshown).sum()
            cards += need
    return hits / cards, cards


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    add_view_options(parser, "hands dealt per view")
    parser.add_argument("--train-games", type=at_least(1), default=40)
    parser.add_argument("--test-games", type=at_least(1), default=10)
    parser.add_argument("--seed", type=int, default=203)
    args = parser.parse_args()
    train = read_views(args.table, args.players, args.seed, args.train_games, args.every)
    test = read_views(args.table, args.players, args.seed + 1, args.test_games, args.every)
    x = np.vstack([row[0] for row in train])
    y = np.concatenate([row[1] for row in train])
    possible = np.concatenate([row[2] > 0 for row in train])  # kinds the seat has not seen
    reader = HistGradientBoostingRegressor(loss="poisson", max_iter=300, random_state=0)
    reader.fit(x[possible], y[possible])
    uniform, cards = match_share(test, [np.ones(N_KINDS)] * len(test), args.worlds,
                                 np.random.default_rng(args.seed))
    weights = [np.where(row[2] > 0, reader.predict(row[0]), 0.0) / np.maximum(row[2], 1)
               for row in test]
    read, _ = match_share(test, weights, args.worlds, np.random.default_rng(args.seed))
    head = f"table={args.players}x{args.table} hands={len(test)} cards={cards}"
    print(f"{head} model=uniform match={uniform:.4f}")
    print(f"{head} model=reader match={read:.4f} "
          f"equivalent_reveal={(read - uniform) / (1 - uniform):+.4f}")


if __name__ == "__main__":
    main()
