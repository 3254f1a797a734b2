"""``fcsim simulate`` and ``fcsim info`` end to end: runs, refusals, Ctrl-C, kill, resume."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from fcsim.cli import cli
from fcsim.core.rules import RuleSet
from fcsim.runner import simulate

BASE = ["simulate", "--strategies", "greedy,random", "--short", "--seed", "3"]
# Full 11-round games: long enough (150 chunks) to be interrupted part way.
LONG = ["simulate", "--strategies", "greedy,random", "--games", "3000", "--chunk-size", "20"]


def rows(path: Path) -> pl.DataFrame:
    return pl.read_parquet(path).sort("game", "seat")


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    """The rows of LONG with seed 3, played in this process."""
    out = tmp_path_factory.mktemp("cli") / "reference"
    simulate("greedy,random", 3000, out, seed=3, rules=RuleSet(players=2), chunk_size=20,
             workers=1)
    return out


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_run_then_info_then_refuse_then_resume_nothing(tmp_path):
    out = tmp_path / "run"
    result = invoke(*BASE, "--games", "40", "--chunk-size", "15", "--workers", "1",
                    "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "win %" in result.output and "greedy" in result.output
    assert "40 games (80 rows" in result.output
    assert sorted(p.name for p in out.iterdir()) == [
        "_run.parquet", "part-000000.parquet", "part-000001.parquet", "part-000002.parquet"]

    info = invoke("info", str(out))
    assert info.exit_code == 0
    for text in ("strategies greedy, random", "seed       3", "games      40",
                 "chunks     3 of 3", "status     complete", "rounds=6", "fcsim      0.1"):
        assert text in info.output

    again = invoke(*BASE, "--games", "40", "--out", str(out))
    assert again.exit_code == 2
    assert "already holds this run (complete); use --resume" in again.output
    resumed = invoke(*BASE, "--games", "40", "--out", str(out), "--resume")
    assert resumed.exit_code == 0 and "nothing to do" in resumed.output


def test_duplicate_rounds_games_up_and_says_so(tmp_path):
    result = invoke(*BASE, "--games", "5", "--duplicate", "--workers", "1",
                    "--out", str(tmp_path / "dup"))
    assert result.exit_code == 0, result.output
    assert "rounded up from 5 to 6" in result.output
    assert rows(tmp_path / "dup")["deal"].to_list() == [0] * 4 + [1] * 4 + [2] * 4


@pytest.mark.parametrize("args, message", [
    (["--strategies", "greedy,bogus", "--games", "10"], "unknown strategy 'bogus'; known"),
    (["--strategies", "greedy:speed=3", "--games", "10"], "bad parameter 'speed=3'"),
    (["--strategies", "greedy", "--games", "0"], "--games must be at least 1, not 0"),
    (["--strategies", "greedy", "--games", "-5"], "--games must be at least 1, not -5"),
    (["--strategies", "greedy", "--games", "9", "--players", "1"], "players must be 2 to 7"),
    (["--strategies", "greedy", "--games", "9", "--players", "8"], "players must be 2 to 7"),
    (["--strategies", "greedy,random", "--games", "9", "--players", "3"],
     "2 strategies for --players 3"),
    (["--strategies", "greedy", "--games", "9", "--workers", "0"], "--workers must be"),
    (["--strategies", "greedy", "--games", "9", "--dask-local", "2", "--workers", "2"],
     "--workers is for local runs"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "run"
    result = invoke("simulate", *args, "--out", str(out))
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [f"Error: {result.output.strip()[7:]}"]
    assert message in result.output
    assert "Traceback" not in result.output
    assert not out.exists()


def test_output_path_that_is_a_file(tmp_path):
    (tmp_path / "f").write_text("x")
    result = invoke(*BASE, "--games", "9", "--out", str(tmp_path / "f"))
    assert result.exit_code == 2 and "is a file" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_folder_of_another_run_is_refused(reference):
    before = sorted(reference.iterdir())
    for extra in ([], ["--resume"]):
        result = invoke(*LONG, "--seed", "4", "--out", str(reference), *extra)
        assert result.exit_code == 2
        assert result.output.strip() == (f"Error: {reference} holds a different run "
                                         f"(seed 3 there, 4 here); choose another --out")
    assert sorted(reference.iterdir()) == before


def test_unreachable_scheduler_is_one_line(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setenv("DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT", "1s")
    import dask

    dask.config.refresh()
    out = tmp_path / "run"
    result = invoke(*BASE, "--games", "9", "--out", str(out), "--scheduler", "tcp://127.0.0.1:1")
    dask.config.refresh()
    assert result.exit_code == 1
    assert result.output.startswith("Error: cannot reach the Dask scheduler at tcp://127.0.0.1:1")
    assert len(result.output.strip().splitlines()) == 1
    assert not out.exists()


def test_dask_local_cluster_writes_the_same_rows(reference, tmp_path):
    pytest.importorskip("distributed")
    out = tmp_path / "dask"
    result = invoke(*LONG, "--seed", "3", "--out", str(out), "--dask-local", "2")
    assert result.exit_code == 0, result.output
    assert "Dask (2 worker threads)" in result.output
    assert rows(out).equals(rows(reference))


def _default_sigint() -> None:
    """Let the child take Ctrl-C even when the tests run where SIGINT is ignored (a
    background job of a non-interactive shell passes SIG_IGN on to what it starts)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(out: Path) -> subprocess.Popen:
    """``python -m fcsim simulate`` in the background, once it has written a chunk."""
    command = [sys.executable, "-m", "fcsim", *LONG, "--seed", "3", "--workers", "2",
               "--out", str(out)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_default_sigint)
    deadline = time.monotonic() + 60
    while not list(out.glob("part-*.parquet")):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    return proc


def assert_same_rows(out: Path, reference: Path) -> None:
    got = rows(out)
    assert got.select("game", "seat").is_duplicated().sum() == 0
    assert got.equals(rows(reference))
    assert not list(out.glob(".*.tmp"))


def test_ctrl_c_keeps_finished_chunks_and_resume_completes(reference, tmp_path):
    out = tmp_path / "run"
    proc = start(out)
    os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C in a terminal: to every process
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "Interrupted:" in stderr and "--resume" in stderr
    assert "Traceback" not in stderr
    kept = len(list(out.glob("part-*.parquet")))
    assert 1 <= kept < 150
    assert f"{kept} of 150 chunks are kept" in stderr
    info = invoke("info", str(out))
    assert f"chunks     {kept} of 150" in info.output and "incomplete" in info.output
    result = invoke(*LONG[:-2], "--seed", "3", "--out", str(out), "--resume")
    assert result.exit_code == 0, result.output
    assert_same_rows(out, reference)


def test_killed_run_resumes_without_loss_or_duplicates(reference, tmp_path):
    out = tmp_path / "run"
    proc = start(out)
    os.kill(proc.pid, signal.SIGKILL)  # the parent only: its workers must end by themselves
    proc.communicate(timeout=60)
    (out / ".part-000149.parquet.tmp").write_bytes(b"torn")  # as if killed mid-write
    simulate("greedy,random", 3000, out, seed=3, rules=RuleSet(players=2), chunk_size=20,
             workers=1, resume=True)
    assert_same_rows(out, reference)
