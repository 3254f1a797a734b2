"""``fcsim simulate`` and ``fcsim info`` end to end: runs, refusals, Ctrl-C, kill, resume."""

from __future__ import annotations

import os
import re
import resource
import shlex
import shutil
import signal
import socket
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from fcsim.cli import cli
from fcsim.core.rules import RuleSet
from fcsim.runner import simulate, store
from fcsim.runner.store import stored_plan
from fcsim.runner.table import manifest_bytes
from tests.compiled import requires_jit
from tests.conftest import buggy_numba_strategy, disk_full_after
from tests.waiting import PATIENCE_S, default_sigint, wait_until

BASE = ["simulate", "--strategies", "greedy,random", "--short", "--seed", "3"]
# Full 11-round games: long enough (150 chunks) to be interrupted part way.
LONG = ["simulate", "--strategies", "greedy,random", "--games", "3000", "--chunk-size", "20"]
GAMES_BOUND = "--games must be 1 to 1,000,000,000,000,000"


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
                 "chunks     3 of 3", "status     complete", "rounds=6", "code       fcsim 0.1"):
        assert text in info.output

    again = invoke(*BASE, "--games", "40", "--out", str(out))
    assert again.exit_code == 2
    assert ("already holds this run (complete); use --resume to go on from it, or choose "
            "another --out") in again.output
    resumed = invoke(*BASE, "--games", "40", "--out", str(out), "--resume")
    assert resumed.exit_code == 0 and "nothing to do" in resumed.output


def test_duplicate_rounds_games_up_and_says_so(tmp_path):
    result = invoke(*BASE, "--games", "5", "--duplicate", "--workers", "1",
                    "--out", str(tmp_path / "dup"))
    assert result.exit_code == 0, result.output
    assert "rounded up from 5 to 6" in result.output
    assert rows(tmp_path / "dup")["deal"].to_list() == [0] * 4 + [1] * 4 + [2] * 4


def test_no_seat_rotation_with_duplicate_is_named_unused(tmp_path):
    result = invoke(*BASE, "--games", "4", "--duplicate", "--no-seat-rotation", "--workers",
                    "1", "--out", str(tmp_path / "dup"))
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[0] == ("warning: --duplicate plays every deal in each of "
                                             "its seat rotations; --no-seat-rotation is not used")


