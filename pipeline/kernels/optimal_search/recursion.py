"""The numba kernel of the exhaustive optimal decision-tree search (normal and hard mode).

A node is a set H of n possible answers (sorted column ids) with d guesses already made.
Its value is the minimum, over decision trees of depth <= max_guesses - d, of the total
number of guesses over H (the winning guess counts); INF when no tree fits. The search is
a depth-first min-total search with beta cut-offs: a call with bound beta returns the exact
value when it is below beta, otherwise some lower bound that is >= beta.

Design after Alex Selby's wordle.cpp (github.com/alex1770/wordle, MIT licence): the same
bound, shortcuts and three-pass evaluation of a guess, written afresh for numba:
- per guess, lb = n + sum over non-final classes (2c - 1) = 3n - k - [guess in H] with k
  the number of classes: each class of c answers needs c more guesses, all but one of
  them at least two; all classes of size <= 2 make lb exact;
- shortcuts: n = 1 -> 1, n = 2 -> 3, a candidate (possible answer) splitting H into
  singletons -> 2n - 1, into singletons and one pair -> 2n, any other guess splitting into
  singletons -> 2n; with two guesses left nothing else can win;
- guesses are tried in order of 2 * sum c^2 + n * lb (Selby's heuristic), ties by word id;
  a guess whose lb reaches beta is skipped, and one that splits nothing (one class) never
  helps (it costs n guesses and only shrinks what hard mode allows);
- a guess is scored in three passes over its classes: static bounds (cut as soon as the
  total reaches beta), then cheap exact values (memo, candidate shortcuts), then full
  searches of the remaining classes, smallest first;
- solved nodes and proven lower bounds go to an exact memo (memo), and a cut-off
  also bounds unions of classes that sibling guesses produce (infer);
- before its scan, a node whose largest one-position family the guesses left cannot
  split is INF (endgame: the cut-off at the top of Selby's minoverwords_givenlist), and
  with endgame_search the family is first searched alone where its margin is small.
Under a cutoff the opener's own node (solve.solve_one) starts its classes from their
second-level bounds (ctx.floors, bounds.opener_floor), far above pass 1's: the cutoff then
reaches each class's search as a tight beta, so a refuted opener costs only enough of the
gap between its classes' values and floors to pass it. There the classes are searched
in widening windows: each first only up to its floor + 1, then + 2, 4, ... (the memo
keeps what a narrower pass proved), so a class whose gap is large but costly to prove
exactly is not searched to its value while cheaper classes can pass the cutoff. In
normal mode largest first (its gap sits mostly in the largest classes), in hard mode
smallest first (the gap is spread over many classes, and large ones cost far more).
Not in Selby's program: a scan abandons a guess once its answers collide so often that
its lb reaches beta; a node scans one guess per group that splits it alike (letters absent
from H are interchangeable); the hard-mode memo keys on the constraint state (greens and
minimum letter counts), not the allowed words, so lookups need no filtering.
top_k > 0 makes the search a policy's (at nodes of more than params[P_EXACT] answers):
the node plays the best of the first top_k guesses of that order (after the shortcuts),
each valued exactly, without cut-offs, and only when none of them wins every answer in
time the first of the next ones that does. The value of a real tree, an upper bound, not
a proof; but a function of the node alone (what a player who plays the policy from there
gets), and INF exactly when no tree wins in time: by induction from the nodes searched in
full, a policy node finds a winning guess whenever one exists. Each pruning can be switched
off (the flags of params[P_FLAGS]; tuning names them all and says when each applies).

Under answer weights (weights; issue 61's prior) a node's value is the least sum of
weight x guesses: every count above that stands for a share of a guess is read as a
weight (a class of c answers pays its weight for this guess), Selby's bounds take their
weighted forms (selby), and the prunings that count answers are off (tuning.UNWEIGHTED).

Numba caches self- but not mutual recursion (numba issue #6061: segfault on reload), so
node search and guess evaluation share one function. Per-depth buffers (context)
replace every allocation; a node's one scan of its guesses is in scan, a guess's
classes (partition, static bounds, order) in classes, the innermost loops are the
array helpers of partition.
"""

