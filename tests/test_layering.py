"""The arrows of docs/ARCHITECTURE.md, checked on every module's imports (at any depth
of its code, so an import inside a function counts too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import fcsim

PACKAGE = Path(fcsim.__file__).parent
# What each layer may import from fcsim besides itself (fcsim's __init__, the numba
# cache set-up and the errors' base are the package's own plumbing).
PLUMBING = ("fcsim._version", "fcsim._numba_cache", "fcsim.errors")
ALLOWED = {
    "core": set(),
    "strategies": {"fcsim.core"},
    "runner": {"fcsim.core", "fcsim.strategies", "fcsim.analysis.stats"},
    # the analysis asks the registry one thing: how a strategy is named (an oracle marked)
    "analysis": {"fcsim.runner.format", "fcsim.viewer", "fcsim.strategies.display_name"},
}


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {name for name in names if name == "fcsim" or name.startswith("fcsim.")}


def _allowed(name: str, layer: str) -> bool:
    return any(name == base or name.startswith(base + ".")
               for base in (*PLUMBING, f"fcsim.{layer}", *ALLOWED[layer]))


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_each_layer_imports_only_what_lies_below_it(layer: str) -> None:
    wrong = {f"{path.relative_to(PACKAGE.parent)} imports {name}"
             for path in sorted((PACKAGE / layer).rglob("*.py"))
             for name in _imports(path) if not _allowed(name, layer)}
    assert not wrong, sorted(wrong)
