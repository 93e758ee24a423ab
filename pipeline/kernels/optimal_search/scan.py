"""A node's first look at its guesses, for the optimal search (see recursion).

Which guesses a node scores (hard mode's filter, then one guess per group that splits
its answers alike), the values settled before any guess is looked at, and the one scan
that scores every guess once: its bound, the shortcuts, and the order to try them in.
"""

from __future__ import annotations

import numpy as np

from pipeline.kernels.jit import njit
from pipeline.kernels.optimal_search.context import (
    ID_BITS,
    INF,
    P_ALLGREEN,
    P_EXACT,
    P_FLAGS,
    P_HARD,
    P_MAXG,
    P_ROOT,
    P_TOPK,
    S_SCANNED,
    S_SCANS,
)
from pipeline.kernels.optimal_search.endgame import family_members, largest_family, spread
from pipeline.kernels.optimal_search.hard_state import filter_allowed
from pipeline.kernels.optimal_search.partition import (
    class_stats,
    distinct_guesses,
    gather_replies,
    weighted_class_stats,
)
from pipeline.kernels.optimal_search.selby import guess_bound, weighted_guess_bound
from pipeline.kernels.optimal_search.tuning import (
    F_COLLISIONS,
    F_DISTINCT,
    F_ENDGAME,
    F_ENDGAME_SEARCH,
    F_GUESS_BOUND,
    F_ONE_CLASS,
    F_ORDER,
    F_SHORTCUTS,
    REPLY_BLOCK,
)
from pipeline.kernels.optimal_search.weights import node_total, weighted


# Inlined: numba types each flag constant a caller passes as a literal of its own, so a
# called function would be compiled (and cached) once per flag and per context type.
@njit(cache=True, nogil=True, inline="always")
def switched_on(ctx, flag) -> bool:
    """Whether the pruning mechanism `flag` (a tuning.F_* bit) is switched on."""
    return (ctx.params[P_FLAGS] & flag) != 0


@njit(cache=True, nogil=True)
def trivial_value(n: int, total: int, heaviest: int, rem: int, beta: int, bounded: bool) -> int:
    """Value (or a bound >= beta) settled without looking at any guess, else -1.

    n answers of weight `total`, the heaviest `heaviest` (uniform: n and 1): each takes a
    guess and all but one at least two, 2 total - heaviest (2n - 1), which is exact for
    two answers (the heavier guessed first: 3 uniform); one answer takes one guess."""
    if rem <= 0:
        return INF
    least = 2 * total - heaviest
    if bounded and least >= beta:
        return least
    if n == 1:
        return total
    if rem <= 1:
        return INF
    if n == 2:
        return least
    return -1


@njit(cache=True, nogil=True)
def weighted_stats(replies, answers, weights, cnt, heaviest, all_green, total):
    """(k, sum of c^2, hit, weighted_guess_bound) of one guess from its replies to H of weight
    `total`, under weights. Plain arrays: numba passes a context by value."""
    k, s2, hit_weight, heaviest_sum = weighted_class_stats(
        replies, answers, weights, cnt, heaviest, all_green
    )
    return k, s2, int(hit_weight > 0), weighted_guess_bound(total, heaviest_sum, hit_weight)


@njit(cache=True, nogil=True)
def weigh_guesses(ctx, answers, allowed, total) -> None:
    """Under weights, ctx.guess_stats[:, i] = weighted_stats of allowed[i], before a scan.

    A pass of its own, not a branch of the scans' loops: a weighted call in those loops,
    even one never taken, slows the uniform search's hottest loop by about a tenth."""
    n = answers.shape[0]
    out = ctx.guess_stats
    for i in range(allowed.shape[0]):
        if i % REPLY_BLOCK == 0:
            gather_replies(ctx.mt, answers, allowed[i : i + REPLY_BLOCK], ctx.replies)
        at = (i % REPLY_BLOCK) * n
        k, s2, hit, lb = weighted_stats(
            ctx.replies[at : at + n], answers, ctx.weights, ctx.cnt, ctx.heaviest,
            ctx.params[P_ALLGREEN], total,
        )  # fmt: skip
        out[0, i], out[1, i], out[2, i], out[3, i] = k, s2, hit, lb


