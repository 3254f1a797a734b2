"""Strategies in loose ``.py`` files: ``path/to/file.py[:attribute][:key=value,…]``.

A spec whose first ``:``-separated part ends in ``.py`` names a file (so it can never be
taken for a registered name or a module). Without an attribute it plays the one
:class:`Family` the file defines; ``file.py:attribute`` plays that attribute (a Family,
an agent or an agent factory, :mod:`.external`). The path is written as given (relative
paths are relative to the working directory) and may not contain ``:`` or ``,``.

The file is loaded once per process as a module named after its content
(``fcsim_file_<stem>_<digest>``): every worker process of a run loads the same file the
same way, and its numba kernels, cached by content like any module's, are only ever
loaded into a module of that very content (a cached kernel names its module). The
digest of the content that was loaded is kept (:func:`file_digest`): a run folder records
it, so ``--resume`` can refuse a file that changed.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import sys
from pathlib import Path

from fcsim.strategies.external import family_from, load_error
from fcsim.strategies.family import Family, StrategyError
from fcsim.strategies.known import lookup, register

SUFFIX = ".py"
_NAME_DIGEST_CHARS = 12
_loaded: dict[Path, str] = {}  # resolved path -> sha256 of the content loaded


def is_file_spec(spec: str) -> bool:
    """Whether ``spec`` names a strategy in a ``.py`` file."""
    return spec.strip().partition(":")[0].strip().lower().endswith(SUFFIX)


def split_file_spec(spec: str) -> tuple[str, str, str]:
    """``(path, attribute, parameters)`` of a file spec; the path normalised, the others
    possibly empty (``file.py:take_margin=2`` has parameters and no attribute)."""
    path, _, rest = spec.strip().partition(":")
    attribute, _, params = rest.partition(":")
    if "=" in attribute:
        attribute, params = "", rest
    return os.path.normpath(path.strip()), attribute.strip(), params


def module_name(path: Path, source: bytes) -> str:
    """The module name of file ``path`` holding ``source``: the same in every process."""
    stem = re.sub(r"\W", "_", path.stem)
    return f"fcsim_file_{stem}_{hashlib.sha256(source).hexdigest()[:_NAME_DIGEST_CHARS]}"


def file_family(spec: str) -> tuple[Family, str]:
    """The family a file spec names (loaded and registered) and the spec's parameters."""
    path_text, attribute, params = split_file_spec(spec)
    name = f"{path_text}:{attribute}" if attribute else path_text
    known = lookup(name)
    if known is not None:
        return known, params
    path = Path(path_text).resolve()
    module = load_file(path, path_text)
    if attribute:
        target = module
        for part in attribute.split("."):
            target = getattr(target, part, None)
            if target is None:
                raise StrategyError(f"strategy file {path_text} has no {attribute!r}")
    else:
        target = _only_family(module, path_text)
    return register(family_from(target, name, str(path))), params


def load_file(path: Path, shown: str) -> object:
    """The module of file ``path`` (``shown`` in messages), loaded once per process."""
    try:
        source = path.read_bytes()
    except OSError as err:
        raise StrategyError(f"strategy file {shown}: {err.strerror.lower()}") from None
    name = module_name(path, source)
    _loaded[path] = hashlib.sha256(source).hexdigest()
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # before it runs, as an import does (dataclasses need it)
    try:
        exec(compile(source, str(path), "exec"), module.__dict__)
    except Exception as err:  # whatever the file raises: one line, no traceback
        del sys.modules[name]
        del _loaded[path]
        raise StrategyError(f"strategy file {shown} cannot be loaded: {load_error(err)}"
                            ) from None
    return module


def _only_family(module: object, shown: str) -> Family:
    found = {k: v for k, v in vars(module).items() if isinstance(v, Family)}
    if len(found) == 1:
        return next(iter(found.values()))
    what = f"defines {len(found)} families ({', '.join(found)})" if found else \
        "defines no Family"
    raise StrategyError(f"strategy file {shown} {what}; name the strategy to play: "
                        f"{shown}:ATTRIBUTE (a Family, an agent or an agent factory)")


def file_digest(path: str | Path) -> str | None:
    """The sha256 of the content this process loaded from ``path`` (None if not loaded)."""
    return _loaded.get(Path(path).resolve())
