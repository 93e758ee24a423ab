"""Lower bounds on the total of every opener, so that only a few need a full proof.

An opener splits the answers into buckets by its reply; every answer takes the opener,
so a tree's total is n plus the values of the buckets that are not all green, each after
one guess. Two admissible bounds of it (selby: Alex Selby's guess and class bounds):
- partition bound: a bucket of c answers costs at least selby.class_bound guesses, the
  opener included (2, 5 or 3c - 1 for c = 1, 2, >= 3, plus c - P where no guess gets
  more than P replies): `classes.static_bounds` at the root;
- second-level bound: per bucket, the least over every second guess it allows (hard
  mode's rule applied, guesses that split it alike counted once) of the guess bound,
  raised by one for each of the guess's classes of three or more answers that no
  candidate of theirs splits into singletons (such a class costs at least 2c, not
  2c - 1); a shortcut that settles the bucket gives its exact value instead.
Buckets are bounded smallest first and an opener stops as soon as its bound reaches the
cap (the value below which openers must be proven), so most cost a few milliseconds; a
guess is dropped as soon as its answers collide so often that it cannot beat the best so
far. INF: some bucket cannot be finished in the guesses left, so no tree fits.
- third level (deepen, for the openers still below the cap): largest bucket first, the
  least over its second guesses of the guess's own second-level bound, one level down;
  only the guesses whose refined guess bound is lowest are split (that of the first one
  left out caps the result), so the cost stays bounded. Whether an opener is deepened
  depends on its own bound alone, never on the other openers of its job.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from pipeline.core.wordle import MAX_GUESSES
from pipeline.kernels.jit import njit
from pipeline.kernels.optimal_search.classes import enter_class, partition_at, static_bounds
from pipeline.kernels.optimal_search.context import (
    ID_BITS,
    ID_MASK,
    INF,
    P_ALLGREEN,
    P_MAXG,
    P_MAXPAT,
    P_ROOT,
)
from pipeline.kernels.optimal_search.inputs import search_context
from pipeline.kernels.optimal_search.partition import (
    candidate_split,
    class_stats,
    gather_replies,
    sort_by_size,
)
from pipeline.kernels.optimal_search.scan import node_allowed, trivial_value, weigh_guesses
from pipeline.kernels.optimal_search.selby import guess_bound
from pipeline.kernels.optimal_search.tuning import DEFAULT_OFF, REPLY_BLOCK
from pipeline.kernels.optimal_search.weights import class_share, node_total, weighted
from pipeline.kernels.threads import take_in_threads, thread_count


@njit(cache=True, nogil=True)
def _unsplit_classes(ctx, depth, answers, guess, enough) -> int:
    """How many classes of `guess` with 3 or more answers no candidate of theirs splits
    into singletons (each costs one more than the guess bound says), up to `enough`."""
    partition_at(ctx, depth, answers, guess)
    extra = 0
    for i in range(ctx.cls_n[depth]):
        p = ctx.cls_list[depth, i]
        c = ctx.cls_size[depth, p]
        if c < 3:
            continue
        start = ctx.cls_start[depth, p]
        members = ctx.part[depth, start : start + c]
        value, _ = candidate_split(ctx.m, ctx.answer_rows, members, ctx.cnt, 2)
        if value < 0:
            extra += 1
            if extra >= enough:
                break
    return extra


@njit(cache=True, nogil=True)
def _scan_guesses(ctx, depth, answers, best, most_collisions, refine, keys):
    """(best, count) of one pass over the guesses allowed at a node at `depth`, in order,
    with replies gathered REPLY_BLOCK guesses at a time. A guess is dropped once more than
    min(most_collisions, best - 2n) of its answers collide (it cannot get below best).
    refine (_bucket_floor): best falls to each guess bound below it, refined by
    _unsplit_classes, and the pass stops at 2n (a split into singletons). Else best stays
    and keys[:count] gets (guess bound << ID_BITS | row) of each guess whose bound is
    below it (_lowest_guesses). One loop for both: a call per guess costs more than the
    guess (measured: bounds 25 % slower with a per-guess helper, even inlined)."""
    n = answers.shape[0]
    allowed = node_allowed(ctx, depth, answers)
    count = 0
    for i in range(allowed.shape[0]):
        if i % REPLY_BLOCK == 0:
            gather_replies(ctx.mt, answers, allowed[i : i + REPLY_BLOCK], ctx.replies)
        at = (i % REPLY_BLOCK) * n
        limit = min(most_collisions, best - 2 * n)
        k, _, hit = class_stats(ctx.replies[at : at + n], ctx.cnt, ctx.params[P_ALLGREEN],
                                limit)  # fmt: skip
        if k < 0:
            continue
        bound = guess_bound(n, k, hit)
        if not refine:
            if bound < best:
                keys[count] = (bound << ID_BITS) | allowed[i]
                count += 1
            continue
        if bound < best:
            bound += _unsplit_classes(ctx, depth, answers, allowed[i], best - bound)
        best = min(best, bound)
        if best <= 2 * n:  # a split into singletons: no candidate does better (checked)
            break
    return best, count


@njit(cache=True, nogil=True)
def _weighted_bucket_floor(ctx, depth, answers) -> int:
    """_bucket_floor under answer weights: the least weighted guess bound of any guess
    (selby.guess_bound), unrefined and exact. The uniform refinements count answers (a
    split into singletons costs 2n - 1 only for the guess that is in H, any one of them;
    under weights only the heaviest reaches the floor 2W - heaviest), so none applies."""
    n = answers.shape[0]
    rem = ctx.params[P_MAXG] - depth
    total, heaviest = node_total(ctx.params, ctx.weights, answers)
    value = trivial_value(n, total, heaviest, rem, INF, False)
    if value >= 0:
        return value
    allowed = node_allowed(ctx, depth, answers)
    weigh_guesses(ctx, answers, allowed, total)
    least = 2 * total - heaviest  # no guess does better (guess_bound with K <= W)
    best = INF
    for i in range(allowed.shape[0]):
        k, bound = ctx.guess_stats[0, i], ctx.guess_stats[3, i]
        if rem <= 2 and k < n:  # with two guesses left only a split into singletons wins
            continue
        best = min(best, bound)
        if best <= least:
            break
    return best


@njit(cache=True, nogil=True)
def _bucket_floor(ctx, depth, answers, beta) -> int:
    """A lower bound of the value of a node at `depth` (1: a bucket of the opener): the
    least guess bound, refined, of any guess; exact below beta, else some bound >= beta."""
    if weighted(ctx.params):
        return _weighted_bucket_floor(ctx, depth, answers)
    n = answers.shape[0]
    rem = ctx.params[P_MAXG] - depth
    value = trivial_value(n, n, 1, rem, INF, False)
    if value >= 0:
        return value
    value, _ = candidate_split(ctx.m, ctx.answer_rows, answers, ctx.cnt, rem)
    if value >= 0:
        return value  # 2n - 1 or 2n: exact, no guess bound is lower
    # with two guesses left only a split into singletons wins (no candidate makes one)
    most_collisions = 0 if rem <= 2 else n
    keys = ctx.keys[depth]  # not written with refine
    best, _ = _scan_guesses(ctx, depth, answers, max(beta, 2 * n), most_collisions, True, keys)
    return best if rem > 2 or best < max(beta, 2 * n) else INF


@njit(cache=True, nogil=True)
def _split_floor(ctx, depth, answers, guess, cap) -> tuple[int, int]:
    """(partition bound, second-level bound) of playing `guess` at a node at `depth`; the
    second is exact below `cap`, else some bound >= cap (classes are bounded smallest
    first, and it stops as soon as their sum reaches cap). Leaves the classes and their
    bounds in the context's arrays of `depth` (deepen reads the opener's)."""
    partition_at(ctx, depth, answers, guess)
    sizes, starts, part = ctx.cls_size[depth], ctx.cls_start[depth], ctx.part[depth]
    bound, pending = ctx.cls_lb[depth], ctx.cls_pend[depth]
    first, n_pending = static_bounds(ctx, depth)
    sort_by_size(pending, n_pending, sizes)
    total = first
    for i in range(n_pending):
        if total >= cap:
            break
        p = pending[i]
        c = sizes[p]
        weight = class_share(ctx.params, ctx.cls_w[depth, p], c)
        total -= bound[p]
        enter_class(ctx, depth, guess, p)
        child = part[starts[p] : starts[p] + c]
        floor = _bucket_floor(ctx, depth + 1, child, cap - total - weight)
        bound[p] = max(bound[p], min(weight + floor, INF))
        total = min(total + bound[p], INF)
    return first, total


@njit(cache=True, nogil=True)
def opener_floor(ctx, opener, cap) -> tuple[int, int]:
    """(partition bound, second-level bound) of one opener row; the second is exact below
    `cap`, else some bound >= cap. INF: no tree fits in the guesses allowed."""
    n_answers = ctx.m.shape[1]
    ctx.params[P_ROOT] = 0
    answers = ctx.part[ctx.part.shape[0] - 1, :n_answers]
    answers[:] = np.arange(n_answers)
    return _split_floor(ctx, 0, answers, opener, cap)


@njit(cache=True, nogil=True)
def _lowest_guesses(ctx, answers, beta, most):
    """(count, cap): ctx.lbs[1][:count] holds, sorted, keys (refined guess bound << ID_BITS
    | row) of at most `most` guesses of the bucket whose refined bound is below cap; every
    other guess has a refined bound of at least cap (<= beta). Guesses are refined in the
    order of their plain guess bound, and only while one could still be among the lowest."""
    plain, kept = ctx.keys[1], ctx.lbs[1]
    limit = beta - 2 * answers.shape[0]
    _, count = _scan_guesses(ctx, 1, answers, beta, limit, False, plain)
    plain[:count].sort()
    cap = beta
    n_kept = 0
    for i in range(count):
        bound = plain[i] >> ID_BITS
        if bound >= cap:
            break
        guess = plain[i] & ID_MASK
        bound += _unsplit_classes(ctx, 1, answers, guess, cap - bound)
        if bound < cap:
            kept[n_kept] = (bound << ID_BITS) | guess
            n_kept += 1
        if n_kept > most:  # keep the lowest `most`; the next one's bound caps the rest
            kept[:n_kept].sort()
            n_kept = most
            cap = kept[most] >> ID_BITS
    kept[:n_kept].sort()
    return n_kept, cap


@njit(cache=True, nogil=True)
def _deep_floor(ctx, answers, known, beta, most) -> int:
    """A third-level lower bound of a bucket's value, whose second-level floor is `known`:
    the least over its second guesses of the guess's own split floor (`_split_floor` one
    level down), each at least its guess bound, refined. Only the `most` guesses of lowest
    such bound are split (_lowest_guesses); the others' bounds cap the result."""
    n = answers.shape[0]
    if known >= beta or known <= 2 * n or ctx.params[P_MAXG] - 1 <= 2:
        return known  # settled (a shortcut or two guesses left: exact), or enough
    count, best = _lowest_guesses(ctx, answers, beta, most)
    keys = ctx.lbs[1]
    for i in range(count):
        if keys[i] >> ID_BITS >= best:
            break
        _, deeper = _split_floor(ctx, 1, answers, keys[i] & ID_MASK, best)
        best = min(best, max(deeper, keys[i] >> ID_BITS))
    return max(best, known)


