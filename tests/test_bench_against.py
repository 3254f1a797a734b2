"""``--against REF`` in the benchmarks: a ref that names no commit is refused in one line,
before anything is measured."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
AGAINST = ("bench_compile.py", "bench_edit.py", "bench_engine.py", "bench_solver.py")


@pytest.mark.parametrize("script", AGAINST)
def test_a_ref_that_is_no_commit_is_refused_in_one_line(script: str, tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT), FCSIM_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / script), "--against",
                           "no-such-ref"], env=env, cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr == "--against no-such-ref: not a commit of this repository\n"
