"""The output folder of a sweep or a tune, and the check that guards it.

``OUT/search.json`` records what the folder holds (command, strategy, field, rules, seed,
deals, grid or ranges, …). A folder holding something else is refused; one holding the
same search is continued only with ``--resume`` (a tune may then raise ``--trials``).

Layout::

    search.json                  what this folder holds
    runs/<spec>/                 one duplicate-format run folder per candidate played
    confirm/<spec>/              tune: the confirmation's runs on fresh deals
    points.parquet | trials.parquet, study.db (tune: the Optuna study)
    report.md, report.html, *.png
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from fcsim.errors import FcsimError, differences
from fcsim.runner import format as fmt
from fcsim.runner.durable import write_durably
from fcsim.runner.lock import FolderLock
from fcsim.runner.store import unwritable
from fcsim.tune.arena import folder_name

RECORD = "search.json"
RUNS = "runs"
CONFIRM = "confirm"


class OutputError(FcsimError, ValueError):
    """An output folder the search must not write into (the message says what to do)."""


def _show(value: Any) -> str:
    """A stored value as the refusal message shows it (JSON for lists and mappings)."""
    if isinstance(value, dict | list):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def open_output(out: Path, record: dict[str, Any], resume: bool,
                free: Iterable[str] = ()) -> FolderLock:
    """Check that a search described by ``record`` may write into ``out``, create it and
    take its write lock (one writer: a second sweep or tune there is refused, naming the
    first, before it reads or writes anything); the lock, held, for the caller to release.

    Keys in ``free`` may differ from the stored record (a tune's ``trials``); the record
    written (durably: a crash leaves the old one or the new one) is the new one.
    """
    fmt.refuse_a_file(out, OutputError)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise unwritable(out, err) from None
    lock = FolderLock(out)
    lock.acquire()
    try:
        _check(out, record, resume, free)
        write_durably(out / RECORD, (json.dumps(record, indent=1) + "\n").encode(),
                      out / fmt.temp_name(RECORD))
    except OSError as err:
        lock.release()
        raise unwritable(out, err) from None
    except BaseException:
        lock.release()
        raise
    return lock


def _check(out: Path, record: dict[str, Any], resume: bool, free: Iterable[str]) -> None:
    """Refuse ``out`` unless it is empty, or holds the search ``record`` describes and
    ``resume`` asks to continue it."""
    kind = record["command"]
    path = out / RECORD
    if path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            old = None
        if not isinstance(old, dict):  # not JSON, or JSON that is no record (a list)
            raise OutputError(f"{path} is unreadable; choose another --out")
        if old.get("command") != kind:
            raise OutputError(f"{out} holds a {old.get('command', 'search')}, not a {kind}; "
                              f"choose another --out")
        changes = differences(record, old, [key for key in sorted(old.keys() | record.keys())
                                            if key not in free], _show)
        if changes:
            raise OutputError(f"{out} holds a different {kind} ({'; '.join(changes)}); "
                              f"choose another --out")
        if not resume:
            raise OutputError(f"{out} already holds this {kind}; use --resume to continue it")
    elif any(not (fmt.is_temp(p.name) or p.name == fmt.LOCK) for p in out.iterdir()):
        raise OutputError(f"{out} is not empty and holds no fcsim sweep or tune; "
                          f"choose another --out")


def run_folder(out: Path, spec: str, confirm: bool = False) -> Path:
    """Where the run of candidate ``spec`` goes (the search's deals, or the confirmation's)."""
    return out / (CONFIRM if confirm else RUNS) / folder_name(spec)
