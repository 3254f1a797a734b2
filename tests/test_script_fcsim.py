"""The scripts that run fcsim commands run this checkout's fcsim (``python -m fcsim``), not
whichever ``fcsim`` is first on ``PATH`` (in a clone, that is another checkout's)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import leaderboard  # noqa: E402
import make_sample_report  # noqa: E402


@pytest.fixture
def stub_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An ``fcsim`` first on ``PATH`` that only leaves a mark; the mark's path."""
    mark = tmp_path / "called"
    stub = tmp_path / "bin" / "fcsim"
    stub.parent.mkdir()
    stub.write_text(f"#!/bin/sh\ntouch {mark}\nexit 1\n")
    stub.chmod(0o755)
    monkeypatch.setenv("PATH", f"{stub.parent}{os.pathsep}{os.environ['PATH']}")
    return mark


def test_the_sample_is_made_by_this_checkouts_fcsim(stub_on_path: Path) -> None:
    make_sample_report._fcsim("info", "--help")
    assert not stub_on_path.exists()


def test_the_leaderboard_compares_with_this_checkouts_fcsim(
        stub_on_path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    ran = []

    def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
        ran.append(command)
        return subprocess.CompletedProcess(command, 3)

    monkeypatch.setattr(leaderboard.subprocess, "run", run)
    args = argparse.Namespace(players=2, deals=1, seed=1, out=tmp_path, workers=None)
    with pytest.raises(SystemExit) as stopped:
        leaderboard.play("greedy", args)
    assert stopped.value.code == 3
    assert ran[0][:3] == [sys.executable, "-m", "fcsim"]
