"""The per-suit run table behind the exact solver, built once and cached on disk.

Runs never cross suits, so everything a suit's runs can do depends only on that suit's
*pattern* — how many copies (0, 1, 2) of each of its 11 ranks the hand holds, read as an
11-digit base-3 number (rank 3 is the lowest digit) — and on how many wilds they take.

``RUN_TABLE[pattern, w]`` (``uint8[3**11, 2 * (MAX_WILDS + 1)]``), for ``w`` in 0…16, is
the largest total rank of the suit's natural cards that a set of runs can hold when the
runs contain **exactly** ``w`` wilds, or ``INFEASIBLE`` when no set of runs holds exactly
``w`` wilds. Columns ``BOUND + b`` hold the best total over ``w <= b`` (a prefix maximum,
so the solver can bound a suit's runs from the same cache line). Each run is
3–11 consecutive ranks of the suit, holds at least one natural card of that suit and at
most one copy of each rank; wilds fill gaps and extend the ends (never past 3 or K).

It is built by a recursion on the lowest natural card X of the pattern: X is left out
(``RUN_TABLE[p - X, w]``), or X is the lowest natural of a run U, which holds
``w_U`` wilds anywhere in ``[need(U), 11 - |U|]`` while the other runs hold the rest
(``value(U) + RUN_TABLE[p - U, w - w_U]``). Two consecutive naturals of a run are at most
four ranks apart: a run with a gap of four or more wilds splits into two runs that need no
more wilds and can hold more, so no optimum is lost.

The kernels read :func:`solver_table`, the same numbers laid out for the cache: one
16-byte row per pattern for the common case of at most seven wilds, so the rows a round
touches fit in a core's L2 cache (the wide 34-byte rows did not, and cost a third of the
solve time in cache misses), with the rarer wild counts 8…16 in a section of their own.
It also holds, per pattern, the best runs that leave one natural card out *for free*:
the best discard's one-pass search (:func:`fcsim.core.solver.discard_kernel`) reads it.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np
from numba import njit

from fcsim._numba_cache import cache_root
from fcsim.core.cards import COPIES, MIN_MELD, N_JOKERS, N_RANKS, N_SUITS, rank_at

N_PATTERNS = 3**N_RANKS  # 177,147
MAX_WILDS = N_JOKERS + N_SUITS * COPIES  # 16: the jokers and every card of the wild rank
INFEASIBLE = 255
BOUND = MAX_WILDS + 1  # first column of the prefix-maximum half
TABLE_VERSION = 2
POW3 = np.array([3**i for i in range(N_RANKS + 1)], dtype=np.int64)
MAX_GAP = 4  # largest rank distance between consecutive naturals of a run (see above)

# Sections of the solver table, 16 one-byte columns a row (see solver_table).
NARROW = 8  # wild counts 0…7 live in the narrow rows
RUN_ROWS = 0  # row p: exact best for w = 0…7, then the best over w' <= w, w = 0…7
FREE_ROWS = N_PATTERNS  # row N + p: best runs + one free natural (w = 0…7), then its points
WIDE_ROWS = 2 * N_PATTERNS  # rows 2N + 2p and 2N + 2p + 1: exact, best over w' <= w; w = 8…16
NO_CARD = 255  # a free-card entry with no natural left out (or no runs with exactly w)


@njit(cache=True)
def _build_run_table(pow3: np.ndarray) -> np.ndarray:
    """Fill the exact run table; see the module docstring for the recursion."""
    n_w = MAX_WILDS + 1
    neg = np.int16(-1)
    table = np.full((N_PATTERNS, n_w), neg, dtype=np.int16)
    table[0, 0] = 0
    digits = np.zeros(N_RANKS, dtype=np.int64)
    # Explicit DFS stack over the runs U whose lowest natural is X.
    st_last = np.zeros(N_RANKS + 1, dtype=np.int64)
    st_next = np.zeros(N_RANKS + 1, dtype=np.int64)
    st_m = np.zeros(N_RANKS + 1, dtype=np.int64)
    st_val = np.zeros(N_RANKS + 1, dtype=np.int64)
    st_rest = np.zeros(N_RANKS + 1, dtype=np.int64)
    for p in range(1, N_PATTERNS):
        x = p
        for i in range(N_RANKS):
            digits[i] = x % 3
            x //= 3
        low = 0
        while digits[low] == 0:
            low += 1
        row = table[p]
        # X left out of every run.
        row[:] = table[p - pow3[low]]
        # X is the lowest natural of a run U: depth-first over U's other naturals.
        depth = 0
        st_last[0] = low
        st_next[0] = low + 1
        st_m[0] = 1
        st_val[0] = rank_at(low)
        st_rest[0] = p - pow3[low]
        entering = True
        while depth >= 0:
            if entering:
                span = st_last[depth] - low + 1
                m = st_m[depth]
                need = max(span, MIN_MELD) - m
                most = N_RANKS - m
                rest = table[st_rest[depth]]
                value = st_val[depth]
                for w in range(need, n_w):
                    best = row[w]
                    top = min(most, w)
                    for w_run in range(need, top + 1):
                        r = rest[w - w_run]
                        if r >= 0 and value + r > best:
                            best = value + r
                    row[w] = best
                entering = False
            j = st_next[depth]
            limit = min(st_last[depth] + MAX_GAP, N_RANKS - 1)
            while j <= limit and (digits[j] == 0 or (st_rest[depth] // pow3[j]) % 3 == 0):
                j += 1
            if j > limit:
                depth -= 1
                continue
            st_next[depth] = j + 1
            st_last[depth + 1] = j
            st_next[depth + 1] = j + 1
            st_m[depth + 1] = st_m[depth] + 1
            st_val[depth + 1] = st_val[depth] + rank_at(j)
            st_rest[depth + 1] = st_rest[depth] - pow3[j]
            depth += 1
            entering = True
    out = np.empty((N_PATTERNS, 2 * n_w), dtype=np.uint8)
    for p in range(N_PATTERNS):
        best = 0
        for w in range(n_w):
            v = table[p, w]
            out[p, w] = INFEASIBLE if v < 0 else v
            best = max(best, v)
            out[p, n_w + w] = best
    return out


def build_run_table() -> np.ndarray:
    """Build the run table from scratch (about a second; :func:`run_table` caches it)."""
    return _build_run_table(POW3)


def table_digest(table: np.ndarray) -> str:
    """SHA-256 of a table's bytes (pins the table in the tests)."""
    return hashlib.sha256(np.ascontiguousarray(table).tobytes()).hexdigest()


