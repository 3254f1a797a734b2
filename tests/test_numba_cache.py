"""The numba cache folder follows the package source, so stale kernels are never reused."""

from __future__ import annotations

import os
import subprocess
import sys

from fcsim import _numba_cache


def test_cache_folder_is_keyed_on_the_source(tmp_path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["FCSIM_CACHE_DIR"] = str(tmp_path)
    code = "import fcsim, os; print(os.environ['NUMBA_CACHE_DIR'])"
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True).stdout.strip()
    assert out == str(tmp_path / f"numba-{_numba_cache.source_digest()}")


def test_a_user_cache_dir_is_respected(tmp_path) -> None:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "mine"))
    code = "import fcsim, os; print(os.environ['NUMBA_CACHE_DIR'])"
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True).stdout.strip()
    assert out == str(tmp_path / "mine")
