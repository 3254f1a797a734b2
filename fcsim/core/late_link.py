"""Kernels linked late: compiled callers reach them through a slot, not a copy of their code.

numba compiles a call from one kernel to another by linking a copy of the callee's whole
LLVM module into the caller and optimising it again there. For the solver's searches that
is about half a megabyte of IR, 20–35 s of LLVM in *every* kernel that calls them: each
strategy, the engine, each edit of a plug-in. :func:`late_linked` gives instead a stub that
calls the callee's compiled code through a pointer-sized slot (an LLVM symbol of this
process, filled with the callee's address when it is compiled or loaded), so a caller
compiles in a fraction of a second and its cached code names only the slot.

A cached caller is loaded with the slots it names filled first: the stub records a
:class:`SlotLoader` in the caller's library (numba runs a library's ``reload_init`` before
it loads its cached code, and a caller inherits those of the libraries it links; numba
forgets them on a library loaded from the cache, which :func:`_remember_reload_init`
mends, or a caller compiled on top of it would be cached without them). The
slot's name is that of the kernel and its argument types, stable across processes; what
fills it is the kernel compiled, or loaded from the cache, in this process — numba's cache
keys (:mod:`fcsim._numba_cache`) make a caller's code and its callee's the same version.

The stub is for compiled callers only; Python calls the kernel itself. With
``NUMBA_DISABLE_JIT=1`` the stub *is* the kernel (a Python function).
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib
import inspect
from dataclasses import dataclass

import llvmlite.binding as llvm
from llvmlite import ir
from numba.core import cgutils, config, types
from numba.core.compiler import CompileResult
from numba.core.typing import signature
from numba.extending import intrinsic

SLOT_PREFIX = "fcsim_late_"
_slots: dict[str, ctypes.c_void_p] = {}  # slot symbol -> the address it holds


def _where(kernel: object) -> tuple[str, str]:
    func = kernel.py_func
    return func.__module__, func.__name__


def slot_symbol(kernel: object, args: tuple) -> str:
    """The name of the slot of ``kernel`` compiled for ``args`` (numba types)."""
    module, name = _where(kernel)
    digest = hashlib.sha256(f"{module}.{name}{args}".encode()).hexdigest()[:16]
    return f"{SLOT_PREFIX}{name}_{digest}"


def fill_slot(kernel: object, args: tuple) -> object:
    """Compile (or load) ``kernel`` for ``args`` and put its address in its slot; its
    compile result."""
    name = slot_symbol(kernel, args)
    slot = _slots.get(name)
    if slot is None:
        slot = _slots[name] = ctypes.c_void_p(0)
        llvm.add_symbol(name, ctypes.addressof(slot))
    if args not in kernel.overloads:
        kernel.compile(args)
    result = kernel.overloads[args]
    if not slot.value:
        slot.value = result.library.get_pointer_to_function(result.fndesc.llvm_func_name)
    return result


@dataclass(frozen=True)
class SlotLoader:
    """Fills one slot before a cached caller's code is loaded (pickled with that code)."""

    module: str
    name: str
    args: tuple

    def __call__(self) -> None:
        fill_slot(getattr(importlib.import_module(self.module), self.name), self.args)


def _remember_reload_init() -> None:
    """Make a library loaded from the cache keep its ``reload_init``, as a compiled one
    does, so that the libraries linking it inherit them (numba drops them)."""
    rebuild = CompileResult._rebuild.__func__
    if getattr(rebuild, "keeps_reload_init", False):
        return

    def rebuild_keeping(cls, target_context, *payload):
        result = rebuild(cls, target_context, *payload)
        result.library._reload_init.update(result.reload_init or ())
        return result

    rebuild_keeping.keeps_reload_init = True
    CompileResult._rebuild = classmethod(rebuild_keeping)


_remember_reload_init()


def _slot_global(module: ir.Module, symbol: str) -> ir.GlobalVariable:
    """The module's declaration of slot ``symbol`` (one per module, however many calls:
    a second one would get another name, which nothing defines)."""
    slot = module.globals.get(symbol)
    if slot is None:
        slot = ir.GlobalVariable(module, ir.IntType(8).as_pointer(), symbol)
        slot.linkage = "external"
    return slot


def late_linked(kernel: object) -> object:
    """A stub with ``kernel``'s parameters that compiled code calls instead of ``kernel``:
    the same result, through ``kernel``'s slot (see the module's docstring)."""
    if config.DISABLE_JIT:
        return kernel
    module, name = _where(kernel)

    def typer(*given: types.Type) -> tuple:
        args = tuple(types.unliteral(t) for t in given)
        result = fill_slot(kernel, args)
        restype = result.signature.return_type
        symbol = slot_symbol(kernel, args)

        def codegen(context, builder, sig, values):
            context.active_code_library._reload_init.add(SlotLoader(module, name, args))
            values = [context.cast(builder, v, t, a)
                      for v, t, a in zip(values, given, args, strict=True)]
            fnty = context.call_conv.get_function_type(restype, args)
            callee = builder.bitcast(builder.load(_slot_global(builder.module, symbol)),
                                     fnty.as_pointer())
            status, out = context.call_conv.call_function(builder, callee, restype, args,
                                                          values)
            with cgutils.if_unlikely(builder, status.is_error):
                context.call_conv.return_status_propagate(builder, status)
            return out

        return signature(restype, *given), codegen

    # numba types an intrinsic by its parameter names: give the stub the kernel's.
    params = ", ".join(inspect.signature(kernel.py_func).parameters)
    namespace = {"typer": typer}
    exec(f"def {name}(typingctx, {params}):\n    return typer({params})\n", namespace)
    return intrinsic(namespace[name])
