"""Kernels linked late: compiled callers reach them through a slot, not a copy of their code.

numba compiles a call from one kernel to another by linking a copy of the callee's whole
LLVM module into the caller and optimising it again there. For the solver's searches that
is about half a megabyte of IR, 20–35 s of LLVM in *every* kernel that calls them: each
strategy, the engine, each edit of a plug-in. :func:`late_linked` gives instead a stub that
calls the callee's compiled code through a pointer-sized slot: an LLVM symbol of this
process, defined when the stub is made, so that a cached caller names only the slot.

**One signature, declared.** A late kernel is declared with the one signature its stub
calls. The stub passes its callers' arguments on as that signature's types: an array
of another layout (a strategy's decision sees layout 'A') is checked to be contiguous and
passed as it is, an integer is widened. Typing a caller therefore needs neither the
kernel's code nor its compilation, and numba compiles the kernel once, not once per
caller's layout (the first run compiled the discard search three times and the penalty
search twice: 100 of its 160 s of compiling).

**Filled on first call.** A slot starts empty. The first call through it, in each
process, asks :func:`link` (a C callback) to compile the kernel, or load it from the
cache, and fill it; every later call finds it filled (one load and one predictable
branch). So callers compile while the kernels do not exist yet, and a run can compile the
kernels in another process at the same time (:func:`fcsim.runner.pool.compile_once`).

The stub is for compiled callers only; Python calls the kernel itself. With
``NUMBA_DISABLE_JIT=1`` the stub *is* the kernel (a Python function).
"""

from __future__ import annotations

import ctypes
import hashlib
import inspect
import sys
from dataclasses import dataclass

import llvmlite.binding as llvm
from llvmlite import ir
from numba.core import cgutils, config, types
from numba.core.typing import Signature, signature
from numba.extending import intrinsic

SLOT_PREFIX = "fcsim_late_"
LINK_SYMBOL = "fcsim_late_link"  # the C callback that fills a slot
LINKED, FAILED, INTERRUPTED = 0, 1, 2  # what the callback returns


@dataclass(frozen=True)
class LateKernel:
    """A late kernel: its dispatcher, its declared signature and its slot."""

    kernel: object
    declared: Signature
    symbol: str
    slot: ctypes.c_void_p

    @property
    def name(self) -> str:
        return self.kernel.py_func.__name__


_by_slot: dict[int, LateKernel] = {}  # address of a slot -> its kernel


def link(late: LateKernel) -> None:
    """Compile (or load) ``late``'s kernel for its declared signature and fill its slot."""
    if late.slot.value:
        return
    args = late.declared.args
    if args not in late.kernel.overloads:
        late.kernel.compile(args)
    result = late.kernel.overloads[args]
    if result.signature.return_type != late.declared.return_type:
        raise TypeError(f"{late.name} returns {result.signature.return_type}, declared "
                        f"{late.declared.return_type}")
    late.slot.value = result.library.get_pointer_to_function(result.fndesc.llvm_func_name)


def link_kernels(*kernels: object) -> None:
    """Fill the slots of these late kernels (compiling or loading them)."""
    for late in list(_by_slot.values()):
        if late.kernel in kernels:
            link(late)


@ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
def _link_from_compiled_code(slot_address: int) -> int:
    """The callback a stub calls on an empty slot: LINKED; INTERRUPTED on Ctrl-C (the
    stub raises KeyboardInterrupt); FAILED with a line on stderr (no exception crosses
    compiled code from here)."""
    late = _by_slot[slot_address]
    try:
        link(late)
    except KeyboardInterrupt:
        return INTERRUPTED
    except Exception as err:  # reported by the stub as an error
        print(f"fcsim: compiling {late.name} failed: {err!r}", file=sys.stderr)
        return FAILED
    return LINKED


llvm.add_symbol(LINK_SYMBOL, ctypes.cast(_link_from_compiled_code, ctypes.c_void_p).value)


def slot_symbol(kernel: object, declared: Signature) -> str:
    """The name of ``kernel``'s slot (stable across processes)."""
    func = kernel.py_func
    digest = hashlib.sha256(f"{func.__module__}.{func.__name__}{declared}".encode())
    return f"{SLOT_PREFIX}{func.__name__}_{digest.hexdigest()[:16]}"


def passes_as(given: types.Type, wanted: types.Type) -> bool:
    """Whether a stub takes an argument of type ``given`` for a parameter ``wanted``: an
    array of the same dtype and dimensions (any layout, readonly or not), an integer for
    an integer, a boolean for a boolean."""
    given = types.unliteral(given)
    if isinstance(wanted, types.Array):
        return (isinstance(given, types.Array) and given.dtype == wanted.dtype
                and given.ndim == wanted.ndim)
    if isinstance(wanted, types.Integer):
        return isinstance(given, types.Integer)
    return given == wanted


