"""``scripts/train_default_model.sh`` and ``scripts/tune_defaults.sh``: their one argument is
the output folder; ``--help`` shows the header and a mistyped option is refused in one
line, never taken for a folder that starts the hours-long study; they run this
checkout's fcsim, not the one first on ``PATH``; and the shipped model records the
commands the script that rebuilds it runs."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import pytest

from fcsim.strategies.learned.model import load_model

ROOT = Path(__file__).resolve().parent.parent
STUDIES = ("train_default_model.sh", "tune_defaults.sh")
DEFAULT_FOLDER = "results/default-model"  # train_default_model.sh's folder, which the
# shipped model's commands name


def run_study(script: str, args: list[str], tmp_path: Path, status: int = 1
              ) -> tuple[subprocess.CompletedProcess, str]:
    """Run ``script`` with a ``python`` and an ``fcsim`` on ``PATH`` that only log their
    calls and exit with ``status`` (1: a study that starts stops at once); the result and
    the log."""
    log = tmp_path / "calls"
    stubs = tmp_path / "bin"
    stubs.mkdir()
    for name, logged in (("python", "python $PYTHONPATH $*"), ("fcsim", "PATH's fcsim $*")):
        (stubs / name).write_text(f'#!/bin/sh\necho "{logged}" >> {log}\nexit {status}\n')
        (stubs / name).chmod(0o755)
    env = dict(os.environ, PATH=f"{stubs}{os.pathsep}{os.environ['PATH']}")
    env.pop("PYTHONPATH", None)
    done = subprocess.run(["bash", str(ROOT / "scripts" / script), *args], env=env,
                          cwd=tmp_path, capture_output=True, text=True)
    return done, log.read_text() if log.exists() else ""


@pytest.mark.parametrize("script", STUDIES)
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_shows_the_header_and_starts_nothing(script: str, flag: str,
                                                  tmp_path: Path) -> None:
    done, calls = run_study(script, [flag], tmp_path)
    assert done.returncode == 0
    assert "Usage:" in done.stdout and "[OUT]" in done.stdout
    assert calls == ""


@pytest.mark.parametrize("script", STUDIES)
@pytest.mark.parametrize("args", [["--players", "2"], ["one", "two"]])
def test_anything_but_one_folder_is_refused_in_one_line(script: str, args: list[str],
                                                        tmp_path: Path) -> None:
    done, calls = run_study(script, args, tmp_path)
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1 and script in done.stderr
    assert calls == ""


@pytest.mark.parametrize("script", STUDIES)
def test_a_folder_starts_the_study_there_with_this_checkouts_fcsim(script: str,
                                                                   tmp_path: Path) -> None:
    _, calls = run_study(script, [str(tmp_path / "out")], tmp_path)
    assert calls.startswith(f"python {ROOT} -m fcsim ")
    assert f"--out {tmp_path / 'out'}/" in calls


def _recorded_flags(words: list[str]) -> dict[str, str]:
    """The flags of an ``fcsim train`` command as its model records them: ``--out`` and
    ``--resume`` are not part of what makes the model."""
    words = [word for word in words if word != "--resume"]
    flags = dict(zip(words[::2], words[1::2], strict=True))
    flags.pop("--out", None)
    return flags


def test_the_shipped_model_records_the_commands_the_script_runs(tmp_path: Path) -> None:
    # Every stubbed call succeeds, so the script runs both trainings' commands and stops
    # at copying a model the stubs never wrote.
    out = tmp_path / "out"
    done, calls = run_study("train_default_model.sh", [str(out)], tmp_path, status=0)
    assert done.returncode != 0 and "model.npz" in done.stderr
    trainings = [shlex.split(line.split(" -m fcsim ", 1)[1].replace(str(out), DEFAULT_FOLDER))
                 for line in calls.splitlines()]
    assert [words[0] for words in trainings] == ["train", "train"]
    two_seats, four_seats = (_recorded_flags(words[1:]) for words in trainings)
    metadata = load_model("").metadata
    recorded_four = _recorded_flags(shlex.split(metadata["trained_by"])[2:])
    recorded_two = _recorded_flags(shlex.split(metadata["tables"]["2"]["trained_by"])[2:])
    assert (two_seats, four_seats) == (recorded_two, recorded_four)
