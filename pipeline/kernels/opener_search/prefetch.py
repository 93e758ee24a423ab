"""A cache hint for the opener search's kernels: start loading array[index] before it is read.

The second-guess search reads a few answer columns of many scattered guess rows of a
pattern matrix larger than the cache; each first read of a row waits on memory. Asking
for the next guesses' cells while the current ones are scored overlaps those waits
(about 15 % of the opener ranking on the real lists). A hint never changes a result.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def prefetch(typingctx, array, index):  # pragma: no cover - compiled
    """llvm.prefetch of the element array[index] of a 1-D array: read, keep in all
    cache levels."""
    if not isinstance(array, types.Array) or array.ndim != 1:
        return None
    if not isinstance(index, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        view = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, array_type, view, [args[1]])
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        hint = builder.module.declare_intrinsic(
            "llvm.prefetch",
            [byte_pointer],
            ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]),
        )
        # read (0), highest locality (3), data cache (1)
        builder.call(hint, [builder.bitcast(pointer, byte_pointer), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen
