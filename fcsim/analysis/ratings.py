"""Elo-like ratings of strategies from finishing orders: a Bradley–Terry fit on all seat pairs.

Model. Every game is broken into its ordered seat pairs; seat i "beats" seat j when its
total is strictly lower, and a tie counts half a win to each (the chess convention). The
Bradley–Terry model P(a beats b) = γa / (γa + γb) is fitted by maximum likelihood with
Hunter's (2004) MM algorithm. Pairs of one game are not independent, so this is a
composite likelihood: the point estimates are sound, but its Fisher information would
overstate precision. Intervals therefore come from a bootstrap over deals (fixed seed), the
independent units (a duplicate deal's rotations share its cards; so do the seats of one
game): deals are resampled as a multinomial over the run's distinct deal patterns
(:class:`fcsim.analysis.stats.FinishingPatterns`), which is exact and costs nothing per
game. (Resampling a duplicate run's rotations as separate games, as fcsim did until
December 2026, gave intervals 1.2 to 3.8 times as wide.)

Scale. rating = 1500 + 400·log10(γ), anchored so the mean rating over strategies is 1500;
a difference of D points means P(a ahead of b) = 1 / (1 + 10^(−D/400)), as in Elo.

Prior. One virtual drawn pair between every two strategies keeps the ratings finite when a
strategy never (or always) beats another. Where the games bound the ratings (along "a
finished ahead of or tied b", every strategy leads to every other) its weight is negligible
at simulation scale. Where they do not (a strategy that never finishes ahead, as `random`
in a short run; tables that never meet), the prior and the number of games set the
ratings, not the play: they drift as games are added (all of them, the mean being
anchored), and a bootstrap of the same games gives a narrow, even zero-width, interval.
Such ratings get no interval (NaN).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from fcsim.analysis.stats import FinishingPatterns, Frame, as_patterns

ELO_SCALE = 400 / np.log(10)
ANCHOR = 1500.0
PRIOR_PAIRS = 1.0
BOOTSTRAP = 200
SEED = 20240601


def bradley_terry(ahead: np.ndarray, prior: float = PRIOR_PAIRS, tol: float = 1e-10,
                  max_iter: int = 100_000) -> np.ndarray:
    """Log-strengths (mean 0) maximising the Bradley–Terry likelihood of pairwise wins.

    ``ahead[..., a, b]`` is the (possibly fractional) number of times a beat b; leading axes
    are independent problems (e.g. bootstrap replicates) solved together. ``prior`` adds
    that many virtual drawn comparisons between every two strategies."""
    k = ahead.shape[-1]
    if k < 2:
        return np.zeros(ahead.shape[:-1])
    off_diagonal = 1.0 - np.eye(k)
    wins = (ahead + prior / 2) * off_diagonal
    games = wins + np.swapaxes(wins, -1, -2)
    total_wins = wins.sum(axis=-1)
    gamma = np.ones(ahead.shape[:-1])
    for _ in range(max_iter):
        denom = (games / (gamma[..., :, None] + gamma[..., None, :])).sum(axis=-1)
        new = total_wins / denom
        new /= np.exp(np.log(new).mean(axis=-1, keepdims=True))
        done = np.max(np.abs(np.log(new) - np.log(gamma))) < tol
        gamma = new
        if done:
            break
    log_gamma = np.log(gamma)
    return log_gamma - log_gamma.mean(axis=-1, keepdims=True)


def bounded_by_data(ahead: np.ndarray) -> bool:
    """Whether the pairwise results ``ahead[a, b]`` (K × K) bound the Bradley–Terry fit:
    the graph "a finished ahead of or tied b at least once" is strongly connected."""
    k = ahead.shape[-1]
    reach = (ahead > 0) | np.eye(k, dtype=bool)
    for _ in range(max(k - 1, 0).bit_length()):  # squaring doubles the paths' length
        reach = (reach.astype(np.int64) @ reach.astype(np.int64)) > 0
    return bool(reach.all())


def to_elo(log_gamma: np.ndarray) -> np.ndarray:
    """Bradley–Terry log-strengths on the Elo scale, mean anchored at 1500."""
    return ANCHOR + ELO_SCALE * (log_gamma - log_gamma.mean(axis=-1, keepdims=True))


def rate_strategies(data: Frame | FinishingPatterns, bootstrap: int = BOOTSTRAP,
                    seed: int = SEED) -> pl.DataFrame:
    """Rating of every strategy with a 95% percentile-bootstrap interval over deals.

    ``data`` is the rows or their finishing patterns. Columns: strategy, rating, rating_lo,
    rating_hi (NaN where the games do not bound the ratings: :func:`bounded_by_data`), pairs
    (seat pairs against other strategies), ahead_share (share of those it finished ahead in,
    ties half); sorted best first."""
    patterns = as_patterns(data)
    ahead, met = patterns.pair_counts()
    others = 1.0 - np.eye(len(patterns.strategies))  # a strategy met at its own table is no test
    ahead, met = ahead * others, met * others
    rating = to_elo(bradley_terry(ahead))
    boot = to_elo(bradley_terry(_bootstrap_ahead(patterns, bootstrap, seed) * others))
    lo, hi = np.percentile(boot, [2.5, 97.5], axis=0)
    if not bounded_by_data(ahead):
        lo, hi = np.full_like(lo, np.nan), np.full_like(hi, np.nan)
    return pl.DataFrame({
        "strategy": patterns.strategies, "rating": rating, "rating_lo": lo, "rating_hi": hi,
        "pairs": met.sum(axis=-1).astype(np.int64),
        "ahead_share": np.divide(ahead.sum(axis=-1), met.sum(axis=-1),
                                 out=np.full(len(patterns.strategies), np.nan),
                                 where=met.sum(axis=-1) > 0),
    }).sort("rating", descending=True)


DRAWS_AT_ONCE = 2_000_000  # deal weights the bootstrap holds at once (16 MB)


def _bootstrap_ahead(patterns: FinishingPatterns, replicates: int, seed: int) -> np.ndarray:
    """``ahead`` matrices (float64[replicates, K, K], :meth:`FinishingPatterns.pair_counts`)
    of the run's deals resampled with replacement, a block of replicates at a time. Deals
    whose seat pairs came out alike are one category of the draw (a run of 625,000 deals
    has some 10,000), so a replicate costs that many draws, not one per deal."""
    rng = np.random.default_rng(seed)
    ahead = patterns.deal_pair_counts[0]
    rows = np.ascontiguousarray(ahead.reshape(len(ahead), -1))
    _, first, kind = np.unique(rows.view(np.dtype((np.void, rows[0].nbytes))).ravel(),
                               return_index=True, return_inverse=True)  # rows as bytes: fast
    outcomes, deals = rows[first], np.bincount(kind, weights=patterns.deals)
    total = int(patterns.deals.sum())
    block = max(1, DRAWS_AT_ONCE // deals.size)
    blocks = [rng.multinomial(total, deals / total, size=min(block, replicates - start))
              @ outcomes for start in range(0, replicates, block)]
    return np.concatenate(blocks).reshape(replicates, *ahead.shape[1:])
