"""Running a plan: the bar hears games within a chunk, kernels compile once in the parent
and say so only when they compile, chunk sizes follow the run, workers follow the cores
this process may use."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

import fcsim
from fcsim.core.rules import RuleSet
from fcsim.runner import RunFolder, chunk, execute, make_plan, pool, run
from fcsim.runner.plan import PlanError
from fcsim.runner.pool import InProcess, ProcessPool
from fcsim.runner.run import cpu_quota, default_workers

RULES = RuleSet(players=2, rounds=6)


def _played(tmp_path, executor, games: int, chunk_size: int) -> list[int]:
    plan = make_plan("greedy,random", RULES, 3, games, chunk_size=chunk_size)
    folder = RunFolder.open(tmp_path / "run", plan, resume=False)
    folder.create()
    heard: list[int] = []
    execute(folder, executor, on_games=heard.append)
    return heard


class _FirstChunkOnly(InProcess):
    """An executor that ends early without a stop: it plays the first chunk handed to it."""

    def run(self, plan, indices, on_progress=None):
        yield from super().run(plan, list(indices)[:1], on_progress)


def test_an_executor_that_leaves_chunks_unplayed_is_no_complete_run(tmp_path):
    """Whatever the executor, the run ends with every chunk written or with a fault that
    says how many are not (and the folder is released for --resume to play them)."""
    plan = make_plan("greedy,random", RULES, 3, 30, chunk_size=10)
    folder = RunFolder.open(tmp_path / "run", plan, resume=False)
    folder.create()
    with pytest.raises(run.RunIncomplete, match=r"2 of the run's 3 chunks were not played "
                                                r"\(chunk 1 the first\); --resume plays them$"):
        execute(folder, _FirstChunkOnly())
    again = RunFolder.open(tmp_path / "run", plan, resume=True)
    again.create()
    assert list(again.missing) == [1, 2]
    execute(again, InProcess())
    assert not again.missing


def test_progress_moves_within_a_chunk(tmp_path, monkeypatch):
    monkeypatch.setattr(chunk, "PROGRESS_GAMES", 10)
    heard = _played(tmp_path, InProcess(), 100, 50)
    assert heard == [1, 3, 7, 15, 25, 35, 45, 50, 50,  # slices of 1, 2, 4, 8, then 10
                     51, 53, 57, 65, 75, 85, 95, 100, 100]


def test_progress_comes_back_from_worker_processes(tmp_path):
    """Two chunks of 1,200 games on two workers: the bar hears them every 500 games."""
    heard = _played(tmp_path, ProcessPool(2), 2400, 1200)
    assert heard == sorted(heard) and heard[-1] == 2400
    assert any(n % 1200 for n in heard)  # reports from within a chunk


def test_partial_reports_of_chunks_in_flight_add_up():
    heard: list[int] = []
    played = run._GamesPlayed(1000, heard.append)
    played.partial(3, 20)
    played.partial(4, 5)
    played.finished(3, 50)
    played.partial(3, 40)  # late: chunk 3 is done
    played.finished(4, 50)
    assert heard == [1020, 1025, 1055, 1100]


def test_a_resumed_run_counts_the_games_it_found_done(tmp_path):
    """The bar of a resumed run starts where the run stopped and ends at its games: the
    chunks found done count once, the games played now on top of them."""
    plan = make_plan("greedy,random", RULES, 3, 40, chunk_size=10)
    first = RunFolder.open(tmp_path / "run", plan, resume=False)
    first.create()
    done_before = [0, 1]  # as if stopped after two chunks
    for index in done_before:
        first.write_chunk(index, chunk.run_chunk(plan, index).data)
    first.release()
    folder = RunFolder.open(tmp_path / "run", plan, resume=True)
    folder.create()
    heard: list[int] = []
    execute(folder, InProcess(), on_games=heard.append)
    found = sum(len(plan.chunk_games(i)) for i in done_before)
    assert heard == sorted(heard) and heard[0] > found and heard[-1] == plan.games


def test_a_warm_cache_compiles_nothing_and_says_nothing():
    said: list[str] = []
    plan = make_plan("greedy,random", RULES, 0, 10)
    pool.compile_once(plan, lambda: said.append("compiling"))  # warm by now
    pool.compile_once(plan, lambda: said.append("compiling"))
    assert said == []


def test_the_first_compilation_is_announced_once():
    said: list[str] = []

    @njit
    def fresh(x):
        return x + 1

    with pool.event.install_listener("numba:compile", pool._FirstCompile(
            lambda: said.append("compiling"))):
        fresh(1)
        fresh(1.5)
    assert said == ["compiling"]


@pytest.mark.parametrize(("text", "cores"), [("200000 100000\n", 2), ("150000 100000", 2),
                                             ("50000 100000", 1), ("max 100000", None),
                                             ("nonsense", None)])
def test_cpu_quota_reads_the_cgroup_limit(tmp_path, text: str, cores: int | None) -> None:
    cpu_max = tmp_path / "cpu.max"
    cpu_max.write_text(text)
    assert cpu_quota(cpu_max) == cores
    assert cpu_quota(tmp_path / "absent") is None


def test_default_workers_never_exceeds_the_quota(monkeypatch) -> None:
    monkeypatch.setattr("fcsim.runner.run.cpu_quota", lambda: 1)
    assert default_workers() == 1


def _decision_rows(out):
    import polars as pl

    return pl.read_parquet(str(out / "decisions" / "part-*.parquet"))


def test_decision_rows_do_not_depend_on_workers_or_chunks(tmp_path, monkeypatch):
    """The same decision rows in one process in chunks of 10 (played 4 games at a time)
    and on two workers in chunks of 15; the game rows are those of a run without them."""
    import polars as pl

    args = {"strategies": "greedy,random", "games": 30, "seed": 9, "rules": RULES}
    run.simulate(out=tmp_path / "plain", workers=1, chunk_size=10, **args)
    monkeypatch.setattr(chunk, "PROGRESS_GAMES", 4)
    run.simulate(out=tmp_path / "one", workers=1, chunk_size=10, decisions=True, **args)
    run.simulate(out=tmp_path / "two", workers=2, chunk_size=15, decisions=True, **args)
    one, two = _decision_rows(tmp_path / "one"), _decision_rows(tmp_path / "two")
    assert one.equals(two)
    assert one["game"].is_sorted() and one["game"].n_unique() == 30

    def games(name):
        return pl.read_parquet(str(tmp_path / name / "part-*.parquet")).sort("game", "seat")

    assert games("one").equals(games("plain"))
    turns = (one.group_by("game", "round").len().sort("game", "round")
             .join(games("one").filter(pl.col("seat") == 0)
                   .unpivot(index="game", on=[f"turns_{r}" for r in range(1, 7)])
                   .with_columns(round=pl.col("variable").str.slice(6).cast(pl.Int8)),
                   on=["game", "round"]))
    assert len(turns) == 30 * 6 and (turns["len"] == turns["value"]).all()


def test_a_model_s_table_warning_is_shown_once_per_process(tmp_path, capsys):
    """A sweep or a tournament plans many runs of one model: its warning comes once."""
    from tests.learn.models import random_model

    spec = f"learned:model={random_model(tmp_path / 'm.npz', rules={'players': 4, 'rounds': 11})}"
    for _ in range(3):
        make_plan([spec, "greedy"], RuleSet(players=2), 0, 4)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"warning: model {tmp_path / 'm.npz'}")


def test_a_sweep_s_points_repeat_no_warning_of_the_model_they_share(tmp_path, capsys):
    """Points of a sweep over ``candidates`` play one model of another table: its table
    warning comes once, and each number of candidates other than the fitted one adds its
    own line once (the lines were joined, so every point said the table's again)."""
    from fcsim.strategies.learned.model import RELATIVE
    from tests.learn.models import random_model

    model = random_model(tmp_path / "m.npz", inputs=RELATIVE, candidates=5,
                         rules={"players": 4, "rounds": 11})
    for candidates in (4, 5, 6, 4):
        make_plan([f"learned:model={model},candidates={candidates}", "greedy"],
                  RuleSet(players=2), 0, 4)
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(" was ")[1][:20] for line in lines] == [
        "trained under other ", "fitted on 5 candidat", "fitted on 5 candidat"]
    assert lines[1].endswith("plays 4 (without candidates= it plays as it was fitted)")
    assert lines[2].endswith("plays 6 (without candidates= it plays as it was fitted)")


