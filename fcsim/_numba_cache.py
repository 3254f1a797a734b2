"""Where numba caches compiled kernels: one folder per module *and everything it imports*.

numba's ``cache=True`` checks only the source of the file that defines a function, not
of the functions it calls (and compiles into itself): after an edit of the solver, a
strategy could keep running the old solver. fcsim therefore keys each module's cache
folder on a digest of that module's source and of every module it imports, directly or
not (fcsim's own, and user code such as a strategy plug-in or a loose strategy file):

* edit one strategy module and only it (and what imports it) is compiled again; the
  solver and the engine stay cached;
* edit the solver and everything built on it is compiled again, never served stale;
* two checkouts with the same sources share one cache (the digest is of content, not of
  modification times).

A locator class is put in front of numba's own (after the one for a ``NUMBA_CACHE_DIR``
the user set, which wins). Folders live under :func:`cache_root` ``/numba``.
"""

from __future__ import annotations

import hashlib
import os
import re
import site
import sys
import sysconfig
from functools import cache
from pathlib import Path

from numba.core import caching, config

_PACKAGE = Path(__file__).resolve().parent
_DIGEST_CHARS = 16


def cache_root() -> Path:
    """``$FCSIM_CACHE_DIR``, else ``$XDG_CACHE_HOME/fcsim``, else ``~/.cache/fcsim``."""
    if os.environ.get("FCSIM_CACHE_DIR"):
        return Path(os.environ["FCSIM_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "fcsim"


_LIBRARY_FOLDERS = frozenset({"site-packages", "dist-packages"})


@cache
def _library_roots() -> tuple[Path, ...]:
    """Folders of installed libraries and the standard library (never followed): the
    interpreter's, and the user's and any other site folder (pip installs there when the
    interpreter's own folder is read-only)."""
    names = ("stdlib", "platstdlib", "purelib", "platlib")
    paths = [sysconfig.get_path(n) for n in names]
    paths += [*site.getsitepackages(), site.getusersitepackages()]
    return tuple({Path(p).resolve() for p in paths if p})


def _is_library(path: Path) -> bool:
    return (not _LIBRARY_FOLDERS.isdisjoint(path.parts)
            or any(path.is_relative_to(root) for root in _library_roots()))


def _followed(path: Path, origin: Path) -> bool:
    """Whether an import of ``path`` by ``origin`` counts towards ``origin``'s digest:
    fcsim's own modules, the origin's own package, and any code outside the installed
    libraries (a user's strategy files)."""
    if path.is_relative_to(_PACKAGE) or path.parent == origin.parent:
        return True
    return not _is_library(path)


def _module_file(name: str) -> Path | None:
    """The source file of module ``name``: fcsim's by path (nothing is imported), any
    other only if it is imported already (a module's imports run before its kernels are
    defined)."""
    if name == _PACKAGE.name or name.startswith(_PACKAGE.name + "."):
        base = _PACKAGE.parent.joinpath(*name.split("."))
        for file in (base.with_suffix(".py"), base / "__init__.py"):
            if file.is_file():
                return file
        return None
    file = getattr(sys.modules.get(name), "__file__", None)
    if not file or not file.endswith(".py"):
        return None
    return Path(file).resolve()


def _package_of(path: Path) -> str:
    """The dotted package name of a file under fcsim, for relative imports ('' outside)."""
    if not path.is_relative_to(_PACKAGE):
        return ""
    parts = path.relative_to(_PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1])  # a module's package; an __init__'s own


# An import statement at the start of a line, at any indentation (so in any function),
# or after a ``;`` or a ``:`` (``try: import x``): ``from .mod import (a, b)`` (the list
# may span lines) or ``import a.b as c, d``.
_IMPORT_STATEMENT = re.compile(
    r"(?:^|[;:])[ \t]*(?:from[ \t]+(?P<dots>\.*)(?P<module>[\w.]*)[ \t]+import[ \t]+"
    r"(?P<names>\((?:[^)#]|#[^\n]*)*\)|[^\n;]*)|import[ \t]+(?P<modules>[^\n;]*))",
    re.MULTILINE)
_COMMENT = re.compile(r"#[^\n]*")


def imported_names(source: str, package: str) -> set[str]:
    """Dotted names ``source`` imports (modules, and ``module.name`` for each name taken
    from a module, which may be a submodule); relative imports resolved in ``package``.

    A scan of the text, not a parse: it is run on every module of the closure at each
    start of fcsim, and parsing took most of a second. It reads a line that starts with
    ``import`` inside a string as an import too: a digest then covers one file more than
    it needs, never one less (``tests/test_numba_cache.py`` holds it to a parse).
    """
    source = source.replace("\\\n", " ")
    names: set[str] = set()
    for found in _IMPORT_STATEMENT.finditer(source):
        if found["modules"] is not None:
            listed = _COMMENT.sub("", found["modules"]).split(",")
            names.update(item.split()[0] for item in listed if item.split())
            continue
        base = found["module"]
        if found["dots"]:
            parts = package.split(".")
            anchor = parts[: len(parts) - len(found["dots"]) + 1]
            base = ".".join([*anchor, base] if base else anchor)
        names.add(base)
        listed = _COMMENT.sub("", found["names"]).strip("()").split(",")
        names.update(f"{base}.{item.split()[0]}" for item in listed if item.split())
    return names


@cache
def _imports(path: Path) -> tuple[Path, ...]:
    """Source files of the modules ``path`` imports at any level of its code."""
    try:
        source = path.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return ()
    found = set()
    for name in imported_names(source, _package_of(path)):
        file = _module_file(name) if name else None
        if file is not None and file != path and _followed(file, path):
            found.add(file)
    return tuple(sorted(found))


def _closure(path: Path) -> list[Path]:
    """``path`` and every source file it imports, transitively, in a stable order."""
    seen = {path}
    todo = [path]
    while todo:
        for dep in _imports(todo.pop()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return sorted(seen)


@cache
def module_digest(path: Path) -> str:
    """A digest of ``path``'s source and of the sources it imports (names and contents)."""
    digest = hashlib.sha256()
    for file in _closure(path):
        digest.update(str(file.relative_to(_PACKAGE.parent) if file.is_relative_to(_PACKAGE)
                          else file.name).encode())
        digest.update(b"\0")
        digest.update(file.read_bytes())
    return digest.hexdigest()[:_DIGEST_CHARS]


def _imports_fcsim(path: Path) -> bool:
    return path.is_relative_to(_PACKAGE) or any(
        dep.is_relative_to(_PACKAGE) for dep in _closure(path))


class DependencyCacheLocator(caching._CacheLocator):
    """Cache a kernel under ``<cache root>/numba/<module>-<digest of it and its imports>``.

    Keyed by the module's name, not its file's: the same source loaded under two names
    (a strategy file tried loose, then installed in a package) compiles to code that
    refers to each module by its own name."""

    def __init__(self, py_func: object, py_file: Path) -> None:
        self._lineno = py_func.__code__.co_firstlineno
        self._digest = module_digest(py_file)
        module = getattr(py_func, "__module__", None) or py_file.stem
        self._path = cache_root() / "numba" / f"{module}-{self._digest}"

    def get_cache_path(self) -> str:
        return str(self._path)

    def get_source_stamp(self) -> str:
        return self._digest

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func: object, py_file: str) -> DependencyCacheLocator | None:
        """A locator for code of fcsim or code that imports it; None for anything else."""
        if config.CACHE_DIR:  # the user's NUMBA_CACHE_DIR wins
            return None
        path = Path(py_file).resolve()
        if not path.is_file() or not _imports_fcsim(path):
            return None
        locator = cls(py_func, path)
        try:
            locator.ensure_cache_path()
        except OSError:
            return None
        return locator


def configure() -> None:
    """Put :class:`DependencyCacheLocator` in front of numba's own (before any @njit)."""
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    classes = impl._locator_classes
    if DependencyCacheLocator not in classes:
        classes.insert(1, DependencyCacheLocator)  # after the user-provided folder


configure()  # on import: fcsim imports this module as soon as numba is (fcsim/__init__.py)
