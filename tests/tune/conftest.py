"""Shared fixtures of the tune tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fcsim.runner.pool import LastingPool


@pytest.fixture(scope="module")
def pool() -> Iterator[LastingPool]:
    """Two worker processes shared by a module's tests."""
    lasting = LastingPool(2)
    yield lasting
    lasting.close()