@njit(cache=True, nogil=True)
def deepen(ctx, opener, cap, total, most) -> int:
    """Raise the second-level bound `total` (< cap) of the opener opener_floor has just
    bounded with `cap` one level, bucket by bucket from the largest, until it reaches cap:
    a bucket's floor becomes its `_deep_floor` (at most `most` second guesses split).
    Exact below cap no more: a lower bound, at least the second-level one."""
    sizes, starts, part = ctx.cls_size[0], ctx.cls_start[0], ctx.part[0]
    bound, pending = ctx.cls_lb[0], ctx.cls_pend[0]
    n_pending = 0  # the classes of 3 or more answers, sorted by size in pending
    for i in range(ctx.cls_n[0]):
        n_pending += sizes[ctx.cls_list[0, i]] >= 3
    for i in range(n_pending - 1, -1, -1):
        if total >= cap:
            break
        p = pending[i]
        c = sizes[p]
        total -= bound[p]
        enter_class(ctx, 0, opener, p)
        child = part[starts[p] : starts[p] + c]
        floor = _deep_floor(ctx, child, bound[p] - c, cap - total - c, most)
        bound[p] = max(bound[p], min(c + floor, INF))
        total = min(total + bound[p], INF)
    return total


def opener_bounds(
    matrix: np.ndarray,
    answer_rows: np.ndarray,
    encoded: np.ndarray,
    openers: np.ndarray,
    *,
    hard: bool,
    max_guesses: int = MAX_GUESSES,
    cap: int | None = None,
    on_done: Callable[[int], None] | None = None,
    on_bound: Callable[[int, int, int], None] | None = None,
    deeper: int = 0,
    threads: int = 1,
    weights: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(partition, second-level) lower bounds of the total of each opener row, INF where
    no tree can win every answer within max_guesses; the second is exact below cap (None:
    everywhere), else some bound >= cap. Inputs as for solve.solve_opener. on_done(1) is
    called after each opener (a job's progress; the kernel itself reports nothing), and
    on_bound(opener row, partition, second) before it (a job's resume log), from the
    thread that bounded it.
    deeper > 0 (with a cap): a second bound below cap is raised a level, splitting at most
    `deeper` second guesses per bucket (see deepen), so that fewer need a search.
    `threads` threads take the next opener as they finish one, each in a context of its
    own: an opener's bounds depend on it alone, so they never depend on the thread count.
    weights (positive integers, one per answer column): bounds of the weighted total,
    Selby's bounds in their weighted forms; `deeper` is uniform only, for now."""
    # every mechanism on (DEFAULT_OFF's too), as the bounds always were; under weights
    # search_context switches UNWEIGHTED's off and refuses `deeper`
    search = {"hard": hard, "max_guesses": max_guesses, "cutoff": cap, "on": DEFAULT_OFF}
    search |= {"weights": weights, "deeper": deeper}
    first = search_context(matrix, answer_rows, encoded, **search)
    matrix = first.m
    openers = np.asarray(openers, dtype=np.int64)
    inside = not openers.size or 0 <= openers.min() <= openers.max() < len(matrix)
    if openers.ndim != 1 or not inside:
        raise ValueError(f"openers must be word rows in 0..{len(matrix) - 1}")
    workers = thread_count(threads, len(openers), len(openers), 1)
    limit = INF if cap is None else int(cap)
    partition = np.zeros(len(openers), dtype=np.int64)
    second = np.zeros(len(openers), dtype=np.int64)

    def bound_opener(ctx, i: int) -> None:
        partition[i], second[i] = opener_floor(ctx, openers[i], limit)
        if deeper > 0 and second[i] < limit < INF:
            second[i] = deepen(ctx, openers[i], limit, second[i], deeper)
        if on_bound is not None:
            on_bound(int(openers[i]), int(partition[i]), int(second[i]))
        if on_done is not None:
            on_done(1)

    most = int(first.params[P_MAXPAT])
    contexts = [first] + [
        search_context(matrix, answer_rows, encoded, **search, most=most)
        for _ in range(workers - 1)
    ]
    take_in_threads(bound_opener, len(openers), contexts)
    return partition, second