def _passed_on(context, builder, value, given: types.Type, wanted: types.Type):
    """``value`` (of type ``given``) as ``wanted``: an array of another layout is checked
    to be C-contiguous and passed as it is (the same struct); a scalar is cast."""
    if not isinstance(given, types.Array):
        return context.cast(builder, value, given, wanted)
    if given.layout != "C":
        array = context.make_array(given)(context, builder, value=value)
        shape = cgutils.unpack_tuple(builder, array.shape, given.ndim)
        strides = cgutils.unpack_tuple(builder, array.strides, given.ndim)
        expected = context.get_constant(types.intp, context.get_abi_sizeof(
            context.get_data_type(given.dtype)))
        one = context.get_constant(types.intp, 1)
        contiguous = cgutils.true_bit
        for dim in reversed(range(given.ndim)):  # numba's rule: a dimension of 0 or 1 any
            fits = builder.or_(builder.icmp_signed("==", strides[dim], expected),
                               builder.icmp_signed("<=", shape[dim], one))
            contiguous = builder.and_(contiguous, fits)
            expected = builder.mul(expected, shape[dim])
        with cgutils.if_unlikely(builder, builder.not_(contiguous)):
            context.call_conv.return_user_exc(
                builder, ValueError, ("the solver takes C-contiguous arrays only",))
    return value


def _filled_slot(context, builder, late: LateKernel) -> ir.Value:
    """The slot's address, after filling it on an empty slot (or raising)."""
    pointer = ir.IntType(8).as_pointer()
    slot = builder.module.globals.get(late.symbol)  # one declaration per module
    if slot is None:
        slot = ir.GlobalVariable(builder.module, pointer, late.symbol)
        slot.linkage = "external"
    with cgutils.if_unlikely(builder, cgutils.is_null(builder, builder.load(slot))):
        link_fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.IntType(32), [pointer]), LINK_SYMBOL)
        status = builder.call(link_fn, [builder.bitcast(slot, pointer)])
        with cgutils.if_unlikely(builder, builder.icmp_signed("==", status,
                                                              status.type(INTERRUPTED))):
            context.call_conv.return_user_exc(builder, KeyboardInterrupt, ())
        with cgutils.if_unlikely(builder, builder.icmp_signed("==", status,
                                                              status.type(FAILED))):
            context.call_conv.return_user_exc(
                builder, RuntimeError, (f"{late.name} could not be compiled (see above)",))
    return builder.load(slot)


def late_linked(kernel: object, declared: Signature) -> object:
    """A stub with ``kernel``'s parameters that compiled code calls instead of ``kernel``
    (compiled for ``declared``): the same result, through its slot (see the module's
    docstring)."""
    if config.DISABLE_JIT:
        return kernel
    symbol = slot_symbol(kernel, declared)
    if any(other.symbol == symbol for other in _by_slot.values()):
        raise ValueError(f"{kernel.py_func.__module__}.{kernel.py_func.__name__} is linked "
                         f"late already (a slot's name is its module, name and signature)")
    late = LateKernel(kernel, declared, symbol, ctypes.c_void_p(0))
    llvm.add_symbol(symbol, ctypes.addressof(late.slot))
    _by_slot[ctypes.addressof(late.slot)] = late
    args, restype = declared.args, declared.return_type

    def typer(*given: types.Type) -> tuple | None:
        if len(given) != len(args) or not all(map(passes_as, given, args)):
            return None  # numba reports the call as not matching

        def codegen(context, builder, sig, values):
            values = [_passed_on(context, builder, v, t, a)
                      for v, t, a in zip(values, given, args, strict=True)]
            fnty = context.call_conv.get_function_type(restype, args)
            callee = builder.bitcast(_filled_slot(context, builder, late), fnty.as_pointer())
            status, out = context.call_conv.call_function(builder, callee, restype, args,
                                                          values)
            with cgutils.if_unlikely(builder, status.is_error):
                context.call_conv.return_status_propagate(builder, status)
            return out

        return signature(restype, *given), codegen

    # numba types an intrinsic by its parameter names: give the stub the kernel's.
    name = kernel.py_func.__name__
    params = ", ".join(inspect.signature(kernel.py_func).parameters)
    namespace = {"typer": typer}
    exec(f"def {name}(typingctx, {params}):\n    return typer({params})\n", namespace)
    return intrinsic(namespace[name])
