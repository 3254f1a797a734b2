"""How much of the opponents' hands a search's worlds read: the share of the cards each
opponent has not shown that a world deals where they really are.

Prints one stable line per world model:

    table=4xlearned views=… cards=… model=uniform match=… equivalent_reveal=…

The views are every ``--every``-th decision of ``--games`` games of ``--table`` in every
seat (``--seed``); each view deals ``--worlds`` worlds per model through the search's own
kernel (:func:`fcsim.strategies.search.kernels.evaluate`, the hands it dealt). ``match`` is
the share of the opponents' unshown cards dealt to the seat that holds them;
``equivalent_reveal`` puts it on the scale of ``search_hands_oracle:reveal`` — the share
of the cards above uniform dealing, ``(match - uniform) / (1 - uniform)`` — so a model
of the opponents reads as much of their hands as an oracle that is shown that share.
The models: the fair search's (uniform, ``skill``, ``evidence``) and, for the scale, the
oracle's partial readings (``reveal``).

    python scripts/world_reading.py --games 6 --seed 202
"""

from __future__ import annotations

import argparse

import numpy as np
from arguments import at_least, summary
from oracle_views import add_view_options, oracle_views

from fcsim.core.cards import N_KINDS
from fcsim.core.state import shared_scratch
from fcsim.core.tables import solver_table
from fcsim.core.view import DRAW_STOCK, Info
from fcsim.strategies.search.bind import bound_module
from fcsim.strategies.search.rollout import O_SIZE
from fcsim.strategies.search.worlds import FULL_REVEAL

SAMPLED = {"uniform": (0.0, 0.0), "skill=1": (1.0, 0.0), "evidence=0.8": (0.0, 0.8),
           "evidence=1": (0.0, 1.0), "skill=1,evidence=0.8": (1.0, 0.8)}
REVEALS = (0.1, 0.25, 0.5, 0.75)


def dealt_hands(kernels, arrays, drawing: bool, hidden: np.ndarray, worlds: int, mode: int,
                skill: float, evidence: float, reveal_share: float, seed: int) -> np.ndarray:
    """The hands (int8[W, P, 56]) of ``worlds`` worlds the search deals in this view (one
    legal action played out in each: the kernel plays what it deals)."""
    hand, pile, known, info = arrays
    action = DRAW_STOCK if drawing else int(np.flatnonzero(hand)[0])
    out = np.empty((1, worlds, O_SIZE))
    hands = np.empty((worlds, info[Info.PLAYERS], N_KINDS), dtype=np.int8)
    kernels.evaluate(hand.copy(), pile, known, info, hidden, mode, skill, evidence,
                     reveal_share, np.array([action]), 0, worlds, solver_table(),
                     shared_scratch(), np.uint64(seed), out, hands)
    return hands


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    add_view_options(parser, "worlds per view and model")
    parser.add_argument("--games", type=at_least(1), default=6)
    parser.add_argument("--seed", type=int, default=202)
    args = parser.parse_args()
    kernels = bound_module("greedy", "aware")
    models = {name: (kernels.WORLDS_SAMPLED, skill, evidence, FULL_REVEAL)
              for name, (skill, evidence) in SAMPLED.items()}
    models |= {f"reveal={share}": (kernels.WORLDS_REAL_HANDS, 0.0, 0.0, share)
               for share in REVEALS}
    matched = dict.fromkeys(models, 0)
    cards = views = 0
    for view in oracle_views(args.table, args.players, args.seed, args.games, args.every):
        views += 1
        cards += args.worlds * int(view.unshown.sum())
        for name, (mode, skill, evidence, share) in models.items():
            hands = dealt_hands(kernels, view.arrays, view.drawing, view.hidden, args.worlds,
                                mode, skill, evidence, share, 1000 * view.decision)
            dealt = hands.astype(np.int64) - view.arrays[2]
            matched[name] += int(np.minimum(dealt, view.unshown).sum())
    uniform = matched["uniform"] / cards
    for name, hits in matched.items():
        share = hits / cards
        print(f"table={args.players}x{args.table} views={views} cards={cards} model={name} "
              f"match={share:.4f} equivalent_reveal={(share - uniform) / (1 - uniform):+.4f}")


if __name__ == "__main__":
    main()
