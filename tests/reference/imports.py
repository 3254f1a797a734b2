"""The slow twin of ``fcsim._numba_cache.imported_names``: the imports of a module read
from its parse tree."""

from __future__ import annotations

import ast


def imported_names(source: str, package: str) -> set[str]:
    """Dotted names the parsed ``source`` imports (modules, and ``module.name`` for each
    name taken from a module), relative imports resolved in ``package``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                anchor = parts[: len(parts) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names
