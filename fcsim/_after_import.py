"""Code run right after a module is first imported, without importing it: ``import
fcsim`` sets up numba's cache this way, so that it does not load numba (most of a
command's start-up) before anything needs it."""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from collections.abc import Callable


class _Watch(importlib.abc.MetaPathFinder):
    """Finds nothing itself: hooks ``then`` onto the module ``name``'s loading."""

    def __init__(self, name: str, then: Callable[[], None]) -> None:
        self.name, self.then = name, then

    def find_spec(self, fullname, path, target=None):
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            loader, then = spec.loader, self.then
            load = loader.exec_module

            def exec_module(module) -> None:
                del loader.exec_module  # the loader's own again
                load(module)
                then()

            loader.exec_module = exec_module
        return spec


def after_import(name: str, then: Callable[[], None]) -> None:
    """Call ``then`` once the top-level module ``name`` has been imported: now if it has,
    else right after its import (which it then takes part in: an error fails the import)."""
    if name in sys.modules:
        then()
    else:
        sys.meta_path.insert(0, _Watch(name, then))
