"""Which code and model files played a strategy from outside fcsim, as a run folder
records them (:data:`fcsim.runner.format.SOURCES`).

A run is a pure function of its inputs and of the code that plays it. For a strategy in a
loose file that code is the file, so a run records its path and the digest of the content
that was loaded; for a plug-in, its package and version, and for both a plug-in and a
``module:attribute`` spec the digest of the sources of the module's top-level package (an
editable install changes without a new version); for a model file, its path and digest.
``--resume`` compares the record with what the specs load now and refuses a run whose
strategy code or model changed; a file is its content, so the same bytes read from
another path are no change.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from types import ModuleType

from fcsim.runner.format import DIGEST, FILE_RECORD, short_digest, source_identity
from fcsim.strategies.family import Family
from fcsim.strategies.files import file_digest, is_file_spec, split_file_spec
from fcsim.strategies.learned.model import file_sha256, model_path
from fcsim.strategies.plugins import declared
from fcsim.strategies.registry import Strategy, nested_strategy, parse_strategy

FCSIM = "fcsim"
FCSIM_FOLDER = Path(__file__).resolve().parents[1]  # the installed package's own folder
IN_FCSIM = "<fcsim>"  # how a record names that folder, wherever fcsim is installed
NOT_RECORDED = "not recorded"  # built in (fcsim's digest covers it), or recorded by no run


def strategy_sources(strategies: Sequence[str | Strategy]) -> dict[str, str]:
    """Per strategy name played from outside fcsim, where its code comes from:
    ``file PATH sha256 DIGEST`` or ``package NAME VERSION`` (modules: ``module NAME``);
    per file parameter (a model), ``file PATH sha256 DIGEST`` under ``SPEC PARAMETER``.
    A strategy played inside another (a search's anchor or rollout policy) is recorded as
    if listed: its model is data of the run all the same."""
    sources: dict[str, str] = {}
    for item in strategies:
        _record(parse_strategy(item), sources)
    return dict(sorted(sources.items()))


def _record(strategy: Strategy, sources: dict[str, str]) -> None:
    """Add the records of ``strategy`` and of the strategies it plays inside to
    ``sources``."""
    family = strategy.family
    for name, path in strategy.paths.items():  # a model: data, digested like code
        file = model_path(path).resolve()
        sources[f"{strategy.spec} {name}"] = (f"{FILE_RECORD}{_recorded_path(file)}{DIGEST}"
                                              f"{file_sha256(file)}")
    for param, value in zip(family.params, strategy.values, strict=True):
        if param.strategy:
            _record(nested_strategy(str(value), f"{family.name}: {param.name}"), sources)
    if family.source != FCSIM:
        sources[family.name] = _code_record(family)


def _recorded_path(file: Path) -> str:
    """How a record names ``file``: a file shipped inside fcsim (its model) by its place
    in the package, ``<fcsim>/…``, so that runs record it alike wherever fcsim is
    installed; any other by its absolute path."""
    if file.is_relative_to(FCSIM_FOLDER):
        return f"{IN_FCSIM}/{file.relative_to(FCSIM_FOLDER).as_posix()}"
    return str(file)


def _code_record(family: Family) -> str:
    """Where ``family``'s code comes from, with the digest of that code."""
    if is_file_spec(family.name):
        path = split_file_spec(family.name)[0]
        return f"{FILE_RECORD}{family.source}{DIGEST}{file_digest(path)}"
    if family.name == family.source or ":" in family.name:
        return f"module {family.source}{_sources_digest(family.source)}"
    claims = declared().get(family.name, [])
    module = claims[0].entry_point.module if claims else ""
    return f"package {family.source}{_sources_digest(module)}"


def _sources_digest(module: str) -> str:
    """`` sha256 DIGEST`` of the Python sources of ``module``'s top-level package (the
    module's file alone if it is in none; nothing if it has no source file, such as a
    notebook's ``__main__``, or fcsim's own, which the run's code digest covers)."""
    top = sys.modules.get(module.partition(".")[0])
    files = _source_files(top) if top is not None and top.__name__ != FCSIM else {}
    if not files:
        return ""
    digest = hashlib.sha256()
    for name, path in files.items():
        digest.update(name.encode() + b"\0" + path.read_bytes())
    return f"{DIGEST}{digest.hexdigest()}"


def _source_files(module: ModuleType) -> dict[str, Path]:
    """The Python sources of a package by their names in it, or a module's own file."""
    folders = getattr(module, "__path__", None)
    if folders:
        return {path.relative_to(folder).as_posix(): path for folder in map(Path, folders)
                for path in sorted(folder.rglob("*.py"))}
    file = getattr(module, "__file__", None) or ""
    return {Path(file).name: Path(file)} if file.endswith(".py") else {}


def changed_sources(recorded: dict[str, str], current: dict[str, str]) -> list[str]:
    """How the strategy code a run recorded differs from the code the specs load now. A
    file of the same content read from another path is no change: it plays the same."""
    changes = []
    for name in sorted(set(recorded) | set(current)):
        before, now = recorded.get(name), current.get(name)
        if before and now and source_identity(before) == source_identity(now):
            continue
        named_before, _, digest_before = (before or "").partition(DIGEST)
        named_now, _, digest_now = (now or "").partition(DIGEST)
        files = named_before.startswith(FILE_RECORD) and named_now.startswith(FILE_RECORD)
        if digest_before and digest_now and (files or named_before == named_now):
            changes.append(f"strategy {'file' if files else 'code'} {name} changed since the "
                           f"run was written (sha256 {short_digest(digest_before)} there, "
                           f"{short_digest(digest_now)} here)")
        else:  # one side records nothing (fcsim's own code, a run written before it
            # recorded this), or another package version
            changes.append(f"strategy {name} was {before or NOT_RECORDED} there, "
                           f"{now or NOT_RECORDED} here")
    return changes


@contextlib.contextmanager
def read_as_recorded(sources: Mapping[str, str]) -> Iterator[None]:
    """Read a run's relative strategy-file and model paths from the folder the run read
    them from (:func:`recorded_folder`), where that folder still exists; else from here."""
    folder = recorded_folder(sources)
    moved = folder is not None and folder.is_dir()
    with contextlib.chdir(folder) if moved else contextlib.nullcontext():
        yield


def recorded_folder(sources: Mapping[str, str]) -> Path | None:
    """The working folder of the run whose sources are ``sources``: a file it read by a
    relative path is recorded by its absolute one, which ends with the relative path."""
    for key, source in sources.items():
        if not source.startswith(FILE_RECORD):
            continue
        recorded = Path(source.removeprefix(FILE_RECORD).partition(DIGEST)[0])
        spec, _, parameter = key.rpartition(" ")  # a model's key: "SPEC PARAMETER"
        for given in (split_file_spec(key)[0], _parameter_value(spec, parameter)):
            relative = Path(given or "")
            if given and not relative.is_absolute() and ".." not in relative.parts:
                depth = len(relative.parts)
                if recorded.parts[-depth:] == relative.parts:
                    return Path(*recorded.parts[:-depth])
    return None


def _parameter_value(spec: str, parameter: str) -> str | None:
    """The value ``spec`` gives ``parameter`` (``learned:model=m.npz`` -> ``m.npz``)."""
    found = re.search(rf"[:,]\s*{re.escape(parameter)}\s*=([^,]*)", spec)
    return found[1].strip() if found else None
