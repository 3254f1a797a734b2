"""``kernel``: numba's ``njit(cache=True)``, compiled once per kind of arguments.

numba compiles a function again for every new combination of argument types it is called
with, and counts as new what changes nothing in the code: a constant (``f(x, 3)`` is typed
with the literal ``3``, each value its own type), an ``int8`` where an ``int64`` came
before, a contiguous array where a strided view came before. For a solver kernel each
compile takes seconds, and the engine (contiguous arrays), the strategies (views, narrow
integers) and constants made numba compile the one-pass discard search six times over.

A :func:`kernel` is compiled for the *canonical* form of its arguments only: a constant
becomes its type, an ``IntEnum`` member or an integer narrower than 64 bits ``int64``
(unsigned 64-bit integers stay as they are), an array any layout (``'A'``). A call with
other types is converted to that signature, exactly (every such conversion is exact),
whether it comes from numba code or from Python; a Python call then takes the fast path
of an exact match.

With ``NUMBA_DISABLE_JIT=1`` a kernel is the plain Python function, as with ``njit``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba import types
from numba.core import config, sigutils
from numba.core.registry import CPUDispatcher


def canonical(arg: types.Type) -> types.Type:
    """The type a kernel is compiled for when called with an argument of type ``arg``."""
    arg = types.unliteral(arg)
    if isinstance(arg, types.IntEnumMember):  # a record field's name (solver.layout)
        arg = arg.dtype
    if isinstance(arg, types.Integer) and arg.bitwidth < types.int64.bitwidth:
        return types.int64
    if isinstance(arg, types.Array) and arg.layout != "A":
        return arg.copy(layout="A")
    return arg


class KernelDispatcher(CPUDispatcher):
    """A dispatcher that compiles (or loads from the cache) canonical signatures only."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._exact_aliases: set[tuple[types.Type, ...]] = set()

    def compile(self, sig: Any) -> Any:
        """Compile for the canonical form of ``sig``; also let Python calls with exactly
        ``sig``'s types reach that code without coming back here."""
        args, _ = sigutils.normalize_signature(sig)
        args = tuple(args)
        wanted = tuple(canonical(a) for a in args)
        entry = super().compile(wanted)
        is_python_call = not any(isinstance(a, types.Literal) for a in args)
        if wanted != args and is_python_call and args not in self._exact_aliases:
            self._exact_aliases.add(args)
            self._insert([a._code for a in args], entry, False)
        return entry


def kernel(func: Callable) -> Callable:
    """``@kernel``: a cached nopython kernel compiled for canonical argument types only."""
    if config.DISABLE_JIT:
        return func
    dispatcher = KernelDispatcher(py_func=func, locals={},
                                  targetoptions={"nopython": True, "boundscheck": None})
    dispatcher.enable_caching()
    return dispatcher
