"""No constant of the package is left unread: each module-level UPPER_CASE name fcsim
defines is read somewhere in fcsim, its tests or its scripts (the flat names of a record's
fields, ``S_ROUND = Scalar.ROUND``, are held to their record in tests/core/test_records.py;
a ``*FAMILY`` is registered by being made)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import fcsim

ROOT = Path(fcsim.__file__).parent.parent
READERS = ("fcsim", "tests", "scripts")


def _names_read() -> set[str]:
    """Every name read, attribute reached, name imported or named in a string (but for a
    module's ``__all__``: exporting a name is no use of it)."""
    read: set[str] = set()
    for folder in READERS:
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text())
            exports = {id(node) for node in _exports(tree)}
            for node in ast.walk(tree):
                if id(node) in exports:
                    continue
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                    read.add(node.id)
                elif isinstance(node, ast.Attribute):
                    read.add(node.attr)
                elif isinstance(node, ast.alias):
                    read.add(node.name)
                elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                    read.update(re.findall(r"\w+", node.value))
    return read


def _exports(tree: ast.Module) -> list[ast.AST]:
    """The string nodes of ``tree``'s ``__all__`` (assigned or extended)."""
    nodes = []
    for node in tree.body:
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AugAssign) else [])
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            nodes += [n for n in ast.walk(node.value)
                      if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return nodes


def _constants(tree: ast.Module) -> list[str]:
    """The module-level UPPER_CASE names ``tree`` assigns, but for a record field's alias."""
    names = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and not _is_field_alias(node.value):
            for target in node.targets:
                elements = target.elts if isinstance(target, ast.Tuple) else [target]
                names += [e.id for e in elements if isinstance(e, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
    return [n for n in names if n.isupper() and not n.endswith("FAMILY")]


def _is_field_alias(value: ast.expr) -> bool:
    return (isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name)
            and value.value.id[:1].isupper())


def test_every_constant_is_read() -> None:
    read = _names_read()
    unread = [f"{path.relative_to(ROOT)}: {name}"
              for path in sorted((ROOT / "fcsim").rglob("*.py"))
              for name in _constants(ast.parse(path.read_text())) if name not in read]
    assert unread == []
