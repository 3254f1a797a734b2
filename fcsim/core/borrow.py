"""Borrowed arrays: views that compiled code reads and writes without reference counting.

Every numba array carries a reference count, and compiled code changes it — an atomic
add — whenever it takes a view, reads an array out of a tuple or passes one to a
function it does not inline. A game state is a tuple of twelve views that every step
passes on, so counting would be most of a turn's time (about 1.4 µs of it with four
``random`` seats; ``scripts/bench_engine.py --against REF`` measures the engine side by
side with a commit REF). A *borrowed* view has no count to keep:
the same data, shape and strides, without the owner (``meminfo``) that is counted.

The one rule: **a borrowed view is only as good as a reference someone else holds.**
A kernel borrows its own arguments (its caller holds them until the call returns) or
views of them, uses the borrowed views within that call, and never returns one to
Python nor keeps one past the call.

In Python (and with ``NUMBA_DISABLE_JIT=1``) :func:`borrow` is the array itself.
"""

from __future__ import annotations

import numpy as np
from numba.core import cgutils
from numba.extending import intrinsic, overload


def borrow(array: np.ndarray) -> np.ndarray:
    """``array`` as a borrowed view in compiled code (see the module's rule); itself in
    Python."""
    return array


@intrinsic
def _without_owner(typingctx, array):
    """The array struct of ``array`` with no owner (``meminfo``) and no parent object."""

    def codegen(context, builder, signature, args):
        view = context.make_array(array)(context, builder, value=args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return array(array), codegen


@overload(borrow)
def _borrow_compiled(array):
    return lambda array: _without_owner(array)