from __future__ import annotations

import numpy as np

from pipeline.kernels.jit import njit
from pipeline.kernels.optimal_search.classes import (
    enter_class,
    largest_first,
    partition_at,
    raise_to_floors,
    static_bounds,
)
from pipeline.kernels.optimal_search.context import (
    ID_MASK,
    INF,
    P_ALLGREEN,
    P_EXACT,
    P_FLOORED,
    P_HARD,
    P_MAXG,
    P_ROOT,
    P_TOPK,
    S_EVALS,
    S_NODES,
)
from pipeline.kernels.optimal_search.infer import infer_bounds
from pipeline.kernels.optimal_search.memo import memo_find, memo_hash, memo_store
from pipeline.kernels.optimal_search.partition import (
    candidate_split,
    class_stats,
    gather_replies,
    sort_by_size,
)
from pipeline.kernels.optimal_search.scan import (
    endgame_check,
    node_allowed,
    scan_guesses,
    switched_on,
    trivial_value,
    weighted_stats,
)
from pipeline.kernels.optimal_search.selby import guess_bound
from pipeline.kernels.optimal_search.tuning import (
    F_CHEAP_PASS,
    F_GUESS_BOUND,
    F_INFERRED,
    F_MEMO,
    F_SHORTCUTS,
    F_SMALLEST_FIRST,
)
from pipeline.kernels.optimal_search.weights import (
    class_share,
    heaviest_answer,
    node_total,
    weighted,
)


@njit(cache=True, nogil=True)
def _remember(ctx, depth, answers, key, low, high, best) -> None:
    """Store bounds of this node in the memo (nodes with n >= 3 and >= 2 guesses left)."""
    if not switched_on(ctx, F_MEMO):
        return
    rem = ctx.params[P_MAXG] - depth
    hard = ctx.params[P_HARD] != 0
    memo_store(
        ctx.memo, key, rem, answers, ctx.green[depth], ctx.mins[depth], hard, low, high, best
    )


@njit(cache=True, nogil=True)
def _recall(ctx, depth, answers):
    """(hash key, memo slot or -1) of this node."""
    if not switched_on(ctx, F_MEMO | F_INFERRED):
        return np.uint64(0), -1
    rem = ctx.params[P_MAXG] - depth
    hard = ctx.params[P_HARD] != 0
    key = memo_hash(ctx.memo, rem, answers, ctx.green[depth], ctx.mins[depth], hard)
    return key, memo_find(ctx.memo, key, rem, answers, ctx.green[depth], ctx.mins[depth], hard)


@njit(cache=True, nogil=True)
def _prologue(ctx, depth, answers, beta, fast):
    """A node's cheap part: (done, value, memo key, known lower bound).

    done: value is the answer of search() (trivial sizes, memo, candidate shortcuts, or
    fast mode); otherwise the node needs its full scan.
    """
    n = answers.shape[0]
    rem = ctx.params[P_MAXG] - depth
    total, heaviest = node_total(ctx.params, ctx.weights, answers)
    value = trivial_value(n, total, heaviest, rem, beta, switched_on(ctx, F_GUESS_BOUND))
    if value >= 0:
        if n <= 2:
            ctx.best[depth] = heaviest_answer(ctx.params, ctx.answer_rows, ctx.weights, answers)
        return True, value, np.uint64(0), 0
    key, slot = _recall(ctx, depth, answers)
    known = 0
    if slot >= 0:
        known = ctx.memo.lows[slot]
        if known == ctx.memo.highs[slot] or known >= beta:
            ctx.best[depth] = ctx.memo.bests[slot]
            return True, known, key, known
    shortcuts = switched_on(ctx, F_SHORTCUTS)
    if shortcuts:
        value, best = candidate_split(ctx.m, ctx.answer_rows, answers, ctx.cnt, rem)
        if value >= 0:
            _remember(ctx, depth, answers, key, value, value, best)
            ctx.best[depth] = best
            return True, value, key, known
    if fast == 2:  # no candidate splits H into singletons: 2n (else 2n - 1); weighted
        # (shortcuts off, tuning.UNWEIGHTED): 2 total - heaviest
        return True, -1 - max(2 * total - heaviest + shortcuts, known), key, known
    return False, 0, key, known


