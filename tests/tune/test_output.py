"""The output folder: a different search is refused, the same one needs --resume."""

from __future__ import annotations

import json

import pytest

from fcsim.runner.format import LOCK
from fcsim.runner.lock import FolderBusyError
from fcsim.tune.output import RECORD, OutputError, open_output

RECORD_A = {"command": "tune", "strategy": "greedy", "deals": 500, "trials": 40}


def opened(out, record, resume, free=()) -> None:
    """open_output, its lock released at once (as the command's end releases it)."""
    open_output(out, record, resume, free).release()


def test_create_then_refuse_then_resume(tmp_path) -> None:
    out = tmp_path / "out"
    opened(out, RECORD_A, resume=False)
    assert json.loads((out / RECORD).read_text()) == RECORD_A
    with pytest.raises(OutputError) as err:
        open_output(out, RECORD_A, resume=False)
    assert str(err.value) == f"{out} already holds this tune; use --resume to continue it"
    more = {**RECORD_A, "trials": 60}
    opened(out, more, resume=True, free=("trials",))  # a tune may go on for longer
    assert json.loads((out / RECORD).read_text())["trials"] == 60


@pytest.mark.parametrize("resume", [False, True])
def test_a_different_search_is_refused(tmp_path, resume) -> None:
    opened(tmp_path, RECORD_A, resume=False)
    with pytest.raises(OutputError) as err:
        open_output(tmp_path, {**RECORD_A, "deals": 1000, "strategy": "aware"}, resume=resume)
    assert str(err.value) == (f"{tmp_path} holds a different tune (deals 500 there, 1000 here; "
                              f"strategy greedy there, aware here); choose another --out")


def test_a_foreign_folder_or_a_file_is_refused(tmp_path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(OutputError, match="is not empty and holds no fcsim sweep or tune"):
        open_output(tmp_path, RECORD_A, resume=True)
    with pytest.raises(OutputError, match="is a file, not a folder"):
        open_output(tmp_path / "notes.txt", RECORD_A, resume=False)


@pytest.mark.parametrize("stored", ["{", "[1]", "null", '"tune"'])
def test_a_record_that_is_no_record_is_unreadable(tmp_path, stored) -> None:
    """An edited search.json is one line, not an AttributeError traceback."""
    (tmp_path / RECORD).write_text(stored)
    with pytest.raises(OutputError) as err:
        open_output(tmp_path, RECORD_A, resume=True)
    assert str(err.value) == f"{tmp_path / RECORD} is unreadable; choose another --out"
    assert (tmp_path / RECORD).read_text() == stored


def test_a_sweep_s_folder_is_no_tune_s(tmp_path) -> None:
    opened(tmp_path, {**RECORD_A, "command": "sweep"}, resume=False)
    with pytest.raises(OutputError) as err:
        open_output(tmp_path, RECORD_A, resume=True)
    assert str(err.value) == f"{tmp_path} holds a sweep, not a tune; choose another --out"


def test_one_writer_at_a_time(tmp_path) -> None:
    """A second sweep or tune on a folder being written is refused before it reads or
    writes anything (two tunes at once would add each other's trials to the study)."""
    held = open_output(tmp_path, RECORD_A, resume=False)
    with pytest.raises(FolderBusyError, match="is being written by another fcsim"):
        open_output(tmp_path, {**RECORD_A, "trials": 60}, resume=True, free=("trials",))
    assert json.loads((tmp_path / RECORD).read_text())["trials"] == 40
    held.release()
    assert not (tmp_path / LOCK).exists()
    opened(tmp_path, {**RECORD_A, "trials": 60}, resume=True, free=("trials",))
