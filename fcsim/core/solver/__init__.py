"""The exact best meld cover: the smallest penalty a hand can leave, and a best discard.

A hand is its natural cards, split by suit into base-3 *patterns*, plus ``W`` wilds
(jokers and cards of the round's wild rank). An arrangement is a set of books, runs and
(when allowed) one all-wild meld; its penalty is the rank total of the natural cards left
out, plus the cheapest ``u`` wilds when ``u`` wilds are left out. Among arrangements of
equal penalty the one leaving the fewest wilds unmelded is chosen, which fixes how the
penalty splits into natural / wild-rank / joker points.

How it is exact and fast, one concept a module:

``layout``   the int64 work space every kernel shares: regions of named records, reached
             through index functions (no allocation per call, no offsets by hand);
``hand``     a hand read as words: suit patterns (packed two words), rank sets,
             isolated cards, the cost of wilds left out (``bits``: the bit tricks);
``books``    books cross suits, so each rank holding two or more naturals is a
             *candidate* with options (no book, or a book of some of its cards), from a
             table of every book a rank can make, biggest first;
``combos``   combinations of one option per candidate: their codes, and lists of the
             affordable ones a slice at a time;
``runs``     the per-suit run table (:mod:`fcsim.core.tables`) and the max-plus
             convolutions that give the best runs of all five suits;
``penalty``  :func:`penalty_kernel`, the exact least penalty: the combinations with a book
             need only their best runs with *at most* their budget of wilds, bounded by
             the whole hand's runs; the one with no book is solved last, wild by wild;
``memo``     a small exact memo of recent answers in the work space, the hand hash, and
             the tags naming each question (:func:`penalty_memo`, :func:`discard_memo`);
``key``      the integer key that ranks (arrangement, discard) pairs;
``discard``  :func:`discard_kernel`, the best discard in one pass over the combinations
             (:func:`discard_search`: card by card), and :func:`best_discard_kernel`;
``api``      the Python API: :func:`min_penalty`, :func:`best_discard`, batches.

The melds themselves, for display, are rebuilt by :mod:`fcsim.core.arrangement`.
"""

from fcsim.core.solver.api import (
    MAX_HAND,
    Hand,
    as_counts,
    best_discard,
    best_discard_batch,
    best_discard_batch_kernel,
    best_discard_of_counts,
    link_searches,
    min_penalty,
    min_penalty_batch,
    penalty_batch_kernel,
    setup_hand,
)
from fcsim.core.solver.discard import (
    best_discard_kernel,
    discard_kernel,
    discard_kernel_late,
    discard_memo,
    discard_search,
)
from fcsim.core.solver.layout import (
    MEMO_SLOTS,
    PLAN_BOOKS,
    PLAN_RUN_WILDS,
    SCRATCH_SIZE,
    new_scratch,
)
from fcsim.core.solver.memo import card_hash, hand_hash
from fcsim.core.solver.penalty import penalty_kernel, penalty_kernel_late, penalty_memo

__all__ = [
    "MAX_HAND",
    "MEMO_SLOTS",
    "PLAN_BOOKS",
    "PLAN_RUN_WILDS",
    "SCRATCH_SIZE",
    "Hand",
    "as_counts",
    "best_discard",
    "best_discard_batch",
    "best_discard_batch_kernel",
    "best_discard_kernel",
    "best_discard_of_counts",
    "card_hash",
    "discard_kernel",
    "discard_kernel_late",
    "discard_memo",
    "discard_search",
    "hand_hash",
    "link_searches",
    "min_penalty",
    "min_penalty_batch",
    "new_scratch",
    "penalty_batch_kernel",
    "penalty_kernel",
    "penalty_kernel_late",
    "penalty_memo",
    "setup_hand",
]