def test_an_agent_workers_cannot_find_by_name_is_refused_before_the_run(tmp_path):
    """A lambda on two workers: each would fail to import it, and the pool would read as
    a worker lost."""
    from fcsim.strategies import StrategyError

    def lowest(view):
        return "stock" if view.phase == "draw" else view.legal_actions[0]

    for agent in (lambda view: lowest(view), lowest):
        with pytest.raises(StrategyError, match=r"is a lambda or a function defined inside "
                                                r"another: worker processes cannot find it"):
            run.simulate(["greedy", agent], 4, tmp_path / "run", workers=2, chunk_size=2)
        assert not (tmp_path / "run").exists()
    run.simulate(["greedy", lowest], 4, tmp_path / "one", workers=1, chunk_size=2)


@pytest.mark.parametrize(("changes", "error", "message"), [
    ({"games": "4"}, PlanError, "games must be 1 to 1,000,000,000,000,000, not '4'"),
    ({"workers": "2"}, PlanError,
     "workers must be a whole number, at least 1, not '2'"),
    ({"workers": 0}, PlanError, "workers must be a whole number, at least 1, not 0"),
    ({"seed": "1"}, PlanError, r"seed must be 0 to 2\*\*64 - 1 \(64 bits\), not '1'"),
    ({"rules": "x"}, TypeError, r"rules must be a RuleSet, such as fcsim.RuleSet\(players=3"),
])
def test_simulate_refuses_bad_arguments_in_one_line_before_any_game(tmp_path, changes, error,
                                                                    message) -> None:
    args = {"games": 4, "workers": 1, **changes}
    with pytest.raises(error, match=f"^{message}"):
        fcsim.simulate("greedy,random", out=tmp_path / "run", **args)
    assert not (tmp_path / "run").exists()


def test_simulate_takes_numpy_whole_numbers(tmp_path) -> None:
    plan = fcsim.simulate("greedy,random", np.int64(4), tmp_path / "run", seed=np.uint64(3),
                          rules=RULES, workers=1)
    assert (plan.games, plan.seed) == (4, 3) and type(plan.seed) is int
