"""A mark for the tests that inspect compiled code itself (dispatchers, IR, numba's cache):
they are skipped when ``NUMBA_DISABLE_JIT=1`` runs the kernels as Python (the coverage
run in the README)."""

from __future__ import annotations

import pytest
from numba.core import config

requires_jit = pytest.mark.skipif(bool(config.DISABLE_JIT),
                                  reason="inspects compiled code (NUMBA_DISABLE_JIT is set)")
