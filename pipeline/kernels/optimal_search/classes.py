"""The classes of a guess at a node of the optimal search: the partition of H by its
reply, each class's weight, Selby's static bound per class (pass 1 of a guess's
evaluation, see recursion), the floors of a cut-off root, the order of the classes, and
the hard-mode state of the class entered next.
"""

from __future__ import annotations

from pipeline.kernels.jit import njit
from pipeline.kernels.optimal_search.context import INF, P_ALLGREEN, P_HARD, P_MAXG, P_MAXPAT
from pipeline.kernels.optimal_search.hard_state import child_state
from pipeline.kernels.optimal_search.partition import sort_by_size, split_by_reply
from pipeline.kernels.optimal_search.scan import switched_on
from pipeline.kernels.optimal_search.selby import weighted_class_bound
from pipeline.kernels.optimal_search.tuning import F_CLASS_BOUNDS
from pipeline.kernels.optimal_search.weights import weigh_classes, weighted


@njit(cache=True, nogil=True)
def partition_at(ctx, depth, answers, guess) -> None:
    """Split H by the reply to `guess` into part[depth] and the class arrays of `depth`."""
    ctx.cls_n[depth] = split_by_reply(
        ctx.m[guess], answers, ctx.cls_size[depth], ctx.cls_start[depth], ctx.cls_list[depth],
        ctx.cls_n[depth], ctx.cnt, ctx.part[depth],
    )  # fmt: skip
    if weighted(ctx.params):
        weigh_classes(
            ctx.weights, ctx.part[depth], ctx.cls_size[depth], ctx.cls_start[depth],
            ctx.cls_list[depth], ctx.cls_n[depth], ctx.cls_w[depth], ctx.cls_wmax[depth],
        )  # fmt: skip


@njit(cache=True, nogil=True)
def static_bounds(ctx, depth):
    """Pass 1: a bound per class of the last partition at `depth`; (total, classes >= 3).

    selby.class_bound per class, under weights weighted_class_bound (or the class's
    weight, this guess, for c >= 3 with class_bounds off). Classes that cannot finish in
    the guesses left are INF.
    """
    sizes = ctx.cls_size[depth]
    classes = ctx.cls_list[depth]
    bound = ctx.cls_lb[depth]
    pending = ctx.cls_pend[depth]
    rem = ctx.params[P_MAXG] - depth - 1  # guesses left after this one
    max_replies = ctx.params[P_MAXPAT]
    bounded = switched_on(ctx, F_CLASS_BOUNDS)
    weighted_search = weighted(ctx.params)
    total = 0
    n_pending = 0
    for i in range(ctx.cls_n[depth]):
        p = classes[i]
        c = sizes[p]
        weight, heaviest = c, 1
        if weighted_search:
            weight, heaviest = ctx.cls_w[depth, p], ctx.cls_wmax[depth, p]
        if p == ctx.params[P_ALLGREEN]:
            b = weighted_class_bound(c, weight, heaviest, True, max_replies)
        elif rem <= 0 or (c >= 2 and rem <= 1):
            b = INF
        elif c <= 2:
            b = weighted_class_bound(c, weight, heaviest, False, max_replies)
        else:
            b = weighted_class_bound(c, weight, heaviest, False, max_replies) if bounded else weight
            pending[n_pending] = p
            n_pending += 1
        bound[p] = b
        total = min(total + b, INF)
    return total, n_pending


@njit(cache=True, nogil=True)
def raise_to_floors(ctx, depth) -> int:
    """Raise the class bounds of the partition at `depth` to ctx.floors; their total."""
    bound = ctx.cls_lb[depth]
    total = 0
    for i in range(ctx.cls_n[depth]):
        p = ctx.cls_list[depth, i]
        bound[p] = max(bound[p], ctx.floors[p])
        total = min(total + bound[p], INF)
    return total


@njit(cache=True, nogil=True)
def largest_first(classes, count, sizes) -> None:
    """Order classes[:count] by size, largest first (ties: higher pattern id first)."""
    sort_by_size(classes, count, sizes)
    for i in range(count // 2):
        classes[i], classes[count - 1 - i] = classes[count - 1 - i], classes[i]


@njit(cache=True, nogil=True)
def enter_class(ctx, depth, guess, p) -> None:
    """Make depth + 1 describe the class p of `guess`: its hard-mode state."""
    if ctx.params[P_HARD] != 0:
        child_state(ctx.green, ctx.mins, depth, ctx.letters, ctx.digits, guess, p)