@njit(cache=True, nogil=True)
def search(ctx, depth, answers, beta, fast, guess) -> int:
    """Value of the node (guess < 0) or of playing `guess` there; exact when below beta.

    fast = 2 (pass 2 of a guess): only the trivial cases, memo and candidate shortcuts, else
    -1 - (a lower bound); fast = 0: everything. Long because numba caches self- but not
    mutual recursion. Recursive calls pass np.int64 values, never int literals: a literal
    makes numba compile another signature, and several signatures of a recursive function
    crash on cache reload.
    """
    if guess >= 0:
        ctx.stats[S_EVALS] += 1
        floored = depth == 0 and guess == ctx.params[P_FLOORED]
        if not floored:  # a floored root's partition is opener_floor's, left in place
            partition_at(ctx, depth, answers, guess)
        total, n_pending = static_bounds(ctx, depth)
        if floored:
            total = raise_to_floors(ctx, depth)
        if total >= beta:
            return total
        sizes, starts = ctx.cls_size[depth], ctx.cls_start[depth]
        bound, pending, part = ctx.cls_lb[depth], ctx.cls_pend[depth], ctx.part[depth]
        cheap = switched_on(ctx, F_CHEAP_PASS)
        still = np.int64(0) if cheap else n_pending
        for i in range(n_pending if cheap else 0):  # pass 2: cheap exact values and bounds
            p = pending[i]
            c = sizes[p]
            weight = class_share(ctx.params, ctx.cls_w[depth, p], c)
            enter_class(ctx, depth, guess, p)
            total -= bound[p]
            child = part[starts[p] : starts[p] + c]
            o = search(ctx, depth + 1, child, beta - total - weight, np.int64(2), np.int64(-1))
            if o >= 0:
                bound[p] = weight + o
            else:
                bound[p] = max(bound[p], weight - 1 - o)
                pending[still] = p
                still += 1
            total = min(total + bound[p], INF)
            if total >= beta:
                return total
        if floored and ctx.params[P_HARD] == 0:
            largest_first(pending, still, sizes)
        elif switched_on(ctx, F_SMALLEST_FIRST):
            sort_by_size(pending, still, sizes)
        # pass 3: full searches in one window (the whole budget); at a cut-off root in
        # widening windows (see above), which keep each exact value in bound. Elsewhere
        # bound keeps pass 2's bounds for infer_bounds (exact ones would change what it
        # infers, and so the node counts)
        window = np.int64(1) if floored else np.int64(INF)
        while still > 0:
            kept = np.int64(0)
            for i in range(still):
                p = pending[i]
                c = sizes[p]
                weight = class_share(ctx.params, ctx.cls_w[depth, p], c)
                enter_class(ctx, depth, guess, p)
                total -= bound[p]
                child = part[starts[p] : starts[p] + c]
                top = min(beta - total - weight, bound[p] - weight + window)
                o = search(ctx, depth + 1, child, top, np.int64(0), np.int64(-1))
                value = weight + o
                if o >= top:  # a bound only (at the whole budget: a cut-off)
                    value = max(bound[p], min(weight + o, INF))
                    pending[kept] = p
                    kept += 1
                if floored or o >= top:
                    bound[p] = value
                total = min(total + value, INF)
                if total >= beta:
                    if not floored and switched_on(ctx, F_INFERRED):
                        infer_bounds(ctx, depth, p, o)
                    return total
            still = kept
            window *= 2
        return total
    ctx.stats[S_NODES] += 1
    done, value, key, known = _prologue(ctx, depth, answers, beta, fast)
    if done:
        return value
    allowed = node_allowed(ctx, depth, answers)
    cut, live = endgame_check(ctx, depth, answers, allowed)
    if cut:  # INF is exact: no tree finishes the family in time
        _remember(ctx, depth, answers, key, np.int64(INF), np.int64(INF), np.int64(-1))
        return np.int64(INF)
    if live > 0:  # the family alone, at this node (endgame): its value bounds the node's
        family = ctx.live[depth, :live]
        value = search(ctx, depth, family, beta, np.int64(0), np.int64(-1))
        if value >= beta:
            _remember(ctx, depth, answers, key, value, np.int64(INF), np.int64(-1))
            return value
        known = max(known, value)
        allowed = node_allowed(ctx, depth, answers)  # the family's search rewrote it
    settled, low, count, low_skipped = scan_guesses(ctx, depth, answers, allowed, beta)
    if settled:
        _remember(ctx, depth, answers, key, low, low, ctx.best[depth])
        return low
    low = max(low, known)
    bounded = switched_on(ctx, F_GUESS_BOUND)
    if bounded and low >= beta:
        _remember(ctx, depth, answers, key, low, np.int64(INF), np.int64(-1))
        return low
    keys, lbs = ctx.keys[depth], ctx.lbs[depth]
    best = -1
    top_k = ctx.params[P_TOPK]
    if top_k > 0 and answers.shape[0] > ctx.params[P_EXACT]:  # a policy node: see top_k
        value_best = np.int64(INF)
        for i in range(count):
            g = keys[i] & ID_MASK
            value = search(ctx, depth, answers, np.int64(INF), np.int64(0), g)
            if value < value_best:
                value_best = value
                best = g
            if i + 1 >= top_k and best >= 0:
                break
        _remember(ctx, depth, answers, key, value_best, value_best, np.int64(best))
        ctx.best[depth] = best
        return value_best
    for i in range(count):
        g = keys[i] & ID_MASK
        if bounded and lbs[g] >= beta:
            low_skipped = min(low_skipped, lbs[g])
            continue
        value = search(ctx, depth, answers, beta, np.int64(0), g)
        if value < beta:
            beta = value
            best = g
            if bounded and beta <= low:
                break
        else:
            low_skipped = min(low_skipped, value)
    if best >= 0:
        _remember(ctx, depth, answers, key, beta, beta, best)
        ctx.best[depth] = best
        return beta
    _remember(ctx, depth, answers, key, low_skipped, np.int64(INF), np.int64(-1))
    return low_skipped


