"""Search decision functions bound to a rollout policy and an anchor at compile time.

A decision function's signature is fixed, and numba can cache a kernel that calls
another through a global but not one that passes it around as a value. So a search that
plays "any registered numba strategy" in its rollouts gets that strategy's functions as
globals: :mod:`fcsim.strategies.search.kernels` is bound to the ``greedy`` rollout and
the ``aware`` anchor (the oracles'), and for any other (rollout, anchor) pair — the
search's own default anchor, ``learned``, included — :func:`bound_module` writes a copy
of it into the fcsim cache folder with its ``# bound:`` lines (the imports of the two
strategies' decision functions, their specs and parameter vectors) rewritten, and
imports it. numba caches the copy's kernels like any module's (keyed on a digest of it
and what it imports), so a pair is compiled once per code version, in any process.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
from functools import cache
from pathlib import Path
from types import ModuleType

from fcsim._numba_cache import cache_root
from fcsim.core.view import closed
from fcsim.strategies.registry import Strategy, StrategyError, nested_strategy
from fcsim.strategies.search import kernels

BOUND_MARK = "  # bound: "


def _where(dispatcher: object, role: str) -> tuple[str, str]:
    """(module, attribute) a copy imports ``dispatcher`` by."""
    func = getattr(dispatcher, "py_func", dispatcher)  # a plain function without the JIT
    module_name = getattr(func, "__module__", None) or ""
    name = getattr(func, "__name__", None) or ""
    if getattr(sys.modules.get(module_name), name, None) is not dispatcher:
        raise StrategyError(f"the search's {role} must be a strategy whose decision "
                            f"functions can be imported by name from their module")
    return module_name, name


def _policy(spec: str, role: str) -> Strategy:
    return nested_strategy(spec, f"the search's {role}")


def _bindings(role: str, strategy: Strategy) -> dict[str, str]:
    """The bound lines of one role (``rollout`` or ``anchor``), by their mark."""
    draw_at = _where(strategy.family.draw, role)
    discard_at = _where(strategy.family.discard, role)
    params = [float(x) for x in strategy.param_vector]
    bound = {
        f"{role} draw": f"from {draw_at[0]} import {draw_at[1]} as {role}_draw",
        f"{role} discard": f"from {discard_at[0]} import {discard_at[1]} as {role}_discard",
        f"{role} spec": f"{role.upper()}_SPEC = \"{strategy.spec}\"",
        f"{role} params": f"{role.upper()}_PARAMS = np.array({params!r})",
    }
    if role == "rollout":  # the anchor decides on the search's own view, history and all
        bound[f"{role} history"] = f"{role.upper()}_HISTORY = {strategy.family.history}"
    return bound


def bound_source(rollout: str, anchor: str) -> str:
    """The source of the kernels module bound to these strategies (specs)."""
    lines = {**_bindings("rollout", _policy(rollout, "rollout")),
             **_bindings("anchor", _policy(anchor, "anchor"))}
    out = []
    for line in Path(kernels.__file__).read_text().splitlines(keepends=True):
        _, mark, key = line.partition(BOUND_MARK)
        if mark:
            line = f"{lines[key.strip()]}{BOUND_MARK}{key.strip()}\n"
        out.append(line)
    return "".join(out)


def _write_once(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` unless it holds it already (atomically: workers race)."""
    if path.is_file() and path.read_text() == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(handle, "w") as file:
        file.write(text)
    os.replace(temporary, path)


@cache
def bound_module(rollout: str, anchor: str) -> ModuleType:
    """The kernels module bound to this rollout policy and anchor (specs): the module
    itself for ``greedy`` and ``aware``, else a copy in the cache folder."""
    text = bound_source(rollout, anchor)
    if text == Path(kernels.__file__).read_text():
        return _closed(kernels)
    name = f"fcsim_search_{hashlib.sha256(text.encode()).hexdigest()[:16]}"
    if name not in sys.modules:
        path = cache_root() / "search" / f"{name}.py"
        _write_once(path, text)
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return _closed(sys.modules[name])


def _closed(module: ModuleType) -> ModuleType:
    """``module`` with the bound strategies' decision functions compiled for the decision
    signature and closed to others, as the kernels call them (else each call site with
    other array layouts would compile them again)."""
    for name in ("rollout_draw", "rollout_discard", "anchor_draw", "anchor_discard"):
        closed(getattr(module, name))
    return module


def bound_decisions(rollout: str, anchor: str) -> tuple[object, object]:
    """The fair search's (draw, discard) decision functions (one function decides both)."""
    module = bound_module(rollout, anchor)
    return module.decide, module.decide


def bound_perfect_decisions(rollout: str, anchor: str) -> tuple[object, object]:
    """The perfect-information search's (draw, discard) functions (an oracle)."""
    module = bound_module(rollout, anchor)
    return module.decide_perfect, module.decide_perfect


def bound_real_hands_decisions(rollout: str, anchor: str) -> tuple[object, object]:
    """The search's (draw, discard) functions on the real hands and a resampled stock (an
    oracle)."""
    module = bound_module(rollout, anchor)
    return module.decide_real_hands, module.decide_real_hands


__all__ = ["bound_decisions", "bound_module", "bound_perfect_decisions",
           "bound_real_hands_decisions", "bound_source"]
