"""The Optuna study: integer parameters stay integers, the SQLite study is Optuna's own,
runs are deterministic, and a resumed study is the study an uninterrupted one would be."""

from __future__ import annotations

import numpy as np
import pytest

from fcsim.tune.deals import DealResults
from fcsim.tune.space import parse_ranges
from tests.tune.helpers import make_search

optuna = pytest.importorskip("optuna")

from fcsim.tune.study import (  # noqa: E402  (after the importorskip)
    PRUNE_AFTER_DEALS,
    STUDY_NAME,
    Study,
    StudyError,
    TrialResult,
    check_sampler,
    storage_url,
)

DEALS = 24  # chunks of 4 deals: pruning may start after 20


def study_in(path, spec: str = "greedy", ranges=("take_margin=0:8",)) -> Study:
    search = make_search(path, spec=spec, deals=DEALS)
    return Study(search, parse_ranges(search.base.family, list(ranges)))


def played(study: Study) -> list[tuple]:
    return [(t.number, t.spec, t.results.deals, t.pruned) for t in study.finished]


@pytest.fixture(scope="module")
def six(tmp_path_factory) -> Study:
    """Six trials in one go."""
    study = study_in(tmp_path_factory.mktemp("six"))
    study.restore()
    study.run(6)
    return study


def test_the_start_is_trial_0_and_integers_stay_integers(six) -> None:
    assert six.finished[0].spec == "greedy"
    frame = six.write()
    assert frame["take_margin"].dtype.is_integer() and frame.height == 6
    stored = optuna.load_study(study_name=STUDY_NAME, storage=storage_url(six.search.out))
    assert len(stored.trials) == 6
    assert all(isinstance(t.params["take_margin"], int) for t in stored.trials)
    assert [t.user_attrs["spec"] for t in stored.trials] == [t.spec for t in six.finished]
    assert stored.best_value == min(frame["objective"])
    assert frame.filter(frame["trial"] == 0)["diff"][0] == 0.0  # the reference itself


def test_a_run_is_a_function_of_its_seed(six, tmp_path) -> None:
    again = study_in(tmp_path)
    again.restore()
    again.run(6)
    assert played(again) == played(six)
    assert again.write().drop("seconds").equals(six.write().drop("seconds"))


def test_resume_continues_the_study_it_would_have_been(six, tmp_path) -> None:
    first = study_in(tmp_path)
    first.restore()
    first.run(3)  # as if interrupted after three trials
    resumed = study_in(tmp_path)
    resumed.restore()
    assert played(resumed) == played(six)[:3]
    resumed.run(6)
    assert played(resumed) == played(six)
    stored = optuna.load_study(study_name=STUDY_NAME, storage=storage_url(tmp_path))
    assert [t.number for t in stored.trials] == list(range(6))


def test_a_start_outside_the_ranges_is_still_the_reference(tmp_path) -> None:
    study = study_in(tmp_path, spec="greedy:take_margin=20", ranges=("take_margin=0:4",))
    study.restore()
    study.run(2)
    frame = study.write()
    assert "greedy:take_margin=20" not in frame["spec"].to_list()
    assert frame["diff"].is_not_null().all()
    assert (tmp_path / "runs" / "greedy_take_margin=20").is_dir()


def test_cmaes_needs_two_parameters(tmp_path) -> None:
    ranges = parse_ranges(make_search(tmp_path).base.family, ["take_margin=0:4"])
    with pytest.raises(StudyError, match="--sampler cmaes needs two or more --param ranges"):
        check_sampler("cmaes", ranges)
    with pytest.raises(StudyError, match="unknown sampler 'grid'; samplers: tpe, cmaes"):
        check_sampler("grid", ranges)


def test_a_losing_trial_is_pruned_at_a_chunk_end_and_resumes_as_pruned(tmp_path) -> None:
    def wide(path):
        search = make_search(path, deals=40)  # chunks of 5 deals
        return Study(search, parse_ranges(search.base.family, ["take_margin=0:100"]))

    whole = wide(tmp_path / "whole")
    whole.restore()
    whole.run(3)
    pruned = [t for t in whole.finished if t.pruned]
    assert pruned, "a take_margin far above 0 never takes the discard and loses clearly"
    for trial in pruned:
        assert 20 <= trial.results.deals < 40 and trial.results.deals % 5 == 0
    stored = optuna.load_study(study_name=STUDY_NAME, storage=storage_url(tmp_path / "whole"))
    first = stored.trials[pruned[0].number]
    assert first.user_attrs["pruned"] and first.user_attrs["deals"] == pruned[0].results.deals
    assert first.value == pytest.approx(pruned[0].results.advantage.mean())

    part = wide(tmp_path / "part")
    part.restore()
    part.run(2)
    resumed = wide(tmp_path / "part")
    resumed.restore()
    steps = [len(t.intermediate_values) for t in resumed.working.trials]
    assert steps == [t.results.deals for t in whole.finished[:2]]
    resumed.run(3)
    assert played(resumed) == played(whole)


def _trial(number: int, advantage: list[float], pruned: bool) -> TrialResult:
    """A finished trial with the given per-deal advantages (deals 0, 1, …)."""
    deals = len(advantage)
    results = DealResults(np.arange(deals), np.array(advantage), np.full(deals, 100.0),
                          np.zeros(deals), np.full(deals, 2, np.int64))
    return TrialResult(number, {}, f"greedy:take_margin={number}", results, pruned, 0.0)


def test_the_best_is_never_a_pruned_trial_s_few_lucky_deals(tmp_path) -> None:
    """A pruned trial stopped on its first deals: its mean there may be the lowest, but it
    is no measure of the whole run, so the best (and what is confirmed) is the lowest of
    the trials played to the end; only when every trial was pruned is it one of them."""
    study = study_in(tmp_path)
    study.finished = [_trial(0, [-1.0] * DEALS, pruned=False),
                      _trial(1, [-4.0] * PRUNE_AFTER_DEALS, pruned=True),
                      _trial(2, [-2.0] * DEALS, pruned=False)]
    assert study.best().number == 2
    study.finished = [_trial(0, [-1.0] * PRUNE_AFTER_DEALS, pruned=True),
                      _trial(1, [-4.0] * PRUNE_AFTER_DEALS, pruned=True)]
    assert study.best().number == 1
