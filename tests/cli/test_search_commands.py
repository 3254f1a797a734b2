"""``fcsim sweep`` and ``fcsim tune`` end to end: outputs, refusals, bad input, Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import polars as pl
import pytest
from click.testing import CliRunner

from fcsim.cli import cli
from fcsim.errors import WorkerLost
from fcsim.runner.format import WriteError
from fcsim.runner.lock import FolderLock
from fcsim.runner.pool import WORKER_LOST
from fcsim.tune import arena
from tests.waiting import PATIENCE_S, default_sigint, wait_until

# SPEC names its parameters, so that the tests do not depend on greedy's defaults
SWEEP = ["sweep", "greedy:take_margin=3", "--grid", "take_margin=0,3", "--deals", "8",
         "--short", "--seed", "2"]
TUNE = ["tune", "greedy:take_margin=2", "--param", "take_margin=0:6", "--deals", "24",
        "--short", "--seed", "2"]


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_sweep_writes_points_table_chart_and_page(tmp_path) -> None:
    out = tmp_path / "sweep"
    result = invoke(*SWEEP, "--workers", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    points = pl.read_parquet(out / "points.parquet")
    assert points["take_margin"].to_list() == [0, 3] and points["take_margin"].dtype == pl.Int64
    assert points["reference"].to_list() == [False, True]  # SPEC itself
    reference = points.row(1, named=True)
    assert reference["diff"] == 0 and reference["p_value"] == 1
    assert points["deals"].to_list() == [8, 8]
    assert "best: greedy" in result.output and "reference" in result.output
    for name in ("sweep.png", "report.md", "report.html", "search.json"):
        assert (out / name).is_file()
    assert "| take_margin | spec | diff [95% CI]" in (out / "report.md").read_text()

    again = invoke(*SWEEP, "--out", str(out))
    assert again.exit_code == 2
    assert again.output.strip() == f"Error: {out} already holds this sweep; use --resume to " \
                                   f"continue it"
    other = invoke(*SWEEP[:-1], "3", "--out", str(out), "--resume")
    assert other.exit_code == 2 and "holds a different sweep (seed 2 there, 3 here)" in \
        other.output
    resumed = invoke(*SWEEP, "--out", str(out), "--resume")  # every run is on disk: read only
    assert resumed.exit_code == 0, resumed.output
    assert pl.read_parquet(out / "points.parquet").equals(points)


def test_a_damaged_chunk_is_said_as_simulate_says_it_and_played_again(tmp_path) -> None:
    out = tmp_path / "sweep"
    assert invoke(*SWEEP, "--workers", "1", "--out", str(out)).exit_code == 0
    points = pl.read_parquet(out / "points.parquet")
    chunk = out / "runs" / "greedy_take_margin=0" / "part-000000.parquet"
    chunk.write_bytes(chunk.read_bytes()[:100])
    resumed = invoke(*SWEEP, "--workers", "1", "--out", str(out), "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert (f"part-000000.parquet is damaged (not a complete Parquet file: Parquet magic "
            f"bytes not found in footer): moved to {chunk.parent / '_aside'}; it is played "
            f"again") in resumed.stderr.splitlines()
    assert pl.read_parquet(out / "points.parquet").equals(points)


def test_a_family_with_strategy_parameters_is_swept_and_tuned(tmp_path) -> None:
    """The search's rollout and anchor are specs: its numbers are varied, they are kept."""
    base = "search:worlds=4,rollout=random,anchor=expected"
    swept = invoke("sweep", base, "--against", "greedy", "--players", "2", "--grid",
                   "candidates=1,4", "--deals", "2", "--short", "--workers", "1", "--out",
                   str(tmp_path / "sweep"))
    assert swept.exit_code == 0, swept.output
    points = pl.read_parquet(tmp_path / "sweep" / "points.parquet")
    assert points["spec"].to_list() == [
        "search:worlds=4,candidates=1,rollout=random,anchor=expected", base]
    tuned = invoke("tune", base, "--against", "greedy", "--players", "2", "--param",
                   "confidence=0:3", "--trials", "2", "--deals", "2", "--confirm-deals", "2",
                   "--short", "--workers", "1", "--out", str(tmp_path / "tune"))
    assert tuned.exit_code == 0, tuned.output
    trials = pl.read_parquet(tmp_path / "tune" / "trials.parquet")
    assert all(spec.endswith(",rollout=random,anchor=expected")
               for spec in trials["spec"].to_list())
    refused = invoke("sweep", base, "--grid", "rollout=greedy", "--out", str(tmp_path / "x"))
    assert refused.exit_code == 2
    assert "search's rollout is a strategy, not a number" in refused.output


