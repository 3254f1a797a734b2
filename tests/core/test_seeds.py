"""The seeds' range is declared once, where reading a run needs no numba."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from fcsim.core.seeds import MAX_SEED
from tests.sources import modules_saying


def test_the_seed_range_is_declared_once() -> None:
    assert np.iinfo(np.uint64).max == MAX_SEED  # seeds and game indices are uint64
    assert modules_saying("MAX_SEED = ") == ["fcsim/core/seeds.py"]


def test_checking_a_seed_or_a_run_loads_no_numba() -> None:
    code = ("import sys, fcsim.core.seeds, fcsim.runner.format; "
            "print('numba' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"
