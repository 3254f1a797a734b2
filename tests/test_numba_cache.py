"""Kernels are cached per module and what it imports: never stale, recompiled only when due."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from fcsim import _numba_cache
from tests.reference import imports

KERNEL = """
    import fcsim  # fcsim's locator caches code that imports fcsim
    from numba import njit
    from helper import value

    @njit(cache=True)
    def kernel():
        return value() + 1

    print(kernel(), kernel.stats.cache_hits.get(kernel.signatures[0], 0))
"""
HELPER = """
    from numba import njit

    @njit(cache=True)
    def value():
        return {value}
"""


def _write(folder: Path, name: str, text: str) -> None:
    (folder / name).write_text(textwrap.dedent(text))


def _run(folder: Path, cache: Path, **extra: str) -> tuple[int, int]:
    """Run the kernel module in a fresh process: (its answer, cache hits)."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(FCSIM_CACHE_DIR=str(cache), PYTHONPATH=os.pathsep.join([str(folder), os.getcwd()]),
               **extra)
    out = subprocess.run([sys.executable, str(folder / "kernel.py")], env=env, check=True,
                         capture_output=True, text=True, cwd=folder).stdout.split()
    return int(out[0]), int(out[1])


LOCATOR_IN_PLACE = """
    import sys
    {first}
    from numba.core import caching
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    print(impl._locator_classes[1].__name__)
"""


@pytest.mark.parametrize("first", ["import fcsim; import numba", "import numba; import fcsim",
                                   "import fcsim._numba_cache", "import fcsim.core.cards"])
def test_the_locator_is_in_place_whatever_comes_first(first: str) -> None:
    """fcsim puts its locator in front as numba is imported (not before: ``import fcsim``
    leaves numba's import, most of a command's start-up, to what needs it)."""
    code = textwrap.dedent(LOCATOR_IN_PLACE).format(first=first)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "DependencyCacheLocator"


def test_importing_fcsim_and_its_command_line_loads_no_numba() -> None:
    code = "import sys, fcsim, fcsim.cli; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


def test_an_edited_callee_is_never_served_stale(tmp_path: Path) -> None:
    code, cache = tmp_path / "code", tmp_path / "cache"
    code.mkdir()
    _write(code, "kernel.py", KERNEL)
    _write(code, "helper.py", HELPER.format(value=1))
    assert _run(code, cache) == (2, 0)  # compiled
    assert _run(code, cache) == (2, 1)  # loaded from the cache
    _write(code, "helper.py", HELPER.format(value=41))  # kernel.py itself is unchanged
    assert _run(code, cache) == (42, 0)  # numba alone would have served 2


@pytest.fixture
def importable(tmp_path: Path) -> Iterator[Path]:
    """``tmp_path`` on the import path; the modules imported from it are forgotten after."""
    sys.path.insert(0, str(tmp_path))
    before = set(sys.modules)
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        for name in set(sys.modules) - before:
            if (getattr(sys.modules[name], "__file__", None) or "").startswith(str(tmp_path)):
                del sys.modules[name]


def _digest_of(path: Path) -> str:
    """:func:`module_digest` of ``path`` as it is on disk now (its caches cleared)."""
    _numba_cache.module_digest.cache_clear()
    _numba_cache._imports.cache_clear()
    return _numba_cache.module_digest(path.resolve())


def test_digest_follows_imports_only(importable: Path) -> None:
    _write(importable, "a.py", "import fcsim.core.cards\nfrom b import x\n")
    _write(importable, "b.py", "x = 1\n")
    _write(importable, "c.py", "y = 1\n")
    import b  # noqa: F401  (a's imports are imported before its kernels are defined)

    before = _digest_of(importable / "a.py")
    _write(importable, "c.py", "y = 2\n")
    assert _digest_of(importable / "a.py") == before  # a does not import c
    _write(importable, "b.py", "x = 2\n")
    assert _digest_of(importable / "a.py") != before


def test_digest_covers_every_module_of_the_closure(importable: Path) -> None:
    """The code digest of a run (and a kernel's cache key) changes when any module it
    imports changes, however deep: a file left out would let --resume mix two versions of
    the game under one digest."""
    _write(importable, "a.py", "from b import x\n")
    _write(importable, "b.py", "from c import y\nx = y\n")
    _write(importable, "c.py", "y = 1\n")
    import b  # noqa: F401  (imported before the digest: a module's imports run first)
    import c  # noqa: F401

    seen = {_digest_of(importable / "a.py")}
    for name in ("a.py", "b.py", "c.py"):
        _write(importable, name, (importable / name).read_text() + "# edited\n")
        seen.add(_digest_of(importable / "a.py"))
    assert len(seen) == 4  # the first digest, and a new one after each edit


