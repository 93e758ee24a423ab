"""Lower bounds the search can infer for answer sets it never visited (after Selby).

When the full search of class C_p of a guess ends in a cut-off, the class is known to
cost at least `low` more guesses. Two facts turn that into bounds on unions of classes,
stored in the memo where sibling guesses will look them up (Selby's wordle.cpp does the
same in its exhaustive mode):
- monotonicity: with the same allowed guesses and guesses left, a superset of answers
  never costs less (restrict its tree), so every union U of C_p with the classes that
  differ from p only where p is grey costs >= low. A guess that differs from this one by a
  letter that tells nothing there (a known-absent letter) splits H into exactly such
  unions, so this cuts the long tail of useless guesses at once;
- superadditivity (normal mode): a tree for A u B is a tree for A and one for B, so the
  union of the classes that differ only at one position costs at least the sum of their
  bounds. Both hold under positive answer weights (weights: a subset's answers weigh
  what they weigh in the set).
"""

from __future__ import annotations

import numpy as np

from pipeline.kernels.jit import njit
from pipeline.kernels.optimal_search.context import INF, P_HARD, P_MAXG
from pipeline.kernels.optimal_search.memo import memo_hash, memo_store
from pipeline.kernels.optimal_search.weights import class_share


@njit(cache=True, nogil=True)
def _collect(ctx, depth, p, w1, w2) -> int:
    """Sorted union (into ctx.merged) of the classes p + a * w1 + b * w2 (a, b < 3)."""
    sizes, starts, part = ctx.cls_size[depth], ctx.cls_start[depth], ctx.part[depth]
    size = 0
    for a in range(3):
        for b in range(3 if w2 > 0 else 1):
            q = p + a * w1 + b * w2
            for j in range(sizes[q]):
                ctx.merged[size] = part[starts[q] + j]
                size += 1
    ctx.merged[:size].sort()
    return size


@njit(cache=True, nogil=True)
def _store(ctx, depth, size, low) -> None:
    """Record `low` as a lower bound of the set ctx.merged[:size] at depth + 1."""
    rem = ctx.params[P_MAXG] - depth - 1
    hard = ctx.params[P_HARD] != 0
    union = ctx.merged[:size]
    green, mins = ctx.green[depth + 1], ctx.mins[depth + 1]
    key = memo_hash(ctx.memo, rem, union, green, mins, hard)
    memo_store(
        ctx.memo, key, rem, union, green, mins, hard, min(low, INF), np.int64(INF), np.int64(-1)
    )


@njit(cache=True, nogil=True)
def infer_bounds(ctx, depth, p, low) -> None:
    """After class p at `depth` was proven to cost >= low more guesses (state of depth + 1
    still describes class p), store the implied bounds of unions of classes."""
    sizes, bound = ctx.cls_size[depth], ctx.cls_lb[depth]
    length = ctx.letters.shape[1]
    for i in range(length):
        w = 3**i
        digit = (p // w) % 3
        if digit == 0:
            size = _collect(ctx, depth, p, w, np.int64(0))
            if size > sizes[p]:
                _store(ctx, depth, size, low)
            for j in range(i + 1, length):
                if (p // 3**j) % 3 == 0:
                    size = _collect(ctx, depth, p, w, 3**j)
                    if size > sizes[p]:
                        _store(ctx, depth, size, low)
        if ctx.params[P_HARD] == 0:
            base = p - digit * w
            total = np.int64(0)
            parts = 0
            for a in range(3):
                q = base + a * w
                if sizes[q] > 0:  # the class's bound less its share of this guess
                    total += max(
                        bound[q] - class_share(ctx.params, ctx.cls_w[depth, q], sizes[q]), 0
                    )
                    parts += 1
            if parts >= 2:
                _store(ctx, depth, _collect(ctx, depth, base, w, np.int64(0)), total)