@pytest.mark.parametrize("args, message", [
    (["--strategies", "greedy,bogus", "--games", "10"], "unknown strategy 'bogus'; known"),
    (["--strategies", "greedy:speed=3", "--games", "10"], "bad parameter 'speed=3'"),
    (["--strategies", "greedy:take_margin", "--games", "10"],
     "greedy: take_margin needs a value (take_margin=N)"),
    (["--strategies", "greedy", "--games", "4", "--wild-penalty", "-5"],
     "--wild-penalty must be 'face' or a whole number from 1 to 1000, not -5"),
    (["--strategies", "greedy", "--games", "0"], f"{GAMES_BOUND}, not 0"),
    (["--strategies", "greedy", "--games", "-5"], f"{GAMES_BOUND}, not -5"),
    (["--strategies", "greedy", "--games", "100000000000000000"],
     f"{GAMES_BOUND}, not 100,000,000,000,000,000"),
    (["--strategies", "greedy", "--games", "many"], "--games must be a whole number, not 'many'"),
    (["--strategies", "greedy", "--games", "9", "--chunk-size", "1000000000"],
     "--chunk-size must be 1 to 100,000, not 1,000,000,000"),
    (["--strategies", "greedy", "--games", "9", "--seed", str(2**64)],
     "--seed must be 0 to 18,446,744,073,709,551,615, not 18,446,744,073,709,551,616"),
    (["--strategies", "greedy", "--games", "9", "--seed", "-1"], "--seed must be 0 to"),
    (["--strategies", "greedy", "--games", "9", "--turn-cap", "40000"],
     "turn_cap 40000: these rules allow turns = 40,003, more than the run's turns column "
     "holds (32,767)"),
    (["--strategies", "greedy", "--games", "9", "--wild-penalty", "1000",
      "--no-all-wild-melds"], "wild_penalty 1000: these rules allow total = 82,300"),
    (["--strategies", "greedy", "--games", "9", "--players", "1"], "--players must be 2 to 7"),
    (["--strategies", "greedy", "--games", "9", "--players", "8"], "--players must be 2 to 7"),
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


@pytest.mark.parametrize("command", [["simulate", "--strategies", "greedy", "--games", "9"],
                                     ["sweep", "greedy", "--grid", "take_margin=1,2"],
                                     ["train", "--games", "40"]])
@pytest.mark.parametrize("address", ["foo", "http://127.0.0.1:8799", "tcp://127.0.0.1",
                                     "tcp://127.0.0.1:99999", "inproc://x", ""])
def test_a_malformed_scheduler_address_is_refused_at_once(tmp_path, command, address):
    pytest.importorskip("distributed")
    out = tmp_path / "run"
    result = invoke(*command, "--out", str(out), "--scheduler", address)
    assert result.exit_code == 2
    assert result.output == (f"Error: --scheduler must be a Dask scheduler's address, "
                             f"SCHEME://HOST:PORT with a port 1 to 65535 (tcp://HOST:8786, or "
                             f"tls://, ws://, wss://), not {address!r}\n")
    assert not out.exists()


def test_a_strategy_whose_code_raises_stops_the_run_in_one_line(tmp_path):
    """Raised in a worker process, named in the one line: the strategy, the game, the
    exception and the line of the strategy's file."""
    strategy = tmp_path / "buggy.py"
    strategy.write_text("def agent(view):\n    return [][view.round]\n")
    result = invoke("simulate", "--strategies", f"{strategy}:agent,greedy", "--games", "4",
                    "--workers", "2", "--out", str(tmp_path / "run"))
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert re.fullmatch(f"Error: strategy '{re.escape(str(strategy))}:agent' raised "
                        f"IndexError: list index out of range in game [0-3] at "
                        f"{re.escape(str(strategy))}:2, in agent",
                        result.output.strip().splitlines()[-1]), result.output


@requires_jit
@pytest.mark.parametrize("command", [["simulate", "--strategies", "{s},greedy", "--games", "4"],
                                     ["compare", "{s}", "greedy", "--deals", "2"],
                                     ["train", "--strategies", "{s},greedy", "--games", "30"]])
def test_a_strategy_that_does_not_compile_leaves_no_folder(tmp_path, command):
    """Compiled before its folder is taken: the corrected command runs as if never tried
    (a folder of the broken file's run would refuse it)."""
    # a file's module is named by its content: one of its own for each command
    strategy, line = buggy_numba_strategy(tmp_path, f'return "7H"  # {command[0]}')
    out = tmp_path / "run"
    result = invoke(*[word.format(s=strategy) for word in command], "--out", str(out))
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.strip().splitlines()[-1].startswith(
        f"Error: strategy '{strategy}' does not compile with numba at {strategy}:{line}: ")
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


@pytest.mark.parametrize("command", [["sweep", "greedy", "--grid", "take_margin=1,2"],
                                     ["tune", "greedy", "--param", "take_margin=0:4"],
                                     ["train", "--games", "40"]])
def test_an_unreachable_scheduler_leaves_no_output_folder(tmp_path, command):
    """The cluster is reached before anything is written: the same command run locally
    then is no resume."""
    pytest.importorskip("distributed")
    import dask

    out = tmp_path / "out"
    with dask.config.set({"distributed.comm.timeouts.connect": "0.5s"}):
        result = invoke(*command, "--out", str(out), "--scheduler", "tcp://127.0.0.1:1")
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


def start(out: Path, *where: str) -> subprocess.Popen:
    """``python -m fcsim simulate`` in the background (on 2 worker processes, or
    ``where``), once it has written a chunk."""
    command = [sys.executable, "-m", "fcsim", *LONG, "--seed", "3",
               *(where or ("--workers", "2")), "--out", str(out)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=default_sigint)
    wait_until(lambda: bool(list(out.glob("part-*.parquet"))), proc)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    return proc


def assert_same_rows(out: Path, reference: Path) -> None:
    got = rows(out)
    assert got.select("game", "seat").is_duplicated().sum() == 0
    assert got.equals(rows(reference))
    assert not list(out.glob(".*.tmp"))


STOPS = {  # how a run is stopped from outside: what is sent, to whom, what it says
    "ctrl-c": (signal.SIGINT, os.killpg, "Interrupted:", 130),  # a terminal: every process
    "kill": (signal.SIGTERM, os.kill, "Terminated:", 143),  # `kill PID`: the parent only
    "scheduler": (signal.SIGTERM, os.killpg, "Terminated:", 143),  # a job's time limit
}


@pytest.mark.parametrize("stop", STOPS)
def test_a_stop_keeps_finished_chunks_and_resume_completes(reference, tmp_path, stop):
    number, send, word, code = STOPS[stop]
    out = tmp_path / "run"
    proc = start(out)
    wait_until(lambda: len(worker_pids(proc.pid)) == 2, proc)
    workers = worker_pids(proc.pid)
    send(proc.pid, number)
    _, stderr = proc.communicate(timeout=PATIENCE_S)
    assert proc.returncode == code, stderr
    assert stderr.strip().splitlines()[-1].startswith(word) and "--resume" in stderr
    assert "Traceback" not in stderr
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)  # reaped, not left
    kept = len(list(out.glob("part-*.parquet")))
    assert 1 <= kept < 150
    assert f"{kept} of 150 chunks are kept" in stderr
    info = invoke("info", str(out))
    assert f"chunks     {kept} of 150" in info.output and "incomplete" in info.output
    result = invoke(*LONG[:-2], "--seed", "3", "--out", str(out), "--resume")
    assert result.exit_code == 0, result.output
    assert_same_rows(out, reference)


def test_ctrl_c_on_a_local_dask_cluster_is_one_line(tmp_path):
    """Its worker processes leave Ctrl-C to the command, which stops them."""
    pytest.importorskip("distributed")
    out = tmp_path / "run"
    proc = start(out, "--dask-local", "2")
    workers = worker_pids(proc.pid)
    os.killpg(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=PATIENCE_S)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and "Exception ignored" not in stderr, stderr
    assert stderr.strip().splitlines()[-1].startswith("Interrupted: ") and "--resume" in stderr
    assert workers and not any(Path(f"/proc/{pid}").exists() for pid in workers)


def test_killed_run_resumes_without_loss_or_duplicates(reference, tmp_path):
    out = tmp_path / "run"
    proc = start(out)
    os.kill(proc.pid, signal.SIGKILL)  # the parent only: its workers must end by themselves
    proc.communicate(timeout=PATIENCE_S)
    (out / ".part-000149.parquet.tmp").write_bytes(b"torn")  # as if killed mid-write
    simulate("greedy,random", 3000, out, seed=3, rules=RuleSet(players=2), chunk_size=20,
             workers=1, resume=True)
    assert_same_rows(out, reference)


def worker_pids(parent: int) -> list[int]:
    """The pool's worker processes among ``parent``'s children (not its resource tracker)."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue  # a process that ended as we looked
        if ppid == parent and b"spawn_main" in command:
            pids.append(int(stat.parent.name))
    return pids


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_a_worker_killed_mid_run_is_one_line_and_resume_completes(reference, tmp_path):
    """As the system's out-of-memory killer would: one worker gone, the run stops with one
    line naming what is kept, and --resume completes it without loss or duplicates."""
    out = tmp_path / "run"
    proc = start(out)
    wait_until(lambda: bool(worker_pids(proc.pid)), proc)
    os.kill(worker_pids(proc.pid)[0], signal.SIGKILL)
    _, stderr = proc.communicate(timeout=PATIENCE_S)
    assert proc.returncode == 1, stderr
    assert "Traceback" not in stderr
    kept = len(list(out.glob("part-*.parquet")))
    assert (f"Error: a worker process died mid-chunk (killed from outside, or by the system "
            f"when memory ran out): {kept} of 150 chunks are kept in {out}; run the same "
            f"command with --resume to complete it.") in stderr
    result = invoke(*LONG[:-2], "--seed", "3", "--out", str(out), "--resume")
    assert result.exit_code == 0, result.output
    assert_same_rows(out, reference)


def test_a_chunk_that_kills_its_dask_workers_is_one_line(tmp_path):
    """Dask gives up on a chunk whose workers die (here the first: no failure allowed)."""
    pytest.importorskip("distributed")
    import dask

    killer = tmp_path / "killer.py"
    killer.write_text("import os\n\n\ndef agent(view):\n    os._exit(1)\n")
    out = tmp_path / "run"
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        result = invoke("simulate", "--strategies", f"{killer}:agent,greedy", "--games", "4",
                        "--chunk-size", "2", "--out", str(out), "--dask-local", "1")
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert re.fullmatch(
        rf"Error: Dask worker tcp://\S+ died playing chunk [01] \(killed from outside, or by "
        rf"the system when memory ran out\): 0 of 2 chunks are kept in {re.escape(str(out))}; "
        rf"run the same command with --resume to complete it\.",
        result.output.strip().splitlines()[-1]), result.output


def test_a_full_disk_mid_run_is_one_line_and_resume_completes(reference, tmp_path,
                                                               monkeypatch):
    out = tmp_path / "run"
    monkeypatch.setattr(store, "write_durably", disk_full_after(3))  # the manifest, 2 chunks
    result = invoke(*LONG, "--seed", "3", "--workers", "1", "--out", str(out))
    assert result.exit_code == 1, result.output
    assert result.output.strip().splitlines()[-1] == (
        f"Error: cannot write {out / '.part-000002.parquet.tmp'}: No space left on device: "
        f"2 of 150 chunks are kept in {out}; run the same command with --resume to complete "
        f"it.")
    monkeypatch.undo()
    result = invoke(*LONG, "--seed", "3", "--workers", "1", "--out", str(out), "--resume")
    assert result.exit_code == 0, result.output
    assert_same_rows(out, reference)


# The issue's own commands (full games, 10 chunks).
ISSUE = ["simulate", "--strategies", "greedy,random", "--games", "20000", "--chunk-size",
         "2000", "--seed", "5"]


@pytest.fixture(scope="module")
def undamaged(tmp_path_factory) -> Path:
    """The issue's run, undamaged."""
    out = tmp_path_factory.mktemp("issue") / "b"
    result = invoke(*ISSUE, "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


def same_files(out: Path, reference: Path) -> None:
    """``out`` holds ``reference``'s files byte for byte (and what was set aside)."""
    names = sorted(p.name for p in reference.iterdir())
    assert sorted(p.name for p in out.iterdir() if p.name != "_aside") == names
    for name in names:
        assert (out / name).read_bytes() == (reference / name).read_bytes(), name


def test_resume_replays_a_truncated_chunk_byte_for_byte(undamaged, tmp_path):
    out = tmp_path / "b"
    shutil.copytree(undamaged, out)
    with open(out / "part-000001.parquet", "r+b") as file:
        file.truncate(100)  # truncate -s 100 b/part-000001.parquet
    again = invoke(*ISSUE, "--out", str(out))
    assert again.exit_code == 2
    assert "9 of 10 chunks done; part-000001.parquet is damaged" in again.output
    result = invoke(*ISSUE, "--out", str(out), "--resume")
    assert result.exit_code == 0, result.output
    assert "nothing to do" not in result.output and "Traceback" not in result.output
    assert (f"part-000001.parquet is damaged (not a complete Parquet file: Parquet magic "
            f"bytes not found in footer): moved to {out / '_aside'}; it is played again"
            in result.output)
    assert "in 10 chunks of 2,000 on 1 worker process" in result.output
    same_files(out, undamaged)
    assert [p.name for p in (out / "_aside").iterdir()] == ["part-000001.parquet.damaged"]


def test_a_run_takes_the_chunk_size_of_its_own_run_only(tmp_path):
    """A folder a run left before its first chunk (its record alone) is taken over as a
    new folder: the default chunk size depends on --games only, not on that run's."""
    out = tmp_path / "left"
    assert invoke(*BASE, "--games", "40", "--chunk-size", "10", "--workers", "1",
                  "--out", str(out)).exit_code == 0
    for chunk in out.glob("part-*.parquet"):
        chunk.unlink()
    result = invoke("simulate", "--strategies", "random", "--players", "2", "--short",
                    "--games", "3200", "--workers", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "in 32 chunks of 100 on 1 worker process" in result.output


def test_foreign_and_stray_chunks_are_refused_then_set_aside(undamaged, tmp_path):
    out, other = tmp_path / "b", tmp_path / "other"
    shutil.copytree(undamaged, out)
    assert invoke(*ISSUE[:-1], "6", "--out", str(other)).exit_code == 0
    shutil.copy(other / "part-000004.parquet", out / "part-000004.parquet")
    shutil.copy(undamaged / "part-000002.parquet", out / "part-000042.parquet")
    report = invoke("report", str(out), "--out", str(tmp_path / "report"))
    assert report.exit_code == 1
    assert report.output.splitlines() == [
        f"Error: {out}: part-000004.parquet is foreign (another run: seed 6 there, 5 here); "
        f"part-000042.parquet is stray (the run has 10 chunks, 0 to 9); repair it with its "
        f"fcsim simulate command and --resume (fcsim info {out} prints it)"]
    assert not (tmp_path / "report").exists()
    result = invoke(*ISSUE, "--out", str(out), "--resume")
    assert result.exit_code == 0, result.output
    same_files(out, undamaged)
    assert sorted(p.name for p in (out / "_aside").iterdir()) == [
        "part-000004.parquet.foreign", "part-000042.parquet.stray"]


def test_a_stray_file_in_a_complete_run_is_set_aside_and_nothing_played(undamaged, tmp_path):
    """A stray file stands for no chunk: resume and info said it would be played again."""
    out = tmp_path / "b"
    shutil.copytree(undamaged, out)
    shutil.copy(undamaged / "part-000002.parquet", out / "part-000042.parquet")
    info = invoke("info", str(out))
    status = next(line for line in info.output.splitlines() if line.startswith("status"))
    assert status.endswith("--resume to set them aside"), status
    result = invoke(*ISSUE, "--out", str(out), "--resume")
    assert result.exit_code == 0, result.output
    assert (f"part-000042.parquet is stray (the run has 10 chunks, 0 to 9): moved to "
            f"{out / '_aside'}\n") in result.output
    assert "played again" not in result.output
    same_files(out, undamaged)


def test_info_counts_a_chunk_of_one_game_in_the_singular(tmp_path):
    out = tmp_path / "run"
    assert invoke(*BASE, "--games", "2", "--chunk-size", "1", "--workers", "1",
                  "--out", str(out)).exit_code == 0
    assert "chunks     2 of 2 (1 game each), each checked" in invoke("info", str(out)).output


def test_info_names_a_damaged_chunk(undamaged, tmp_path):
    out = tmp_path / "b"
    shutil.copytree(undamaged, out)
    (out / "part-000007.parquet").write_bytes(b"\0" * 100)
    info = invoke("info", str(out))
    assert info.exit_code == 1 and "Traceback" not in info.output
    status = next(line for line in info.output.splitlines() if line.startswith("status"))
    assert "part-000007.parquet is damaged" in status and "--resume" in status
    assert "chunks     9 of 10" in info.output


def test_info_calls_a_run_missing_its_last_chunk_incomplete(undamaged, tmp_path):
    """One chunk short is not done: info says so and how to finish it, never complete."""
    out = tmp_path / "b"
    shutil.copytree(undamaged, out)
    (out / "part-000009.parquet").unlink()  # the last of its 10 chunks
    info = invoke("info", str(out))
    assert info.exit_code == 0, info.output
    assert "chunks     9 of 10" in info.output
    status = next(line for line in info.output.splitlines() if line.startswith("status"))
    assert status.startswith("status     incomplete: run fcsim simulate ")
    assert status.endswith(" --resume to complete it")


def test_info_prints_the_command_that_reproduces_the_run(undamaged, tmp_path):
    info = invoke("info", str(undamaged))
    command = next(line for line in info.output.splitlines() if line.startswith("command"))
    words = shlex.split(command.removeprefix("command"))
    assert words[:2] == ["fcsim", "simulate"] and words[-2:] == ["--out", str(undamaged)]
    again = tmp_path / "again"
    result = invoke(*words[1:-1], str(again))
    assert result.exit_code == 0, result.output
    same_files(again, undamaged)


def test_resume_with_other_code_is_refused_in_one_line(reference, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    for path in sorted(out.glob("part-*.parquet"))[100:]:
        path.unlink()
    other = replace(stored_plan(out), code_digest="0123456789abcdef")
    (out / "_run.parquet").write_bytes(manifest_bytes(other))
    result = invoke(*LONG, "--seed", "3", "--out", str(out), "--resume")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [result.output.strip()]
    assert "played by other code (fcsim 0.1.0 (code 0123456789abcdef)" in result.output
    assert "--allow-code-change" in result.output
    mixed = invoke(*LONG, "--seed", "3", "--out", str(out), "--resume", "--allow-code-change")
    assert mixed.exit_code == 0, mixed.output
    assert_same_rows(out, reference)
    code = next(line for line in invoke("info", str(out)).output.splitlines()
                if line.startswith("code"))
    assert "0123456789abcdef" in code and "this fcsim is" in code


def test_a_second_writer_stops_naming_the_first(reference, tmp_path):
    out = tmp_path / "run"
    proc = start(out)
    try:
        second = invoke(*LONG, "--seed", "3", "--out", str(out), "--resume")
        assert second.exit_code == 1
        line = second.output.strip()
        assert "\n" not in line
        assert line.startswith(f"Error: {out} is being written by another fcsim (pid "
                               f"{proc.pid} on {socket.gethostname()}, since ")
        assert "fcsim simulate --strategies greedy,random" in line
        assert line.endswith("); wait for it to end, or stop it")
        assert f"writer     pid {proc.pid} " in invoke("info", str(out)).output
    finally:
        os.kill(proc.pid, signal.SIGKILL)  # its lock goes with it
        proc.communicate(timeout=PATIENCE_S)
    result = invoke(*LONG, "--seed", "3", "--out", str(out), "--resume")
    assert result.exit_code == 0, result.output
    assert_same_rows(out, reference)


def test_win_share_counts_ties_as_the_report_does(tmp_path):
    out = tmp_path / "run"
    result = invoke("simulate", "--strategies", "greedy,greedy", "--short", "--games", "400",
                    "--seed", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    games = rows(out).group_by("game").agg(pl.col("win").sum())
    assert games["win"].max() > 1  # some games are shared wins
    row = next(line for line in result.output.splitlines() if line.strip().startswith("greedy"))
    assert [cell.strip() for cell in row.split("│")][2] == "50.00"  # 2 seats share each win
    assert "a win shared by k tied seats counting 1/k" in result.output


def test_a_huge_run_starts_at_once_and_stops_on_ctrl_c(tmp_path):
    """10**14 games: the plan is a few numbers, so play starts; Ctrl-C ends it (under a
    memory limit, so that a plan that lists its chunks fails instead of filling memory)."""
    out = tmp_path / "huge"
    command = [sys.executable, "-m", "fcsim", "simulate", "--strategies", "greedy,random",
               "--short", "--games", "100000000000000", "--workers", "1", "--out", str(out)]

    def limited() -> None:
        default_sigint()
        resource.setrlimit(resource.RLIMIT_AS, (8 * 2**30, 8 * 2**30))

    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=limited)
    wait_until(lambda: bool(list(out.glob("part-*.parquet"))), proc)
    os.killpg(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=PATIENCE_S)
    assert proc.returncode == 130, stderr
    assert "of 10,000,000,000 chunks are kept" in stderr and "Traceback" not in stderr


def test_decisions_on_dask_then_info_then_another_flag_is_refused(tmp_path):
    pytest.importorskip("distributed")
    args = [*BASE, "--games", "24", "--chunk-size", "8"]
    out, local = tmp_path / "dask", tmp_path / "local"
    result = invoke(*args, "--decisions", "--out", str(out), "--dask-local", "2")
    assert result.exit_code == 0, result.output
    assert "decision rows" in result.output and "bytes/row" in result.output
    simulate("greedy,random", 24, local, seed=3, rules=RuleSet(players=2, rounds=6),
             chunk_size=8, workers=1, decisions=True)

    def decided(path):
        return pl.read_parquet(str(path / "decisions" / "part-*.parquet"))

    assert decided(out).equals(decided(local)) and decided(out).height > 24 * 6 * 2
    info = invoke("info", str(out))
    assert "decisions  " in info.output and "--decisions" in info.output
    refused = invoke(*args, "--out", str(out), "--resume")
    assert refused.exit_code != 0
    assert refused.output.strip().splitlines()[-1].endswith(
        "holds this run with decision rows: resume it with --decisions, or choose another --out")
    assert len(refused.output.strip().splitlines()) == 1
    other = invoke(*args, "--seed", "9", "--out", str(out), "--resume")  # not this run at all
    assert "holds a different run (" in other.output and "seed 3 there, 9 here" in other.output


def test_a_flag_that_only_resuming_reads_is_named_unused(tmp_path):
    result = invoke("simulate", "--strategies", "greedy,random", "--games", "4",
                    "--workers", "1", "--out", str(tmp_path / "run"), "--allow-code-change")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[0] == ("warning: without --resume no run is resumed; "
                                             "--allow-code-change is not used")


def test_info_on_a_folder_of_runs_names_them(tmp_path):
    """A tournament's --out (or a training's, a sweep's) holds runs, not a run."""
    out = tmp_path / "t"
    assert invoke("tournament", "--strategies", "greedy,random", "--players", "2", "--games",
                  "4", "--short", "--workers", "1", "--out", str(out)).exit_code == 0
    info = invoke("info", str(out))
    assert info.exit_code == 1
    assert info.output == (f"Error: {out} holds no fcsim run itself; the runs in it: table-00 "
                           f"(fcsim info {out / 'table-00'})\n")
