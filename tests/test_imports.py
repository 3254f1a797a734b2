"""No import cycles among fcsim's modules: read statically, an import inside a function
counts as one at the top (a cycle hidden in a function is still a cycle, only a later
one); imports under ``if TYPE_CHECKING:`` never run and do not count."""

from __future__ import annotations

import ast
from pathlib import Path

import fcsim

PACKAGE = Path(fcsim.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imported(tree: ast.AST, name: str, is_package: bool, modules: set[str]) -> set[str]:
    """The fcsim modules a module's source imports (``from a import b`` is ``a.b`` when
    that is a module, else ``a``)."""
    found: set[str] = set()
    todo = [tree]
    while todo:
        node = todo.pop()
        if _type_checking(node):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name.split(".") if is_package else name.split(".")[:-1]
                base = ".".join([*package[: len(package) - node.level + 1], *filter(None, [base])])
            found.update(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                         for alias in node.names)
    return {m for m in found if m in modules and m != name}


def import_graph() -> dict[str, set[str]]:
    """Each fcsim module and the fcsim modules it imports."""
    paths = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
    modules = set(paths)
    return {name: _imported(ast.parse(path.read_text(encoding="utf-8")), name,
                            path.name == "__init__.py", modules)
            for name, path in paths.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_sees_imports_at_any_depth() -> None:
    graph = import_graph()
    assert "fcsim.core.cards" in graph["fcsim.core.rules"]  # at the top
    assert "fcsim.advice" in graph["fcsim.cli.advise"]  # inside the command's function
    assert "fcsim.game" not in graph["fcsim"]  # under TYPE_CHECKING only


def test_cycles_are_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_fcsim_has_no_import_cycle() -> None:
    assert cycles(import_graph()) == []