@njit(cache=True, nogil=True)
def scan_guesses(ctx, depth, answers, allowed, beta):
    """Score every allowed guess once: (status, value, count, low_skipped).

    status 1: the node is settled, value exact (best guess in ctx.best[depth]).
    status 0: value is a lower bound of the node, and keys[depth, :count] holds the guesses
    to try, sorted; low_skipped bounds the guesses left out because lb >= beta. At a node
    top_k applies to, every guess that splits H is kept (the search takes the first).
    """
    n = answers.shape[0]
    all_green, weighted_search = ctx.params[P_ALLGREEN], weighted(ctx.params)
    total = node_total(ctx.params, ctx.weights, answers)[0]
    top_k = ctx.params[P_TOPK] if n > ctx.params[P_EXACT] else 0
    keys = ctx.keys[depth]
    lbs = ctx.lbs[depth]
    lb_min = INF
    ub = INF
    good = -1
    count = 0
    low_skipped = INF
    ctx.stats[S_SCANS] += 1
    ctx.stats[S_SCANNED] += n * allowed.shape[0]
    bounded, shortcuts, ordered = (
        switched_on(ctx, F_GUESS_BOUND),
        switched_on(ctx, F_SHORTCUTS),
        switched_on(ctx, F_ORDER),
    )
    skip_one_class = switched_on(ctx, F_ONE_CLASS)
    two_left = shortcuts and ctx.params[P_MAXG] - depth <= 2
    # lb = 3n - k - hit < beta needs k >= 3n - beta; with two guesses left only singletons do
    max_collisions = beta - 2 * n if top_k == 0 and switched_on(ctx, F_COLLISIONS) else n
    if two_left:
        max_collisions = 0
    block = REPLY_BLOCK
    if weighted_search:
        weigh_guesses(ctx, answers, allowed, total)
    weighed = ctx.guess_stats
    for i in range(allowed.shape[0]):
        guess = allowed[i]
        if weighted_search:
            k, s2, hit, lb = weighed[0, i], weighed[1, i], weighed[2, i], weighed[3, i]
        else:  # the search's hottest lines
            if i % block == 0:
                gather_replies(ctx.mt, answers, allowed[i : i + block], ctx.replies)
            at = (i % block) * n
            k, s2, hit = class_stats(ctx.replies[at : at + n], ctx.cnt, all_green, max_collisions)
            lb = guess_bound(n, k, hit)
        if k < 0:  # lb >= beta
            lb_min = min(lb_min, beta)
            low_skipped = min(low_skipped, beta)
            continue
        if shortcuts and k == n and hit == 0:  # singletons; no candidate does (checked before)
            ctx.best[depth] = guess
            return 1, 2 * n, 0, INF
        lb_min = min(lb_min, lb)
        if s2 == 3 * n - 2 * k and lb < ub:  # all classes <= 2: lb is exact
            ub = lb
            good = guess
        if skip_one_class and k == 1:  # one class: wastes a guess
            continue
        if bounded and top_k == 0 and lb >= beta:
            low_skipped = min(low_skipped, lb)
            continue
        lbs[guess] = lb
        keys[count] = ((2 * s2 + n * lb) << ID_BITS) | guess if ordered else guess
        count += 1
    if two_left:  # no singleton split, so three guesses are needed
        return 1, INF, 0, INF
    if shortcuts and good >= 0 and ub == lb_min:
        ctx.best[depth] = good
        return 1, ub, 0, INF
    keys[:count].sort()
    return 0, lb_min, count, low_skipped