def test_sweep_on_a_local_dask_cluster_gives_the_same_points(tmp_path) -> None:
    pytest.importorskip("distributed")
    local, dask = tmp_path / "local", tmp_path / "dask"
    assert invoke(*SWEEP, "--workers", "1", "--out", str(local)).exit_code == 0
    result = invoke(*SWEEP, "--dask-local", "1", "--out", str(dask))
    assert result.exit_code == 0, result.output
    assert pl.read_parquet(dask / "points.parquet").equals(
        pl.read_parquet(local / "points.parquet"))


def test_tune_writes_trials_study_confirmation_and_page_then_resumes(tmp_path) -> None:
    optuna = pytest.importorskip("optuna")
    out = tmp_path / "tune"
    result = invoke(*TUNE, "--trials", "3", "--workers", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    trials = pl.read_parquet(out / "trials.parquet")
    assert trials["trial"].to_list() == [0, 1, 2]
    assert trials["spec"][0] == "greedy:take_margin=2"  # the start is trial 0
    assert trials["take_margin"].dtype == pl.Int64
    confirmation = json.loads((out / "confirmation.json").read_text())
    assert confirmation["start"] == "greedy:take_margin=2" and confirmation["deals"] == 24
    assert "verdict:" in result.output and confirmation["verdict"] in result.output
    for name in ("report.html", "report.md", "objective_by_param.png", "progress.png"):
        assert (out / name).is_file()
    stored = optuna.load_study(study_name="fcsim-tune", storage=f"sqlite:///{out}/study.db")
    assert len(stored.trials) == 3

    more = invoke(*TUNE, "--trials", "5", "--workers", "2", "--out", str(out), "--resume")
    assert more.exit_code == 0, more.output
    assert pl.read_parquet(out / "trials.parquet").height == 5
    assert pl.read_parquet(out / "trials.parquet").head(3).drop("seconds").equals(
        trials.drop("seconds"))


@pytest.mark.parametrize("args, message", [
    (["sweep", "greedy", "--grid", "speed=1,2"],
     "greedy has no parameter 'speed'; its parameters: take_margin"),
    (["sweep", "greedy", "--grid", "take_margin="], "gives no values"),
    (["sweep", "greedy", "--grid", "take_margin=0,200"],
     "greedy: take_margin must be 0 to 100, not '200'"),
    (["sweep", "random", "--grid", "x=1"], "random has no parameters to sweep"),
    (["sweep", "greedy"], "give at least one --grid"),
    (["sweep", "bogus", "--grid", "x=1"], "unknown strategy 'bogus'; known strategies:"),
    (["sweep", "greedy", "--grid", "take_margin=1", "--against", "expected,random",
      "--players", "4"], "--against lists 2 strategies for 4 players"),
    (["sweep", "greedy", "--grid", "take_margin=1", "--players", "9"],
     "--players must be 2 to 7, not 9"),
    (["sweep", "greedy", "--grid", "take_margin=1", "--deals", "0"],
     "--deals must be at least 1, not 0"),
    (["tune", "greedy", "--param", "speed=0:1"], "greedy has no parameter 'speed'"),
    (["tune", "greedy", "--param", "take_margin=4:4"], "is an empty range"),
    (["tune", "greedy", "--param", "take_margin=0:500"],
     "greedy: take_margin must be 0 to 100, not '500'"),
    (["tune", "aware", "--param", "urgency=-1:1"], "aware: urgency must be 0 to 1, not '-1'"),
    (["tune", "greedy", "--param", "take_margin=0:4", "--trials", "0"],
     "--trials must be at least 1, not 0"),
    (["tune", "greedy", "--param", "take_margin=0:4", "--confirm-deals", "0"],
     "--confirm-deals must be at least 1, not 0"),
    (["tune", "greedy", "--param", "take_margin=0:4", "--sampler", "cmaes"],
     "--sampler cmaes needs two or more --param ranges"),
    (["tune", "greedy", "--param", "take_margin=0:4", "--sampler", "grid"],
     "unknown sampler 'grid'; samplers: tpe, cmaes"),
    (["tune", "greedy", "--param", "take_margin=0:4", "--dask-local", "1", "--workers", "1"],
     "--workers is for local runs"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, args, message) -> None:
    out = tmp_path / "out"
    result = invoke(*args, "--out", str(out))
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0]
    assert not out.exists()


@pytest.mark.parametrize(("args", "kept"), [
    (SWEEP, "every finished chunk is kept in {out}; run the same command with --resume to "
            "complete the sweep."),
    ([*TUNE, "--trials", "2"], "0 of 2 trials are kept in {out} (study.db); run the "
                               "same command with --resume to continue."),
])
@pytest.mark.parametrize("fault", [WorkerLost(WORKER_LOST),
                                   WriteError("cannot write X: No space left on device")])
def test_a_fault_is_one_line_naming_what_is_kept(tmp_path, monkeypatch, args, kept,
                                                 fault) -> None:
    """A worker lost, or a disk full, in the first run."""
    if args[0] == "tune":
        pytest.importorskip("optuna")

    def fail(*_args, **_kwargs):
        raise fault

    monkeypatch.setattr(arena, "execute", fail)
    out = tmp_path / "out"
    result = invoke(*args, "--workers", "1", "--out", str(out))
    assert result.exit_code == 1, result.output
    assert result.output.strip().splitlines()[-1] == f"Error: {fault}: {kept.format(out=out)}"


def test_tune_without_optuna_says_how_to_install_it(tmp_path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "optuna", None)  # import optuna now raises ImportError
    out = tmp_path / "out"
    result = invoke(*TUNE, "--out", str(out))
    assert result.exit_code == 1
    assert result.output.strip() == "Error: Optuna is not installed: pip install 'fcsim[tune]'"
    assert not out.exists()


def test_ctrl_c_keeps_finished_trials_and_resume_continues(tmp_path) -> None:
    pytest.importorskip("optuna")
    out = tmp_path / "tune"
    long = [*TUNE[:3], "take_margin=0:100", *TUNE[4:], "--trials", "400", "--no-prune"]
    proc = subprocess.Popen([sys.executable, "-m", "fcsim", *long, "--workers", "2",
                             "--out", str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=default_sigint)
    wait_until((out / "trials.parquet").exists, proc)
    os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C in a terminal: to every process
    _, stderr = proc.communicate(timeout=PATIENCE_S)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and "--resume" in stderr
    kept = int(stderr.split("Interrupted: ")[1].split(" of 400")[0])
    assert kept >= 1
    result = invoke(*long[:-3], "--trials", str(kept + 1), "--no-prune", "--workers", "1",
                    "--out", str(out), "--resume")
    assert result.exit_code == 0, result.output
    assert pl.read_parquet(out / "trials.parquet")["trial"].to_list() == list(range(kept + 1))


def test_a_folder_another_search_is_writing_is_refused(tmp_path) -> None:
    out = tmp_path / "sweep"
    out.mkdir()
    other = FolderLock(out)
    other.acquire()
    try:
        result = invoke("sweep", "greedy", "--grid", "take_margin=0,4", "--deals", "2",
                        "--out", str(out))
    finally:
        other.release()
    assert result.exit_code == 1 and "is being written by another fcsim" in result.output
    assert len(result.output.strip().splitlines()) == 1 and list(out.iterdir()) == []


@pytest.mark.parametrize("made", [False, True])
def test_resume_of_a_folder_without_a_search_says_a_new_search_starts(tmp_path,
                                                                      made: bool) -> None:
    """Not there (a mistyped --out), or there and empty: the same warning (docs/TUNE.md)."""
    out = tmp_path / "mistyped"
    if made:
        out.mkdir()
    result = invoke(*SWEEP, "--workers", "1", "--out", str(out), "--resume")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[0] == (f"warning: {out} holds no search to resume; a "
                                             "new one starts there")


def test_a_resumed_tune_asked_for_fewer_trials_than_it_holds_is_refused(tmp_path) -> None:
    """--trials counts every trial with --resume: fewer than done would misdescribe it."""
    out = tmp_path / "tune"
    first = invoke(*TUNE, "--trials", "3", "--confirm-deals", "2", "--workers", "1",
                   "--out", str(out))
    assert first.exit_code == 0, first.output
    described = (out / "search.json").read_text()
    fewer = invoke(*TUNE, "--trials", "2", "--confirm-deals", "2", "--workers", "1",
                   "--out", str(out), "--resume")
    assert fewer.exit_code == 2
    assert fewer.output.strip().splitlines() == [
        f"Error: {out} holds 3 trials already, and with --resume --trials counts them all: "
        "give --trials 3 or more"]
    assert (out / "search.json").read_text() == described


def test_an_oracle_in_a_search_s_header_and_lines_is_analysis_only() -> None:
    """The page's header and the printed lines name strategies as every listing does."""
    from fcsim.cli.searching import describe_row, header, setting
    from fcsim.core.rules import RuleSet

    where = setting("search_hands_oracle", "oracle", 2, RuleSet())
    lines = header("fcsim sweep …", where, 0, 8, [])
    assert "**Strategy:** search_hands_oracle (analysis only) (the reference)" in lines
    assert any(line.startswith("**Table:** candidate, oracle (analysis only), every deal")
               for line in lines)
    stats = {f"{name}{end}": 0.5 for name in ("diff", "win_share")
             for end in ("", "_lo", "_hi")}
    row = {"spec": "search_hands_oracle:worlds=2", "p_value": 0.5, "mean_total": 1.0, **stats}
    assert describe_row(row).startswith("search_hands_oracle:worlds=2 (analysis only): ")
