"""The scripts' arguments: a count below the least a script can run, or a strategy spec
fcsim cannot read, is refused by argparse in one line before anything runs (no traceback,
no minutes of work first); and what fcsim refuses (a run folder, a model) is said in one
line too."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from fcsim.learn.positions import (
    DRAW_FEATURE_COLUMNS,
    FEATURE_COLUMNS,
    LABEL,
    MOVE_DISCARD,
    MOVE_DRAW,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from arguments import at_least, positive, table_size  # noqa: E402

REFUSED = [  # script, arguments
    ("bench_checks.py", ["--games", "0"]),
    ("bench_compile.py", ["--passes", "0"]),
    ("bench_decision_cost.py", ["--games", "0"]),
    ("bench_decisions.py", ["--repeats", "0"]),
    ("bench_decisions.py", ["--games", "0"]),
    ("bench_decisions_report.py", ["--rows", "0"]),
    ("bench_edit.py", ["--repeat", "0"]),
    ("bench_engine.py", ["--scale", "0"]),
    ("bench_engine.py", ["--passes", "0"]),
    ("bench_openspiel.py", ["--passes", "0"]),
    ("bench_game.py", ["--scale", "-1"]),
    ("bench_report.py", ["--rows", "3"]),
    ("bench_search.py", ["--games", "0"]),
    ("bench_simulate.py", ["--games", "0"]),
    ("bench_simulate.py", ["--parallel-games", "-1"]),
    ("bench_solver.py", ["--hands", "0"]),
    ("bench_solver.py", ["--passes", "0"]),
    ("bench_solver.py", ["--cases", "bogus"]),
    ("bench_starters.py", ["--games", "0"]),
    ("hand_reader.py", ["--test-games", "0"]),
    ("leaderboard.py", ["--players", "9"]),
    ("leaderboard.py", ["--deals", "0"]),
    ("make_sample_report.py", ["--scale", "0"]),
    ("policy_reading.py", ["--proposals", "0"]),
    ("policy_reading.py", ["--table", "bogus"]),
    ("world_reading.py", ["--every", "0"]),
    ("world_reading.py", ["--games", "0"]),
    ("viewer_screenshot.py", ["--size", "1200"]),
    ("bench_engine.py", ["--spec", "bogus"]),
    ("bench_search.py", ["--spec", "bogus"]),
    ("bench_decision_cost.py", ["--strategies", "aware", "bogus"]),
    ("world_reading.py", ["--table", "bogus"]),
    ("hand_reader.py", ["--table", "bogus"]),
]


FCSIM_REFUSED = [  # script, arguments, the line said
    ("leaderboard.py", ["--only", "greedy,bogus"], "unknown strategy 'bogus'"),
    ("pair_runs.py", ["nowhere", "a", "b", "nowhere", "c", "d"], "no such run folder"),
    ("rank_candidates.py", ["nowhere", "nowhere/model.npz"], "no such file"),
]


def run_script(script: str, args: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), FCSIM_CACHE_DIR=str(tmp_path / "cache"))
    return subprocess.run([sys.executable, str(ROOT / "scripts" / script), *args], env=env,
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("script", "args"), REFUSED, ids=lambda x: " ".join(x)
                         if isinstance(x, list) else x)
def test_a_bad_argument_is_refused_in_one_line(script: str, args: list[str],
                                                        tmp_path: Path) -> None:
    done = run_script(script, args, tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    error = done.stderr.splitlines()[-1]
    assert error.startswith(f"{script}: error: ") and "Traceback" not in done.stderr


@pytest.mark.parametrize(("script", "args", "said"), FCSIM_REFUSED, ids=lambda x: x
                         if isinstance(x, str) else "")
def test_what_fcsim_refuses_is_said_in_one_line(script: str, args: list[str], said: str,
                                                tmp_path: Path) -> None:
    done = run_script(script, args, tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert len(done.stderr.splitlines()) == 1 and said in done.stderr


def test_rank_candidates_refuses_a_folder_without_positions(tmp_path: Path) -> None:
    done = run_script("rank_candidates.py", [str(tmp_path)], tmp_path)
    assert done.returncode == 1
    assert done.stderr == f"{tmp_path}: no positions/part-*.parquet (not a fcsim train folder)\n"


def test_rank_candidates_reads_the_discards_of_a_chunk_that_holds_draws(tmp_path: Path
                                                                       ) -> None:
    """A positions chunk of rollout labels holds draw rows too; the script compared the
    discard rows' inputs with every row (a ValueError on any folder of today's default)."""
    rows = [(game, move, decision) for game in range(20) for decision in (1, 2)
            for move in (MOVE_DISCARD, MOVE_DISCARD, MOVE_DRAW)]
    game, move, decision = (np.array(column, np.int64) for column in zip(*rows, strict=True))
    rng = np.random.default_rng(0)
    features = {name: rng.normal(size=len(rows)) for name in FEATURE_COLUMNS}
    draws = {name: rng.normal(size=len(rows)) for name in DRAW_FEATURE_COLUMNS
             if name not in features}
    (tmp_path / "positions").mkdir()
    pq.write_table(pa.table({"game": game, "move": move, "decision": decision, **features,
                             **draws, LABEL: rng.normal(size=len(rows))}),
                   tmp_path / "positions" / "part-000000.parquet")
    done = run_script("rank_candidates.py", [str(tmp_path)], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "positions=4"  # games 0 and 10, two decisions each


def test_pair_runs_reads_a_spec_as_a_run_stores_it(tmp_path: Path) -> None:
    """Parameters in any order (a run stores them in their declared order): it said the
    strategy did not play."""
    spec = "expected:candidates=3,take_margin=1"  # stored take_margin first
    done = subprocess.run([sys.executable, "-m", "fcsim", "compare", spec, "greedy",
                           "--deals", "4", "--players", "2", "--short", "--seed", "1",
                           "--workers", "1", "--out", str(tmp_path / "run")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    run = str(tmp_path / "run")
    paired = run_script("pair_runs.py", [run, spec, "greedy", run, spec, "greedy"], tmp_path)
    assert paired.returncode == 0, paired.stderr
    assert paired.stdout.startswith("deals=4 mean=+0.00 ")


def test_the_types_name_what_they_refuse() -> None:
    assert at_least(1)("3") == 3 and positive("0.1") == 0.1 and table_size("7") == 7
    for parse, text, said in ((at_least(1), "0", "must be at least 1, not 0"),
                              (at_least(1), "x", "not a whole number: 'x'"),
                              (positive, "0", "must be above 0, not 0"),
                              (positive, "nan", "must be above 0, not nan"),
                              (table_size, "8", "must be 2 to 7, not 8")):
        with pytest.raises(argparse.ArgumentTypeError, match=said):
            parse(text)


def first_paragraph(path: Path) -> str:
    """The first paragraph of a script's docstring, its whitespace as one space."""
    doc = path.read_text().split('"""')[1]
    return " ".join(doc.split("\n\n")[0].split())


@pytest.mark.parametrize("script", sorted(p.name for p in (ROOT / "scripts").glob("*.py")
                                          if "ArgumentParser(description=" in p.read_text()))
def test_help_describes_the_script_in_whole_sentences(script: str, tmp_path: Path) -> None:
    done = run_script(script, ["--help"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert first_paragraph(ROOT / "scripts" / script) in " ".join(done.stdout.split())
