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

from fcsim.errors import FcsimError
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
                free: Iterable[str] = ()) -> None:
    """Check that a search described by ``record`` may write into ``out``, then create it.

    Keys in ``free`` may differ from the stored record (a tune's ``trials``); the record
    written is the new one.
    """
    kind = record["command"]
    path = out / RECORD
    if out.exists() and not out.is_dir():
        raise OutputError(f"{out} is a file, not a folder; choose another --out")
    if path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise OutputError(f"{path} is unreadable; choose another --out") from None
        if old.get("command") != kind:
            raise OutputError(f"{out} holds a {old.get('command', 'search')}, not a {kind}; "
                              f"choose another --out")
        changes = [f"{key} {_show(old.get(key))} there, {_show(record.get(key))} here"
                   for key in sorted(old.keys() | record.keys())
                   if key not in free and old.get(key) != record.get(key)]
        if changes:
            raise OutputError(f"{out} holds a different {kind} ({'; '.join(changes)}); "
                              f"choose another --out")
        if not resume:
            raise OutputError(f"{out} already holds this {kind}; use --resume to continue it")
    elif out.exists() and any(out.iterdir()):
        raise OutputError(f"{out} is not empty and holds no fcsim sweep or tune; "
                          f"choose another --out")
    try:
        out.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    except OSError as err:
        raise unwritable(out, err) from None


def run_folder(out: Path, spec: str, confirm: bool = False) -> Path:
    """Where the run of candidate ``spec`` goes (the search's deals, or the confirmation's)."""
    return out / (CONFIRM if confirm else RUNS) / folder_name(spec)
