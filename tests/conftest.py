"""Installed strategy plug-ins for the tests, without pip: a ``*.dist-info`` folder with an
``entry_points.txt`` beside the plug-in's modules, on a temporary ``sys.path`` entry, is
an installed distribution as far as ``importlib.metadata`` is concerned. Worker processes
(spawned) inherit ``sys.path``; subprocesses get it through ``PYTHONPATH``.
"""

from __future__ import annotations

import errno
import os
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from fcsim.strategies import known

# A numba plug-in that compiles in a moment: it always draws from the stock and discards
# the solver's best discard (so it is greedy without the pile).
STOCK_ONLY = """
    from fcsim.strategies.base import DRAW_STOCK, I_BEST_DISCARD, decision
    from fcsim.strategies.registry import Family, Param

    @decision
    def draw(hand, pile, known, info, hidden, params, table, scratch, rng):
        return DRAW_STOCK

    @decision
    def discard(hand, pile, known, info, hidden, params, table, scratch, rng):
        return info[I_BEST_DISCARD]

    FAMILY = Family("stockonly", "Draws from the stock; discards the best discard.", draw,
                    discard, (Param("unused", 0, "a parameter that changes nothing",
                                    low=0, high=9),))
"""
# A Python agent factory: takes the pile when its top card is wild, else like greedy.
WILD_TAKER = """
    import fcsim

    def make_agent(patience: int = 0):
        \"\"\"Takes a wild from the pile; otherwise plays greedy.\"\"\"
        greedy = fcsim.agent("greedy")

        def agent(view):
            if view.phase == "draw" and view.pile_top[:-1] in (str(view.wild_rank), "J"):
                return "pile"
            return greedy(view)

        return agent
"""


def buggy_numba_strategy(folder: Path, bug: str) -> tuple[str, int]:
    """A strategy file of :data:`STOCK_ONLY` whose discard runs ``bug`` (one line) in
    round 2: its path, and the line of the bug (for the tests of how fcsim names a
    strategy whose code fails)."""
    source = (textwrap.dedent(STOCK_ONLY)
              .replace("I_BEST_DISCARD, decision", "I_BEST_DISCARD, I_ROUND, decision")
              .replace("    return info[I_BEST_DISCARD]",
                       f"    if info[I_ROUND] == 2:\n        {bug}\n"
                       f"    return info[I_BEST_DISCARD]"))
    path = folder / "buggy.py"
    path.write_text(source)
    return str(path), source.splitlines().index(f"        {bug}") + 1


def write_package(site: Path, dist: str, entry_points: dict[str, str],
                  modules: dict[str, str], version: str = "0.1.0") -> None:
    """An installed distribution ``dist`` in folder ``site``: its metadata, its entry
    points in group ``fcsim.strategies`` and its modules (file name -> source)."""
    info = site / f"{dist.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
    lines = "".join(f"{name} = {value}\n" for name, value in entry_points.items())
    (info / "entry_points.txt").write_text(f"[fcsim.strategies]\n{lines}")
    for file, source in modules.items():
        (site / file).parent.mkdir(parents=True, exist_ok=True)
        (site / file).write_text(textwrap.dedent(source))


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
            ) -> Iterator[Callable[..., Path]]:
    """``plugins(dist, entry_points, modules)`` installs a plug-in package for this test
    (``sys.path`` and ``PYTHONPATH``); the registry is restored after it, and modules
    loaded from the test's folder are forgotten."""
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [
        str(site), os.environ.get("PYTHONPATH", "")])))
    families = dict(known._FAMILIES)
    modules = set(sys.modules)

    def install(dist: str, entry_points: dict[str, str], modules: dict[str, str],
                version: str = "0.1.0") -> Path:
        write_package(site, dist, entry_points, modules, version)
        return site

    yield install
    known._FAMILIES.clear()
    known._FAMILIES.update(families)
    for name in set(sys.modules) - modules:  # the plug-ins' modules and loose files
        if str(tmp_path) in (getattr(sys.modules[name], "__file__", None) or ""):
            del sys.modules[name]


def disk_full_after(files: int) -> Callable[[Path, bytes, Path], None]:
    """A stand-in for ``write_durably`` that writes ``files`` files, then finds the disk
    full (``OSError`` ENOSPC), as a run's store would on a full disk."""
    from fcsim.runner.durable import write_durably

    written: list[Path] = []

    def write(target: Path, data: bytes, temp: Path) -> None:
        if len(written) == files:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written.append(target)
        write_durably(target, data, temp)

    return write


@pytest.fixture(autouse=True)
def _table_notes_shown_anew() -> Iterator[None]:
    """Each test sees a model's table warning as a new process would (they are shown
    once per process)."""
    yield
    run = sys.modules.get("fcsim.runner.run")
    if run is not None:
        run._WARNED.clear()