def test_fcsim_modules_are_keyed_on_their_own_imports() -> None:
    package = Path(_numba_cache.__file__).resolve().parent
    rng = _numba_cache._closure(package / "core" / "rng.py")
    assert rng == [package / "core" / "rng.py"]  # the generator depends on nothing
    solver = _numba_cache._closure(package / "core" / "solver" / "__init__.py")
    assert package / "core" / "tables.py" in solver
    assert not any("strategies" in str(p) for p in solver)


def test_a_user_cache_dir_is_respected(tmp_path: Path) -> None:
    code, mine = tmp_path / "code", tmp_path / "mine"
    code.mkdir()
    _write(code, "kernel.py", KERNEL)
    _write(code, "helper.py", HELPER.format(value=1))
    _run(code, tmp_path / "fcsim-cache", NUMBA_CACHE_DIR=str(mine))
    assert any(mine.rglob("*.nbi"))
    assert not (tmp_path / "fcsim-cache" / "numba").exists()


def test_installed_libraries_are_never_followed(tmp_path) -> None:
    """Code in any site folder (the user's too) is a library: an import of it never
    enters a digest, so the digest cannot depend on which libraries were imported."""
    user_site = tmp_path / "home" / ".local" / "lib" / "python3" / "site-packages"
    assert _numba_cache._is_library(user_site / "numpy" / "__init__.py")
    assert _numba_cache._is_library(Path(np.__file__).resolve())
    assert not _numba_cache._is_library(tmp_path / "my_strategies" / "mine.py")


TRICKY_IMPORTS = '''
import os, sys as system  # a comment
from . import sibling
from ..core.cards import (  # the list spans lines (and this comment has brackets)
    DECK_SIZE,  # with comments
    format_card as fc,
)
def f():
    try: import json
    except ImportError: pass
    x = 1; from fcsim.core import rng
from fcsim.core.state import \\
    S_ROUND
'''


def test_the_import_scan_finds_every_import_a_parse_finds() -> None:
    package = "fcsim.strategies"
    found = _numba_cache.imported_names(TRICKY_IMPORTS, package)
    assert found == imports.imported_names(TRICKY_IMPORTS, package)
    assert {"fcsim.strategies.sibling", "fcsim.core.cards.format_card", "json",
            "fcsim.core.rng", "fcsim.core.state.S_ROUND", "system"} - found == {"system"}


def test_the_import_scan_covers_every_module_of_the_project() -> None:
    root = Path(_numba_cache.__file__).resolve().parent.parent
    for path in sorted([*root.glob("fcsim/**/*.py"), *root.glob("tests/**/*.py"),
                        *root.glob("scripts/*.py")]):
        source = path.read_text()
        package = _numba_cache._package_of(path.resolve())
        missed = imports.imported_names(source, package) - _numba_cache.imported_names(
            source, package)
        assert not missed, f"{path}: {sorted(missed)}"


def test_the_same_source_under_another_module_name_compiles_anew(tmp_path: Path) -> None:
    """A strategy file tried loose, then installed in a package: the second must not load
    the first's compiled code, which imports the first module by name."""
    code, cache = tmp_path / "code", tmp_path / "cache"
    for package in ("tried", "installed"):
        (code / package).mkdir(parents=True)
        _write(code / package, "__init__.py", "")
        _write(code / package, "kernel.py", KERNEL)
    _write(code, "helper.py", HELPER.format(value=1))

    def run(module: str) -> tuple[int, int]:
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env.update(FCSIM_CACHE_DIR=str(cache),
                   PYTHONPATH=os.pathsep.join([str(code), os.getcwd()]))
        out = subprocess.run([sys.executable, "-c", f"import {module}"], env=env,
                             capture_output=True, text=True, cwd=code)
        assert out.returncode == 0, out.stderr
        return tuple(int(word) for word in out.stdout.split())

    assert run("tried.kernel") == (2, 0)
    (code / "tried" / "kernel.py").unlink()  # the loose file is gone once installed
    assert run("installed.kernel") == (2, 0)
    assert run("installed.kernel") == (2, 1)
