"""The console-script entry point."""

from __future__ import annotations

import gc
import sys

import pytest

from fcsim import cli


def test_the_entry_point_freezes_the_collector_before_exiting(monkeypatch) -> None:
    """Collecting numba's and LLVM's objects at exit took 1.2 s of a first run: they are
    frozen out of the collector first, whichever way the command ends."""
    frozen = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(True))
    monkeypatch.setattr(sys, "argv", ["fcsim", "--version"])
    with pytest.raises(SystemExit):
        cli.main()
    assert frozen == [True]
