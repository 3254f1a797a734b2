"""Where numba caches fcsim's compiled kernels: a folder named after the source itself.

numba's ``cache=True`` checks only the modified time of the file that defines a function,
not of the functions it calls: after an upgrade a strategy could keep running the old
solver compiled into it. Keying the cache folder on a digest of every fcsim source file
makes any change start from a clean cache, while an unchanged install loads instantly.
A ``NUMBA_CACHE_DIR`` set by the user is left alone.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def source_digest() -> str:
    """A short digest of every ``.py`` file of the package (names and contents)."""
    digest = hashlib.sha256()
    for path in sorted(_PACKAGE.rglob("*.py")):
        digest.update(str(path.relative_to(_PACKAGE)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_root() -> Path:
    """``$FCSIM_CACHE_DIR``, else ``$XDG_CACHE_HOME/fcsim``, else ``~/.cache/fcsim``."""
    if os.environ.get("FCSIM_CACHE_DIR"):
        return Path(os.environ["FCSIM_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "fcsim"


def configure() -> None:
    """Point numba's cache at ``<cache root>/numba-<source digest>`` (before any @njit)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    from numba.core import config

    path = cache_root() / f"numba-{source_digest()}"
    os.environ["NUMBA_CACHE_DIR"] = str(path)  # spawned workers inherit it
    config.CACHE_DIR = str(path)