@njit(cache=True, nogil=True)
def endgame_check(ctx, depth, answers, allowed):
    """(cut, live) of the node's largest family (endgame): cut, the node is INF; live > 0,
    the family's members, ctx.live[depth, :live], are to be searched alone first
    (endgame_search: fewer than n of them, and a margin S - (mx - 1) below rem - 1)."""
    n = answers.shape[0]
    r = ctx.params[P_MAXG] - depth - 1
    static = switched_on(ctx, F_ENDGAME)
    if r < 2 or (not static and not switched_on(ctx, F_ENDGAME_SEARCH)):
        return False, 0  # r = 1: the scan's own test (a split into singletons) is cheaper
    family, mx = largest_family(ctx.families, ctx.family_counts, answers)
    if mx - 1 <= r:  # Selby's condition: a family no larger than that is rarely cut
        return False, 0
    policy = ctx.params[P_TOPK] > 0 and n > ctx.params[P_EXACT]
    searched = switched_on(ctx, F_ENDGAME_SEARCH) and mx < n and not policy
    if not static and not searched:
        return False, 0
    live = answers
    if mx < n:
        live = ctx.live[depth, :mx]
        family_members(ctx.families, answers, family, live)
    enough = mx - 1 + r if searched else mx - 1
    total = spread(ctx.m, allowed, live, r, enough, ctx.cnt, ctx.top)
    if static and total < mx - 1:
        return True, 0
    return False, mx if searched and total < mx - 1 + r else 0


@njit(cache=True, nogil=True)
def node_allowed(ctx, depth, answers):
    """The guesses worth scoring at this node, derived from the parent's on demand: in hard
    mode those that obey the last reply; then one guess per group that splits H alike."""
    if depth > ctx.params[P_ROOT]:
        source = ctx.allowed[depth - 1, : ctx.n_allowed[depth - 1]]
        out = ctx.allowed[depth]
        if ctx.params[P_HARD] != 0:  # the state of this node, set when its class was entered
            kept = filter_allowed(source, ctx.packed, ctx.green[depth], ctx.mins[depth], out)
            source = out[:kept]
        if not switched_on(ctx, F_DISTINCT):
            out[: source.shape[0]] = source
            ctx.n_allowed[depth] = source.shape[0]
            return ctx.allowed[depth, : ctx.n_allowed[depth]]
        present = np.int64(0)
        for h in answers:
            present |= ctx.answer_letters[h]
        ctx.seen_generation[0] += 1
        ctx.n_allowed[depth] = distinct_guesses(
            source, ctx.letters, present, ctx.seen, ctx.seen_generation[0], out
        )
    return ctx.allowed[depth, : ctx.n_allowed[depth]]


@njit(cache=True, nogil=True)
def order_keys(ctx, depth, answers, allowed):
    """The ordering key of every allowed guess that splits H (scan_guesses' order, in
    which top_k picks a node's first guesses): (2 * sum c^2 + n * lb) << ID_BITS | row."""
    n = answers.shape[0]
    all_green, weighted_search = ctx.params[P_ALLGREEN], weighted(ctx.params)
    total = node_total(ctx.params, ctx.weights, answers)[0]
    keys = np.empty(allowed.shape[0], dtype=np.int64)
    count = 0
    if weighted_search:
        weigh_guesses(ctx, answers, allowed, total)
    weighed = ctx.guess_stats
    for i in range(allowed.shape[0]):
        if weighted_search:
            k, s2, lb = weighed[0, i], weighed[1, i], weighed[3, i]
        else:
            if i % REPLY_BLOCK == 0:
                gather_replies(ctx.mt, answers, allowed[i : i + REPLY_BLOCK], ctx.replies)
            at = (i % REPLY_BLOCK) * n
            k, s2, hit = class_stats(ctx.replies[at : at + n], ctx.cnt, all_green, n)
            lb = guess_bound(n, k, hit)
        if k == 1 and n > 1 and switched_on(ctx, F_ONE_CLASS):
            continue
        keys[count] = ((2 * s2 + n * lb) << ID_BITS) | allowed[i]
        count += 1
    return keys[:count]
