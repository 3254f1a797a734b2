"""``fcsim tune``'s search: an Optuna study over the ranges, every trial on the same deals.

The objective of a trial is the candidate's mean advantage over the field (points per
game, minimised). Each deal is reported to Optuna as one step, so ``WilcoxonPruner`` races
a trial against the best so far on paired deal results and stops a clear loser early
(checked at the end of each chunk, in chunk order, so the same trial always stops at the
same deal). A pruned trial is told the mean of the deals it played, as Optuna's pruner
documentation advises, and is marked ``pruned`` in its user attributes.

The study runs in memory (a per-deal report costs microseconds there and about 2 ms in
SQLite) and every finished trial is copied at once into the SQLite study ``OUT/study.db``
without its per-deal steps, which are in the run folders. ``--resume`` reads the SQLite
study back and the steps from the runs. Each trial's sampler is seeded from (seed, trial
number), so a resumed study proposes what an uninterrupted one would have.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from fcsim.core.rng import game_seed
from fcsim.errors import FcsimError
from fcsim.tune.deals import DealResults
from fcsim.tune.search import Search
from fcsim.tune.space import Range, inside, with_values
from fcsim.tune.summary import statistics
from fcsim.tune.sweep import integer_columns

if TYPE_CHECKING:
    import optuna

STUDY_NAME = "fcsim-tune"
STUDY_FILE = "study.db"
TRIALS_FILE = "trials.parquet"
SAMPLERS = ("tpe", "cmaes")
# WilcoxonPruner's p-value threshold (Optuna's default): prune when the trial is worse than
# the best one at this level …
PRUNE_P = 0.1
# … once this many deals pair with the best trial's (fewer decide too little; and on up to
# 13 deals with ties scipy runs a permutation test of 2**13 resamples per check).
PRUNE_AFTER_DEALS = 20
INSTALL_HINT = "Optuna is not installed: pip install 'fcsim[tune]'"


class StudyError(FcsimError, ValueError):
    """A study that cannot run (missing Optuna, a sampler that does not fit the space)."""


def import_optuna() -> Any:
    """The optuna module, quiet (no line per trial, no experimental-feature warnings)."""
    try:
        import optuna
    except ImportError:
        raise StudyError(INSTALL_HINT) from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    return optuna


def check_sampler(sampler: str, ranges: Sequence[Range]) -> None:
    """CMA-ES needs at least two parameters (Optuna would fall back to random sampling)."""
    if sampler not in SAMPLERS:
        raise StudyError(f"unknown sampler {sampler!r}; samplers: {', '.join(SAMPLERS)}")
    if sampler == "cmaes" and len(ranges) < 2:
        raise StudyError("--sampler cmaes needs two or more --param ranges "
                         "(CMA-ES is multivariate); use --sampler tpe for one")


def storage_url(out: Path) -> str:
    """The Optuna storage URL of the study in ``out`` (``optuna.load_study`` opens it)."""
    return f"sqlite:///{(out / STUDY_FILE).resolve()}"


@dataclass(frozen=True)
class TrialResult:
    """A finished trial: its number, parameter values, spec and per-deal results."""

    number: int
    values: dict[str, float]
    spec: str
    results: DealResults
    pruned: bool
    seconds: float


class Study:
    """The tune of ``search.base`` over ``ranges`` (see the module docstring)."""

    def __init__(self, search: Search, ranges: Sequence[Range], sampler: str = "tpe",
                 prune: bool = True) -> None:
        check_sampler(sampler, ranges)
        self.optuna = import_optuna()
        self.search, self.ranges, self.sampler, self.prune = search, list(ranges), sampler, prune
        if prune:  # the pruner's test, now, not mid-trial: Ctrl-C inside an import of
            import scipy.stats  # noqa: F401  (scipy would become an ImportError traceback)
        pruner = (self.optuna.pruners.WilcoxonPruner(
            p_threshold=PRUNE_P, n_startup_steps=PRUNE_AFTER_DEALS) if prune
                  else self.optuna.pruners.NopPruner())
        self.stored = self.optuna.create_study(
            study_name=STUDY_NAME, storage=storage_url(search.out), direction="minimize",
            load_if_exists=True)
        self.working = self.optuna.create_study(direction="minimize", pruner=pruner)
        self.finished: list[TrialResult] = []
        self._reference: DealResults | None = None

    @property
    def distributions(self) -> dict[str, Any]:
        """Optuna's distribution of each range (integers stay integers)."""
        dist = self.optuna.distributions
        return {r.param.name: (dist.IntDistribution(int(r.low), int(r.high)) if r.param.integer
                               else dist.FloatDistribution(r.low, r.high))
                for r in self.ranges}

    def restore(self) -> None:
        """Load the stored trials (a resumed study) with their steps from the run folders,
        or enqueue the starting strategy as trial 0 if it lies inside the ranges."""
        stored = sorted(self.stored.get_trials(deepcopy=False,
                                               states=(self.optuna.trial.TrialState.COMPLETE,)),
                        key=lambda t: t.number)
        for trial in stored:
            spec, deals = trial.user_attrs["spec"], trial.user_attrs["deals"]
            results = self.search.play(spec, _until(deals))
            self.working.add_trial(_with_steps(self.optuna, trial, results.values()))
            values = {name: float(value) for name, value in trial.params.items()}
            self.finished.append(TrialResult(trial.number, values, spec, results,
                                             trial.user_attrs["pruned"],
                                             trial.user_attrs["seconds"]))
        if not stored and inside(self.search.base, self.ranges):
            start = dict(zip((p.name for p in self.search.base.family.params),
                             self.search.base.values, strict=True))
            self.working.enqueue_trial({r.param.name: _typed(r, start[r.param.name])
                                        for r in self.ranges})

    def run(self, trials: int, on_trial: Callable[[TrialResult], None] = lambda t: None,
            on_start: Callable[[int, str], None] = lambda number, spec: None) -> None:
        """Run trials until ``trials`` have finished (none if that many already have)."""
        while len(self.finished) < trials:
            number = len(self.finished)
            self.working.sampler = self._sampler(number)
            trial = self.working.ask(self.distributions)
            values = {name: float(value) for name, value in trial.params.items()}
            spec = with_values(self.search.base, values).spec
            on_start(number, spec)
            started = time.perf_counter()
            results = self.search.play(spec, self._reporter(trial))
            seconds = time.perf_counter() - started
            pruned = results.deals < self.search.deals
            for key, value in (("spec", spec), ("deals", results.deals), ("pruned", pruned),
                               ("seconds", round(seconds, 3))):
                trial.set_user_attr(key, value)
            frozen = self.working.tell(trial, float(results.advantage.mean()))
            self.stored.add_trial(_with_steps(self.optuna, frozen, {}))
            self.finished.append(TrialResult(number, values, spec, results, pruned, seconds))
            on_trial(self.finished[-1])

    def _sampler(self, number: int) -> Any:
        seed = int(game_seed(np.uint64(self.search.seed), np.uint64(number))) % 2**32
        samplers = self.optuna.samplers
        return (samplers.TPESampler(seed=seed) if self.sampler == "tpe"
                else samplers.CmaEsSampler(seed=seed))

    def _reporter(self, trial: optuna.Trial) -> Callable[[DealResults], bool]:
        def on_deals(part: DealResults) -> bool:
            for step, value in part.values().items():
                trial.report(value, step)
            return not (self.prune and trial.should_prune())
        return on_deals

    def best(self) -> TrialResult:
        """The finished, unpruned trial with the lowest objective (the first of equals)."""
        complete = [t for t in self.finished if not t.pruned] or self.finished
        return min(complete, key=lambda t: (float(t.results.advantage.mean()), t.number))

    def frame(self) -> pl.DataFrame:
        """One row per finished trial: number, parameters, spec, state, the objective and
        the statistics against the starting strategy on the same deals."""
        if self._reference is None:
            self._reference = self.search.play(self.search.base.spec)
        reference = self._reference
        rows = [{"trial": t.number, **t.values, "spec": t.spec, "pruned": t.pruned,
                 "seconds": t.seconds, "objective": float(t.results.advantage.mean()),
                 **statistics(t.results, reference)} for t in self.finished]
        return integer_columns(pl.DataFrame(rows), [r.param for r in self.ranges])

    def write(self) -> pl.DataFrame:
        """Write ``OUT/trials.parquet``; returns the frame."""
        frame = self.frame()
        frame.write_parquet(self.search.out / TRIALS_FILE)
        return frame


def _typed(r: Range, value: float) -> int | float:
    """``value`` as Optuna's distribution of ``r`` holds it (int for integer parameters)."""
    return int(value) if r.param.integer else float(value)


def _until(deals: int) -> Callable[[DealResults], bool]:
    """An ``on_deals`` that stops once ``deals`` deals have been handed on."""
    seen = [0]

    def on_deals(part: DealResults) -> bool:
        seen[0] += part.deals
        return seen[0] < deals
    return on_deals


def _with_steps(optuna: Any, trial: optuna.trial.FrozenTrial,
                steps: dict[int, float]) -> optuna.trial.FrozenTrial:
    """A copy of a finished trial with ``steps`` as its intermediate values."""
    return optuna.trial.FrozenTrial(
        number=trial.number, state=trial.state, value=trial.value,
        datetime_start=trial.datetime_start, datetime_complete=trial.datetime_complete,
        params=trial.params, distributions=trial.distributions, user_attrs=trial.user_attrs,
        system_attrs=trial.system_attrs, intermediate_values=steps,
        trial_id=trial.number)  # the storage gives the copy an id of its own