@njit(cache=True, nogil=True)
def search_entry(ctx, depth, n, beta, guess) -> int:
    """Search from the node whose answers are in the last row of part (the entry node)."""
    ctx.params[P_ROOT] = depth
    answers = ctx.part[ctx.part.shape[0] - 1, :n]
    if guess >= 0:  # the node itself, whose guess is given
        ctx.stats[S_NODES] += 1
    return search(ctx, depth, answers, np.int64(beta), np.int64(0), np.int64(guess))


@njit(cache=True, nogil=True)
def tree_guess(ctx, depth, n, canonical) -> int:
    """The guess a tree plays at the entry node: an optimal one, -1 if none fits.

    canonical: the lowest optimal word row (only rows below the one the search found need
    a look); otherwise the one the search found (first in its order).
    """
    ctx.params[P_ROOT] = depth
    answers = ctx.part[ctx.part.shape[0] - 1, :n]
    value = search(ctx, depth, answers, np.int64(INF), np.int64(0), np.int64(-1))
    known = ctx.best[depth]
    if value >= INF or not canonical:
        return known if value < INF else -1
    total, _ = node_total(ctx.params, ctx.weights, answers)
    for i in range(ctx.n_allowed[depth]):
        guess = ctx.allowed[depth, i]
        if guess >= known:
            break
        gather_replies(ctx.mt, answers, ctx.allowed[depth, i : i + 1], ctx.replies)
        if weighted(ctx.params):
            k, _, _, lb = weighted_stats(
                ctx.replies[:n], answers, ctx.weights, ctx.cnt, ctx.heaviest,
                ctx.params[P_ALLGREEN], total,
            )  # fmt: skip
        else:
            k, _, hit = class_stats(
                ctx.replies[:n], ctx.cnt, ctx.params[P_ALLGREEN], value + 1 - 2 * n
            )
            lb = guess_bound(n, k, hit)
        if k < 0 or lb > value or (k == 1 and n > 1):
            continue
        if search(ctx, depth, answers, np.int64(value + 1), np.int64(0), np.int64(guess)) <= value:
            return guess
    return known