def build_solver_table(table: np.ndarray) -> np.ndarray:
    """The kernels' layout of ``table`` (``uint8[4 * 3**11, 16]``, sections above).

    The free-card rows hold, for exactly ``w`` wilds in runs, the best of (run total + the
    points of one natural card of the pattern left out of the runs), and in the second
    half that card's points (the higher card among equal totals): by the recursion
    ``free[p, w] = max over naturals X of p of table[p - X, w] + points(X)``.
    """
    out = np.zeros((4 * N_PATTERNS, 2 * NARROW), dtype=np.uint8)
    out[:N_PATTERNS, :NARROW] = table[:, :NARROW]
    out[:N_PATTERNS, NARROW:] = table[:, BOUND : BOUND + NARROW]
    wide = slice(NARROW, MAX_WILDS + 1)
    out[WIDE_ROWS::2][:, : MAX_WILDS + 1 - NARROW] = table[:, wide]
    out[WIDE_ROWS + 1 :: 2][:, : MAX_WILDS + 1 - NARROW] = table[:, BOUND + NARROW :]
    patterns = np.arange(N_PATTERNS)
    best = np.full((N_PATTERNS, NARROW), -1, dtype=np.int16)
    card = np.zeros((N_PATTERNS, NARROW), dtype=np.int16)
    for i in range(N_RANKS):  # rising points, so ">=" keeps the higher card on ties
        held = patterns[(patterns // 3**i) % 3 > 0]
        rest = table[held - 3**i, :NARROW].astype(np.int16)
        total = np.where(rest == INFEASIBLE, -1, rest + rank_at(i))
        better = (total >= best[held]) & (total >= 0)
        best[held] = np.where(better, total, best[held])
        card[held] = np.where(better, rank_at(i), card[held])
    free = out[FREE_ROWS:WIDE_ROWS]
    free[:, :NARROW] = np.where(best < 0, NO_CARD, best)
    free[:, NARROW:] = np.where(best < 0, NO_CARD, card)
    return out


def _load_or_build(file_name: str, shape: tuple[int, int], build) -> np.ndarray:
    """``build()``'s table, cached as ``<cache root>/<file_name>`` (a file of another shape,
    or an unreadable one, is rebuilt; a read-only cache just rebuilds each time)."""
    path = cache_root() / file_name
    table = None
    if path.exists():
        try:
            table = np.load(path, allow_pickle=False)
        except (OSError, ValueError):
            table = None
        if table is not None and table.shape != shape:
            table = None
    if table is None:
        table = build()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
            np.save(tmp, table)
            os.replace(tmp, path)
        except OSError:
            pass
    return table


_TABLES: dict[str, np.ndarray] = {}


def run_table() -> np.ndarray:
    """The run table, loaded from the disk cache or built (and cached) on first use."""
    if "run" not in _TABLES:
        _TABLES["run"] = _load_or_build(f"run_table_v{TABLE_VERSION}.npy",
                                        (N_PATTERNS, 2 * BOUND), build_run_table)
    return _TABLES["run"]


def solver_table() -> np.ndarray:
    """The table the solver kernels take (:func:`build_solver_table` of :func:`run_table`),
    loaded from the disk cache or built (and cached) on first use. Its file is named after
    a digest of this module, so a change of layout never loads a stale file."""
    if "solver" not in _TABLES:
        digest = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
        _TABLES["solver"] = _load_or_build(f"solver_table_{digest}.npy",
                                           (4 * N_PATTERNS, 2 * NARROW),
                                           lambda: build_solver_table(run_table()))
    return _TABLES["solver"]
